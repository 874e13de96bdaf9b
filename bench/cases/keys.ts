// The duplicate-key check of the streaming JSONL reader on N distinct
// synthetic keys (no duplicate, so `same` is never needed; the worker counts
// its calls), each run in a worker of its own so its peak RSS is the
// check's: DecisionKeySet with its default memoryKeys (1 << 20; keys past
// that go to partition files that firstDuplicate() searches) against
// memoryKeys = Infinity (all in memory). keys-runtime (N = 0) is the
// worker's own RSS, to subtract. Keys: a counter i mixed by two different
// 32-bit finalisers; line offsets i * 300, as a file of 300-byte lines gives.
import {
  type CaseInfo,
  type Children,
  type Group,
  roundsOf,
  rowsOf,
  worker,
} from "../_case.ts";
import { scratch } from "../_cache.ts";
import { maxOrNull, type Result, resultOf, rssSource } from "../_measure.ts";

const LINE_BYTES = 300;

/** MurmurHash3's 32-bit finaliser of i. */
function fmixA(i: number): number {
  let h = i ^ 0x5bd1e995;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h | 0;
}

/** A different finaliser (lowbias32, by Chris Wellons) of i. */
function fmixB(i: number): number {
  let h = i ^ 0x27d4eb2f;
  h ^= h >>> 16;
  h = Math.imul(h, 0x7feb352d);
  h ^= h >>> 15;
  h = Math.imul(h, 0x846ca68b);
  h ^= h >>> 16;
  return h | 0;
}

function bytesUnder(dir: string): number {
  let sum = 0;
  for (const e of Deno.readDirSync(dir)) {
    const p = `${dir}/${e.name}`;
    sum += e.isDirectory ? bytesUnder(p) : Deno.statSync(p).size;
  }
  return sum;
}

type Mode = "spill" | "unlimited" | "baseline";

interface KeysOut {
  addSeconds: number;
  searchSeconds: number;
  spillBytes: number;
  sameCalls: number;
  duplicate: boolean;
}

/** Functions the keys group runs in a worker. */
export const children: Children = {
  async keys(args: { mode: Mode; n: number; dir: string }): Promise<KeysOut> {
    const { DecisionKeySet } = await import("../../lib/read/_key_spill.ts");
    let sameCalls = 0;
    const same = () => {
      sameCalls++;
      return false;
    };
    let duplicate = false;
    let spillBytes = 0;
    const t0 = performance.now();
    let t1 = t0;
    if (args.mode !== "baseline") {
      using set = new DecisionKeySet({
        memoryKeys: args.mode === "unlimited" ? Infinity : undefined,
        tempDir: args.dir,
      });
      for (let i = 0; i < args.n; i++) {
        if (set.add(fmixA(i), fmixB(i), i * LINE_BYTES, same) >= 0) {
          duplicate = true;
        }
      }
      t1 = performance.now();
      if (await set.firstDuplicate(Infinity, same) !== null) duplicate = true;
      spillBytes = bytesUnder(args.dir);
    }
    const t2 = performance.now();
    const left = [...Deno.readDirSync(args.dir)].length;
    if (left !== 0) {
      throw new Error(`${left} spill entries left in ${args.dir}`);
    }
    return {
      addSeconds: (t1 - t0) / 1000,
      searchSeconds: (t2 - t1) / 1000,
      spillBytes,
      sameCalls,
      duplicate,
    };
  },
};

const CASES: CaseInfo[] = [
  {
    name: "keys-spill-2m",
    what: "DecisionKeySet, default memoryKeys (spills), add + search",
    rows: 2_000_000,
    peers: ["keys-memory-2m"],
  },
  {
    name: "keys-memory-2m",
    what: "DecisionKeySet, memoryKeys = Infinity, add + search",
    rows: 2_000_000,
  },
  {
    name: "keys-spill-10m",
    what: "DecisionKeySet, default memoryKeys (spills), add + search",
    rows: 10_000_000,
    peers: ["keys-memory-10m"],
  },
  {
    name: "keys-memory-10m",
    what: "DecisionKeySet, memoryKeys = Infinity, add + search",
    rows: 10_000_000,
  },
  {
    name: "keys-runtime",
    what: "the worker alone (N = 0): the runtime's own peak RSS",
  },
];

/** The duplicate-key check, spilled against all in memory. */
export const keys: Group = {
  name: "keys",
  cases: CASES,
  rounds: 1,
  async run(ctx, selected) {
    const infos = CASES.filter((c) => selected.has(c.name));
    const largest = Math.max(...infos.map((c) => rowsOf(ctx, c)));
    const space = await scratch(ctx.cacheDir, 16 * largest, "keys");
    try {
      const rounds = roundsOf(ctx, keys);
      const runs = new Map(
        infos.map((c) => [c.name, [] as (KeysOut & { rss: number | null })[]]),
      );
      // interleaved, per size: spill, memory, spill, memory, ...
      for (let r = 0; r < rounds; r++) {
        for (const c of infos) {
          const mode: Mode = c.name.startsWith("keys-spill")
            ? "spill"
            : c.name.startsWith("keys-memory")
            ? "unlimited"
            : "baseline";
          const n = mode === "baseline" ? 0 : rowsOf(ctx, c);
          ctx.log(`${c.name}, round ${r + 1} of ${rounds}`);
          const { value, run } = await worker<KeysOut>(ctx, "keys", "keys", {
            mode,
            n,
            dir: space.dir,
          });
          if (value.duplicate) throw new Error(`${c.name}: a false duplicate`);
          runs.get(c.name)!.push({ ...value, rss: run.peakRssBytes });
        }
      }
      const source = await rssSource();
      return infos.map((c): Result => {
        const taken = runs.get(c.name)!;
        return resultOf({
          name: c.name,
          what: c.what,
          timing: "in-process",
          rows: c.rows === undefined ? undefined : rowsOf(ctx, c),
          peakRssBytes: maxOrNull(taken.map((t) => t.rss)),
          rssSource: `${source} (the worker process)`,
          peers: c.peers?.filter((p) => selected.has(p)),
          extra: {
            addSeconds: taken.map((t) => t.addSeconds),
            searchSeconds: taken.map((t) => t.searchSeconds),
            spillBytes: Math.max(...taken.map((t) => t.spillBytes)),
            sameCalls: Math.max(...taken.map((t) => t.sameCalls)),
          },
        }, taken.map((t) => t.addSeconds + t.searchSeconds));
      });
    } finally {
      await space.remove();
    }
  },
};
