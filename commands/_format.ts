// Private to the CLI: the number formatter now lives in lib/format/numbers.ts,
// shared with the report and the notebook display; the CLI keeps importing
// it from here.
export {
  formatLevel,
  formatQuantity,
  formatRateMethod,
  formatRule,
} from "../lib/format/numbers.ts";
