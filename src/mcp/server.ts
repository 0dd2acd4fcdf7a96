/**
 * The MCP server: the SDK's `McpServer` (v2) with the tools, resources and `instructions`, served on
 * stdio for both protocol eras by the SDK's `serveStdio` (a 2025-era `initialize` handshake and the
 * 2026-07-28 stateless `server/discover` + per-request `_meta`), over ra3's own line transport. The
 * first answer goes out at once; the index starts building right after it, and every answer carries
 * the envelope saying how far it got.
 */
import type { DisplayRoots } from "../project/paths.ts";
import { McpServer, type ServerContext, type StandardSchemaWithJSON } from "@modelcontextprotocol/server";
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import type * as z from "zod";
import { TOOL_VERSION } from "../version.ts";
import { readSourceText, type SourceText } from "../workspace/source-text.ts";
import type { ConfigRequest } from "../workspace/config.ts";
import { buildInstructions } from "./instructions.ts";
import { ProjectRegistry, type RegistryOptions } from "./projects.ts";
import { registerResources, RESOURCE_WAIT_MS } from "./resources.ts";
import { DEFAULT_STRICT_TIMEOUT_MS } from "./respond.ts";
import { type Extra, toolDeclarations, type ToolEnv } from "./tools.ts";
import { type ChunkSource, type LineOutput, LineTransport } from "./transport.ts";

/** When the index starts if no answer has gone out by then (a client that connects and waits). */
const INDEX_START_FALLBACK_MS = 100;

export interface ServerOptions {
  /** How long `consistency: "strict"` waits (default 30 s). */
  readonly strictTimeoutMs?: number;
  /** How long `resources/read` waits for the first index (default {@link RESOURCE_WAIT_MS}). */
  readonly resourceWaitMs?: number;
  readonly readSource?: (path: string, roots: DisplayRoots) => SourceText;
  readonly log?: (line: string) => void;
}

/**
 * The tool's JSON Schema as zod writes it, with validation left to the handler: the SDK's own check
 * answers a bad argument with its generic wording, the handlers with one sentence naming the field.
 */
function listedOnly(schema: z.ZodObject): StandardSchemaWithJSON {
  const std = schema["~standard"];
  return {
    "~standard": {
      version: 1,
      vendor: "ra3",
      validate: (value: unknown) => ({ value }),
      jsonSchema: std.jsonSchema,
    },
  } as StandardSchemaWithJSON;
}

/** The handler context ra3's tools use, from the SDK's. */
function extraOf(ctx: ServerContext): Extra {
  return {
    signal: ctx.mcpReq.signal,
    progressToken: ctx.mcpReq._meta?.progressToken,
    notify: (method, params) => ctx.mcpReq.notify({ method, params }),
  };
}

/**
 * An `McpServer` answering for the projects of `registry`: the 16 tools in their fixed order, the
 * resource templates, and `instructions` built from the skill and the serving facts. The tool and
 * resource lists never change, so no `listChanged` is advertised.
 * @example createMcpServer(new ProjectRegistry({ request })).server.getCapabilities().tools // { listChanged: false }
 */
export function createMcpServer(registry: ProjectRegistry, options: ServerOptions = {}): McpServer {
  const single = registry.single;
  const instructions = buildInstructions({
    mode: registry.mode,
    root: registry.root,
    config: single ? registry.configOf(single) : null,
    projects: registry.projects.map((p) => p.name),
    note: registry.note,
    snapshot: single ? registry.snapshotOf(single) : null,
  });
  const server = new McpServer({ name: "ra3", title: "ra3: Red Alert 3 mod index", version: TOOL_VERSION }, {
    instructions,
    capabilities: { tools: { listChanged: false }, resources: { listChanged: false } },
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
        inputSchema: listedOnly(tool.input),
        outputSchema: tool.output,
        annotations: tool.annotations,
      },
      (args: unknown, ctx: ServerContext) => tool.handler(args, extraOf(ctx)),
    );
  }
  registerResources(server, env, options.resourceWaitMs ?? RESOURCE_WAIT_MS);
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
 * Serves MCP over a line transport until the input ends, in whichever era the client opens with: the
 * SDK's `serveStdio` decides it from the first message and pins one server instance for the
 * connection. The index starts in the background once the first answer is on the wire (or soon anyway,
 * for a client that waits); on close, watchers stop and snapshots are flushed.
 */
export async function startStdioSession(options: StdioSessionOptions): Promise<StdioSession> {
  const log = options.log ?? (() => {});
  const registry = new ProjectRegistry({
    ...options.registry,
    request: options.request as Omit<ConfigRequest, "lister">,
    log,
  });
  const transport = new LineTransport(options.input, options.output, { log });
  // Open the project (its schema loads in steps, then the build or warm start) once the first answer
  // (initialize, or server/discover) has been written: that answer never waits for a step.
  let started = false;
  const startIndex = () => {
    if (started) return;
    started = true;
    clearTimeout(fallback);
    registry.startDefault();
  };
  const fallback = setTimeout(startIndex, INDEX_START_FALLBACK_MS);
  transport.onanswered = startIndex;
  const handle = serveStdio(() => createMcpServer(registry, options), {
    transport,
    onerror: (e) => log(`protocol error: ${e.message}`),
  });
  log(describe(registry));
  const done = transport.closed.then(() => {
    clearTimeout(fallback);
    return registry.dispose();
  });
  return {
    done,
    stop: async () => {
      await handle.close();
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
