/** `ra3 mcp` (also `ra3 --mcp`): the MCP server on stdio, until the client closes stdin. */
import type { CliConfig } from "../args.ts";
import { isUsageError, parseCli } from "../args.ts";
import { type CliIo, EXIT_ENV, EXIT_OK } from "../io.ts";
import { captureProcessStdin } from "../../mcp/stdin.ts";
import type { StdioSession } from "../../mcp/server.ts";

/**
 * Starts buffering stdin when argv asks for the MCP server. `main.ts` calls this before its first
 * `await`, so an `initialize` written right after spawn is never lost; other commands leave stdin alone.
 */
export function captureMcpStdin(argv: readonly string[]): void {
  const cfg = parseCli(argv);
  if (!isUsageError(cfg) && cfg.command === "mcp") captureProcessStdin();
}

/** Serves until stdin closes (or SIGINT/SIGTERM); stdout carries only JSON-RPC, logs go to stderr. */
export async function runMcp(cfg: CliConfig, io: CliIo): Promise<number> {
  const input = captureProcessStdin();
  const log = (line: string) => io.err(`ra3 mcp: ${line}\n`);
  // Signal handlers first: a client may stop us as soon as it has its initialize answer.
  let session: StdioSession | null = null;
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    log("stopping");
    void session?.stop();
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
  try {
    // Loaded here, not at the top: main.ts imports this module for captureMcpStdin in every command, and
    // neither the server nor the workspace behind configRequest should load for the other commands.
    const { startStdioSession } = await import("../../mcp/server.ts");
    const { configRequest } = await import("../config-request.ts");
    session = await startStdioSession({
      request: configRequest(cfg, io),
      input,
      output: process.stdout,
      log,
    });
    if (stopping) void session.stop();
    await session.done;
  } finally {
    process.off("SIGINT", stop);
    process.off("SIGTERM", stop);
  }
  await new Promise<void>((resolve) => process.stdout.write("", () => resolve()));
  if (input.error) {
    io.err(
      `ra3: cannot read standard input (${
        (input.error as NodeJS.ErrnoException).code ?? input.error.message
      }); ra3 mcp reads JSON-RPC from stdin: start it from an MCP client, or pipe or redirect a file into it\n`,
    );
    return EXIT_ENV;
  }
  return EXIT_OK;
}
