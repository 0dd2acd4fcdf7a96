// In-process MCP harness: the real server (tools, resources) on the sample mod, served by the SDK's
// serveStdio (which picks the protocol era from the first message) over an in-memory pair, and a real
// SDK v2 Client speaking the 2025-11-25 handshake (default) or the 2026-07-28 stateless revision.
import { Client, InMemoryTransport } from "@modelcontextprotocol/client";
import type { CallToolResult } from "@modelcontextprotocol/client";
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ProjectRegistry } from "../../src/mcp/projects.ts";
import { createMcpServer, type ServerOptions } from "../../src/mcp/server.ts";
import type { FileSource } from "../../src/workspace/file-source.ts";
export { CORPORA } from "../../scripts/corpora.ts";

export const SAMPLE = join(import.meta.dirname, "..", "..", "examples", "sample-mod");
/** The stateless protocol revision. */
export const MODERN = "2026-07-28";

export interface Harness {
  readonly client: Client;
  readonly registry: ProjectRegistry;
  readonly logs: string[];
  /** The state folder the registry was given (snapshots go there). */
  readonly home: string;
  call(name: string, args?: Record<string, unknown>): Promise<CallToolResult>;
  close(): Promise<void>;
}

export interface HarnessOptions extends ServerOptions {
  readonly watch?: boolean;
  readonly cwd?: string;
  readonly debounceMs?: number;
  /** Start the index at once (default true). */
  readonly start?: boolean;
  /** The protocol era the client opens with (default "legacy": the initialize handshake). */
  readonly era?: "legacy" | "modern";
  /** A state folder to use (kept on close) instead of a fresh one (removed on close); snapshots go there. */
  readonly home?: string;
  /** The SDK folder (default: none, project-only mode). */
  readonly sdk?: string;
  /** Where mod files are read (default: the disk; tests inject a slow one). */
  readonly files?: FileSource;
  /** Reads an XSD file of the schema (default: the disk; tests inject a slow one). */
  readonly readSchemaFile?: (path: string) => Uint8Array;
  /** The longest a job runs between two yields (0: after every step, to count yields instead of time). */
  readonly sliceMs?: number;
}

/**
 * A connected client and server on `project` (default: the sample mod), project-only mode, no watcher;
 * the index starts building at once unless `start: false`.
 */
export async function connect(project: string = SAMPLE, options: HarnessOptions = {}): Promise<Harness> {
  const logs: string[] = [];
  const log = (l: string) => logs.push(l);
  const home = options.home ?? mkdtempSync(join(tmpdir(), "ra3-mcp-home-"));
  const registry = new ProjectRegistry({
    request: {
      project,
      sdk: options.sdk ?? "",
      schema: null,
      home,
      cwd: options.cwd ?? project,
      env: {},
    },
    log,
    watch: options.watch ?? false,
    debounceMs: options.debounceMs,
    files: options.files,
    readSchemaFile: options.readSchemaFile,
    sliceMs: options.sliceMs,
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const served = serveStdio(() => createMcpServer(registry, { log, ...options }), {
    transport: serverSide,
    onerror: (e) => logs.push(`protocol error: ${e.message}`),
  });
  const client = new Client(
    { name: "ra3-test", version: "1.0.0" },
    options.era === "modern" ? { versionNegotiation: { mode: { pin: MODERN } } } : {},
  );
  await client.connect(clientSide);
  if (options.start !== false) registry.startDefault();
  return {
    client,
    registry,
    logs,
    home,
    call: (name, args = {}) => client.callTool({ name, arguments: args }) as Promise<CallToolResult>,
    close: async () => {
      await client.close();
      await served.close();
      await registry.dispose();
      if (!options.home) rmSync(home, { recursive: true, force: true });
    },
  };
}

/** The text of a result's first content block. */
export function textOf(r: CallToolResult): string {
  const c = r.content[0];
  return c && c.type === "text" ? c.text : "";
}

/** The text without its last line, the index line ("index ready, build 1 of …, <project>") every answer about a project ends with. */
export function bodyOf(r: CallToolResult): string {
  const text = textOf(r);
  const lines = text.split("\n");
  return lines.length > 1 && /^index \S+( \([^)]*\))?, build \d+/.test(lines.at(-1)!)
    ? lines.slice(0, -1).join("\n")
    : text;
}

// deno-lint-ignore no-explicit-any
export type Json = any;

/** The structured result (`structuredContent.result`). */
export function resultOf(r: CallToolResult): Json {
  return (r.structuredContent as Json)?.result;
}
