/**
 * The stdio transport: newline-delimited JSON-RPC read from a {@link StdinCapture} (so no byte written
 * before the server was ready is lost), written to stdout one message per line and nothing else.
 * Unlike the SDK's stdio transport it answers malformed lines with JSON-RPC errors, and when the input
 * ends it lets requests already received finish (bounded) before closing, so `… | ra3 mcp` works.
 */
// @ts-types="@modelcontextprotocol/sdk/shared/transport"
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
// @ts-types="@modelcontextprotocol/sdk/types"
import { type JSONRPCMessage, JSONRPCMessageSchema } from "@modelcontextprotocol/sdk/types.js";
import type { ChunkSink } from "./stdin.ts";

/** A byte sink like process.stdout. */
export interface LineOutput {
  write(chunk: string, callback?: (e?: Error | null) => void): boolean;
  once(event: "drain", fn: () => void): unknown;
}

export interface ChunkSource {
  attach(sink: ChunkSink): void;
  release(): void;
}

export interface LineTransportOptions {
  /** Longest accepted line (bytes); longer ones are answered with an error and skipped. */
  readonly maxLineBytes?: number;
  /** How long requests received before the input ended may still run. */
  readonly drainTimeoutMs?: number;
  readonly log?: (line: string) => void;
}

const NEWLINE = 0x0a;

export class LineTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private parts: Uint8Array[] = [];
  private partBytes = 0;
  private skipping = false;
  private started = false;
  private closed = false;
  private inputEnded = false;
  /** Ids of requests received and not answered yet. */
  private readonly pending = new Set<string | number>();
  private drainTimer: ReturnType<typeof setTimeout> | null = null;
  private readonly maxLineBytes: number;
  private readonly drainTimeoutMs: number;
  private readonly log: (line: string) => void;

  constructor(
    private readonly input: ChunkSource,
    private readonly output: LineOutput,
    options: LineTransportOptions = {},
  ) {
    this.maxLineBytes = options.maxLineBytes ?? 10 * 1024 * 1024;
    this.drainTimeoutMs = options.drainTimeoutMs ?? 30_000;
    this.log = options.log ?? (() => {});
  }

  async start(): Promise<void> {
    if (this.started) throw new Error("LineTransport already started");
    this.started = true;
    this.input.attach({
      data: (chunk) => this.onChunk(chunk),
      end: () => this.onInputEnd(),
      error: (e) => {
        this.log(`stdin failed: ${e.message}`);
        this.onerror?.(e);
        this.onInputEnd();
      },
    });
  }

  send(message: JSONRPCMessage): Promise<void> {
    if (this.closed) return Promise.resolve();
    if (
      ("result" in message || "error" in message) && "id" in message && message.id !== undefined && message.id !== null
    ) {
      this.pending.delete(message.id);
    }
    const line = JSON.stringify(message) + "\n";
    const done = new Promise<void>((resolve) => {
      if (this.output.write(line)) resolve();
      else this.output.once("drain", resolve);
    });
    if (this.inputEnded && this.pending.size === 0) void done.then(() => this.close());
    return done;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.drainTimer) clearTimeout(this.drainTimer);
    this.input.release();
    this.parts = [];
    this.onclose?.();
  }

  private onInputEnd(): void {
    if (this.inputEnded) return;
    this.inputEnded = true;
    this.flushPartialLine();
    if (this.pending.size === 0) {
      void this.close();
      return;
    }
    this.drainTimer = setTimeout(() => {
      this.log(
        `input closed; ${this.pending.size} request(s) still running after ${this.drainTimeoutMs} ms are dropped`,
      );
      void this.close();
    }, this.drainTimeoutMs);
  }

  private onChunk(chunk: Uint8Array): void {
    let start = 0;
    for (;;) {
      const nl = chunk.indexOf(NEWLINE, start);
      if (nl < 0) break;
      this.addPart(chunk.subarray(start, nl));
      this.endLine();
      start = nl + 1;
    }
    if (start < chunk.length) this.addPart(chunk.subarray(start));
  }

  private addPart(bytes: Uint8Array): void {
    if (this.skipping || bytes.length === 0) return;
    if (this.partBytes + bytes.length > this.maxLineBytes) {
      this.skipping = true;
      this.parts = [];
      this.partBytes = 0;
      return;
    }
    // Copy: the chunk's buffer may be reused by the stream.
    this.parts.push(Uint8Array.from(bytes));
    this.partBytes += bytes.length;
  }

  private endLine(): void {
    if (this.skipping) {
      this.skipping = false;
      this.replyError(null, -32600, `Invalid Request: the message is longer than ${this.maxLineBytes} bytes`);
      return;
    }
    const text = Buffer.concat(this.parts).toString("utf8");
    this.parts = [];
    this.partBytes = 0;
    this.handleLine(text);
  }

  /** A last line without a newline before the input ended still counts. */
  private flushPartialLine(): void {
    if (this.partBytes > 0 || this.skipping) this.endLine();
  }

  private handleLine(raw: string): void {
    const line = raw.replace(/^\uFEFF/, "").trim();
    if (line === "") return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      // The engine's own message differs between Bun, Deno and Node; this one does not.
      const head = line.length > 40 ? `${line.slice(0, 37)}...` : line;
      this.replyError(
        null,
        -32700,
        `Parse error: the line is not JSON (${JSON.stringify(head)}); send one JSON-RPC message per line`,
      );
      return;
    }
    const parsed = JSONRPCMessageSchema.safeParse(value);
    if (!parsed.success) {
      const id = typeof value === "object" && value !== null && "id" in value ? (value as { id: unknown }).id : null;
      this.replyError(
        typeof id === "string" || typeof id === "number" ? id : null,
        -32600,
        "Invalid Request: not a JSON-RPC 2.0 message",
      );
      return;
    }
    const message = parsed.data;
    if ("method" in message && "id" in message) this.pending.add(message.id);
    if ("method" in message && message.method === "notifications/cancelled" && !("id" in message)) {
      const id = (message.params as { requestId?: string | number } | undefined)?.requestId;
      if (id !== undefined) this.pending.delete(id);
    }
    this.onmessage?.(message);
  }

  private replyError(id: string | number | null, code: number, message: string): void {
    const line = JSON.stringify({ jsonrpc: "2.0", id, error: { code, message } }) + "\n";
    this.output.write(line);
  }
}
