// Private to the importers and the harness flags: the caps on inflating one
// zip entry, apart from the zip reader so that naming their defaults (in
// --help) does not load the decompressors.

/** Default of `maxEntryBytes`: the largest entry inflated, 256 MiB. */
export const DEFAULT_MAX_ENTRY_BYTES = 256 * 1024 * 1024;

/** Default of `maxEntryRatio`: the largest uncompressed-to-compressed size ratio of an entry. */
export const DEFAULT_MAX_ENTRY_RATIO = 200;

/**
 * Entries up to this many uncompressed bytes are not held to the ratio:
 * a small, repetitive JSON entry can compress far better than 200 to 1
 * while costing no memory worth guarding.
 */
export const RATIO_FREE_BYTES = 1024 * 1024;

/** Caps on the decompression of one entry. */
export interface ZipCaps {
  /** Largest uncompressed size of an entry, in bytes. Default {@linkcode DEFAULT_MAX_ENTRY_BYTES}. */
  readonly maxEntryBytes?: number;
  /** Largest uncompressed-to-compressed ratio past {@linkcode RATIO_FREE_BYTES}. Default {@linkcode DEFAULT_MAX_ENTRY_RATIO}. */
  readonly maxEntryRatio?: number;
}
