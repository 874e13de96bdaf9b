// Private: lossbook's one CSV reader, over csv-parse. RFC 4180: fields
// separated by commas, a field may be quoted with `"` (a quote inside is
// doubled) and then span lines, records end with LF, CRLF or CR, blank lines
// are skipped, a leading byte-order mark is dropped. Every record reaches
// the caller with the line it starts on, and malformed quoting is refused
// naming its line, in lossbook's words: a quote inside an unquoted field, a
// character after a closing quote, a quoted field never closed (named by the
// line where it opens). Lines are counted as every lossbook reader counts
// them: LF, CRLF and a lone CR are one line break each, inside a quoted
// field too. The caller checks the number of fields, so that the message
// is its own.
//
// csv-parse loads with this module, and this module only where a CSV file
// is read (the run export reader, a CSV severity map).

import { CsvError, type Options, parse as parseAll } from "csv-parse/sync";
import { parse as parseStream } from "csv-parse/stream";
import { InputSyntaxError } from "../input_error.ts";
import { invalidUtf8At, lineOfByte } from "./_utf8.ts";

/** One CSV record: its fields and the line on which it starts (1-based). */
export interface CsvRecord {
  /** The field texts, unquoted. */
  readonly fields: string[];
  /** Line on which the record starts. */
  readonly line: number;
}

/** Called with each record in order; what it throws stops the reading. */
export type CsvVisit = (record: CsvRecord) => void;

/** Bytes from an offset of the input to its end, in chunks. */
export type CsvBytesFrom = (offset: number) => AsyncIterable<Uint8Array>;

const OPTIONS = {
  bom: true,
  // each of them in one file, as a file edited on several systems has them
  record_delimiter: ["\r\n", "\n", "\r"],
  skip_empty_lines: true,
  // a record with the wrong number of fields is the caller's to name
  relax_column_count: true,
} as const satisfies Options;

/** The part of csv-parse's record context that the line count reads. */
interface Context {
  /** csv-parse's line count at the record's end (see {@linkcode Lines}). */
  readonly lines: number;
  /** Blank lines skipped so far. */
  readonly empty_lines: number;
  /** Bytes read up to the end of the record and its line break. */
  readonly bytes: number;
}

/** Line breaks in a text: LF, CRLF and a lone CR count one each. */
function breaks(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10 || (c === 13 && text.charCodeAt(i + 1) !== 10)) n++;
  }
  return n;
}

/**
 * The line each record starts on. csv-parse counts a CRLF inside a quoted
 * field as two lines, so its count only says whether a record spans lines;
 * the breaks of one that does are counted here from its fields.
 */
class Lines {
  /** The line after the last record (blank lines not yet counted). */
  next = 1;
  /** csv-parse's count of the same. */
  #theirs = 1;
  #blank = 0;
  /** The byte after the last record's line break: where a failing record's text begins. */
  offset = 0;

  start(fields: string[], ctx: Context): number {
    const blank = ctx.empty_lines - this.#blank;
    this.#blank = ctx.empty_lines;
    const start = this.next + blank;
    const spans = ctx.lines !== this.#theirs + blank;
    this.next = start + (spans ? breaks(fields.join(",")) : 0) + 1;
    this.#theirs = ctx.lines + 1;
    this.offset = ctx.bytes;
    return start;
  }
}

function options(lines: Lines, visit: CsvVisit): Options {
  return {
    ...OPTIONS,
    on_record: (fields: string[], ctx: Context) => {
      visit({ fields, line: lines.start(fields, ctx) });
      return null; // nothing is collected
    },
  } as Options;
}

/**
 * Read CSV text record by record.
 *
 * @param text The text.
 * @param where Error prefix, e.g. `Cannot load run export a.csv`.
 * @param visit Called with each record.
 * @throws {InputSyntaxError} On malformed quoting, naming the line; and what `visit` throws.
 */
export function readCsvText(
  text: string,
  where: string,
  visit: CsvVisit,
): void {
  const bytes = new TextEncoder().encode(text);
  const lines = new Lines();
  try {
    parseAll(bytes, options(lines, visit));
  } catch (error) {
    if (!(error instanceof CsvError)) throw error;
    const at = lines.offset;
    const raw = rawUpTo(bytes.subarray(at), at === 0);
    throw malformed(
      error,
      where,
      lines.next,
      raw,
      () => textFrom([bytes.subarray(at)], at),
    );
  }
}

/**
 * Read CSV bytes record by record as they arrive, refusing text that is not
 * UTF-8 (naming its line and byte). Memory is one chunk and one record.
 *
 * @param from The input's bytes from an offset (read again from the start
 * of a malformed record, to say where it goes wrong).
 * @param where Error prefix, e.g. `Cannot load run export a.csv`.
 * @param visit Called with each record.
 * @throws {InputSyntaxError} On invalid UTF-8 or malformed quoting, naming the line; and what `visit` throws.
 */
export async function readCsvBytes(
  from: CsvBytesFrom,
  where: string,
  visit: CsvVisit,
): Promise<void> {
  const lines = new Lines();
  try {
    await ReadableStream.from(strictUtf8(from(0), where))
      .pipeThrough(parseStream(options(lines, visit)))
      .pipeTo(new WritableStream());
  } catch (error) {
    if (!(error instanceof CsvError)) throw error;
    const at = lines.offset;
    const chunks: Uint8Array[] = [];
    const raw = await rawUpToStream(from(at), at === 0, chunks);
    throw malformed(error, where, lines.next, raw, () => textFrom(chunks, at));
  }
}

/**
 * A file's CSV records; see {@linkcode readCsvBytes}.
 *
 * @param path The file.
 * @param where Error prefix.
 * @param visit Called with each record.
 * @param chunkSize Bytes read at a time.
 */
export function readCsvFile(
  path: string,
  where: string,
  visit: CsvVisit,
  chunkSize = 1 << 20,
): Promise<void> {
  return readCsvBytes((at) => fileChunks(path, at, chunkSize), where, visit);
}

async function* fileChunks(
  path: string,
  offset: number,
  size: number,
): AsyncGenerator<Uint8Array> {
  using file = await Deno.open(path);
  if (offset > 0) await file.seek(offset, Deno.SeekMode.Start);
  while (true) {
    // a new buffer each time: the parser may keep the end of one
    const buffer = new Uint8Array(size);
    const n = await file.read(buffer);
    if (n === null) return;
    yield buffer.subarray(0, n);
  }
}

/** The chunks, refused at the first byte that is not UTF-8. */
async function* strictUtf8(
  chunks: AsyncIterable<Uint8Array>,
  where: string,
): AsyncGenerator<Uint8Array> {
  const decoder = new TextDecoder("utf-8", { fatal: true });
  let offset = 0;
  let lines = 1;
  const check = (bytes?: Uint8Array) => {
    try {
      if (bytes === undefined) decoder.decode();
      else decoder.decode(bytes, { stream: true });
    } catch (error) {
      // name the first bad byte of this chunk and its line; a sequence cut
      // by the chunk's start is named at the chunk's start
      const at = bytes === undefined ? -1 : invalidUtf8At(bytes, false);
      const byte = at >= 0 ? offset + at : offset;
      const line = at >= 0 ? lines + lineOfByte(bytes!, at) - 1 : lines;
      throw new InputSyntaxError(
        `${where}: line ${line}: not valid UTF-8 at byte ${byte}`,
        { cause: error },
      );
    }
  };
  for await (const chunk of chunks) {
    check(chunk);
    yield chunk;
    for (let i = 0; i < chunk.length; i++) if (chunk[i] === 0x0a) lines++;
    offset += chunk.length;
  }
  check();
}

/**
 * The text of bytes read from `offset`, without the byte-order mark that
 * csv-parse drops at the start of the input (as the raw text it gives).
 */
function textFrom(chunks: readonly Uint8Array[], offset: number): string {
  const decoder = new TextDecoder();
  const text = chunks.map((c) => decoder.decode(c, { stream: true })).join("") +
    decoder.decode();
  return offset === 0 && text.startsWith("\uFEFF") ? text.slice(1) : text;
}

/**
 * The options that read a malformed record again: its raw text kept, so
 * that the error's context holds the text from the record's start (blank
 * lines before it included) up to where it goes wrong.
 */
function rawOptions(bom: boolean): Options {
  return { ...OPTIONS, bom, raw: true, on_record: () => null } as Options;
}

function rawOf(error: unknown): string | null {
  return error instanceof CsvError && typeof error.raw === "string"
    ? error.raw
    : null;
}

function rawUpTo(bytes: Uint8Array, bom: boolean): string | null {
  try {
    parseAll(bytes, rawOptions(bom));
  } catch (error) {
    return rawOf(error);
  }
  return null;
}

async function rawUpToStream(
  chunks: AsyncIterable<Uint8Array>,
  bom: boolean,
  kept: Uint8Array[],
): Promise<string | null> {
  async function* keep() {
    for await (const c of chunks) {
      kept.push(c);
      yield c;
    }
  }
  try {
    await ReadableStream.from(keep()).pipeThrough(parseStream(rawOptions(bom)))
      .pipeTo(new WritableStream());
  } catch (error) {
    return rawOf(error);
  }
  return null;
}

/**
 * The error for malformed quoting, in lossbook's words.
 *
 * @param error csv-parse's error.
 * @param where Error prefix.
 * @param line The line the malformed record's text starts on.
 * @param raw That text up to where it goes wrong (the quote csv-parse
 * stopped at; for a field never closed, the whole rest).
 * @param text That text and what follows, for the character after a closing quote.
 */
function malformed(
  error: CsvError,
  where: string,
  line: number,
  raw: string | null,
  text: () => string,
): InputSyntaxError {
  const fail = (at: number, message: string) =>
    new InputSyntaxError(`${where}: line ${at}: ${message}`, { cause: error });
  if (raw === null) return fail(line, error.message);
  switch (error.code) {
    case "INVALID_OPENING_QUOTE":
      return fail(
        line + breaks(raw),
        "unexpected quote inside an unquoted field",
      );
    case "CSV_INVALID_CLOSING_QUOTE":
      return fail(
        line + breaks(raw),
        `unexpected ${
          JSON.stringify(text()[raw.length])
        } after a closing quote`,
      );
    case "CSV_QUOTE_NOT_CLOSED": {
      // the open field runs to the end: closed there, its text says where
      // its opening quote is
      let open = "";
      try {
        const records = parseAll(`${raw}"`, { ...OPTIONS, bom: false });
        open = (records as string[][]).at(-1)?.at(-1) ?? "";
      } catch {
        // not closed by one quote either: named at the record's text
      }
      const quoted = 1 + open.length + open.split('"').length - 1;
      return fail(
        line + breaks(raw.slice(0, Math.max(0, raw.length - quoted))),
        "unterminated quoted field",
      );
    }
    default:
      return fail(line, error.message);
  }
}

/** Where a record starts: its first byte and the line it is on (1-based). */
export interface CsvRecordStart {
  /** Offset of the record's first byte in the file. */
  readonly byte: number;
  /** Line on which the record starts. */
  readonly line: number;
}

/**
 * Where chosen records of a file start, from one pass over its bytes up to
 * the last of them, without parsing any field: a record starts at the first
 * byte of a line that is not blank and not inside a quoted field, and a
 * quote opens or closes a quoted field (a doubled quote inside one closes
 * and opens it again). Lines are counted as the reader counts them (LF,
 * CRLF and a lone CR are one break each, inside quotes too), and blank
 * lines are skipped as the reader skips them, as is a leading byte-order
 * mark, so for a file the reader accepts, record `k` here is the reader's
 * `k`th record (0 is the header). Memory is one chunk.
 *
 * @param path The file.
 * @param indices Record numbers, ascending, each once.
 * @param chunkSize Bytes read at a time.
 * @returns The start of each record, in the order of `indices`; shorter
 * when the file ends before the last of them.
 */
export async function csvRecordStarts(
  path: string,
  indices: readonly number[],
  chunkSize = 1 << 20,
): Promise<CsvRecordStart[]> {
  const out: CsvRecordStart[] = [];
  if (indices.length === 0) return out;
  using file = await Deno.open(path);
  // a byte-order mark, which the reader drops, is no part of a record
  const head = new Uint8Array(3);
  let got = 0;
  for (let n; got < 3 && (n = await file.read(head.subarray(got))) !== null;) {
    got += n;
  }
  const bom = got === 3 && head[0] === 0xef && head[1] === 0xbb &&
    head[2] === 0xbf;
  let offset = bom ? 3 : 0;
  await file.seek(offset, Deno.SeekMode.Start);
  const buffer = new Uint8Array(chunkSize);
  let breaks = 0;
  let record = 0;
  let next = indices[0];
  let quoted = false;
  let lineStart = true; // no byte of a record on this line yet
  let cr = false; // the byte before was a CR (a following LF is the same break)
  // a record starts at this byte; whether it is the last one sought
  const starts = (byte: number): boolean => {
    lineStart = false;
    if (record++ === next) {
      out.push({ byte, line: breaks + 1 });
      if (out.length === indices.length) return true;
      next = indices[out.length];
    }
    return false;
  };
  while (true) {
    const n = await file.read(buffer);
    if (n === null) return out;
    const chunk = buffer.subarray(0, n);
    if (
      !quoted && !cr && chunk.indexOf(0x22) < 0 && chunk.indexOf(0x0d) < 0
    ) {
      // no quote and no CR: a line is a record unless blank, and the
      // line breaks are found by the engine's own search
      for (let i = 0; i < n;) {
        const lf = chunk.indexOf(0x0a, i);
        if (lineStart && (lf < 0 ? n : lf) > i && starts(offset + i)) {
          return out;
        }
        if (lf < 0) break;
        breaks++;
        lineStart = true;
        i = lf + 1;
      }
      offset += n;
      continue;
    }
    for (let i = 0; i < n; i++) {
      const b = buffer[i];
      if (b === 0x0a || b === 0x0d) {
        if (b === 0x0d || !cr) breaks++;
        cr = b === 0x0d;
        if (!quoted) lineStart = true;
        continue;
      }
      cr = false;
      if (lineStart && starts(offset + i)) return out;
      if (b === 0x22) quoted = !quoted;
    }
    offset += n;
  }
}

/**
 * The one record that starts at `start` (see {@linkcode csvRecordStarts}),
 * read from there as {@linkcode readCsvFile} reads every record.
 *
 * @param path The file.
 * @param where Error prefix.
 * @param start Where the record starts.
 * @returns The record, with the line it starts on; `null` when no record
 * can be read there (the bytes from there are not CSV the reader accepts).
 */
export async function readCsvRecordAt(
  path: string,
  where: string,
  start: CsvRecordStart,
): Promise<CsvRecord | null> {
  let found: CsvRecord | null = null;
  const stop = new Error("record read"); // stops the reading there
  try {
    await readCsvBytes(
      (at) => fileChunks(path, start.byte + at, 1 << 16),
      where,
      (r) => {
        found = { fields: r.fields, line: start.line };
        throw stop;
      },
    );
  } catch (error) {
    if (error !== stop) return null;
  }
  return found;
}
