/**
 * Writes to a standard stream without making Node's stream object for it. In Bun, touching
 * `process.stdout` or `process.stderr` (even `.isTTY`) builds the stream layer: ≈ 7.5 ms in a program that
 * does nothing else, ≈ 2.5 ms of `ra3 --version`'s ≈ 13 (docs/performance.md, "thirteenth submission"), paid
 * by every command and twice by a cold build that runs in a child. So a pipe, a socket or a file is written in place with
 * `writeSync`; a console (a character device: a terminal, Windows' console, /dev/null) goes through the
 * stream as before, which turns text into what the console shows (Windows' wide-character writes).
 */
import { fstatSync, writeSync } from "node:fs";

/** Where the bytes go when they are not written in place (process.stdout or process.stderr, made on first use). */
export type StreamWrite = (chunk: string | Uint8Array) => void;

/** What {@link fdWriter} needs from the file system: injected by tests. */
export interface FdPort {
  /** The kind of `fd`, or null when it cannot be told. */
  kind(fd: number): "pipe" | "file" | "console" | null;
  /** `writeSync`: the bytes written, or throws (EAGAIN, EPIPE, …). */
  write(fd: number, bytes: Uint8Array, offset: number): number;
}

const NODE_FD_PORT: FdPort = {
  kind(fd) {
    try {
      const s = fstatSync(fd);
      if (s.isFIFO() || s.isSocket()) return "pipe";
      if (s.isFile()) return "file";
      return "console";
    } catch {
      return null;
    }
  },
  write: (fd, bytes, offset) => writeSync(fd, bytes, offset),
};

/**
 * A writer for `fd`: in place when it is a pipe or a file, else through `stream()`. A pipe whose reader
 * is gone (EPIPE) or a closed descriptor drops what follows, as the stream does; a full non-blocking
 * pipe (EAGAIN) hands the rest, and everything after it, to the stream, which waits for room and keeps
 * the order.
 */
export function fdWriter(fd: number, stream: () => StreamWrite, port: FdPort = NODE_FD_PORT): (text: string) => void {
  let direct: boolean | null = null;
  let viaStream: StreamWrite | null = null;
  let dropped = false;
  const toStream = (chunk: string | Uint8Array): void => {
    viaStream ??= stream();
    viaStream(chunk);
  };
  return (text) => {
    if (direct === null) {
      const kind = port.kind(fd);
      direct = kind === "pipe" || kind === "file";
    }
    if (!direct) return toStream(text);
    if (dropped || text.length === 0) return;
    const bytes = Buffer.from(text, "utf8");
    let offset = 0;
    while (offset < bytes.length) {
      try {
        offset += port.write(fd, bytes, offset);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === "EAGAIN") {
          direct = false;
          return toStream(bytes.subarray(offset));
        }
        dropped = true;
        return;
      }
    }
  };
}

/** True when `fd` is a terminal; a pipe or a file is told without loading the terminal module. */
export function fdIsTTY(fd: number, isatty: () => boolean, port: FdPort = NODE_FD_PORT): boolean {
  const kind = port.kind(fd);
  return kind === "pipe" || kind === "file" ? false : isatty();
}
