// The stdin capture (bytes written before anyone listens are kept) and the line transport (one JSON
// message per line, errors for malformed lines, requests finish after the input ends).
import { describe, expect, test } from "bun:test";
import { EventEmitter } from "node:events";
import { PassThrough } from "node:stream";
import type { JSONRPCMessage } from "@modelcontextprotocol/server";
import { StdinCapture } from "../../src/mcp/stdin.ts";
import { LineTransport } from "../../src/mcp/transport.ts";

function sink() {
  const got: string[] = [];
  let ended = false;
  return {
    got,
    ended: () => ended,
    data: (c: Uint8Array) => got.push(Buffer.from(c).toString("utf8")),
    end: () => {
      ended = true;
    },
    error: (e: Error) => got.push(`error: ${e.message}`),
  };
}

class Output {
  lines: string[] = [];
  private buf = "";
  write(chunk: string): boolean {
    this.buf += chunk;
    const parts = this.buf.split("\n");
    this.buf = parts.pop()!;
    this.lines.push(...parts);
    return true;
  }
  once(): void {}
}

const tick = () => new Promise((r) => setTimeout(r, 5));

describe("StdinCapture", () => {
  test("bytes and the end that arrive before attach are replayed, later bytes stream on", async () => {
    const stream = new PassThrough();
    const cap = new StdinCapture(stream);
    stream.write("first\n");
    stream.write("second\n");
    await tick();
    expect(cap.buffered).toBe(13);
    const s = sink();
    cap.attach(s);
    stream.write("third\n");
    stream.end();
    await tick();
    expect([s.got.join(""), s.ended()]).toEqual(["first\nsecond\nthird\n", true]);
    expect(() => cap.attach(sink())).toThrow("stdin is already attached to a consumer");
  });

  test("EPERM from the stream before any byte switches to reading fd 0 (here: a second stream)", async () => {
    const broken = new EventEmitter() as EventEmitter & { pause?: () => void };
    const fallback = new PassThrough();
    const cap = new StdinCapture(broken as never, () => fallback);
    const s = sink();
    cap.attach(s);
    broken.emit("error", Object.assign(new Error("EPERM: operation not permitted, read"), { code: "EPERM" }));
    fallback.end('{"jsonrpc":"2.0"}\n');
    await tick();
    expect([s.got, s.ended()]).toEqual([['{"jsonrpc":"2.0"}\n'], true]);
  });

  /** A stream that throws from `on("data")`, as Bun's process.stdin does when fd 0 cannot be streamed. */
  function throwingOnListen(code: string) {
    const s = new EventEmitter();
    const on = s.on.bind(s);
    s.on = ((event: string, fn: (...a: unknown[]) => void) => {
      if (event === "data") throw Object.assign(new Error(`${code}: bad file descriptor, fstat`), { code });
      return on(event, fn);
    }) as never;
    return s;
  }

  test("EBADF thrown while listening (Bun's Windows runtime under Wine, stdin a Linux pipe) switches to fd 0", async () => {
    const fallback = new PassThrough();
    const cap = new StdinCapture(throwingOnListen("EBADF") as never, () => fallback);
    const s = sink();
    cap.attach(s);
    fallback.end("line\n");
    await tick();
    expect([s.got, s.ended(), cap.error]).toEqual([["line\n"], true, null]);
  });

  test("EISDIR thrown while listening (stdin is a folder) is a failure, not a crash", () => {
    const cap = new StdinCapture(throwingOnListen("EISDIR") as never, () => new PassThrough());
    const s = sink();
    cap.attach(s);
    expect(s.got).toEqual(["error: EISDIR: bad file descriptor, fstat"]);
    expect((cap.error as NodeJS.ErrnoException).code).toBe("EISDIR");
  });

  test("other stream errors reach the consumer", () => {
    const stream = new PassThrough();
    const cap = new StdinCapture(stream, () => new PassThrough());
    const s = sink();
    cap.attach(s);
    stream.emit("error", Object.assign(new Error("boom"), { code: "EIO" }));
    expect(s.got).toEqual(["error: boom"]);
  });
});

function transportOn(stream: PassThrough, drainTimeoutMs = 1000) {
  const out = new Output();
  const t = new LineTransport(new StdinCapture(stream), out, { maxLineBytes: 200, drainTimeoutMs });
  const received: JSONRPCMessage[] = [];
  let closed = 0;
  t.onmessage = (m) => received.push(m);
  t.onclose = () => closed++;
  return { t, out, received, closed: () => closed };
}

describe("LineTransport", () => {
  test("messages split across chunks, CRLF, BOM and blank lines", async () => {
    const stream = new PassThrough();
    const { t, received } = transportOn(stream);
    await t.start();
    stream.write('\uFEFF{"jsonrpc":"2.0","method":"a"}\r\n\n  \n{"jsonrpc":"2.0",');
    stream.write('"method":"b"}\n{"jsonrpc":"2.0","method":"c"}');
    await tick();
    expect(received.map((m) => (m as { method: string }).method)).toEqual(["a", "b"]);
    stream.end();
    await tick();
    // A last line without a newline still counts when the input ends.
    expect(received.map((m) => (m as { method: string }).method)).toEqual(["a", "b", "c"]);
  });

  test("malformed input gets JSON-RPC errors, one line each, and reading goes on", async () => {
    const stream = new PassThrough();
    const { t, out, received } = transportOn(stream);
    await t.start();
    stream.write(
      'garbage\n{"id":7,"hello":1}\n' + "x".repeat(300) +
        '\n{"jsonrpc":"2.0","id":8,"method":"resources/read","params":"ra3://x"}\n{"jsonrpc":"2.0","method":"ok"}\n',
    );
    await tick();
    expect(out.lines.map((l) => JSON.parse(l))).toEqual([
      {
        jsonrpc: "2.0",
        id: null,
        error: {
          code: -32700,
          message: 'Parse error: the line is not JSON ("garbage"); send one JSON-RPC message per line',
        },
      },
      { jsonrpc: "2.0", id: 7, error: { code: -32600, message: "Invalid Request: not a JSON-RPC 2.0 message" } },
      {
        jsonrpc: "2.0",
        id: null,
        error: { code: -32600, message: "Invalid Request: the message is longer than 200 bytes" },
      },
      // params must be an object (by-position params are not MCP)
      { jsonrpc: "2.0", id: 8, error: { code: -32600, message: "Invalid Request: not a JSON-RPC 2.0 message" } },
    ]);
    expect(received.length).toBe(1);
  });

  test("a tools/call with arguments of the wrong JSON type is refused on the wire, not delivered", async () => {
    const stream = new PassThrough();
    const { t, out, received } = transportOn(stream);
    await t.start();
    stream.write('{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"find_asset","arguments":null}}\n');
    await tick();
    expect([received.length, out.lines.map((l) => JSON.parse(l))]).toEqual([0, [{
      jsonrpc: "2.0",
      id: 4,
      error: {
        code: -32602,
        message:
          "Invalid params: the arguments of find_asset must be an object of named arguments (pass {} for none), got null",
      },
    }]]);
  });

  test("after the input ends, requests already received are answered before closing", async () => {
    const stream = new PassThrough();
    const { t, out, closed } = transportOn(stream);
    await t.start();
    stream.end('{"jsonrpc":"2.0","id":1,"method":"slow"}\n');
    await tick();
    expect(closed()).toBe(0);
    await t.send({ jsonrpc: "2.0", id: 1, result: {} });
    await tick();
    expect([closed(), out.lines]).toEqual([1, ['{"jsonrpc":"2.0","id":1,"result":{}}']]);
  });

  test("a request that never gets an answer is dropped after the drain timeout", async () => {
    const stream = new PassThrough();
    const { t, closed } = transportOn(stream, 20);
    await t.start();
    stream.end('{"jsonrpc":"2.0","id":1,"method":"stuck"}\n');
    await new Promise((r) => setTimeout(r, 60));
    expect(closed()).toBe(1);
  });

  test("closing twice reports one close; nothing is written after close", async () => {
    const stream = new PassThrough();
    const { t, out, closed } = transportOn(stream);
    await t.start();
    await t.close();
    await t.close();
    await t.send({ jsonrpc: "2.0", method: "late" });
    expect([closed(), out.lines]).toEqual([1, []]);
  });
});

/** An output that is full until drained by hand, like a pipe whose reader stopped reading. */
class SlowOutput extends EventEmitter {
  lines: string[] = [];
  full = true;
  maxDrainListeners = 0;
  write(chunk: string): boolean {
    this.lines.push(chunk.trimEnd());
    return !this.full;
  }
  override once(event: string, fn: () => void): this {
    super.once(event, fn);
    this.maxDrainListeners = Math.max(this.maxDrainListeners, this.listenerCount("drain"));
    return this;
  }
}

describe("LineTransport under backpressure", () => {
  test("1,000 answers to a reader that stopped: one drain listener at a time, every line once, in order", async () => {
    const out = new SlowOutput();
    const t = new LineTransport(new StdinCapture(new PassThrough()), out);
    await t.start();
    const sent = Array.from({ length: 1000 }, (_, i) => t.send({ jsonrpc: "2.0", id: i, result: {} }));
    expect([out.lines.length, out.listenerCount("drain")]).toEqual([1, 1]);
    out.full = false;
    out.emit("drain");
    await Promise.all(sent);
    expect(out.maxDrainListeners).toBe(1);
    expect(out.lines.map((l) => JSON.parse(l).id)).toEqual(Array.from({ length: 1000 }, (_, i) => i));
    expect(out.listenerCount("drain")).toBe(0);
  });

  test("a write that fills the pipe again mid-queue waits for the next drain", async () => {
    const out = new SlowOutput();
    const t = new LineTransport(new StdinCapture(new PassThrough()), out);
    await t.start();
    const sent = [0, 1, 2].map((i) => t.send({ jsonrpc: "2.0", id: i, result: {} }));
    out.emit("drain"); // still full: line 1 is written and waits again
    expect(out.lines.map((l) => JSON.parse(l).id)).toEqual([0, 1]);
    out.full = false;
    out.emit("drain");
    await Promise.all(sent);
    expect(out.lines.map((l) => JSON.parse(l).id)).toEqual([0, 1, 2]);
  });
});
