// In-process MCP harness: the real server (tools, resources) on the sample mod, a real SDK Client,
// linked by the SDK's in-memory transport.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ProjectRegistry } from "../../src/mcp/projects.ts";
import { createMcpServer, type ServerOptions } from "../../src/mcp/server.ts";
export { CORPORA } from "../../scripts/corpora.ts";

export const SAMPLE = join(import.meta.dirname, "..", "..", "examples", "sample-mod");

export interface Harness {
  readonly client: Client;
  readonly registry: ProjectRegistry;
  readonly logs: string[];
  call(name: string, args?: Record<string, unknown>): Promise<CallToolResult>;
  close(): Promise<void>;
}

/**
 * A connected client and server on `project` (default: the sample mod), project-only mode, no watcher;
 * the index starts building at once unless `start: false`.
 */
export async function connect(
  project: string = SAMPLE,
  options: ServerOptions & { watch?: boolean; cwd?: string; debounceMs?: number; start?: boolean } = {},
): Promise<Harness> {
  const logs: string[] = [];
  const log = (l: string) => logs.push(l);
  const home = mkdtempSync(join(tmpdir(), "ra3-mcp-home-"));
  const registry = new ProjectRegistry({
    request: {
      project,
      sdk: "",
      schema: null,
      home,
      cwd: options.cwd ?? project,
      env: {},
    },
    log,
    watch: options.watch ?? false,
    debounceMs: options.debounceMs,
  });
  const server = createMcpServer(registry, { log, ...options });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: "ra3-test", version: "1.0.0" });
  await client.connect(clientSide);
  if (options.start !== false) registry.startDefault();
  return {
    client,
    registry,
    logs,
    call: (name, args = {}) => client.callTool({ name, arguments: args }) as Promise<CallToolResult>,
    close: async () => {
      await client.close();
      await server.close();
      await registry.dispose();
      rmSync(home, { recursive: true, force: true });
    },
  };
}

/** The text of a result's first content block. */
export function textOf(r: CallToolResult): string {
  const c = r.content[0];
  return c && c.type === "text" ? c.text : "";
}

// deno-lint-ignore no-explicit-any
export type Json = any;

/** The structured result (`structuredContent.result`). */
export function resultOf(r: CallToolResult): Json {
  return (r.structuredContent as Json)?.result;
}
