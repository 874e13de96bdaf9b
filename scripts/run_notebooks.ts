// Execute every notebook on the real Deno Jupyter kernel with nbconvert and
// fail when a cell fails. Executed copies go to out/notebooks/ (the sources
// stay as committed). Prints one line per notebook with its time, then
// "N passed, N failed".
// Usage: deno task notebooks [NAME.ipynb ...]

const root = new URL("../", import.meta.url).pathname;
const outDir = `${root}out/notebooks`;
await Deno.mkdir(outDir, { recursive: true });

const names = Deno.args.length > 0
  ? Deno.args
  : [...Deno.readDirSync(`${root}notebooks`)]
    .map((e) => e.name)
    .filter((n) => n.endsWith(".ipynb") && !n.startsWith("_"))
    .sort();

let passed = 0;
let failed = 0;
for (const name of names) {
  const started = performance.now();
  const out = await new Deno.Command("jupyter", {
    args: [
      "nbconvert",
      "--to",
      "notebook",
      "--execute",
      "--ExecutePreprocessor.timeout=300",
      "--ExecutePreprocessor.kernel_name=deno",
      "--output-dir",
      outDir,
      `${root}notebooks/${name}`,
    ],
    stdout: "piped",
    stderr: "piped",
  }).output();
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  if (out.success) {
    passed++;
    console.log(`ok   notebooks/${name} (${seconds} s)`);
  } else {
    failed++;
    const err = new TextDecoder().decode(out.stderr).split("\n")
      .filter((l) =>
        !/Debugger|frozen_modules|PYDEVD|debugger miss|unstable/.test(l)
      )
      .slice(-25).join("\n");
    console.log(`FAIL notebooks/${name} (${seconds} s)\n${err}`);
  }
}
console.log(`notebooks: ${passed} passed, ${failed} failed`);
Deno.exit(failed === 0 ? 0 : 1);
