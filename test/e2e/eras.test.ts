// Both MCP protocol eras from the one compiled binary: a modern-era client (SDK v2, 2026-07-28:
// server/discover, the per-request _meta envelope, no initialize), the same client probing ("auto"),
// and legacy clients (the SDK v1 1.32 client as agents in the field ship it, and SDK v2 in legacy mode:
// the 2025-11-25 initialize handshake); plus the raw lines of a stateless exchange.
import { describe, expect, test } from "bun:test";
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client as ModernClient } from "@modelcontextprotocol/client";
import { StdioClientTransport as ModernStdio } from "@modelcontextprotocol/client/stdio";
import { Client as LegacyClient } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport as LegacyStdio } from "@modelcontextprotocol/sdk/client/stdio.js";
import { TOOL_NAMES } from "../../src/skill/tool-names.ts";
import { type Json, MODERN, SAMPLE } from "../mcp/harness.ts";
import { tempDirs } from "../temp-dirs.ts";

const BIN = join(import.meta.dirname, "..", "..", "dist", "ra3");
const TIMEOUT = 60_000;
const TMP = tempDirs();
const serverArgs = () => ["mcp", "--project", SAMPLE, "--sdk", "", "--home", TMP.make("ra3-eras-home-")];

/** The answers every era must give alike: the tool list, a query, a resource, a completion. */
async function sameAnswers(client: ModernClient | LegacyClient): Promise<void> {
  expect((await client.listTools()).tools.map((t) => t.name)).toEqual([...TOOL_NAMES]);
  const status = await client.callTool({ name: "get_status", arguments: { consistency: "strict" } });
  expect((status.structuredContent as Json).index.state).toBe("ready");
  const found = await client.callTool({ name: "find_asset", arguments: { id: "AthenaSplash" } });
  expect((found.content as Json)[0].text.split("\n").slice(0, 2)).toEqual([
    '1 definition of "AthenaSplash":',
    "- WeaponTemplate AthenaSplash  Data/Includes/Weapons.xml:13-17  [project, compiled in static]",
  ]);
  expect(found.structuredContent).toEqual({
    index: {
      state: "ready",
      complete: true,
      stale: false,
      buildId: 1,
      builtAt: (found.structuredContent as Json).index.builtAt,
      projectDir: SAMPLE,
    },
    result: {
      id: "AthenaSplash",
      definitions: [{ type: "WeaponTemplate", at: "Data/Includes/Weapons.xml:13", endLine: 17, streams: ["static"] }],
    },
  });
  const read = await client.readResource({ uri: "ra3://asset/WeaponTemplate/AthenaSplash" });
  expect((read.contents[0] as Json).text.split("\n")[0]).toBe(
    "WeaponTemplate AthenaSplash  Data/Includes/Weapons.xml lines 13-17  [project, compiled in static]",
  );
  const done = await client.complete({
    ref: { type: "ref/resource", uri: "ra3://asset/{type}/{id}" },
    argument: { name: "id", value: "athena" },
    context: { arguments: { type: "WeaponTemplate" } },
  });
  expect(done.completion.values).toEqual(["AthenaSplash", "AthenaWreckBurn", "AthenaCannonBeam"]);
}

/** Connects `client` to a server spawned by `transport`, runs `checks`, and always closes. */
async function session<C extends ModernClient | LegacyClient>(
  client: C,
  transport: ModernStdio | LegacyStdio,
  checks: (client: C) => Promise<void>,
): Promise<void> {
  await client.connect(transport as never);
  try {
    await checks(client);
  } finally {
    await client.close();
  }
}

const modernStdio = () => new ModernStdio({ command: BIN, args: serverArgs(), cwd: tmpdir(), stderr: "ignore" });

describe.skipIf(!existsSync(BIN))("one binary, both protocol eras", () => {
  test(
    "a modern client (SDK v2 pinned to 2026-07-28): server/discover, no initialize, every answer as in the 2025 era",
    async () => {
      const pinned = new ModernClient({ name: "modern-e2e", version: "1" }, {
        versionNegotiation: { mode: { pin: MODERN } },
      });
      await session(pinned, modernStdio(), async (client) => {
        expect([client.getProtocolEra(), client.getNegotiatedProtocolVersion()]).toEqual(["modern", MODERN]);
        expect(client.getDiscoverResult()?.supportedVersions).toEqual([MODERN]);
        expect(client.getServerVersion()?.name).toBe("ra3");
        expect(client.getInstructions()).toContain(`Project: ${SAMPLE}.`);
        await sameAnswers(client);
      });
    },
    TIMEOUT,
  );

  test(
    "the same client probing (auto) settles on the modern era",
    async () => {
      const auto = new ModernClient({ name: "auto-e2e", version: "1" }, { versionNegotiation: { mode: "auto" } });
      await session(auto, modernStdio(), async (client) => {
        expect([client.getProtocolEra(), client.getNegotiatedProtocolVersion()]).toEqual(["modern", MODERN]);
        expect((await client.listTools()).tools.length).toBe(TOOL_NAMES.length);
      });
    },
    TIMEOUT,
  );

  test(
    "a legacy client (SDK v1 1.32.2, initialize handshake at 2025-11-25)",
    async () => {
      const transport = new LegacyStdio({ command: BIN, args: serverArgs(), cwd: tmpdir(), stderr: "ignore" });
      // The v1 client does not expose the negotiated version: read it off the initialize answer.
      const answers: Json[] = [];
      const start = transport.start.bind(transport);
      transport.start = () => {
        const deliver = transport.onmessage!;
        transport.onmessage = (m) => {
          answers.push(m);
          deliver(m);
        };
        return start();
      };
      await session(new LegacyClient({ name: "legacy-e2e", version: "1" }), transport, async (client) => {
        expect([answers[0].result.protocolVersion, client.getServerVersion()?.name]).toEqual(["2025-11-25", "ra3"]);
        expect(client.getInstructions()).toContain(`Project: ${SAMPLE}.`);
        await sameAnswers(client);
      });
    },
    TIMEOUT,
  );

  test(
    "SDK v2 in legacy mode: the initialize handshake",
    async () => {
      await session(new ModernClient({ name: "v2-legacy-e2e", version: "1" }), modernStdio(), async (client) => {
        expect([client.getProtocolEra(), client.getNegotiatedProtocolVersion()]).toEqual(["legacy", "2025-11-25"]);
        await sameAnswers(client);
      });
    },
    TIMEOUT,
  );

  test(
    "raw stateless lines: a tools/call as the first message (no discover, no initialize) is answered; a call without the envelope is refused",
    async () => {
      const meta = {
        "io.modelcontextprotocol/protocolVersion": MODERN,
        "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1" },
        "io.modelcontextprotocol/clientCapabilities": {},
      };
      const lines = [
        { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "get_status", arguments: {}, _meta: meta } },
        { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "get_status", arguments: {} } },
        { jsonrpc: "2.0", id: 3, method: "server/discover", params: { _meta: meta } },
      ];
      const out = await new Promise<string>((resolve) => {
        const child = spawn(BIN, serverArgs(), { cwd: tmpdir(), stdio: ["pipe", "pipe", "ignore"] });
        let got = "";
        child.stdout.on("data", (c: Buffer) => (got += c.toString("utf8")));
        child.on("exit", () => resolve(got));
        child.stdin.end(lines.map((l) => JSON.stringify(l)).join("\n") + "\n");
      });
      const byId = new Map(out.split("\n").filter(Boolean).map((l) => JSON.parse(l)).map((m) => [m.id, m]));
      expect(byId.get(1).result.resultType).toBe("complete");
      expect(byId.get(1).result.structuredContent.index.projectDir).toBe(SAMPLE);
      expect(byId.get(2).error).toEqual({
        code: -32602,
        message:
          "Request is missing the required _meta envelope for protocol revision 2026-07-28 (io.modelcontextprotocol/protocolVersion, io.modelcontextprotocol/clientCapabilities)",
      });
      expect(byId.get(3).result.supportedVersions).toEqual([MODERN]);
      expect(byId.get(3).result.capabilities).toEqual({
        tools: { listChanged: false },
        resources: { listChanged: false },
        completions: {},
      });
    },
    TIMEOUT,
  );
});
