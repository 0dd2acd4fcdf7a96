// Builds the single binary dist/ra3 and the Windows cross-compile dist/ra3-windows-x64.exe (baseline x64
// CPU target; about 2.5 s and 120 MB; bun takes the Windows runtime from its cache or the npm registry).
// RA3_BUILD_WINDOWS=0 skips the Windows build. Usage: bun scripts/build.ts [--if-stale]
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";

const root = join(import.meta.dirname, "..");
const args = new Set(process.argv.slice(2));
const common = [
  "build",
  "--compile",
  "--minify",
  "--bytecode",
  "--format=esm",
  "--no-compile-autoload-dotenv",
  "--no-compile-autoload-bunfig",
];

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const t = statSync(join(entry.parentPath, entry.name)).mtimeMs;
    if (t > newest) newest = t;
  }
  return newest;
}

function build(target: string | null, outfile: string): void {
  // The parse worker is a second entry point: workers are embedded by their path under src/.
  const cmd = [
    ...common,
    ...(target ? [`--target=${target}`] : []),
    "--outfile",
    outfile,
    "src/main.ts",
    "src/workspace/parse-worker.ts",
  ];
  const started = performance.now();
  const r = spawnSync(process.execPath, cmd, { cwd: root, stdio: ["ignore", "inherit", "inherit"] });
  if (r.status !== 0) {
    console.error(`build failed: bun ${cmd.join(" ")}`);
    process.exit(r.status ?? 1);
  }
  console.error(`built ${outfile} in ${Math.round(performance.now() - started)} ms`);
}

mkdirSync(join(root, "dist"), { recursive: true });
const sourcesNewest = Math.max(newestMtime(join(root, "src")), newestMtime(join(root, "skills")));
const outputs: [string | null, string][] = [[null, join(root, "dist", "ra3")]];
if (process.env.RA3_BUILD_WINDOWS !== "0" || args.has("--windows")) {
  outputs.push(["bun-windows-x64-baseline", join(root, "dist", "ra3-windows-x64.exe")]);
}
for (const [target, out] of outputs) {
  if (args.has("--if-stale") && existsSync(out) && statSync(out).mtimeMs > sourcesNewest) {
    console.error(`${out} is up to date`);
  } else build(target, out);
}
