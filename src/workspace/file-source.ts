/**
 * Where the driver reads a mod file's bytes: the disk, or (tests) a slow or failing source. Art files are
 * big and only scanned, so the disk source reads them into one reused buffer instead of a new one each
 * (hundreds of MB of garbage otherwise; records never keep the bytes).
 */
import { closeSync, fstatSync, openSync, readFileSync, readSync } from "node:fs";

export interface FileSource {
  /**
   * The file's bytes; throws the file system's error (with its `code`). With `reuse`, the bytes may live
   * in a buffer the next `reuse` read overwrites: parse them before reading again.
   */
  read(path: string, reuse: boolean): Uint8Array;
  /** Optional: drop buffers kept for reuse (after a build; a later read allocates again). */
  release?(): void;
}

/** The disk, with one reused buffer for `reuse` reads. */
export class DiskFileSource implements FileSource {
  private buffer: Buffer = Buffer.alloc(0);

  release(): void {
    this.buffer = Buffer.alloc(0);
  }

  read(path: string, reuse: boolean): Uint8Array {
    if (!reuse) return readFileSync(path);
    const fd = openSync(path, "r");
    try {
      const size = fstatSync(fd).size;
      if (this.buffer.length < size) {
        this.buffer = Buffer.allocUnsafe(Math.max(size, this.buffer.length * 2, 1 << 20));
      }
      let n = 0;
      while (n < size) {
        const got = readSync(fd, this.buffer, n, size - n, n);
        if (got === 0) break;
        n += got;
      }
      return this.buffer.subarray(0, n);
    } finally {
      closeSync(fd);
    }
  }
}
