/**
 * The live check shared by `ra3 setup` (step 6) and `ra3 doctor`: start a configured server command the
 * way an MCP client does (the SDK's stdio client transport, no shell, the SDK's small inherited
 * environment) and run `initialize` → `tools/list` → `tools/call get_status`, timing the whole
 * exchange. A failure names the stage it stopped at and the last lines the server wrote to stderr.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { TOOL_VERSION } from "../version.ts";

/** How long a live check may take before it counts as failed (a client gives up sooner or later too). */
export const LIVE_CHECK_TIMEOUT_MS = 20_000;

export interface LiveCheckRequest {
  readonly command: string;
  readonly args: readonly string[];
  /** The server's working folder (clients vary: Claude Desktop uses `/`); default: the caller's. */
  readonly cwd?: string;
  /** Extra environment on top of the SDK's inherited set (HOME, PATH, … / APPDATA, USERPROFILE, …). */
  readonly env?: Readonly<Record<string, string>>;
  readonly timeoutMs?: number;
}

export type LiveCheckStage = "spawn" | "initialize" | "tools/list" | "get_status";

export type LiveCheckResult =
  | {
    readonly ok: true;
    /** Milliseconds from spawn to the get_status answer. */
    readonly ms: number;
    readonly tools: number;
    readonly serverName: string | null;
    readonly serverVersion: string | null;
    /** `index.state` of the get_status envelope (`ready`, `building`, …), or null when absent. */
    readonly indexState: string | null;
  }
  | {
    readonly ok: false;
    readonly ms: number;
    readonly stage: LiveCheckStage;
    /** One sentence: what went wrong (stderr's last lines appended when the server wrote any). */
    readonly error: string;
  };

/** Runs one live check; see {@link liveCheck}. Injected so tests need no real process. */
export type LiveChecker = (request: LiveCheckRequest) => Promise<LiveCheckResult>;

const STDERR_TAIL_LINES = 3;

function messageOf(err: unknown): string {
  const code = (err as { code?: string } | null)?.code;
  if (code === "ENOENT") return "the command does not exist (ENOENT)";
  if (code === "EACCES") return "the command is not executable (EACCES)";
  return err instanceof Error ? err.message : String(err);
}

/**
 * Spawns `command args` as a client would and checks the three calls; never throws.
 * @example await liveCheck({ command: "/home/u/.ra3modxml/bin/ra3", args: ["mcp", "--project", "/mods/x"] })
 *          // { ok: true, ms: 412, tools: 15, serverName: "ra3", serverVersion: "0.1.0", indexState: "ready" }
 */
export async function liveCheck(request: LiveCheckRequest): Promise<LiveCheckResult> {
  const timeoutMs = request.timeoutMs ?? LIVE_CHECK_TIMEOUT_MS;
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  let stderr = "";
  const transport = new StdioClientTransport({
    command: request.command,
    args: [...request.args],
    ...(request.cwd ? { cwd: request.cwd } : {}),
    ...(request.env ? { env: { ...request.env } } : {}),
    stderr: "pipe",
  });
  transport.stderr?.on("data", (chunk: Buffer) => {
    stderr = (stderr + chunk.toString("utf8")).slice(-4000);
  });
  const client = new Client({ name: "ra3-live-check", version: TOOL_VERSION });
  let stage: LiveCheckStage = "spawn";
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(
      () =>
        reject(new Error(`no answer within ${timeoutMs % 1000 === 0 ? `${timeoutMs / 1000} s` : `${timeoutMs} ms`}`)),
      timeoutMs,
    );
  });
  const exchange = async (): Promise<LiveCheckResult> => {
    // connect() spawns the process and runs initialize; a spawn error rejects it before any message.
    transport.onerror = () => {};
    let spawned = false;
    const originalStart = transport.start.bind(transport);
    transport.start = async () => {
      await originalStart();
      spawned = true;
      stage = "initialize";
    };
    try {
      await client.connect(transport, { timeout: timeoutMs });
    } catch (err) {
      if (!spawned) stage = "spawn";
      throw err;
    }
    stage = "tools/list";
    const tools = await client.listTools(undefined, { timeout: timeoutMs });
    stage = "get_status";
    const status = await client.callTool({ name: "get_status", arguments: {} }, undefined, { timeout: timeoutMs });
    if (status.isError) {
      const first = Array.isArray(status.content) ? status.content.find((c) => c.type === "text") : undefined;
      throw new Error(
        `get_status returned an error: ${first && "text" in first ? String(first.text).split("\n")[0] : "no message"}`,
      );
    }
    const structured = status.structuredContent as { index?: { state?: unknown } } | undefined;
    const version = client.getServerVersion();
    return {
      ok: true,
      ms: elapsed(),
      tools: tools.tools.length,
      serverName: version?.name ?? null,
      serverVersion: version?.version ?? null,
      indexState: typeof structured?.index?.state === "string" ? structured.index.state : null,
    };
  };
  try {
    return await Promise.race([exchange(), timeout]);
  } catch (err) {
    const tail = stderr
      .split(/\r?\n/)
      .map((l) => l.trim())
      .filter((l) => l !== "")
      .slice(-STDERR_TAIL_LINES)
      .join(" | ");
    const why = messageOf(err).replace(/^MCP error -?\d+: /, "");
    return { ok: false, ms: elapsed(), stage, error: `${why}${tail ? ` (server stderr: ${tail})` : ""}` };
  } finally {
    clearTimeout(timer);
    await client.close().catch(() => {});
    await transport.close().catch(() => {});
  }
}

/** The command line as one string a user can paste into a shell (arguments with spaces quoted). */
export function commandLine(command: string, args: readonly string[]): string {
  const quote = (s: string) => (/^[A-Za-z0-9_./\\:=@+-]+$/.test(s) ? s : `"${s.replace(/"/g, '\\"')}"`);
  return [command, ...args].map(quote).join(" ");
}

/**
 * The live check's outcome as one line, e.g. "initialize → tools/list (15 tools) → get_status in 412 ms
 * (index ready)" or "failed at initialize after 20000 ms: no answer within 20 s".
 */
export function describeLiveCheck(r: LiveCheckResult): string {
  if (r.ok) {
    return `initialize → tools/list (${r.tools} tools) → get_status in ${r.ms} ms${
      r.indexState ? ` (index ${r.indexState})` : ""
    }`;
  }
  return `failed at ${r.stage} after ${r.ms} ms: ${r.error}`;
}
