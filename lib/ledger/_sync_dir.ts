// Private: fsync a directory, so that a file created, renamed or removed in
// it survives a power loss, not only its content.

/** Sync the directory `dir`; a file system that cannot sync directories is skipped. */
export async function syncDir(dir: string): Promise<void> {
  let d: Deno.FsFile;
  try {
    d = await Deno.open(dir, { read: true });
  } catch (error) {
    // Windows cannot open a directory as a file; nothing more can be done
    if (error instanceof Deno.errors.PermissionDenied) return;
    throw error;
  }
  try {
    await d.sync();
  } catch (error) {
    if (!(error instanceof Deno.errors.NotSupported)) throw error;
  } finally {
    d.close();
  }
}
