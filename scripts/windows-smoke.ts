// The Windows build (dist/ra3-windows-x64.exe) under Wine, checked against the Linux binary: the common
// smoke checks, index counts with Z:\ paths equal to Linux's (sample mod, and the real corpora when
// present), backslash and mixed-case paths, a CRLF copy of the sample mod (its art made UTF-8) exported as Linux
// exports the LF files (every line and column), MCP over stdin from a file and from a Linux pipe, setup /
// doctor / uninstall in the Wine user's home (doctor's live check is MCP through a Windows-side spawn),
// and no arguments without a console. Prints a table. Started by scripts/windows-smoke.sh, which installs
// Wine, builds the bcryptprimitives shim and makes a fresh prefix.
// Usage: bun scripts/windows-smoke.ts --wine PATH --prefix WINEPREFIX
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { parseArgs } from "node:util";
import { CORPORA, hasCorpus } from "./corpora.ts";
import {
  basicChecks,
  check,
  type CheckRow,
  countsOf,
  type Launcher,
  MCP_SESSION,
  mcpAnswers,
  nativeLauncher,
  printTable,
  ROOT,
  runBinary,
  SAMPLE,
  treeOf,
} from "./smoke.ts";

/** A host path as Wine's Z: drive shows it. @example winePath("/work/mod") // "Z:\\work\\mod" */
export function winePath(p: string): string {
  return "Z:" + p.replace(/\//g, "\\");
}

const TEXT_FILE = /\.(xml|w3x|str|xsd|babproj|txt|ini)$/i;
/** "<!-- modèle 模型 😀 -->" as UTF-8 bytes read as latin1 (the copy writes latin1 strings byte for byte). */
const UTF8_COMMENT = Buffer.from("<!-- modèle 模型 😀 -->", "utf8").toString("latin1");

/**
 * Copies the tree `from` to `to` with every line end of its text files made CRLF, and a comment with
 * non-ASCII text at the end of each art file's first line (a UTF-8 file then: no line or column moves);
 * returns how many files have CRs.
 */
function copyWithCrlf(from: string, to: string): number {
  let converted = 0;
  mkdirSync(to, { recursive: true });
  for (const e of readdirSync(from, { withFileTypes: true })) {
    const src = join(from, e.name);
    const dest = join(to, e.name);
    if (e.isDirectory()) converted += copyWithCrlf(src, dest);
    else if (TEXT_FILE.test(e.name)) {
      let text = readFileSync(src).toString("latin1").replace(/\r?\n/g, "\r\n");
      if (/\.w3x$/i.test(e.name)) text = text.replace("\r\n", `${UTF8_COMMENT}\r\n`);
      writeFileSync(dest, Buffer.from(text, "latin1"));
      if (readFileSync(dest).includes(0x0d)) converted++;
    } else writeFileSync(dest, readFileSync(src));
  }
  return converted;
}

/** An `ra3 export` JSON without what differs between two checkouts of one mod (folder, time, file sizes). */
function comparableExport(json: string): { text: string; counts: string } {
  const e = JSON.parse(json);
  delete e.project;
  delete e.generatedAt;
  delete e.buildId;
  delete e.stats.linkMs;
  for (const f of e.files) {
    delete f.size;
    delete f.mtimeMs;
  }
  const counts = `${e.assets.length} assets, ${e.references.length} references, ${e.diagnostics.length} diagnostics`;
  return { text: JSON.stringify(e), counts };
}

/** `a` around the first character where it differs from `b`. */
function around(a: string, b: string): string {
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  return a.slice(Math.max(0, i - 120), i + 80);
}

/** Runs the Windows binary through `wine` in `prefix`. */
function wineLauncher(wine: string, prefix: string, exe: string): Launcher {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    WINEPREFIX: prefix,
    WINEDEBUG: "-all",
    WINEDLLOVERRIDES: "mscoree,mshtml=",
  };
  delete env.RA3_SDK;
  delete env.RA3_HOME;
  // Wine sets the Windows user's variables (USERPROFILE, APPDATA) itself, from the prefix: the one user
  // folder wineboot made besides Public.
  const users = join(prefix, "drive_c", "users");
  const name = readdirSync(users).find((n) => n !== "Public");
  if (!name) throw new Error(`no user folder in ${users}`);
  const user = { home: join(users, name), env: {} };
  return { name: `wine ${exe}`, command: (args) => ({ file: wine, args: [exe, ...args] }), path: winePath, env, user };
}

const { values } = parseArgs({ options: { wine: { type: "string" }, prefix: { type: "string" } } });
if (!values.wine || !values.prefix) {
  console.error("usage: bun scripts/windows-smoke.ts --wine PATH --prefix WINEPREFIX");
  process.exit(2);
}
const exe = join(ROOT, "dist", "ra3-windows-x64.exe");
const win = wineLauncher(values.wine, values.prefix, exe);
const linux = nativeLauncher(join(ROOT, "dist", "ra3"));
const rows: CheckRow[] = await basicChecks(win);
const winUser = "C:\\users\\" + basename(win.user.home);
const winHome = winUser + "\\ra3-smoke";
const linuxHome = mkdtempSync(join(tmpdir(), "ra3-wsmoke-"));

/** Index counts of a project on both binaries; `winArgs` may spell the paths differently. */
function sameCounts(name: string, linuxArgs: string[], winArgs: string[]): CheckRow {
  return check(name, () => {
    const l = countsOf(
      runBinary(linux, ["index", "--json", "--no-progress", "--home", linuxHome, ...linuxArgs]).stdout,
    );
    const r = runBinary(win, ["index", "--json", "--no-progress", "--home", winHome, ...winArgs]);
    const w = countsOf(r.stdout);
    return { ok: l === w, detail: l === w ? `${w} (Linux: the same)` : `Windows ${w} ≠ Linux ${l}` };
  });
}

rows.push(sameCounts("index Z:\\ paths = Linux (sample mod)", ["--project", SAMPLE, "--sdk", ""], [
  "--project",
  winePath(SAMPLE),
  "--sdk",
  "",
]));
if (hasCorpus("upheaval") && hasCorpus("ra3-xsd")) {
  const up = join(CORPORA, "upheaval");
  const xsd = join(CORPORA, "ra3-xsd");
  rows.push(
    sameCounts("index Z:\\ paths = Linux (Upheaval + RA3 XSD)", ["--project", up, "--schema", xsd, "--sdk", ""], [
      "--project",
      winePath(up),
      "--schema",
      winePath(xsd),
      "--sdk",
      "",
    ]),
  );
}
if (hasCorpus("tw-sdk")) {
  const sdk = join(CORPORA, "tw-sdk");
  const mod = join(sdk, "Mods", "Commander");
  rows.push(
    sameCounts("index Z:\\ paths = Linux (TW SDK, Commander)", ["--project", mod, "--sdk", sdk], [
      "--project",
      winePath(mod),
      "--sdk",
      winePath(sdk),
    ]),
  );
}
rows.push(check("mixed-case path, / and trailing \\: same index, warm start", () => {
  // The path differs only in case and separators: Windows sees the same folder, and ra3 the same snapshot.
  const odd = winePath(SAMPLE).replace("Z:", "z:").toUpperCase().replace(/\\EXAMPLES\\/, "/examples/") + "\\";
  const r = runBinary(win, ["index", "--json", "--no-progress", "--sdk", "", "--project", odd, "--home", winHome]);
  const env = JSON.parse(r.stdout);
  const same = countsOf(r.stdout) ===
    countsOf(
      runBinary(linux, ["index", "--json", "--no-progress", "--sdk", "", "--project", SAMPLE, "--home", linuxHome])
        .stdout,
    );
  const mode = env.result.start.mode;
  return {
    ok: same && mode === "warm",
    detail: `--project ${odd}: ${mode} start, counts ${same ? "equal" : "differ"}`,
  };
}));
rows.push(check("file with a backslash path = Linux", () => {
  const args = (
    p: string,
    project: string,
    home: string,
  ) => ["file", "--json", p, "--sdk", "", "--project", project, "--home", home];
  const l = JSON.parse(runBinary(linux, args("Data/Includes/Weapons.xml", SAMPLE, linuxHome)).stdout).result;
  const w = JSON.parse(runBinary(win, args("data\\includes\\WEAPONS.xml", winePath(SAMPLE), winHome)).stdout).result;
  // The answer leaves usual values out: `exists` and `active` are written only when false.
  const ok = JSON.stringify(l) === JSON.stringify(w) && w.exists !== false && typeof w.file === "string";
  return {
    ok,
    detail: ok
      ? `data\\includes\\WEAPONS.xml → ${w.file}, active ${w.active ?? true}, streams ${w.streams.join(",")}`
      : `Windows ${JSON.stringify(w)} ≠ Linux ${JSON.stringify(l)}`,
  };
}));
rows.push(check("CRLF checkout (every text file \\r\\n, UTF-8 art): export = Linux's of the LF files", () => {
  // What Git for Windows' core.autocrlf or a Windows editor leaves: the same index at the same lines.
  const crlf = mkdtempSync(join(tmpdir(), "ra3-wsmoke-crlf-"));
  const converted = copyWithCrlf(SAMPLE, crlf);
  const linuxOut = join(linuxHome, "lf-export.json");
  const winOut = join(crlf, "..", `${basename(crlf)}-export.json`);
  const exportArgs = (project: string, home: string, out: string) => [
    "export",
    "--format",
    "json",
    "--out",
    out,
    "--no-progress",
    "--sdk",
    "",
    "--project",
    project,
    "--home",
    home,
  ];
  runBinary(linux, exportArgs(SAMPLE, linuxHome, linuxOut));
  runBinary(win, exportArgs(winePath(crlf), winHome, winePath(winOut)));
  const l = comparableExport(readFileSync(linuxOut, "utf8"));
  const w = comparableExport(readFileSync(winOut, "utf8"));
  rmSync(crlf, { recursive: true, force: true });
  rmSync(winOut, { force: true });
  const ok = l.text === w.text && converted > 10;
  return {
    ok,
    detail: ok
      ? `${converted} files made CRLF; ${w.counts}, every line and column the same`
      : converted <= 10
      ? `only ${converted} files made CRLF`
      : `first difference: Windows (CRLF) …${around(w.text, l.text)}… ≠ Linux (LF) …${around(l.text, w.text)}…`,
  };
}));
rows.push(check("mcp, stdin a Linux pipe", () => {
  const { file, args } = win.command(["mcp", "--sdk", "", "--project", winePath(SAMPLE), "--home", winHome]);
  const r = spawnSync(file, args, { input: MCP_SESSION, env: win.env, encoding: "utf8", timeout: 120_000 });
  return mcpAnswers({ status: r.status, stdout: r.stdout, stderr: r.stderr });
}));

// Traces of installed Claude Desktop and Cursor: setup never creates a client's folder for a client it cannot find.
for (const [dir, file] of [["AppData/Roaming/Claude", "config.json"], [".cursor", "argv.json"]]) {
  mkdirSync(join(win.user.home, ...dir.split("/")), { recursive: true });
  writeFileSync(join(win.user.home, ...dir.split("/"), file), "{}\n");
}
const before = treeOf(win.user.home);
const configs = [
  join(win.user.home, "AppData", "Roaming", "Claude", "claude_desktop_config.json"),
  join(win.user.home, ".cursor", "mcp.json"),
];
rows.push(check("setup --yes (Claude Desktop, Cursor) in the Wine user's home", () => {
  const r = runBinary(win, [
    "setup",
    "--yes",
    "--client",
    "claude-desktop",
    "--client",
    "cursor",
    "--sdk",
    "",
    "--project",
    winePath(SAMPLE),
  ]);
  const stable = `${winUser}\\.ra3modxml\\bin\\ra3.exe`;
  const written = configs.filter((c) =>
    existsSync(c) && JSON.parse(readFileSync(c, "utf8")).mcpServers?.ra3?.command === stable
  );
  const live = /verify: start the installed server as a client would: done: (.*)/.exec(r.stdout)?.[1] ?? "";
  const ok = r.status === 0 && written.length === 2 && live !== "";
  if (!ok) { for (const c of configs) console.error(`${c}: ${existsSync(c) ? readFileSync(c, "utf8") : "missing"}`); }
  return {
    ok,
    detail: ok
      ? `2 configs run ${stable}; live check ${live}`
      : `exit ${r.status}; ${written.length} configs; ${r.stdout.slice(-300)}`,
  };
}));
rows.push(check("doctor (live MCP check spawned by the Windows binary)", () => {
  const r = runBinary(win, ["doctor"]);
  const lives = r.stdout.split("\n").filter((l) => l.includes("✓ live check")).length;
  const ok = r.status === 0 && r.stdout.includes("all is well") && lives === 2;
  return {
    ok,
    detail: ok ? `exit 0, all is well, ${lives} live checks passed` : `exit ${r.status}; ${r.stdout.slice(-300)}`,
  };
}));
rows.push(check("uninstall --yes restores the Wine user's home", () => {
  const r = runBinary(win, ["uninstall", "--yes"]);
  // Left on purpose: the receipt's log, the snapshots and the schema cache in <home>\.ra3modxml (ra3 uninstall --all removes them).
  const kept = (f: string) =>
    f.startsWith(".ra3modxml") && !f.startsWith(".ra3modxml/bin") && !f.startsWith(".ra3modxml/skills.json");
  const extra = treeOf(win.user.home).filter((f) => !before.includes(f) && !kept(f));
  const ok = r.status === 0 && extra.length === 0 && configs.every((c) => !existsSync(c));
  return {
    ok,
    detail: ok
      ? "exit 0; configs, skill copies and the stable binary removed"
      : `exit ${r.status}; left ${extra.join(", ")}`,
  };
}));
rows.push(check("no arguments, no console: usage, not the double-click setup", () => {
  const r = runBinary(win, []);
  const ok = r.status === 0 && r.stdout.startsWith("ra3 ") && r.stdout.includes("\nusage: ra3 ") &&
    !r.stdout.includes("setup 0.");
  return { ok, detail: ok ? "printed the usage, exit 0" : `exit ${r.status}; ${r.stdout.slice(0, 200)}` };
}));

/**
 * Runs `command` in a terminal (util-linux `script` gives Wine a pty, so the exe gets a console of its
 * own) and answers prompts as they appear: `answers` maps a text to wait for to the keys to type.
 */
function inTerminal(
  command: string,
  answers: [string, string][],
  cwd: string = SAMPLE,
): Promise<{ status: number | null; screen: string }> {
  return new Promise((done) => {
    const child = spawn("script", ["-qec", command, "/dev/null"], {
      cwd,
      env: win.env,
      stdio: ["pipe", "pipe", "pipe"],
    });
    let screen = "";
    const pending = [...answers];
    const guard = setTimeout(() => child.kill("SIGKILL"), 90_000);
    child.stdout.on("data", (c: Buffer) => {
      screen += c.toString("utf8");
      while (pending.length && screen.includes(pending[0][0])) child.stdin.write(pending.shift()![1]);
    });
    child.on("close", (status) => {
      clearTimeout(guard);
      // deno-lint-ignore no-control-regex -- the terminal's escape sequences (ESC [ …) are what is removed
      done({ status, screen: screen.replace(/\x1b\[[0-9;?]*[a-zA-Z]/g, "").replace(/\r/g, "") });
    });
  });
}
const exeCommand = `'${values.wine}' '${exe}'`;
{
  const started = performance.now();
  const before = treeOf(win.user.home);
  // Started outside any mod (like Downloads): it asks for the mod folder, then setup asks before writing.
  const r = await inTerminal(exeCommand, [["Which mod?", `${winePath(SAMPLE)}\r`], ["[y/N]", "n\r"], [
    "Press Enter",
    "\r",
  ]], tmpdir());
  const written = treeOf(win.user.home).filter((f) => !before.includes(f));
  const asked = r.screen.includes("Which mod?") && r.screen.includes(winePath(SAMPLE)) && r.screen.includes("[y/N]") &&
    r.screen.includes("nothing was written");
  const waited = r.screen.includes("Press Enter to close this window");
  const ok = r.screen.startsWith("ra3: setting up ra3") && asked && waited && r.status === 1 && written.length === 0;
  rows.push({
    check: "double-click: no arguments, a console of its own (pty)",
    ok,
    detail: ok
      ? "asked for the mod (typed Z:\\…\\sample-mod), setup asked, answered n, nothing written, waited for Enter, exit 1"
      : `exit ${r.status}; asked ${asked}, waited ${waited}; wrote ${written.join(", ")}; ${r.screen.slice(0, 300)}`,
    ms: performance.now() - started,
  });
}
{
  const started = performance.now();
  const r = await inTerminal(`'${values.wine}' cmd /c '${exe}'`, []);
  const ok = r.status === 0 && r.screen.includes("usage: ra3 ") && !r.screen.includes("setting up ra3");
  rows.push({
    check: "no arguments typed in cmd.exe (a shell on the console)",
    ok,
    detail: ok ? "printed the usage, exit 0" : `exit ${r.status}; ${r.screen.slice(0, 300)}`,
    ms: performance.now() - started,
  });
}

rmSync(linuxHome, { recursive: true, force: true });
process.exit(printTable(`Windows build under Wine (${values.wine}), compared with dist/ra3`, rows) ? 0 : 1);
