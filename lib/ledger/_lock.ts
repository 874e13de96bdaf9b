// Private: the single-writer lock of a ledger, a lock file created with
// O_CREAT|O_EXCL next to it. A second writer, in this process or another,
// fails at once with a message naming the holder; a lock left by a crashed
// writer is removed by hand, after checking that no writer is running.

/** Path of a ledger's lock file. */
export function lockFilePath(path: string): string {
  return `${path}.lock`;
}

/** Take the lock for `purpose`; resolve to a function that releases it. */
export async function acquireLock(
  path: string,
  purpose: string,
): Promise<() => Promise<void>> {
  const lock = lockFilePath(path);
  const holder = JSON.stringify({
    pid: Deno.pid,
    purpose,
    since: new Date().toISOString(),
  });
  try {
    await Deno.writeTextFile(lock, holder + "\n", { createNew: true });
  } catch (error) {
    if (!(error instanceof Deno.errors.AlreadyExists)) throw error;
    let held = "";
    try {
      held = (await Deno.readTextFile(lock)).trim();
    } catch {
      // the holder released it in between; report it as held all the same
    }
    throw new Deno.errors.AlreadyExists(
      `Cannot ${purpose} ledger ${path}: another writer holds its lock ${lock}${
        held === "" ? "" : ` (${held})`
      }; wait for it to finish, or remove the lock file if no writer is running`,
    );
  }
  let released = false;
  return async () => {
    if (released) return;
    released = true;
    await Deno.remove(lock).catch((error) => {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
    });
  };
}
