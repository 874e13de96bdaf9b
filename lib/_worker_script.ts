// Private: how a lossbook worker script listens and answers. A script is
// part of the package's module graph (late_modules.ts), so a program may
// import it outside a worker, or inside a worker of its own: it listens only
// in a worker that lossbook started under the script's name, and installs
// nothing anywhere else. Imports nothing, so that a worker loads no more
// than its own script needs.

// The worker's global scope, typed here: a published module may not change
// the global types of those who import it (a `deno.worker` lib directive).
const scope = globalThis as unknown as {
  name?: string;
  onmessage: ((e: MessageEvent) => void) | null;
  postMessage(message: unknown, options?: StructuredSerializeOptions): void;
};

/**
 * Handle messages with `onMessage`, when this is the worker lossbook
 * started as `name` (`new Worker(url, { name })`); do nothing otherwise.
 */
export function listenAs(
  name: string,
  onMessage: (e: MessageEvent) => void,
): void {
  if ("WorkerGlobalScope" in globalThis && scope.name === name) {
    scope.onmessage = onMessage;
  }
}

/** Send a message to the thread that started this worker. */
export function postToParent(
  message: unknown,
  options?: StructuredSerializeOptions,
): void {
  scope.postMessage(message, options);
}
