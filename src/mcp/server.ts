/**
 * The MCP server: the SDK's `McpServer` (v1) with the tools, resources and `instructions`, and the
 * stdio session around it. `initialize` is answered at once; the index starts building right after
 * the connection is up, and every answer carries the envelope saying how far it got.
 */
// @ts-types="@modelcontextprotocol/sdk/server/mcp"
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
// @ts-types="@modelcontextprotocol/sdk/server/zod-compat"
import type { ZodRawShapeCompat } from "@modelcontextprotocol/sdk/server/zod-compat.js";
import { TOOL_VERSION } from "../version.ts";
import { readSourceText, type SourceText } from "../workspace/source-text.ts";
import type { ConfigRequest } from "../workspace/config.ts";
import { buildInstructions } from "./instructions.ts";
import { ProjectRegistry, type RegistryOptions } from "./projects.ts";
import { registerResources } from "./resources.ts";
import { DEFAULT_STRICT_TIMEOUT_MS } from "./respond.ts";
import { toolDeclarations, type ToolEnv } from "./tools.ts";
import { type ChunkSource, type LineOutput, LineTransport } from "./transport.ts";

/** When the index starts if the client never sends `notifications/initialized`. */
const INDEX_START_FALLBACK_MS = 100;

export interface ServerOptions {
  /** How long `consistency: "strict"` waits (default 30 s). */
  readonly strictTimeoutMs?: number;
  readonly readSource?: (path: string) => SourceText;
  readonly log?: (line: string) => void;
}

/**
 * An `McpServer` answering for the projects of `registry`: the 15 tools in their fixed order, the
 * resource templates, and `instructions` built from the skill and the serving facts.
 * @example createMcpServer(new ProjectRegistry({ request })).server.getCapabilities().tools // { listChanged: true }
 */
export function createMcpServer(registry: ProjectRegistry, options: ServerOptions = {}): McpServer {
  const single = registry.single;
  const instructions = buildInstructions({
    mode: registry.mode,
    root: registry.root,
    config: single ? registry.configOf(single) : null,
    projects: registry.projects.map((p) => p.name),
    note: registry.note,
  });
  const server = new McpServer({ name: "ra3", title: "ra3: Red Alert 3 mod index", version: TOOL_VERSION }, {
    instructions,
  });
  const env: ToolEnv = {
    registry,
    strictTimeoutMs: options.strictTimeoutMs ?? DEFAULT_STRICT_TIMEOUT_MS,
    readSource: options.readSource ?? readSourceText,
    log: options.log ?? (() => {}),
  };
  for (const tool of toolDeclarations(env)) {
    server.registerTool(
      tool.name,
      {
        title: tool.title,
        description: tool.description,
        inputSchema: tool.input,
        outputSchema: tool.output as unknown as ZodRawShapeCompat,
        annotations: tool.annotations,
      },
      tool.handler as never,
    );
  }
  registerResources(server, env);
  return server;
}

export interface StdioSessionOptions extends ServerOptions {
  readonly request: RegistryOptions["request"];
  readonly input: ChunkSource;
  readonly output: LineOutput;
  readonly registry?: Omit<RegistryOptions, "request" | "log">;
}

export interface StdioSession {
  /** Resolves when the client disconnected (stdin closed) or {@link stop} was called, after cleanup. */
  readonly done: Promise<void>;
  /** Closes the connection (e.g. on SIGTERM); resolves like {@link done}. */
  stop(): Promise<void>;
}

/**
 * Serves MCP over a line transport until the input ends: connect first (so a buffered `initialize` is
 * answered at once), then start the index in the background; on close, stop watchers and flush.
 */
export async function startStdioSession(options: StdioSessionOptions): Promise<StdioSession> {
  const log = options.log ?? (() => {});
  const registry = new ProjectRegistry({
    ...options.registry,
    request: options.request as Omit<ConfigRequest, "lister">,
    log,
  });
  const server = createMcpServer(registry, options);
  const transport = new LineTransport(options.input, options.output, { log });
  let closed!: () => void;
  const disconnected = new Promise<void>((resolve) => (closed = resolve));
  server.server.onclose = () => closed();
  server.server.onerror = (e) => log(`protocol error: ${e.message}`);
  // Opening a project loads its schema synchronously (up to a few hundred ms): do it once initialize has
  // been answered, i.e. when the client says `initialized` (or soon anyway, for clients that never do).
  let started = false;
  const startIndex = () => {
    if (started) return;
    started = true;
    clearTimeout(fallback);
    registry.startDefault();
  };
  const fallback = setTimeout(startIndex, INDEX_START_FALLBACK_MS);
  server.server.oninitialized = startIndex;
  await server.connect(transport);
  log(describe(registry));
  const done = disconnected.then(() => {
    clearTimeout(fallback);
    return registry.dispose();
  });
  return {
    done,
    stop: async () => {
      await transport.close();
      await done;
    },
  };
}

function describe(registry: ProjectRegistry): string {
  if (registry.mode === "single") return `serving ${registry.root}`;
  if (registry.mode === "container") {
    return `serving ${registry.projects.length} mods below ${registry.root}: ${
      registry.projects.map((p) => p.name).join(", ")
    }`;
  }
  return `no mod to serve (${registry.note}); answering get_status with state no_index`;
}
