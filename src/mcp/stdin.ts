/**
 * Standard input captured from the first moment of the process. A client writes `initialize` right
 * after spawning the server; Bun has been seen to drop stdin bytes that arrived before the first
 * `data` listener when that listener was attached after an `await`. So `main.ts` attaches this capture
 * synchronously, before anything asynchronous, and the transport takes the buffered bytes over later.
 */
import { createReadStream } from "node:fs";

/** Where captured bytes go once a consumer is ready. */
export interface ChunkSink {
  data(chunk: Uint8Array): void;
  end(): void;
  error(e: Error): void;
}

/** A readable byte source the capture listens to (process.stdin, or a stream in tests). */
export interface ByteStream {
  on(event: "data", fn: (chunk: Uint8Array | string) => void): unknown;
  on(event: "end" | "close", fn: () => void): unknown;
  on(event: "error", fn: (e: Error) => void): unknown;
  // `any[]`: Node's listener type; narrower parameter types would not accept process.stdin.
  // deno-lint-ignore no-explicit-any
  off(event: string, fn: (...args: any[]) => void): unknown;
  pause?(): unknown;
  destroy?(): unknown;
}

/**
 * Errors after which the process's stdin object is unusable but fd 0 itself can still be read. EBADF:
 * Bun's Windows runtime under Wine, when stdin is a Linux pipe (its fstat of the handle fails; reading
 * fd 0 works).
 */
const FD_FALLBACK_CODES = new Set(["EPERM", "EINVAL", "ENOTSUP", "EBADF"]);

export class StdinCapture {
  private chunks: Uint8Array[] = [];
  private ended = false;
  private failure: Error | null = null;
  private sink: ChunkSink | null = null;
  private stream: ByteStream;
  private usedFallback = false;

  /**
   * Starts listening now. `fallback` opens fd 0 directly; it is used once when the stream fails with
   * EPERM/EINVAL before any byte (Bun's process.stdin under some hosts).
   */
  constructor(stream: ByteStream, private readonly fallback: (() => ByteStream) | null = null) {
    this.stream = stream;
    this.listen(stream);
  }

  /** Why reading stdin failed (it cannot be read at all, e.g. a folder), or null. */
  get error(): Error | null {
    return this.failure;
  }

  /** Bytes received so far and not yet handed to a sink. */
  get buffered(): number {
    return this.chunks.reduce((n, c) => n + c.length, 0);
  }

  /** Hands everything buffered to `sink`, then streams on to it. Only one sink. */
  attach(sink: ChunkSink): void {
    if (this.sink) throw new Error("stdin is already attached to a consumer");
    this.sink = sink;
    const pending = this.chunks;
    this.chunks = [];
    for (const c of pending) sink.data(c);
    if (this.failure) sink.error(this.failure);
    else if (this.ended) sink.end();
  }

  /** Stops listening and lets the process exit even if the other side keeps the pipe open. */
  release(): void {
    this.unlisten(this.stream);
    this.sink = null;
    this.stream.pause?.();
    if (!this.ended) this.stream.destroy?.();
  }

  private readonly onData = (chunk: Uint8Array | string): void => {
    const bytes = typeof chunk === "string" ? Buffer.from(chunk, "utf8") : chunk;
    if (this.sink) this.sink.data(bytes);
    else this.chunks.push(bytes);
  };

  private readonly onEnd = (): void => {
    if (this.ended) return;
    this.ended = true;
    this.sink?.end();
  };

  private readonly onError = (e: Error): void => {
    const code = (e as NodeJS.ErrnoException).code ?? "";
    if (this.fallback && !this.usedFallback && FD_FALLBACK_CODES.has(code)) {
      this.usedFallback = true;
      this.unlisten(this.stream);
      this.stream = this.fallback();
      this.listen(this.stream);
      return;
    }
    this.failure = e;
    this.sink?.error(e);
  };

  private listen(s: ByteStream): void {
    // Bun opens process.stdin's stream when the first listener is attached and throws there (not as an
    // `error` event) when fd 0 cannot be streamed: a folder (EISDIR), or EBADF under Wine.
    try {
      s.on("error", this.onError);
      s.on("end", this.onEnd);
      s.on("close", this.onEnd);
      s.on("data", this.onData);
    } catch (e) {
      this.onError(e as Error);
    }
  }

  private unlisten(s: ByteStream): void {
    s.off("data", this.onData as (...args: unknown[]) => void);
    s.off("end", this.onEnd as (...args: unknown[]) => void);
    s.off("close", this.onEnd as (...args: unknown[]) => void);
    s.off("error", this.onError as (...args: unknown[]) => void);
  }
}

let processCapture: StdinCapture | null = null;

/**
 * Starts capturing the process's stdin (idempotent) and returns the capture. Call it before any `await`.
 * @example captureProcessStdin().buffered // 0 right after start
 */
export function captureProcessStdin(): StdinCapture {
  if (!processCapture) {
    processCapture = new StdinCapture(process.stdin, () => createReadStream("", { fd: 0, autoClose: false }));
  }
  return processCapture;
}
