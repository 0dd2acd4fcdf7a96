// Builds the single binary dist/ra3 and the Windows cross-compile dist/ra3-windows-x64.exe (about 2.5 s and
// 120 MB; bun takes each target's runtime from its cache or the npm registry). RA3_BUILD_WINDOWS=0 skips
// the Windows build. Every build embeds the short commit and the build date (`ra3 --version`).
// Also the one list of release targets (RELEASE_TARGETS), used by scripts/release-assets.ts and checked
// against .github/workflows/release.yml by a test.
// Usage: bun scripts/build.ts [--if-stale] [--windows]
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";

const root = join(import.meta.dirname, "..");

/** One downloadable binary: its asset name, Bun's cross-compile target and the OS whose runner smoke-tests it. */
export interface ReleaseTarget {
  readonly asset: string;
  readonly bunTarget: string;
  readonly os: "linux" | "windows" | "macos";
}

/**
 * The four release binaries. The x64 ones are Bun's "baseline" builds: they run on x64 CPUs without AVX2
 * (a modder's older PC), where the default x64 runtime stops with an illegal instruction.
 */
export const RELEASE_TARGETS: readonly ReleaseTarget[] = [
  { asset: "ra3-linux-x64", bunTarget: "bun-linux-x64-baseline", os: "linux" },
  { asset: "ra3-windows-x64.exe", bunTarget: "bun-windows-x64-baseline", os: "windows" },
  { asset: "ra3-darwin-arm64", bunTarget: "bun-darwin-arm64", os: "macos" },
  { asset: "ra3-darwin-x64", bunTarget: "bun-darwin-x64-baseline", os: "macos" },
];

/** What `ra3 --version` reports about the build besides the package version. */
export interface BuildInfo {
  /** Short commit hash, `-dirty` appended when tracked files differ from it; "unknown" outside a git checkout. */
  readonly commit: string;
  /** UTC date of the build (`SOURCE_DATE_EPOCH` when set, for reproducible builds), YYYY-MM-DD. */
  readonly date: string;
}

/** The commit and date of a build made now from the checkout at `dir`. */
export function buildInfo(dir: string = root, env: NodeJS.ProcessEnv = process.env): BuildInfo {
  const git = (...args: string[]) => spawnSync("git", args, { cwd: dir, encoding: "utf8" });
  const head = git("rev-parse", "--short=7", "HEAD");
  let commit = "unknown";
  if (head.status === 0 && head.stdout.trim() !== "") {
    const dirty = git("status", "--porcelain", "--untracked-files=no").stdout.trim() !== "";
    commit = head.stdout.trim() + (dirty ? "-dirty" : "");
  }
  const epoch = Number(env.SOURCE_DATE_EPOCH);
  const when = env.SOURCE_DATE_EPOCH && Number.isFinite(epoch) ? new Date(epoch * 1000) : new Date();
  return { commit, date: when.toISOString().slice(0, 10) };
}

const COMMON = [
  "build",
  "--compile",
  "--minify",
  "--bytecode",
  "--format=esm",
  "--no-compile-autoload-dotenv",
  "--no-compile-autoload-bunfig",
];

/**
 * Compiles the binary for `target` (null: the running machine) into `outfile`. Returns null on success,
 * else the reason (bun's exit status; bun has printed why, e.g. a runtime it could not download).
 */
export function compile(target: string | null, outfile: string, info: BuildInfo): string | null {
  const cmd = [
    ...COMMON,
    ...(target ? [`--target=${target}`] : []),
    "--define",
    `RA3_BUILD_COMMIT=${JSON.stringify(info.commit)}`,
    "--define",
    `RA3_BUILD_DATE=${JSON.stringify(info.date)}`,
    "--outfile",
    outfile,
    "src/main.ts",
  ];
  const started = performance.now();
  const r = spawnSync(process.execPath, cmd, { cwd: root, stdio: ["ignore", "inherit", "inherit"] });
  if (r.status !== 0) return `bun ${cmd.join(" ")} exited with status ${r.status ?? r.signal}`;
  console.error(`built ${outfile} in ${Math.round(performance.now() - started)} ms`);
  return null;
}

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const t = statSync(join(entry.parentPath, entry.name)).mtimeMs;
    if (t > newest) newest = t;
  }
  return newest;
}

if (import.meta.main) {
  const args = new Set(process.argv.slice(2));
  mkdirSync(join(root, "dist"), { recursive: true });
  const sourcesNewest = Math.max(newestMtime(join(root, "src")), newestMtime(join(root, "skills")));
  const outputs: [string | null, string][] = [[null, join(root, "dist", "ra3")]];
  if (process.env.RA3_BUILD_WINDOWS !== "0" || args.has("--windows")) {
    const windows = RELEASE_TARGETS.find((t) => t.os === "windows")!;
    outputs.push([windows.bunTarget, join(root, "dist", windows.asset)]);
  }
  const info = buildInfo();
  for (const [target, out] of outputs) {
    if (args.has("--if-stale") && existsSync(out) && statSync(out).mtimeMs > sourcesNewest) {
      console.error(`${out} is up to date`);
      continue;
    }
    const failed = compile(target, out, info);
    if (failed) {
      console.error(`build failed: ${failed}`);
      process.exit(1);
    }
  }
}
