// End to end, the way a user runs it: the compiled dist/ra3 in a temporary HOME does
// `setup --yes` for Claude Code, Codex and Cursor on a copy of the sample mod, then `doctor` (which
// spawns the INSTALLED binary from each client's entry, like the client), then `uninstall --yes`, after
// which HOME must hold exactly what it held before, apart from the receipt's log. Also checks that the
// Windows cross-compile is a PE32+ x86-64 console executable (there is no Windows runtime here).
import { afterAll, describe, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  closeSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { TOOL_NAMES } from "../../src/skill/tool-names.ts";

const ROOT = join(import.meta.dirname, "..", "..");
const BIN = join(ROOT, "dist", "ra3");
const WINDOWS_EXE = join(ROOT, "dist", "ra3-windows-x64.exe");
const SAMPLE = join(ROOT, "examples", "sample-mod");
const TIMEOUT = 120_000;

if (!existsSync(BIN)) {
  console.warn(
    `skipping the setup e2e test: ${BIN} is missing (build it with: node_modules/.bin/bun scripts/build.ts)`,
  );
}

/** Every folder and file below `dir` (relative, `/`), files with their SHA-256. */
function listing(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const e of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    const p = join(e.parentPath, e.name);
    const rel = relative(dir, p).split("\\").join("/");
    out[rel] = e.isDirectory() ? "<dir>" : createHash("sha256").update(readFileSync(p)).digest("hex");
  }
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => (a < b ? -1 : 1)));
}

describe.skipIf(!existsSync(BIN))("setup → doctor → uninstall with the compiled binary in a temporary HOME", () => {
  const tmp = mkdtempSync(join(tmpdir(), "ra3-e2e-setup-"));
  const home = join(tmp, "home");
  const ra3Home = join(home, ".ra3modxml");
  const project = join(tmp, "mods", "Sample Mod");
  const installed = join(ra3Home, "bin", "ra3");
  mkdirSync(home, { recursive: true });
  cpSync(SAMPLE, project, { recursive: true });
  // Traces of installed Codex and Cursor (ra3 never creates a client's folder for a client it cannot find).
  mkdirSync(join(home, ".codex"));
  writeFileSync(join(home, ".codex", "version.json"), '{"latest_version":"0.171.0"}');
  mkdirSync(join(home, ".cursor"));
  writeFileSync(join(home, ".cursor", "argv.json"), "{}");
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v !== undefined && !["CODEX_HOME", "CLAUDE_CONFIG_DIR", "RA3_SDK", "LOCALAPPDATA"].includes(k)) env[k] = v;
  }
  Object.assign(env, {
    HOME: home,
    USERPROFILE: home,
    APPDATA: join(home, "AppData", "Roaming"),
    XDG_CONFIG_HOME: join(home, ".config"),
    RA3_HOME: ra3Home,
  });
  const run = (...args: string[]) => {
    const started = performance.now();
    const r = spawnSync(BIN, args, { cwd: tmp, env, encoding: "utf8", timeout: TIMEOUT });
    return { status: r.status, stdout: r.stdout, stderr: r.stderr, ms: Math.round(performance.now() - started) };
  };
  const before = listing(home);
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  test(
    "setup --yes installs the binary, writes three client configs, the skill, the snapshot, and verifies",
    () => {
      const r = run(
        "setup",
        "--yes",
        "--client",
        "claude-code",
        "--client",
        "codex",
        "--client",
        "cursor",
        "--project",
        project,
      );
      console.log(`e2e: ra3 setup took ${r.ms} ms`);
      expect(r.stderr).toBe("");
      expect(r.status).toBe(0);
      const lines = r.stdout.split("\n");
      expect(
        lines.filter((l) => /^\[\d\/6\]/.test(l)).map((l) =>
          l.replace(/^(\[\d\/6\] .+?): (done|skipped|failed)\b.*$/, "$1: $2")
        ),
      ).toEqual([
        "[1/6] install the stable binary: done",
        "[2/6] detect the project and the SDK: done",
        "[3/6] configure the MCP clients: done",
        "[4/6] install the Agent Skill: done",
        "[5/6] build the index and the snapshot: done",
        "[6/6] verify: start the installed server as a client would: done",
      ]);
      const verify = lines.find((l) => l.startsWith("[6/6]"))!;
      expect(verify).toMatch(
        new RegExp(
          `done: initialize → tools/list \\(${TOOL_NAMES.length} tools\\) → get_status in \\d+ ms \\(index \\w+\\)$`,
        ),
      );
      console.log(`e2e: setup's verify step: ${verify.replace(/^.*done: /, "")}`);
      expect(readFileSync(installed)).toEqual(readFileSync(BIN));
      const args = ["mcp", "--project", project];
      expect(JSON.parse(readFileSync(join(home, ".claude.json"), "utf8")).mcpServers.ra3).toEqual({
        type: "stdio",
        command: installed,
        args,
      });
      expect(JSON.parse(readFileSync(join(home, ".cursor", "mcp.json"), "utf8")).mcpServers.ra3).toEqual({
        command: installed,
        args,
      });
      expect(readFileSync(join(home, ".codex", "config.toml"), "utf8")).toBe(
        `[mcp_servers.ra3]\ncommand = "${installed}"\nargs = ["mcp", "--project", "${project}"]\n`,
      );
      expect(existsSync(join(home, ".agents", "skills", "ra3-mod-xml", "SKILL.md"))).toBe(true);
      expect(existsSync(join(home, ".claude", "skills", "ra3-mod-xml", "SKILL.md"))).toBe(true);
      expect(readdirSync(join(ra3Home, "snapshots")).filter((n) => n.endsWith(".msgpack"))).toHaveLength(1);
    },
    TIMEOUT,
  );

  test(
    "a second setup reports everything unchanged and leaves HOME byte-identical",
    () => {
      const snapshot = listing(home);
      const r = run(
        "setup",
        "--yes",
        "--client",
        "claude-code",
        "--client",
        "codex",
        "--client",
        "cursor",
        "--project",
        project,
      );
      expect(r.status).toBe(0);
      expect(r.stdout).toContain("[1/6] install the stable binary: done: unchanged:");
      expect(r.stdout).toContain("[3/6] configure the MCP clients: done: unchanged: 3 named clients already point at");
      expect(listing(home)).toEqual(snapshot);
    },
    TIMEOUT,
  );

  test(
    "doctor is all green, including a live spawn of the installed binary for each client",
    () => {
      const r = run("doctor");
      expect(r.stderr).toBe("");
      expect(r.status).toBe(0);
      expect(r.stdout.endsWith("all is well\n")).toBe(true);
      const live = r.stdout.split("\n").filter((l) => l.includes("✓ live check:"));
      expect(live).toHaveLength(3);
      for (const l of live) console.log(`e2e: doctor ${l.trim()}`);
      console.log(`e2e: ra3 doctor took ${r.ms} ms`);
      const json = run("doctor", "--json");
      expect(json.status).toBe(0);
      const report = JSON.parse(json.stdout).result;
      expect(report.ok).toBe(true);
      expect(
        report.clients.map((
          c: { client: string; command: string; live: { ok: boolean; tools: number } },
        ) => [c.client, c.command, c.live.ok, c.live.tools]),
      ).toEqual([
        ["claude-code", installed, true, TOOL_NAMES.length],
        ["codex", installed, true, TOOL_NAMES.length],
        ["cursor", installed, true, TOOL_NAMES.length],
      ]);
    },
    TIMEOUT,
  );

  test(
    "uninstall --yes returns HOME to its prior state apart from the receipt's log",
    () => {
      const r = run("uninstall", "--yes");
      expect(r.stderr).toBe("");
      expect(r.status).toBe(0);
      const after = listing(home);
      const added = Object.keys(after).filter((p) => !(p in before));
      expect(added).toEqual([".ra3modxml", ".ra3modxml/install.json"]);
      expect(Object.fromEntries(Object.entries(after).filter(([p]) => p in before))).toEqual(before);
      const receipt = JSON.parse(readFileSync(join(ra3Home, "install.json"), "utf8"));
      expect({ binary: receipt.binary, configs: receipt.configs, skills: receipt.skills }).toEqual({
        binary: null,
        configs: [],
        skills: [],
      });
      expect(receipt.log.at(-1).action).toBe("uninstall");
      expect(receipt.log.at(-1).detail).toMatch(/^\d+ removed, 0 failed$/);
      const doctor = run("doctor");
      expect(doctor.status).toBe(1);
    },
    TIMEOUT,
  );
});

describe.skipIf(!existsSync(WINDOWS_EXE))("the Windows cross-compile", () => {
  test("dist/ra3-windows-x64.exe is a PE32+ x86-64 console executable", () => {
    const fd = openSync(WINDOWS_EXE, "r");
    const head = Buffer.alloc(4096);
    readSync(fd, head, 0, head.length, 0);
    closeSync(fd);
    expect(head.toString("latin1", 0, 2)).toBe("MZ");
    const pe = head.readUInt32LE(0x3c);
    expect(head.toString("latin1", pe, pe + 4)).toBe("PE\0\0");
    expect(head.readUInt16LE(pe + 4)).toBe(0x8664); // IMAGE_FILE_MACHINE_AMD64
    const optional = pe + 24;
    expect(head.readUInt16LE(optional)).toBe(0x20b); // PE32+
    expect(head.readUInt16LE(optional + 68)).toBe(3); // IMAGE_SUBSYSTEM_WINDOWS_CUI (console)
    expect(statSync(WINDOWS_EXE).size).toBeGreaterThan(50 * 1024 * 1024);
  });
});
