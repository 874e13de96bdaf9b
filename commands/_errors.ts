// Private, shared by the library functions (api/) and the commands: the errors a command raises for the CLI to map to an
// exit code. Their own module, importing nothing, so that the CLI can load
// them (and start reading a large run ahead) before any command's modules.

/** Raised for bad usage; the CLI maps it to exit code 2. */
export class UsageError extends Error {}

/** Raised when a check fails (a claim, a verification); the CLI maps it to exit code 1. */
export class CheckFailed extends Error {}
