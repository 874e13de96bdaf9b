// Private: the paths of the project's own files, for the analyses that read
// them. A file is read by its absolute path, so an analysis runs from any
// working folder (a notebook's is notebooks/); a claim or a table shows it
// relative to the project, so it reads the same on every machine.

const ROOT = decodeURIComponent(new URL("../", import.meta.url).pathname);

/**
 * The absolute path of a file of the project.
 *
 * @param relative Its path from the project's root, e.g. `data/examples/model_ab.jsonl`.
 * @returns The absolute path.
 */
export function projectPath(relative: string): string {
  return `${ROOT}${relative}`;
}

/**
 * A path as claims and tables show it: relative to the project when inside
 * it, as given otherwise.
 *
 * @param path A path.
 * @returns The path to show.
 */
export function shownPath(path: string): string {
  return path.startsWith(ROOT) ? path.slice(ROOT.length) : path;
}
