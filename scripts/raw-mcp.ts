// A bare MCP client over the pipes of a spawned `ra3 mcp` (no client library, one request in flight),
// for benchmarks that time the server itself: bench-mcp.ts (round trips) and bench-targets.ts (how long
// the server stays silent while it builds).
import { type ChildProcess, spawn } from "node:child_process";

export interface RawMcp {
  readonly child: ChildProcess;
  /** Sends one request and resolves with the next line the server writes (its answer). */
  request(method: string, params: unknown): Promise<string>;
  /** Sends a notification (no answer). */
  notify(method: string): void;
  /** Closes stdin and waits for the server to exit. */
  close(): Promise<void>;
}

/** Spawns `binary` with `args` (e.g. ["mcp", "--project", dir]) and connects to its stdio. */
export function rawMcp(binary: string, args: readonly string[]): RawMcp {
  const child = spawn(binary, args, { stdio: ["pipe", "pipe", "ignore"] });
  let buf = "";
  let waiting: ((line: string) => void) | null = null;
  child.stdout!.on("data", (c: Buffer) => {
    buf += c.toString("utf8");
    let nl: number;
    while ((nl = buf.indexOf("\n")) >= 0) {
      const line = buf.slice(0, nl);
      buf = buf.slice(nl + 1);
      const w = waiting;
      waiting = null;
      w?.(line);
    }
  });
  let id = 0;
  return {
    child,
    request: (method, params) =>
      new Promise<string>((resolve) => {
        waiting = resolve;
        child.stdin!.write(JSON.stringify({ jsonrpc: "2.0", id: ++id, method, params }) + "\n");
      }),
    notify: (method) => child.stdin!.write(JSON.stringify({ jsonrpc: "2.0", method }) + "\n"),
    close: async () => {
      child.stdin!.end();
      await new Promise((r) => child.once("exit", r));
    },
  };
}
