import { describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { TOOL_NAMES } from "../../src/skill/tool-names.ts";
import { commandLine, describeLiveCheck, liveCheck } from "../../src/setup/live-check.ts";
import { TOOL_VERSION } from "../../src/version.ts";

const ROOT = join(import.meta.dirname, "..", "..");
const SAMPLE = join(ROOT, "examples", "sample-mod");
// The test runner's own runtime runs the server from source, so this needs no compiled binary.
const RUNTIME = process.execPath;

describe("liveCheck against real processes", () => {
  test("the MCP server from source: initialize → tools/list → get_status", async () => {
    const home = mkdtempSync(join(tmpdir(), "ra3-live-"));
    const r = await liveCheck({
      command: RUNTIME,
      args: [join(ROOT, "src", "main.ts"), "mcp", "--project", SAMPLE, "--home", home, "--sdk", ""],
      cwd: tmpdir(),
    });
    rmSync(home, { recursive: true, force: true });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.tools).toBe(TOOL_NAMES.length);
    expect(r.serverName).toBe("ra3");
    expect(r.serverVersion).toBe(TOOL_VERSION);
    expect(["building", "ready_xml", "ready"]).toContain(r.indexState!);
    expect(describeLiveCheck(r)).toBe(
      `initialize → tools/list (${TOOL_NAMES.length} tools) → get_status in ${r.ms} ms (index ${r.indexState})`,
    );
  }, 30_000);

  test("a command that does not exist fails at spawn", async () => {
    const r = await liveCheck({ command: join(tmpdir(), "no-such-ra3-binary"), args: ["mcp"] });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.stage).toBe("spawn");
    expect(r.error).toBe("the command does not exist (ENOENT)");
  });

  test("a server that exits at once fails at initialize, quoting its stderr", async () => {
    const r = await liveCheck({
      command: RUNTIME,
      args: ["-e", "console.error('ra3: no Red Alert 3 mod at /x'); process.exit(3)"],
    });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.stage).toBe("initialize");
    expect(r.error).toBe("Connection closed (server stderr: ra3: no Red Alert 3 mod at /x)");
  }, 20_000);

  test("a server that never answers times out", async () => {
    const r = await liveCheck({ command: RUNTIME, args: ["-e", "setInterval(() => {}, 1000)"], timeoutMs: 1500 });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.stage).toBe("initialize");
    expect(r.error).toBe("no answer within 1500 ms");
    expect(r.ms).toBeGreaterThanOrEqual(1500);
  }, 20_000);
});

test("commandLine quotes arguments a shell would split", () => {
  expect(commandLine("C:\\Users\\Ann Lee\\.ra3modxml\\bin\\ra3.exe", ["mcp", "--project", "D:\\Mods\\Corona Mod"]))
    .toBe(
      '"C:\\Users\\Ann Lee\\.ra3modxml\\bin\\ra3.exe" mcp --project "D:\\Mods\\Corona Mod"',
    );
  expect(commandLine("/b/ra3", ["mcp", "--sdk", ""])).toBe('/b/ra3 mcp --sdk ""');
});
