// End to end, as a client runs it: the compiled binary dist/ra3 (and the same source under Deno)
// spawned with the SDK's StdioClientTransport, on the sample mod and on the Upheaval corpus; plus raw
// JSON-RPC piped into the binary's stdin, and edits made while the server runs.
import { afterAll, describe, expect, test } from "bun:test";
import { type ChildProcess, spawn } from "node:child_process";
import { cpSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js";
import { TOOL_NAMES } from "../../src/skill/tool-names.ts";
import { checkCase, sampleCases } from "../mcp/cases.ts";
import { CORPORA, type Json, resultOf, SAMPLE, textOf } from "../mcp/harness.ts";
import { tempDirs } from "../temp-dirs.ts";

const ROOT = join(import.meta.dirname, "..", "..");
const BIN = join(ROOT, "dist", "ra3");
const DENO = join(ROOT, "node_modules", ".bin", "deno");
const UPHEAVAL = join(CORPORA, "upheaval");
const TIMEOUT = 60_000;

interface Runner {
  readonly name: string;
  readonly available: boolean;
  /** Command and arguments that start `ra3 mcp …` with `args` appended. */
  command(args: string[]): { command: string; args: string[]; cwd: string };
}

const binary: Runner = {
  name: "compiled binary",
  available: existsSync(BIN),
  // Run from an unrelated folder: nothing may depend on the working directory.
  command: (args) => ({ command: BIN, args: ["mcp", ...args], cwd: tmpdir() }),
};
const deno: Runner = {
  name: "deno run",
  available: existsSync(DENO),
  // Deno finds deno.json and node_modules from the repository root.
  command: (args) => ({ command: DENO, args: ["run", "-A", join(ROOT, "src", "main.ts"), "mcp", ...args], cwd: ROOT }),
};

const home = () => TMP.make("ra3-e2e-home-");

interface Session {
  readonly client: Client;
  readonly tools: Tool[];
  readonly stderr: () => string;
  call(name: string, args?: Record<string, unknown>): Promise<CallToolResult>;
  close(): Promise<void>;
}

const sessions: Session[] = [];
afterAll(async () => {
  for (const s of sessions) await s.close().catch(() => {});
});
// Registered after the sessions' afterAll: the folders go once no server process can write to them.
const TMP = tempDirs();

async function start(runner: Runner, project: string, extra: string[] = []): Promise<Session> {
  const { command, args, cwd } = runner.command(["--project", project, "--home", home(), ...extra]);
  const transport = new StdioClientTransport({ command, args, cwd, stderr: "pipe" });
  let err = "";
  transport.stderr?.on("data", (c: Buffer) => (err += c.toString("utf8")));
  const client = new Client({ name: "ra3-e2e", version: "1.0.0" });
  await client.connect(transport);
  const tools = (await client.listTools()).tools;
  const ajv = new AjvJsonSchemaValidator();
  const s: Session = {
    client,
    tools,
    stderr: () => err,
    call: async (name, a = {}) => {
      const r = (await client.callTool({ name, arguments: a })) as CallToolResult;
      if (r.structuredContent !== undefined) {
        const schema = tools.find((t) => t.name === name)!.outputSchema;
        expect(ajv.getValidator(schema as never)(r.structuredContent).errorMessage).toBeUndefined();
      }
      return r;
    },
    close: () => client.close(),
  };
  sessions.push(s);
  return s;
}

function copyOfSample(): string {
  const dir = join(TMP.make("ra3-e2e-mod-"), "Sample Copy");
  cpSync(SAMPLE, dir, { recursive: true });
  return dir;
}

for (const runner of [binary, deno]) {
  describe.skipIf(!runner.available)(`ra3 mcp (${runner.name}) on the sample mod`, () => {
    test(
      "initialize, tools/list, and every tool with good and bad arguments",
      async () => {
        const dir = copyOfSample();
        const s = await start(runner, dir);
        expect(s.client.getServerVersion()?.name).toBe("ra3");
        expect(s.client.getInstructions()).toContain(`Project: ${dir}.`);
        expect(s.tools.map((t) => t.name)).toEqual([...TOOL_NAMES]);
        const first = await s.call("get_status", { consistency: "strict" });
        expect((first.structuredContent as Json).index.counts).toEqual({
          files: 15,
          assets: 28,
          sdkAssets: 0,
          references: 23,
          defines: 3,
          diagnostics: 4,
        });
        for (const c of sampleCases(dir)) checkCase(c, await s.call(c.tool, c.args));
        expect(s.stderr()).toContain(`ra3 mcp: serving ${dir}`);
      },
      TIMEOUT,
    );

    test(
      "an edit while the server runs: strict sees it at once, eventual catches up through the watcher",
      async () => {
        const dir = copyOfSample();
        const s = await start(runner, dir);
        expect(
          resultOf(await s.call("find_define", { name: "ATHENA_RANGE", consistency: "strict" })).definitions[0].value,
        ).toBe("350");
        const defines = join(dir, "Data", "Includes", "Defines.xml");
        writeFileSync(defines, readFileSync(defines, "utf8").replace('value="350"', 'value="425"'));
        expect(
          resultOf(await s.call("find_define", { name: "ATHENA_RANGE", consistency: "strict" })).definitions[0].value,
        ).toBe("425");

        const weapons = join(dir, "Data", "Includes", "Weapons.xml");
        writeFileSync(
          weapons,
          readFileSync(weapons, "utf8").replace('id="UnusedTestWeapon"', 'id="RenamedTestWeapon"'),
        );
        let r: CallToolResult | null = null;
        for (let i = 0; i < 200; i++) {
          r = await s.call("find_asset", { id: "RenamedTestWeapon" });
          if (!r.isError) break;
          await new Promise((res) => setTimeout(res, 25));
        }
        expect(resultOf(r!).definitions.map((d: Json) => d.at)).toEqual(["Data/Includes/Weapons.xml:32"]);
        expect((await s.call("find_asset", { id: "UnusedTestWeapon" })).isError).toBe(true);
      },
      TIMEOUT,
    );
  });
}

describe.skipIf(!binary.available || !existsSync(UPHEAVAL))("ra3 mcp (compiled binary) on Upheaval", () => {
  test(
    "a real mod: status, a unit's weapons, display names, paging, bounds",
    async () => {
      const s = await start(binary, UPHEAVAL);
      const status = await s.call("get_status", { consistency: "strict" });
      const index = (status.structuredContent as Json).index;
      expect([index.state, index.sdkDir, index.counts.assets, index.counts.files]).toEqual(["ready", null, 3866, 957]);

      const strings = resultOf(await s.call("search_strings", { text: "Desolator Trooper" }));
      expect(strings.matches[0].assets.map((a: Json) => a.asset)).toEqual(["GameObject:SovietDesolatorInfantry"]);

      const unit = resultOf(await s.call("find_asset", { id: "SovietDesolatorInfantry", type: "GameObject" }));
      expect(unit.definitions.map((d: Json) => d.at.replace(/:\d+$/, ""))).toEqual([
        "Data/Mod/Units/Desolator/GameObject.xml",
      ]);

      const weapons = resultOf(
        await s.call("get_asset_references", {
          id: "SovietDesolatorInfantry",
          type: "GameObject",
          targetTypes: ["WeaponTemplate"],
        }),
      );
      const ids = weapons.edges.filter((e: Json) => e.to.startsWith("WeaponTemplate:")).map((e: Json) =>
        e.to.slice("WeaponTemplate:".length)
      );
      expect(ids.length).toBeGreaterThan(0);
      for (const id of ids) {
        expect((await s.call("find_asset", { id, type: "WeaponTemplate" })).isError ?? false).toBe(false);
      }

      const def = await s.call("get_definition", { id: "SovietDesolatorInfantry", type: "GameObject" });
      expect(textOf(def).split("\n")[0]).toStartWith(
        "GameObject SovietDesolatorInfantry  Data/Mod/Units/Desolator/GameObject.xml lines ",
      );

      const page = await s.call("list_assets_by_type", { type: "AudioFile", limit: 10_000 });
      expect(JSON.stringify(page.structuredContent).length + textOf(page).length).toBeLessThanOrEqual(20_000);
      expect(typeof resultOf(page).nextCursor).toBe("string");

      const vanilla = await s.call("find_asset", { id: "AlliedAntiVehicleVehicleTech1" });
      expect(vanilla.isError).toBe(true);
      expect((vanilla.structuredContent as Json).error.code).toMatch(/^(no_sdk|not_found)$/);
    },
    TIMEOUT,
  );
});

/** Spawns the binary with raw pipes; resolves with stdout, stderr and the exit code. */
function runRaw(
  lines: string[],
  opts: {
    closeStdin: "immediately" | "after-responses" | "never";
    responses?: number;
    signal?: NodeJS.Signals;
    command?: string;
    /** Leave stdout unread this long after spawn (a client busy elsewhere), so the pipe fills. */
    readAfterMs?: number;
  },
): Promise<{ out: string; err: string; code: number | null }> {
  return new Promise((resolve, reject) => {
    const env = { ...process.env };
    delete env.RA3_SDK;
    const child: ChildProcess = spawn(BIN, [opts.command ?? "mcp", "--project", SAMPLE, "--home", home()], {
      cwd: tmpdir(),
      env,
      stdio: ["pipe", "pipe", "pipe"],
    });
    let out = "";
    let err = "";
    const guard = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`the server did not exit; stdout so far: ${out}`));
    }, 20_000);
    child.stdout!.on("data", (c: Buffer) => {
      out += c.toString("utf8");
      const n = out.split("\n").filter(Boolean).length;
      if (n >= (opts.responses ?? Infinity)) {
        if (opts.closeStdin === "after-responses") child.stdin!.end();
        if (opts.signal) child.kill(opts.signal);
      }
    });
    child.stderr!.on("data", (c: Buffer) => (err += c.toString("utf8")));
    if (opts.readAfterMs) {
      child.stdout!.pause();
      setTimeout(() => child.stdout!.resume(), opts.readAfterMs);
    }
    child.on("exit", (code) => {
      clearTimeout(guard);
      resolve({ out, err, code });
    });
    // Everything at once, right after spawn: nothing may be lost while the server starts.
    child.stdin!.write(lines.join("\n") + "\n");
    if (opts.closeStdin === "immediately") child.stdin!.end();
  });
}

const INIT = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
});
const INITIALIZED = JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" });
const LIST = JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" });
const CALL = JSON.stringify({
  jsonrpc: "2.0",
  id: 3,
  method: "tools/call",
  params: { name: "find_asset", arguments: { id: "AthenaSplash", consistency: "strict" } },
});

describe.skipIf(!binary.available)("raw JSON-RPC over the binary's stdin", () => {
  test(
    "written all at once right after spawn, stdin closed at once: every answer, one JSON object per line, then exit 0",
    async () => {
      const { out, err, code } = await runRaw([INIT, INITIALIZED, LIST, CALL], { closeStdin: "immediately" });
      const lines = out.split("\n");
      expect(lines.at(-1)).toBe("");
      const messages = lines.slice(0, -1).map((l) => JSON.parse(l));
      expect(messages.map((m) => [m.jsonrpc, m.id, "result" in m])).toEqual([
        ["2.0", 1, true],
        ["2.0", 2, true],
        ["2.0", 3, true],
      ]);
      expect(messages[0].result.serverInfo.name).toBe("ra3");
      expect(messages[1].result.tools.map((t: Json) => t.name)).toEqual([...TOOL_NAMES]);
      expect(messages[2].result.structuredContent.result.definitions[0].at).toBe("Data/Includes/Weapons.xml:13");
      expect(code).toBe(0);
      expect(err).toContain("ra3 mcp: serving");
    },
    TIMEOUT,
  );

  test(
    "stdin kept open until the answers arrive, then closed: the server exits 0",
    async () => {
      const { out, code } = await runRaw([INIT, INITIALIZED, LIST], { closeStdin: "after-responses", responses: 2 });
      expect([out.split("\n").filter(Boolean).length, code]).toEqual([2, 0]);
    },
    TIMEOUT,
  );

  test(
    "ra3 --mcp (the flag form); SIGTERM stops the server cleanly",
    async () => {
      const { out, code, err } = await runRaw([INIT], {
        closeStdin: "never",
        responses: 1,
        signal: "SIGTERM",
        command: "--mcp",
      });
      expect([JSON.parse(out.split("\n")[0]).id, code]).toEqual([1, 0]);
      expect(err).toContain("ra3 mcp: stopping");
    },
    TIMEOUT,
  );

  test(
    "tools/call with arguments [], null or a string: -32602 with one sentence each, and the session goes on",
    async () => {
      const bad = (id: number, args: unknown) =>
        JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "find_asset", arguments: args } });
      const { out, code } = await runRaw([INIT, INITIALIZED, bad(5, []), bad(6, null), bad(7, "AthenaSplash"), CALL], {
        closeStdin: "immediately",
      });
      const byId = new Map(out.split("\n").filter(Boolean).map((l) => JSON.parse(l)).map((m) => [m.id, m]));
      const refusal = (kind: string) => ({
        code: -32602,
        message:
          `Invalid params: the arguments of find_asset must be an object of named arguments (pass {} for none), got ${kind}`,
      });
      expect([byId.get(5).error, byId.get(6).error, byId.get(7).error]).toEqual([
        refusal("a list"),
        refusal("null"),
        refusal("a string"),
      ]);
      expect(byId.get(3).result.isError ?? false).toBe(false);
      expect(code).toBe(0);
    },
    TIMEOUT,
  );

  test(
    "1,000 pipelined calls to a client that reads late: every answer, no MaxListenersExceededWarning",
    async () => {
      const calls = Array.from({ length: 1000 }, (_, i) =>
        JSON.stringify({
          jsonrpc: "2.0",
          id: 100 + i,
          method: "tools/call",
          params: { name: "get_asset_references", arguments: { id: "AlliedAthenaCannon", consistency: "strict" } },
        }));
      const { out, err, code } = await runRaw([INIT, INITIALIZED, ...calls], {
        closeStdin: "after-responses",
        responses: 1001,
        readAfterMs: 2000,
      });
      const ids = out.split("\n").filter(Boolean).map((l) => JSON.parse(l).id);
      expect([ids.length, new Set(ids).size, code]).toEqual([1001, 1001, 0]);
      expect(err).not.toContain("MaxListenersExceededWarning");
    },
    TIMEOUT,
  );

  test(
    "a malformed line gets a parse error and the session goes on",
    async () => {
      const { out, code } = await runRaw([INIT, "{not json", LIST], { closeStdin: "immediately" });
      const messages = out.split("\n").filter(Boolean).map((l) => JSON.parse(l));
      expect(messages.map((m) => m.id)).toEqual([null, 1, 2]);
      expect(messages[0].error).toEqual({
        code: -32700,
        message: 'Parse error: the line is not JSON ("{not json"); send one JSON-RPC message per line',
      });
      expect(code).toBe(0);
    },
    TIMEOUT,
  );
});
