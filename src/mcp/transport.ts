/**
 * The stdio transport: newline-delimited JSON-RPC read from a {@link StdinCapture} (so no byte written
 * before the server was ready is lost), written to stdout one message per line and nothing else.
 * Unlike the SDK's stdio transport it answers malformed lines with JSON-RPC errors (one line each, see
 * `gate.ts`), queues its writes behind one `drain` wait when stdout is slow, and when the input ends it
 * lets requests already received finish (bounded) before closing, so `… | ra3 mcp` works.
 */
import { type JSONRPCMessage, parseJSONRPCMessage, type Transport } from "@modelcontextprotocol/server";
import { condenseError, screenRequest } from "./gate.ts";
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
  /** Called after each answer to a request has been handed to the output. */
  onanswered?: () => void;
  /** Resolves when the transport has closed (the input ended and was drained, or close() was called). */
  readonly closed: Promise<void>;
  private markClosed!: () => void;

  private parts: Uint8Array[] = [];
  private partBytes = 0;
  private skipping = false;
  private started = false;
  private isClosed = false;
  private inputEnded = false;
  /** Ids of requests received and not answered yet. */
  private readonly pending = new Set<string | number>();
  private drainTimer: ReturnType<typeof setTimeout> | null = null;
  /** Lines waiting for stdout to drain, and the writes they complete. */
  private queued: { line: string; done: () => void }[] = [];
  private waitingForDrain = false;
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
    this.closed = new Promise<void>((resolve) => (this.markClosed = resolve));
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
    if (this.isClosed) return Promise.resolve();
    const id = ("result" in message || "error" in message) && "id" in message ? message.id : undefined;
    const answer = id !== undefined && id !== null;
    if (answer) this.pending.delete(id);
    const done = this.write(JSON.stringify(condenseError(message)) + "\n");
    if (answer) this.onanswered?.();
    if (this.inputEnded && this.pending.size === 0) void done.then(() => this.close());
    return done;
  }

  /**
   * Writes one line, in order. While stdout is full every further line waits in a queue behind one
   * `drain` listener: a listener per blocked write would pile up (1,000 pipelined answers to a slow
   * reader set off Node's MaxListenersExceededWarning).
   */
  private write(line: string): Promise<void> {
    return new Promise<void>((resolve) => {
      if (this.waitingForDrain) {
        this.queued.push({ line, done: resolve });
        return;
      }
      if (this.output.write(line)) resolve();
      else this.waitForDrain(resolve);
    });
  }

  private waitForDrain(done: () => void): void {
    this.waitingForDrain = true;
    this.output.once("drain", () => {
      this.waitingForDrain = false;
      done();
      while (this.queued.length && !this.waitingForDrain) {
        const next = this.queued.shift()!;
        if (this.output.write(next.line)) next.done();
        else this.waitForDrain(next.done);
      }
    });
  }

  async close(): Promise<void> {
    if (this.isClosed) return;
    this.isClosed = true;
    if (this.drainTimer) clearTimeout(this.drainTimer);
    this.input.release();
    this.parts = [];
    this.onclose?.();
    this.markClosed();
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
    let message: JSONRPCMessage;
    try {
      message = parseJSONRPCMessage(value);
    } catch {
      const id = typeof value === "object" && value !== null && "id" in value ? (value as { id: unknown }).id : null;
      this.replyError(
        typeof id === "string" || typeof id === "number" ? id : null,
        -32600,
        "Invalid Request: not a JSON-RPC 2.0 message",
      );
      return;
    }
    const refusal = screenRequest(message);
    if (refusal) {
      this.replyError(refusal.id, refusal.code, refusal.message);
      return;
    }
    if ("method" in message && "id" in message) this.pending.add(message.id);
    if ("method" in message && message.method === "notifications/cancelled" && !("id" in message)) {
      const id = (message.params as { requestId?: string | number } | undefined)?.requestId;
      if (id !== undefined) this.pending.delete(id);
    }
    this.onmessage?.(message);
  }

  private replyError(id: string | number | null, code: number, message: string): void {
    void this.write(JSON.stringify({ jsonrpc: "2.0", id, error: { code, message } }) + "\n");
  }
}
