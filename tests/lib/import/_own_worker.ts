// A worker of a caller's own that loads lossbook's readers (their modules
// include the scripts of lossbook's own workers), then answers "ping".
const scope = globalThis as unknown as {
  onmessage: ((e: MessageEvent) => void) | null;
  postMessage(message: unknown): void;
};
scope.onmessage = async (e: MessageEvent) => {
  if (e.data === "load") {
    await import("../../../lib/import/lm_eval.ts");
    await import("../../../late_modules.ts");
    scope.postMessage("loaded");
  } else scope.postMessage(e.data === "ping" ? "pong" : "?");
};
