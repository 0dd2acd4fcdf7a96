/**
 * End to end with the real agent CLIs (issue 13): installs pinned versions of Claude Code, Codex, GitHub
 * Copilot CLI, Gemini CLI, Qwen Code, opencode and Cline CLI from npm into a temporary folder, builds a
 * temporary HOME whose user configs already hold another server ("other"), and then, with the compiled
 * `dist/ra3`:
 *
 *  A. `ra3 setup --yes` for every client, then `ra3 uninstall --yes`: every config file must come back
 *     byte for byte (nothing runs in between, so no client rewrites a file meanwhile).
 *  B. `ra3 setup --yes` again, then each client's own command (`claude mcp list`, `gemini mcp list`, …)
 *     must show ra3 (connected, where the command connects) and "other" intact; for clients whose
 *     command does not connect (Codex, Copilot) ra3's live check spawns exactly the command and
 *     arguments the client reports. Then `ra3 uninstall --yes`, and the client's command must show
 *     "other" and no ra3.
 *
 * The mod folder is named `Sample $HOME ${HOME} Mod`, which Gemini CLI, Qwen Code and Claude Code would
 * rewrite if ra3 wrote it as a plain path; `ra3 doctor` (which applies each client's expansion) must be
 * all green after setup. Prints a table and exits 1 when anything failed. Needs npm and the registry
 * (no account: `mcp list` and `mcp get` work without one). `.ci/run` runs it (83–103 s with the npm
 * install, measured in docs/performance.md); `RA3_CLIENTS_E2E=0` skips it there.
 *
 *   node_modules/.bin/bun scripts/clients-e2e.ts [--clients-dir DIR] [--only gemini,qwen] [--keep]
 *
 * `--clients-dir` reuses (or fills) an installation folder instead of a temporary one.
 */
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { parseArgs } from "node:util";
import { liveCheck } from "../src/setup/live-check.ts";

const ROOT = join(import.meta.dirname, "..");
const RA3 = join(ROOT, "dist", "ra3");
const SAMPLE = join(ROOT, "examples", "sample-mod");
const TIMEOUT_MS = 120_000;
/**
 * The npm install of the seven CLIs (≈ 150 MB): 60–90 s here on a good day, over 120 s on a slow one (a
 * submission's CI failed on that alone), so it gets its own, longer bound.
 */
const INSTALL_TIMEOUT_MS = 600_000;

/** What a client's own command says about a server. */
type Seen = "connected" | "listed" | "recognised" | "disabled" | "failed" | "absent";

interface Observation {
  readonly ra3: Seen;
  readonly other: boolean;
  /** One phrase: how it was checked, or what went wrong. */
  readonly how: string;
}

interface ClientSpec {
  readonly id: string;
  readonly name: string;
  readonly pkg: string;
  readonly version: string;
  readonly bin: string;
  /** The user config file, relative to HOME. */
  readonly file: string;
  /** The user config with only the "other" server, as the client itself would write it. */
  readonly seed: string;
  /** Asks the client about its servers. */
  check(run: Runner, cwd: string): Promise<Observation>;
}

type Runner = (bin: string, args: readonly string[], cwd: string, env?: Record<string, string>) => {
  status: number | null;
  /** stdout and stderr together. */
  out: string;
  stdout: string;
};

const OTHER = "/bin/cat";

// Terminal colour codes (ESC [ … letter) and carriage returns, which some clients print even with NO_COLOR.
const ANSI = new RegExp(String.fromCharCode(27) + "\\[[0-9;?]*[A-Za-z]", "g");
const strip = (s: string) => s.replace(ANSI, "").replace(/\r/g, "");

/** A line-based `mcp list` check: the ra3 line's status word, and whether "other" is listed with its command. */
function listed(out: string, connected: RegExp, disabled: RegExp): Observation {
  const lines = strip(out).split("\n");
  const ra3 = lines.find((l) => /\bra3\b/.test(l) && l.includes(".ra3modxml"));
  const other = lines.some((l) => /\bother\b/.test(l) && l.includes(OTHER));
  const seen: Seen = ra3 === undefined
    ? "absent"
    : connected.test(ra3)
    ? "connected"
    : disabled.test(ra3)
    ? "disabled"
    : "failed";
  return { ra3: seen, other, how: ra3 ? ra3.trim().slice(0, 120) : "ra3 not listed" };
}

/** For clients whose command does not connect: spawn exactly the command and arguments the client reports. */
async function spawnReported(command: string, args: readonly string[]): Promise<Seen> {
  const live = await liveCheck({ command, args, timeoutMs: 30_000 });
  return live.ok ? "connected" : "failed";
}

const CLIENTS: readonly ClientSpec[] = [
  {
    id: "claude-code",
    name: "Claude Code",
    pkg: "@anthropic-ai/claude-code",
    version: "2.1.332",
    bin: "claude",
    file: ".claude.json",
    seed: JSON.stringify({ mcpServers: { other: { type: "stdio", command: OTHER, args: [] } } }, null, 2) + "\n",
    check: async (run, cwd) => listed(run("claude", ["mcp", "list"], cwd).out, /✔ Connected/, /disabled/i),
  },
  {
    id: "codex",
    name: "Codex",
    pkg: "@openai/codex",
    version: "0.171.0",
    bin: "codex",
    file: ".codex/config.toml",
    seed: `# my Codex settings\nmodel = "o3"\n\n[mcp_servers.other]\ncommand = "${OTHER}"\n`,
    check: async (run, cwd) => {
      const get = (name: string) => {
        const r = run("codex", ["mcp", "get", name, "--json"], cwd);
        try {
          return JSON.parse(strip(r.stdout)) as {
            transport?: { command?: string; args?: string[] };
            enabled?: boolean;
          };
        } catch {
          return null;
        }
      };
      const ra3 = get("ra3");
      const other = get("other");
      const t = ra3?.transport;
      const seen = t?.command ? await spawnReported(t.command, t.args ?? []) : "absent";
      return {
        ra3: seen,
        other: other?.transport?.command === OTHER,
        how: "codex mcp get --json, then ra3's live check on the reported command",
      };
    },
  },
  {
    id: "copilot",
    name: "GitHub Copilot CLI",
    pkg: "@github/copilot",
    version: "1.0.102",
    bin: "copilot",
    file: ".copilot/mcp-config.json",
    seed:
      JSON.stringify({ mcpServers: { other: { tools: ["*"], type: "local", command: OTHER, args: [] } } }, null, 2) +
      "\n",
    check: async (run, cwd) => {
      const r = run("copilot", ["mcp", "list", "--json"], cwd);
      let servers: Record<string, { command?: string; args?: string[]; enabled?: boolean }> = {};
      try {
        servers = (JSON.parse(strip(r.stdout)) as { mcpServers: typeof servers }).mcpServers ?? {};
      } catch {
        servers = {};
      }
      const ra3 = servers.ra3;
      const seen = ra3?.command ? await spawnReported(ra3.command, ra3.args ?? []) : "absent";
      return {
        ra3: seen,
        other: servers.other?.command === OTHER,
        how: "copilot mcp list --json, then ra3's live check on the reported command",
      };
    },
  },
  {
    id: "gemini",
    name: "Gemini CLI",
    pkg: "@google/gemini-cli",
    version: "0.61.0",
    bin: "gemini",
    file: ".gemini/settings.json",
    seed:
      `{\n  // my Gemini settings\n  "ui": { "theme": "GitHub" },\n  "mcpServers": {\n    "other": { "command": "${OTHER}" }\n  }\n}\n`,
    check: async (run, cwd) => listed(run("gemini", ["mcp", "list"], cwd).out, /- Connected/, /- Disabled/),
  },
  {
    id: "qwen",
    name: "Qwen Code",
    pkg: "@qwen-code/qwen-code",
    version: "0.24.4",
    bin: "qwen",
    file: ".qwen/settings.json",
    seed: `{\n  // my Qwen settings\n  "mcpServers": {\n    "other": { "command": "${OTHER}" }\n  }\n}\n`,
    check: async (run, cwd) => listed(run("qwen", ["mcp", "list"], cwd).out, /- Connected/, /- Disabled/),
  },
  {
    id: "opencode",
    name: "opencode",
    pkg: "opencode-ai",
    version: "1.18.33",
    bin: "opencode",
    file: ".config/opencode/opencode.json",
    seed: JSON.stringify(
      {
        $schema: "https://opencode.ai/config.json",
        mcp: { other: { type: "local", command: [OTHER], enabled: true } },
      },
      null,
      2,
    ) + "\n",
    check: async (run, cwd) => {
      const out = strip(run("opencode", ["mcp", "list"], cwd).out);
      const lines = out.split("\n");
      const i = lines.findIndex((l) => /\bra3\b/.test(l));
      const ra3Line = i >= 0 ? lines[i] : undefined;
      const seen: Seen = ra3Line === undefined
        ? "absent"
        : /connected/.test(ra3Line) && !/dis/.test(ra3Line)
        ? "connected"
        : "failed";
      return { ra3: seen, other: out.includes(OTHER), how: ra3Line?.trim() ?? "ra3 not listed" };
    },
  },
  {
    id: "cline",
    name: "Cline CLI",
    pkg: "cline",
    version: "3.0.65",
    bin: "cline",
    file: ".cline/data/settings/cline_mcp_settings.json",
    seed: JSON.stringify(
      { mcpServers: { other: { transport: { type: "stdio", command: OTHER, args: [] } } } },
      null,
      2,
    ) + "\n",
    // Cline CLI has no list command; `cline mcp remove NAME` on a copy of the file says whether Cline's own
    // parser finds the server (and removing from a copy leaves the real file alone).
    check: async (run, cwd) => {
      const home = process.env.E2E_HOME!;
      const copy = join(home, "cline-copy.json");
      const found = (name: string) => {
        cpSync(join(home, ".cline/data/settings/cline_mcp_settings.json"), copy);
        const r = run("cline", ["mcp", "remove", name, "--json"], cwd, { CLINE_MCP_SETTINGS_PATH: copy });
        rmSync(copy, { force: true });
        return /"status":"uninstalled"/.test(strip(r.out));
      };
      return {
        ra3: found("ra3") ? "recognised" : "absent",
        other: found("other"),
        how: "cline mcp remove on a copy (Cline CLI lists nothing without an account)",
      };
    },
  },
];

interface Row {
  client: string;
  version: string;
  restored: string;
  afterSetup: string;
  other: string;
  afterUninstall: string;
  how: string;
}

/** Runs a command to its end or its bound; `out` ends with why, when it was killed or did not start. */
export function sh(
  cmd: string,
  args: readonly string[],
  opts: { cwd: string; env: Record<string, string>; timeoutMs?: number },
) {
  const timeout = opts.timeoutMs ?? TIMEOUT_MS;
  const r = spawnSync(cmd, args, { cwd: opts.cwd, env: opts.env, encoding: "utf8", timeout });
  let out = (r.stdout ?? "") + (r.stderr ?? "");
  // A command killed at its bound (or not started) says nothing itself: say why here.
  if (r.error) {
    out += `\n${cmd}: ${
      (r.error as NodeJS.ErrnoException).code === "ETIMEDOUT" ? `killed after ${timeout / 1000} s` : r.error.message
    }`;
  } else if (r.signal) out += `\n${cmd}: killed by ${r.signal}`;
  return { status: r.status, out, stdout: r.stdout ?? "" };
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: { "clients-dir": { type: "string" }, only: { type: "string" }, keep: { type: "boolean" } },
  });
  if (!existsSync(RA3)) {
    console.error(`clients-e2e: ${RA3} is missing; build it first (node_modules/.bin/bun scripts/build.ts)`);
    return 2;
  }
  const only = values.only?.split(",").map((s) => s.trim());
  const clients = CLIENTS.filter((c) => !only || only.includes(c.id));
  const tmp = mkdtempSync(join(tmpdir(), "ra3-clients-e2e-"));
  const clientsDir = values["clients-dir"] ?? join(tmp, "clients");
  const home = join(tmp, "home");
  // A name every expanding client would rewrite ($HOME for Gemini and Qwen, ${HOME} for Claude Code).
  const mod = join(tmp, "mods", "Sample $HOME ${HOME} Mod");
  const started = performance.now();
  const timings: [string, number][] = [];
  const lap = (label: string, since: number) => timings.push([label, Math.round(performance.now() - since)]);

  // 1. The CLIs, pinned, from npm (reused when --clients-dir already holds these versions).
  let t = performance.now();
  mkdirSync(clientsDir, { recursive: true });
  const wanted = clients.map((c) => `${c.pkg}@${c.version}`);
  const have = (c: ClientSpec) => {
    try {
      const pj = JSON.parse(readFileSync(join(clientsDir, "node_modules", c.pkg, "package.json"), "utf8"));
      return pj.version === c.version;
    } catch {
      return false;
    }
  };
  const missing = clients.filter((c) => !have(c));
  if (missing.length) {
    if (!existsSync(join(clientsDir, "package.json"))) writeFileSync(join(clientsDir, "package.json"), "{}\n");
    const r = sh("npm", ["install", "--no-audit", "--no-fund", "--loglevel=error", ...wanted], {
      cwd: clientsDir,
      env: process.env as Record<string, string>,
      timeoutMs: INSTALL_TIMEOUT_MS,
    });
    if (r.status !== 0) {
      console.error(`clients-e2e: npm install failed:\n${r.out}`);
      return 2;
    }
  }
  lap(`npm install (${missing.length} of ${clients.length} packages)`, t);

  // 2. A HOME where every client already has another server, and a mod.
  mkdirSync(home, { recursive: true });
  cpSync(SAMPLE, mod, { recursive: true });
  for (const c of clients) {
    mkdirSync(dirname(join(home, c.file)), { recursive: true });
    writeFileSync(join(home, c.file), c.seed);
  }
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v === undefined || /^(CODEX_HOME|CLAUDE_CONFIG_DIR|GEMINI_CLI_|QWEN_|COPILOT_|CLINE_|RA3_|XDG_)/.test(k)) {
      continue;
    }
    env[k] = v;
  }
  Object.assign(env, {
    HOME: home,
    USERPROFILE: home,
    PATH: `${join(clientsDir, "node_modules", ".bin")}:${process.env.PATH ?? ""}`,
    NO_COLOR: "1",
    E2E_HOME: home,
  });
  process.env.E2E_HOME = home;
  const run: Runner = (bin, args, cwd, extra = {}) => sh(bin, args, { cwd, env: { ...env, ...extra } });
  const ra3 = (...args: string[]) => sh(RA3, args, { cwd: tmp, env });
  const setupArgs = ["setup", "--yes", "--project", mod, ...clients.flatMap((c) => ["--client", c.id])];

  // A. setup, uninstall: byte for byte.
  t = performance.now();
  const rows = new Map<string, Row>(clients.map((c) => [c.id, {
    client: c.name,
    version: c.version,
    restored: "",
    afterSetup: "",
    other: "",
    afterUninstall: "",
    how: "",
  }]));
  const a1 = ra3(...setupArgs);
  const a2 = ra3("uninstall", "--yes");
  for (const c of clients) {
    const same = readFileSync(join(home, c.file), "utf8") === c.seed;
    rows.get(c.id)!.restored = a1.status === 0 && a2.status === 0 && same ? "byte-identical" : "DIFFERS";
  }
  lap("A: setup + uninstall", t);
  if (a1.status !== 0) console.error(a1.out);

  // B. setup, the clients' own commands, uninstall, the commands again.
  t = performance.now();
  const b1 = ra3(...setupArgs);
  if (b1.status !== 0) console.error(b1.out);
  // Doctor applies each client's own expansion to the entry, checks the project it then names and starts it.
  const doctor = ra3("doctor", "--json");
  let doctorOk = false;
  try {
    doctorOk = doctor.status === 0 && (JSON.parse(doctor.stdout) as { result: { ok: boolean } }).result.ok;
  } catch {
    doctorOk = false;
  }
  if (!doctorOk) console.error(doctor.out);
  for (const c of clients) {
    const ct = performance.now();
    const seen = await c.check(run, mod);
    const row = rows.get(c.id)!;
    row.afterSetup = seen.ra3;
    row.other = seen.other ? "intact" : "MISSING";
    row.how = seen.how;
    lap(`B: ${c.id} check`, ct);
  }
  const b2 = ra3("uninstall", "--yes");
  for (const c of clients) {
    const seen = await c.check(run, mod);
    const row = rows.get(c.id)!;
    row.afterUninstall = b2.status === 0 && seen.ra3 === "absent" && seen.other ? "ra3 gone, other kept" : "FAILED";
  }
  lap("B: setup, checks, uninstall, checks", t);

  // The table.
  const header = ["client", "version", "A: uninstall", "B: ra3 after setup", "other server", "B: after uninstall"];
  const table = [
    header,
    ...[...rows.values()].map((r) => [r.client, r.version, r.restored, r.afterSetup, r.other, r.afterUninstall]),
  ];
  const widths = header.map((_, i) => Math.max(...table.map((row) => row[i].length)));
  const line = (row: string[]) => `| ${row.map((cell, i) => cell.padEnd(widths[i])).join(" | ")} |`;
  console.log(line(table[0]));
  console.log(`|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`);
  for (const row of table.slice(1)) console.log(line(row));
  console.log("");
  for (const r of rows.values()) console.log(`${r.client}: ${r.how}`);
  console.log("");
  for (const [label, ms] of timings) console.log(`${label}: ${(ms / 1000).toFixed(1)} s`);
  console.log(`ra3 doctor after setup: ${doctorOk ? "all is well" : "PROBLEMS (above)"}`);
  console.log(`total: ${((performance.now() - started) / 1000).toFixed(1)} s`);

  const ok = doctorOk &&
    [...rows.values()].every((r) =>
      r.restored === "byte-identical" && (r.afterSetup === "connected" || r.afterSetup === "recognised") &&
      r.other === "intact" && r.afterUninstall === "ra3 gone, other kept"
    );
  if (values.keep) console.log(`kept ${tmp}`);
  else rmSync(tmp, { recursive: true, force: true });
  return ok ? 0 : 1;
}

if (import.meta.main) process.exit(await main());
