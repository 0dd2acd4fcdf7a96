// A bare MCP client over the pipes of a spawned `ra3 mcp` (no client library; answers matched to their
// requests by id, so several may be in flight), for benchmarks that time the server itself: bench-mcp.ts
// (round trips) and bench-targets.ts (how long the server stays silent while it builds).
import { type ChildProcess, spawn } from "node:child_process";

export interface RawMcp {
  readonly child: ChildProcess;
  /** Sends one request and resolves with the line the server answers it with (matched by id). */
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
  const waiting = new Map<number, (line: string) => void>();
  child.stdout!.on("data", (c: Buffer) => {
    buf += c.toString("utf8");
    let nl: number;
    while ((nl = buf.indexOf("\n")) >= 0) {
      const line = buf.slice(0, nl);
      buf = buf.slice(nl + 1);
      let id: unknown;
      try {
        id = (JSON.parse(line) as { id?: unknown }).id;
      } catch {
        continue; // not JSON-RPC: nothing waits for it
      }
      const w = typeof id === "number" ? waiting.get(id) : undefined;
      if (!w) continue; // a notification, or an answer nobody waits for
      waiting.delete(id as number);
      w(line);
    }
  });
  let id = 0;
  return {
    child,
    request: (method, params) =>
      new Promise<string>((resolve) => {
        waiting.set(++id, resolve);
        child.stdin!.write(JSON.stringify({ jsonrpc: "2.0", id, method, params }) + "\n");
      }),
    notify: (method) => child.stdin!.write(JSON.stringify({ jsonrpc: "2.0", method }) + "\n"),
    close: async () => {
      child.stdin!.end();
      await new Promise((r) => child.once("exit", r));
    },
  };
}
