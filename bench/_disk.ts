// Private to the benchmarks: free disk space, checked before a benchmark
// writes its data, so that a full disk stops it with a message instead of
// midway through (or with a truncated file).

/**
 * Bytes available to an unprivileged user in the file system holding `dir`,
 * as `df -Pk` reports them.
 *
 * @param dir An existing directory.
 * @returns Free bytes.
 */
export async function freeBytes(dir: string): Promise<number> {
  const out = await new Deno.Command("df", { args: ["-Pk", dir] }).output();
  if (!out.success) {
    throw new Error(
      `df -Pk ${dir}: ${new TextDecoder().decode(out.stderr).trim()}`,
    );
  }
  const line = new TextDecoder().decode(out.stdout).trim().split("\n").at(-1)!;
  const kb = Number(line.split(/\s+/)[3]);
  if (!Number.isFinite(kb)) {
    throw new Error(`df -Pk ${dir}: cannot read ${line}`);
  }
  return kb * 1024;
}

/**
 * Stop unless `dir` has 1.5 times `bytes` free.
 *
 * @param dir An existing directory the benchmark will write to.
 * @param bytes What it expects to write there at most.
 * @param what The benchmark part, for the message.
 * @returns The free bytes, for the benchmark's log.
 */
export async function needDisk(
  dir: string,
  bytes: number,
  what: string,
): Promise<number> {
  const free = await freeBytes(dir);
  if (free < bytes * 1.5) {
    throw new Error(
      `${what}: needs ${(bytes / 1e9).toFixed(1)} GB (x1.5) in ${dir}, ${
        (free / 1e9).toFixed(1)
      } GB free`,
    );
  }
  return free;
}
