// Smoke checks of one compiled binary, run the way a user runs it, printed as a table: --version, the
// sample mod's index counts against the source's, MCP over stdin from a file, and `setup --dry-run`
// writing nothing. .ci/run runs it on dist/ra3, the hosted workflows on each release binary on its own OS, and
// scripts/windows-smoke.ts reuses the checks for the Windows build under Wine.
// Usage: bun scripts/smoke.ts --binary PATH
import { spawnSync } from "node:child_process";
import { closeSync, mkdtempSync, openSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { memoryIo } from "../src/cli/io.ts";
import { run } from "../src/cli/run.ts";
import { TOOL_NAMES } from "../src/skill/tool-names.ts";
import { TOOL_VERSION } from "../src/version.ts";

export const ROOT = join(import.meta.dirname, "..");
export const SAMPLE = join(ROOT, "examples", "sample-mod");

/** How to start the binary under test, and how it sees a path of this machine. */
export interface Launcher {
  readonly name: string;
  command(args: readonly string[]): { readonly file: string; readonly args: string[] };
  /** A path of this machine as the binary sees it (`Z:\…` under Wine). */
  path(hostPath: string): string;
  readonly env: NodeJS.ProcessEnv;
  /** The user's home folder the binary sees (as a path of this machine), and the variables that make it so. */
  readonly user: { readonly home: string; readonly env: NodeJS.ProcessEnv };
}

/** Runs the binary directly. */
export function nativeLauncher(binary: string): Launcher {
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env.RA3_SDK;
  delete env.RA3_HOME;
  const home = mkdtempSync(join(tmpdir(), "ra3-smoke-user-"));
  process.on("exit", () => rmSync(home, { recursive: true, force: true }));
  const user = {
    home,
    env: {
      HOME: home,
      USERPROFILE: home,
      APPDATA: join(home, "AppData", "Roaming"),
      XDG_CONFIG_HOME: join(home, ".config"),
    },
  };
  return { name: binary, command: (args) => ({ file: resolve(binary), args: [...args] }), path: (p) => p, env, user };
}

/**
 * Every file and folder below `dir`, sorted (to see whether a command wrote anything). Links are listed,
 * not followed: a Wine user's Desktop and Documents are links into the Linux home.
 */
export function treeOf(dir: string): string[] {
  const out: string[] = [];
  const walk = (rel: string) => {
    let entries;
    try {
      entries = readdirSync(join(dir, rel), { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const p = rel ? `${rel}/${e.name}` : e.name;
      out.push(p);
      if (e.isDirectory()) walk(p);
    }
  };
  walk("");
  return out.sort();
}

/** One row of the table. */
export interface CheckRow {
  readonly check: string;
  readonly ok: boolean;
  readonly detail: string;
  readonly ms: number;
}

/** What a run of the binary gave. */
export interface Ran {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs the binary with `args`; stdin is a file's content (`input`), or nothing. Times out after 120 s. */
export function runBinary(
  l: Launcher,
  args: readonly string[],
  options: { input?: string; cwd?: string; env?: NodeJS.ProcessEnv } = {},
): Ran {
  const { file, args: argv } = l.command(args);
  let fd: number | null = null;
  let inputDir: string | null = null;
  if (options.input !== undefined) {
    inputDir = mkdtempSync(join(tmpdir(), "ra3-smoke-in-"));
    const f = join(inputDir, "stdin.jsonl");
    writeFileSync(f, options.input);
    fd = openSync(f, "r");
  }
  try {
    const r = spawnSync(file, argv, {
      cwd: options.cwd ?? tmpdir(),
      env: { ...l.env, ...options.env },
      encoding: "utf8",
      timeout: 120_000,
      maxBuffer: 64 * 1024 * 1024,
      stdio: [fd ?? "ignore", "pipe", "pipe"],
    });
    return { status: r.status, stdout: r.stdout ?? "", stderr: (r.stderr ?? "") + (r.error ? String(r.error) : "") };
  } finally {
    if (fd !== null) closeSync(fd);
    if (inputDir !== null) rmSync(inputDir, { recursive: true, force: true });
  }
}

/** Runs `fn` as one check; an exception is a failed check with its message. */
export function check(name: string, fn: () => { ok: boolean; detail: string }): CheckRow {
  const started = performance.now();
  let r: { ok: boolean; detail: string };
  try {
    r = fn();
  } catch (e) {
    r = { ok: false, detail: (e as Error).message.split("\n")[0] };
  }
  return { check: name, ok: r.ok, detail: r.detail, ms: performance.now() - started };
}

/** The `index.counts` of a `--json` envelope as one comparable line. */
export function countsOf(json: string): string {
  const env = JSON.parse(json);
  if (env.index?.state !== "ready") throw new Error(`index state ${env.index?.state}, not ready`);
  const c = env.index.counts;
  return `files ${c.files}, assets ${c.assets}, sdkAssets ${c.sdkAssets}, references ${c.references}, defines ${c.defines}, diagnostics ${c.diagnostics}`;
}

/** The source's (this checkout's) index counts of a project, run in process: the reference for binaries. */
export async function sourceCounts(args: readonly string[]): Promise<string> {
  const home = mkdtempSync(join(tmpdir(), "ra3-smoke-src-"));
  const io = memoryIo(tmpdir(), {});
  const code = await run(["index", "--json", "--no-progress", "--home", home, ...args], io);
  rmSync(home, { recursive: true, force: true });
  if (code !== 0) throw new Error(`source index failed: ${io.stderr}`);
  return countsOf(io.stdout);
}

/** initialize, initialized, tools/list, get_status: the JSON-RPC lines of a short MCP session. */
export const MCP_SESSION = [
  {
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "ra3-smoke", version: "1" } },
  },
  { jsonrpc: "2.0", method: "notifications/initialized" },
  { jsonrpc: "2.0", id: 2, method: "tools/list" },
  { jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "get_status", arguments: {} } },
].map((m) => JSON.stringify(m)).join("\n") + "\n";

/** Checks the answers of {@link MCP_SESSION}: server name and version, the 15 tools, a status answer. */
export function mcpAnswers(r: Ran): { ok: boolean; detail: string } {
  const msgs = r.stdout.split("\n").filter(Boolean).map((l) => JSON.parse(l));
  const byId = new Map(msgs.map((m) => [m.id, m]));
  const info = byId.get(1)?.result?.serverInfo;
  const tools: string[] = (byId.get(2)?.result?.tools ?? []).map((t: { name: string }) => t.name);
  const state = byId.get(3)?.result?.structuredContent?.index?.state;
  const ok = r.status === 0 && info?.name === "ra3" && info?.version === TOOL_VERSION &&
    JSON.stringify(tools) === JSON.stringify(TOOL_NAMES) && typeof state === "string";
  return {
    ok,
    detail: ok
      ? `initialize → tools/list (${tools.length} tools) → get_status (${state}), exit 0`
      : `exit ${r.status}; ${msgs.length} answers; ${r.stderr.trim().split("\n").slice(-2).join(" / ")}`,
  };
}

/** The checks every binary must pass on its own OS. */
export async function basicChecks(l: Launcher): Promise<CheckRow[]> {
  const rows: CheckRow[] = [];
  const home = mkdtempSync(join(tmpdir(), "ra3-smoke-home-"));
  rows.push(check("--version", () => {
    const r = runBinary(l, ["--version"]);
    const line = r.stdout.trim();
    const re = new RegExp(
      `^ra3 ${TOOL_VERSION.replace(/\./g, "\\.")} \\([0-9a-f]{7}(-dirty)?, built \\d{4}-\\d\\d-\\d\\d\\)$`,
    );
    return { ok: r.status === 0 && re.test(line), detail: line || r.stderr.trim() };
  }));
  const expected = await sourceCounts(["--project", SAMPLE, "--sdk", ""]);
  rows.push(check("index sample mod = source", () => {
    const r = runBinary(l, [
      "index",
      "--json",
      "--no-progress",
      "--sdk",
      "",
      "--project",
      l.path(SAMPLE),
      "--home",
      l.path(home),
    ]);
    const got = countsOf(r.stdout);
    return { ok: got === expected, detail: got === expected ? got : `${got} ≠ source ${expected}` };
  }));
  rows.push(check("mcp, stdin from a file", () => {
    const r = runBinary(l, ["mcp", "--project", l.path(SAMPLE), "--sdk", "", "--home", l.path(home)], {
      input: MCP_SESSION,
    });
    return mcpAnswers(r);
  }));
  rows.push(check("setup --dry-run writes nothing", () => {
    const before = treeOf(l.user.home);
    const r = runBinary(l, ["setup", "--dry-run", "--project", l.path(SAMPLE), "--sdk", ""], { env: l.user.env });
    const written = treeOf(l.user.home).filter((f) => !before.includes(f));
    const ok = r.status === 0 && r.stdout.includes("dry run: nothing will be written") && written.length === 0;
    return {
      ok,
      detail: ok
        ? "exit 0, plan printed, nothing written in the user's home"
        : `exit ${r.status}; wrote ${written.join(", ") || "nothing"}; ${r.stderr.trim().slice(0, 200)}`,
    };
  }));
  rmSync(home, { recursive: true, force: true });
  return rows;
}

/** Prints the rows as a Markdown table with a total; returns true when every check passed. */
export function printTable(title: string, rows: readonly CheckRow[]): boolean {
  console.log(`\n${title}\n`);
  console.log("| check | result | detail | time |");
  console.log("|---|---|---|---:|");
  for (const r of rows) {
    console.log(
      `| ${r.check} | ${r.ok ? "ok" : "FAILED"} | ${r.detail.replace(/\|/g, "\\|")} | ${(r.ms / 1000).toFixed(1)} s |`,
    );
  }
  const failed = rows.filter((r) => !r.ok).length;
  const total = rows.reduce((n, r) => n + r.ms, 0);
  console.log(`\n${rows.length - failed} of ${rows.length} checks passed in ${(total / 1000).toFixed(1)} s`);
  return failed === 0;
}

if (import.meta.main) {
  const { values } = parseArgs({ options: { binary: { type: "string" } } });
  if (!values.binary) {
    console.error("usage: bun scripts/smoke.ts --binary PATH");
    process.exit(2);
  }
  const l = nativeLauncher(values.binary);
  process.exit(printTable(`smoke checks of ${values.binary}`, await basicChecks(l)) ? 0 : 1);
}
