/**
 * The byte-level pieces of the snapshot codec: a growable writer and a bounds-checked reader of
 * LEB128 varints and float64s. Varints keep the common small numbers (lines,
 * columns, string indexes) at one or two bytes; the reader never reads past its end and reports damage
 * as a {@link CorruptInput} exception that the codec turns into a "corrupt" result. A writer given a
 * {@link ByteSink} hands its bytes on in chunks (a snapshot goes to its file while it is encoded, never
 * whole in memory). The snapshot's checksum is zlib's CRC-32 (`codec.ts` `snapshotChecksum`).
 */

/** Thrown by {@link ByteReader} on bytes that cannot be what the writer wrote; caught by the codec. */
export class CorruptInput extends Error {}

const TWO_POW_31 = 2 ** 31;

const encoder = new TextEncoder();

/** Where a chunked {@link ByteWriter} puts its bytes: appended in order, and patched in place. */
export interface ByteSink {
  /** Appends `bytes` after everything appended before (the bytes may be reused after the call). */
  append(bytes: Uint8Array): void;
  /** Overwrites bytes appended earlier, from offset `at` (counted from the first byte appended). */
  writeAt(at: number, bytes: Uint8Array): void;
}

/**
 * Appends varints, float64s and raw bytes to a buffer that grows as needed, or, given a {@link ByteSink},
 * to a buffer of about `initialSize` bytes that is handed to the sink whenever it is full.
 */
export class ByteWriter {
  private buf: Uint8Array;
  private view: DataView;
  private pos = 0;
  /** How many bytes went to the sink before `buf[0]` (0 without a sink). */
  private base = 0;

  constructor(initialSize = 1 << 16, private readonly sink: ByteSink | null = null) {
    this.buf = new Uint8Array(initialSize);
    this.view = new DataView(this.buf.buffer);
  }

  /** Bytes written so far (including those already handed to the sink). */
  get length(): number {
    return this.base + this.pos;
  }

  /**
   * Room for `n` more bytes: with a sink, a full buffer is handed on first (so the `n` bytes of one
   * write, e.g. a u32 patched later, always lie in one chunk); the buffer at least doubles when it is
   * still too small (moved, not copied, where the runtime can).
   */
  private ensure(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    if (this.sink !== null && this.pos > 0) {
      this.flush();
      if (n <= this.buf.length) return;
    }
    let size = this.buf.length * 2;
    while (size < this.pos + n) size *= 2;
    // `transfer` (ES2024) moves the bytes and frees the old buffer at once: a plain copy left the old
    // buffers to the garbage collector, 12 MB of them while a 10 MB snapshot is written.
    const old = this.buf.buffer as ArrayBuffer & { transfer?(length: number): ArrayBuffer };
    let next: Uint8Array;
    if (typeof old.transfer === "function") next = new Uint8Array(old.transfer(size));
    else {
      next = new Uint8Array(size);
      next.set(this.buf.subarray(0, this.pos));
    }
    this.buf = next;
    this.view = new DataView(next.buffer);
  }

  /** Writes a non-negative safe integer. Throws on anything else (an encoder bug, not bad input). */
  uint(n: number): void {
    // One and two bytes (nearly every line, column and table index) with the buffer's room tested in
    // place: `(n >>> 0) === n` holds exactly for the integers 0 … 2^32 − 1.
    if ((n >>> 0) === n && n < 0x4000) {
      const pos = this.pos;
      const buf = this.buf;
      if (pos + 2 <= buf.length) {
        if (n < 0x80) {
          buf[pos] = n;
          this.pos = pos + 1;
        } else {
          buf[pos] = (n & 0x7f) | 0x80;
          buf[pos + 1] = n >>> 7;
          this.pos = pos + 2;
        }
        return;
      }
    }
    if (!Number.isSafeInteger(n) || n < 0) throw new Error(`snapshot encoder: ${n} is not a non-negative safe integer`);
    this.ensure(8);
    // Division instead of shifts above 2^31: bit operators truncate to 32 bits.
    while (n >= TWO_POW_31) {
      this.buf[this.pos++] = (n % 0x80) | 0x80;
      n = Math.floor(n / 0x80);
    }
    while (n >= 0x80) {
      this.buf[this.pos++] = (n & 0x7f) | 0x80;
      n >>>= 7;
    }
    this.buf[this.pos++] = n;
  }

  /** Writes a safe integer of either sign (zigzag: 0, -1, 1, -2 … → 0, 1, 2, 3 …). */
  int(n: number): void {
    if (!Number.isSafeInteger(n) || Math.abs(n) > 2 ** 51) {
      throw new Error(`snapshot encoder: ${n} is not an integer in ±2^51`);
    }
    this.uint(n >= 0 ? n * 2 : -n * 2 - 1);
  }

  /** Writes any number (fractions, NaN, infinities) as 8 bytes. */
  float(n: number): void {
    this.ensure(8);
    this.view.setFloat64(this.pos, n, true);
    this.pos += 8;
  }

  bytes(b: Uint8Array): void {
    this.ensure(b.length);
    this.buf.set(b, this.pos);
    this.pos += b.length;
  }

  /** Writes `n` (0 ≤ n < 2^32) as 4 bytes, so it can be patched later ({@link setU32}). */
  u32(n: number): void {
    this.ensure(4);
    this.view.setUint32(this.pos, n, true);
    this.pos += 4;
  }

  /** Overwrites the 4 bytes at `at` (written earlier, e.g. a length placeholder) with `n`. */
  setU32(at: number, n: number): void {
    if (at < 0 || at + 4 > this.length) throw new Error(`snapshot encoder: no 4 bytes written at ${at}`);
    if (at >= this.base) {
      this.view.setUint32(at - this.base, n, true);
      return;
    }
    // Already handed on: 4 bytes of one write never straddle two chunks (see ensure).
    const patch = new Uint8Array(4);
    new DataView(patch.buffer).setUint32(0, n, true);
    this.sink!.writeAt(at, patch);
  }

  /** Hands what is buffered to the sink (nothing happens without one). */
  flush(): void {
    if (this.sink === null || this.pos === 0) return;
    this.sink.append(this.buf.subarray(0, this.pos));
    this.base += this.pos;
    this.pos = 0;
  }

  /** Writes `s` as UTF-8 (no length) and returns its byte count. */
  utf8(s: string): number {
    const n = s.length;
    this.ensure(n * 3);
    // ASCII (nearly every id, path and value) byte by byte: `encodeInto` needs a view of the buffer per
    // call, and a string table writes millions of short strings (writing 300k ids raised the RSS by
    // 30 MB with a view per string, by 5 MB without).
    const buf = this.buf;
    const start = this.pos;
    let i = 0;
    for (; i < n; i++) {
      const c = s.charCodeAt(i);
      if (c >= 0x80) break;
      buf[start + i] = c;
    }
    if (i === n) {
      this.pos = start + n;
      return n;
    }
    const { written } = encoder.encodeInto(s.slice(i), buf.subarray(start + i));
    this.pos = start + i + written;
    return i + written;
  }

  /**
   * The bytes written, in a buffer of their exact size (the spare capacity freed at once where the
   * runtime can, see {@link ensure}); the writer is spent.
   */
  finish(): Uint8Array {
    if (this.sink !== null) throw new Error("snapshot encoder: a writer with a sink has no bytes to finish; flush it");
    const old = this.buf.buffer as ArrayBuffer & { transfer?(length: number): ArrayBuffer };
    const out = typeof old.transfer === "function"
      ? new Uint8Array(old.transfer(this.pos))
      : this.buf.slice(0, this.pos);
    this.buf = new Uint8Array(0);
    this.view = new DataView(this.buf.buffer);
    this.pos = 0;
    return out;
  }

  /**
   * The bytes written so far: a view, which writing more may detach (when the buffer grows); copy it
   * before writing more if you keep it.
   */
  result(): Uint8Array {
    if (this.sink !== null) throw new Error("snapshot encoder: a writer with a sink keeps only its last chunk");
    return this.buf.subarray(0, this.pos);
  }
}

/** Reads what a {@link ByteWriter} wrote, throwing {@link CorruptInput} instead of reading past the end. */
export class ByteReader {
  private readonly view: DataView;
  pos: number;

  constructor(private readonly buf: Uint8Array, start = 0, readonly end = buf.length) {
    this.view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
    this.pos = start;
  }

  /** Another reader of the same bytes from `start` to this one's end (this one does not move). */
  from(start: number): ByteReader {
    return new ByteReader(this.buf, start, this.end);
  }

  /** A reader of the next `n` bytes alone; this one moves past them. */
  slice(n: number): ByteReader {
    if (n > this.end - this.pos) throw new CorruptInput("unexpected end of data");
    const sub = new ByteReader(this.buf, this.pos, this.pos + n);
    this.pos += n;
    return sub;
  }

  uint(): number {
    const buf = this.buf;
    if (this.pos >= this.end) throw new CorruptInput("unexpected end of data");
    let b = buf[this.pos++];
    if (b < 0x80) return b;
    let result = b & 0x7f;
    let scale = 0x80;
    for (let i = 1; i < 8; i++) {
      if (this.pos >= this.end) throw new CorruptInput("unexpected end of data");
      b = buf[this.pos++];
      result += (b & 0x7f) * scale;
      if (b < 0x80) return result;
      scale *= 0x80;
    }
    throw new CorruptInput("a number is longer than 8 bytes");
  }

  int(): number {
    const z = this.uint();
    return z % 2 === 0 ? z / 2 : -(z + 1) / 2;
  }

  /** Reads what {@link ByteWriter.u32} wrote. */
  u32(): number {
    if (this.pos + 4 > this.end) throw new CorruptInput("unexpected end of data");
    const n = this.view.getUint32(this.pos, true);
    this.pos += 4;
    return n;
  }

  float(): number {
    if (this.pos + 8 > this.end) throw new CorruptInput("unexpected end of data");
    const n = this.view.getFloat64(this.pos, true);
    this.pos += 8;
    return n;
  }

  /** A count of items that each take at least one byte: never more than what is left. */
  count(): number {
    const n = this.uint();
    if (n > this.end - this.pos) {
      throw new CorruptInput(`a list claims ${n} items but only ${this.end - this.pos} bytes are left`);
    }
    return n;
  }

  bytes(n: number): Uint8Array {
    if (n > this.end - this.pos) throw new CorruptInput("unexpected end of data");
    const out = this.buf.subarray(this.pos, this.pos + n);
    this.pos += n;
    return out;
  }
}
