/**
 * The private snapshot file: every file record with its stamp, so a warm start re-parses only the files
 * whose stamp changed. Layout (all integers little-endian):
 *
 * ```
 * 0   8  magic "RA3SNAP\0"         — stable forever, so foreign files are rejected before any decoding
 * 8   4  u32 SNAPSHOT_SCHEMA_VERSION — stable forever; everything after it may change with the version
 * 12  4  u32 header length H
 * 16  4  u32 body length B
 * 20  4  u32 CRC-32 (zlib's) of bytes [24, 24+H+B)
 * 24  H  header: one msgpack map (tool version, project, SDK, schema key, build facts, stats, file
 *          count, record layout fingerprint)
 * …   B  body: u32 offset T of the string table from the body's start; the linked section (varint 0 =
 *          none, or 1, its byte length as a u32 and the section: see link-codec.ts); the files, each its
 *          path and stamp, the u32 byte length of its record and the record, as varints over table
 *          indexes (see record-codec.ts); at T the string table: varint count + UTF-16 lengths, the u32
 *          byte length of the blob, the table as one UTF-8 blob
 * ```
 *
 * The linked section comes before the files so a server can publish the stored index as soon as it is
 * read, and decode the records after. The string table comes last, where the reader finds it by its
 * offset, so the encoder writes everything in one pass (the table is complete only after the last
 * string was interned) and patches the offsets and lengths in place: a second copy of a 10 MB body
 * raised the peak of a cold `ra3 index` at Corona scale by about 50 MB (docs/performance.md). The store
 * writes that pass straight into the temporary file in pieces ({@link writeSnapshotSteps}), so not even
 * one copy is held: for a 200 MB mod the snapshot alone is 175 MB.
 * Each record's length is stored so a warm start decodes a record only when something reads it (a
 * {@link LazySnapshotFile}): a warm start that publishes the stored link reads none, and the records
 * were about a fifth of its time at Corona scale. A record that does not decode is found only then
 * ({@link CorruptRecord}: the workspace reads that snapshot's records again from the files).
 * Versions 2 (no linked section), 3 (table first, derivable fields stored) and 4 (records without their
 * lengths) are refused like any other.
 *
 * The string table holds each distinct string once, and decoding it is one UTF-8 decode plus slicing.
 * Decoding never throws: every failure is a {@link DecodeFailure} with a reason and one sentence.
 */
import { Packr } from "./msgpack.ts";
import { pathKey } from "../project/paths.ts";
import type { FileStamp } from "../index/core.ts";
import type { FileRecord } from "../index/records.ts";
import { ByteReader, type ByteSink, ByteWriter, CorruptInput } from "./bytes.ts";
import { compileSpec, FILE_RECORD_SPEC, readObject, StringTable, writeObject } from "./record-codec.ts";
import {
  LINK_LAYOUT_FIELDS,
  type LinkState,
  linkStateProblemSteps,
  readLinkStateSteps,
  writeLinkStateSteps,
} from "./link-codec.ts";
import { runSteps } from "../steps.ts";

/** The private snapshot format's version: bump it on any change of this file's layout or a record spec. */
export const SNAPSHOT_SCHEMA_VERSION = 9;

let zlibCrc32: ((data: Uint8Array, value?: number) => number) | null = null;

/**
 * The snapshot's checksum: the CRC-32 of `bytes` (zlib's polynomial, as `zlib.crc32` computes it), continued
 * from `running` (the CRC of the bytes before them). The runtime's native code does it: 0.2 ms for Upheaval's
 * 6.3 MB, where a checksum in JavaScript took ≈ 8 ms of every warm start (format 9; docs/performance.md,
 * "thirteenth submission"). The module is fetched on first use, so a command that reads no snapshot does
 * not load it.
 * @example snapshotChecksum(new TextEncoder().encode("123456789")) // 0xcbf43926
 */
export function snapshotChecksum(bytes: Uint8Array, running = 0): number {
  zlibCrc32 ??= process.getBuiltinModule("node:zlib").crc32;
  return zlibCrc32(bytes, running) >>> 0;
}

/** The first 8 bytes of every snapshot. */
export const SNAPSHOT_MAGIC: Uint8Array = new Uint8Array([0x52, 0x41, 0x33, 0x53, 0x4e, 0x41, 0x50, 0x00]); // "RA3SNAP\0"

const PREFIX = 24;

export interface SnapshotFile {
  /** Absolute path as the index core stores it (real casing). */
  readonly path: string;
  /** Size and mtime when the record was made; null when unknown (the file is re-validated on load). */
  readonly stamp: FileStamp | null;
  readonly record: FileRecord;
}

export type SnapshotPhase = "xml" | "art";

/** Everything in a snapshot except the files: small, and readable without decoding the body. */
export interface SnapshotHeader {
  readonly schemaVersion: number;
  readonly toolVersion: string;
  readonly projectDir: string;
  readonly sdkDir: string | null;
  /** Identifies the schema the records were extracted with (computed by the caller). */
  readonly schemaKey: string;
  readonly generatedAt: string;
  readonly buildId: number;
  readonly phase: SnapshotPhase;
  readonly complete: boolean;
  readonly stale: boolean;
  readonly stats: Readonly<Record<string, number>>;
}

/**
 * A record of a loaded snapshot that does not decode (found when it is first read, for a
 * {@link LazySnapshotFile}). The checksum matched, so this is an encoder of another build writing the
 * same version: none of that snapshot's records can be trusted, and the reader reads the files again.
 */
export class CorruptRecord extends Error {
  constructor(readonly path: string, why: string) {
    super(`the snapshot is corrupt: the record of ${path} does not decode (${why})`);
    this.name = "CorruptRecord";
  }
}

/** Where a lazy file's record is: the snapshot's bytes and string table, shared by all its files. */
interface RecordRegion {
  readonly bytes: Uint8Array;
  readonly table: readonly string[];
}

/**
 * A snapshot file whose record is decoded on first read, from its own byte range (then kept). Throws
 * {@link CorruptRecord} from `record` when the range does not decode exactly.
 */
class LazySnapshotFile implements SnapshotFile {
  private value: FileRecord | null = null;

  constructor(
    readonly path: string,
    readonly stamp: FileStamp | null,
    private readonly region: RecordRegion,
    private readonly start: number,
    private readonly end: number,
  ) {}

  get record(): FileRecord {
    return this.value ??= decodeRecord(this.path, this.region, this.start, this.end);
  }

  /** Whether the record has been decoded (or is still only a byte range). */
  get decoded(): boolean {
    return this.value !== null;
  }
}

/** The record at [start, end) of `region`; {@link CorruptRecord} unless it decodes to exactly that range. */
function decodeRecord(path: string, region: RecordRegion, start: number, end: number): FileRecord {
  try {
    const r = new ByteReader(region.bytes, start, end);
    const record = readObject(r, region.table, RECORD_FIELDS) as unknown as FileRecord;
    if (r.pos !== end) throw new CorruptInput(`${end - r.pos} of its ${end - start} bytes are left after it`);
    return record;
  } catch (e) {
    if (e instanceof CorruptInput || e instanceof TypeError || e instanceof RangeError) {
      throw new CorruptRecord(path, e.message);
    }
    throw e;
  }
}

export interface Snapshot extends SnapshotHeader {
  readonly files: readonly SnapshotFile[];
  /**
   * What the last link of these records produced, when it was current (see `link-codec.ts`); absent or
   * null when the snapshot has none, or when the stored one was refused (then `linkedProblem` says why).
   */
  readonly linked?: LinkState | null;
  /** Why a stored linked section was refused (the records are still good: the warm start links them). */
  readonly linkedProblem?: string;
}

/** What the header says about the body, beyond {@link SnapshotHeader}. */
export interface SnapshotHeaderInfo extends SnapshotHeader {
  /** Number of files in the body. */
  readonly fileCount: number;
  /** Total size of the snapshot in bytes. */
  readonly size: number;
}

export type DecodeFailureReason =
  /** zero bytes */
  | "empty"
  /** not a snapshot at all (no magic) */
  | "foreign"
  /** shorter than its header says */
  | "truncated"
  /** the checksum, header or body does not hold together */
  | "corrupt"
  /** written in another snapshot format version */
  | "version"
  /** written by another ra3 version */
  | "tool"
  /** belongs to another project folder */
  | "project"
  /** records were extracted with another schema */
  | "schema";

export interface DecodeFailure {
  readonly ok: false;
  readonly reason: DecodeFailureReason;
  /** One sentence saying what is wrong with the snapshot. */
  readonly message: string;
}

export type DecodeResult = { readonly ok: true; readonly snapshot: Snapshot } | DecodeFailure;
export type HeaderResult = { readonly ok: true; readonly header: SnapshotHeaderInfo } | DecodeFailure;

/** What the reader requires of a snapshot. */
export interface SnapshotExpectation {
  readonly projectDir: string;
  readonly toolVersion: string;
  /** When given, a snapshot made with another schema is rejected (reason "schema"). */
  readonly schemaKey?: string;
}

const RECORD_FIELDS = compileSpec(FILE_RECORD_SPEC);

/**
 * A fingerprint of the record specs (field names, kinds, order). Stored in the header: a spec changed
 * without bumping {@link SNAPSHOT_SCHEMA_VERSION} (easy to forget during development) still invalidates
 * old snapshots instead of misreading them.
 */
export const RECORD_LAYOUT: string = snapshotChecksum(
  new TextEncoder().encode(JSON.stringify([RECORD_FIELDS, LINK_LAYOUT_FIELDS])),
).toString(16).padStart(8, "0");

// Plain maps (no msgpackr records extension), so any msgpack library can read the header.
let headerPackr: Packr | null = null;
function packr(): Packr {
  headerPackr ??= new Packr({ useRecords: false, moreTypes: false, bundleStrings: false });
  return headerPackr;
}

/**
 * The bytes of `s`. Throws only on a bug: a snapshot of another `schemaVersion`, or a record field
 * holding a value its spec cannot represent (e.g. a fractional line number).
 * @example writeFileAtomic(path, encodeSnapshot(snapshot))
 */
export function encodeSnapshot(s: Snapshot): Uint8Array {
  return runSteps(encodeSnapshotSteps(s));
}

/**
 * From this size on, reading a snapshot, its checksum and its string table are a step each (a small
 * snapshot decodes in one step).
 */
export const LARGE_SNAPSHOT_BYTES = 1 << 20;

/** Strings of a big snapshot's table cut out of its text, or written, between two yields. */
const STRINGS_PER_STEP = 16384;

/** Files encoded or decoded between two yields of {@link encodeSnapshotSteps} and {@link decodeSnapshotSteps}. */
const FILES_PER_STEP = 256;

/** Bytes of records written after which a step of the encoder ends, however few files they were. */
const STEP_BYTES = 256 * 1024;

/**
 * {@link encodeSnapshot} in steps: yields after every few hundred files (a long-running process lets
 * other work run there) and returns the bytes.
 */
function* encodeSnapshotSteps(s: Snapshot): Generator<void, Uint8Array, void> {
  // One buffer for all of it: the prefix is filled in at the end, offsets and lengths are patched.
  const w = new ByteWriter(s.linked ? 1 << 22 : 1 << 16);
  const headerLength = yield* writeContent(s, w);
  const out = w.finish();
  out.set(prefixOf(headerLength, out.length, snapshotChecksum(out.subarray(PREFIX))), 0);
  return out;
}

/** Where {@link writeSnapshotSteps} puts a snapshot: a file being written, which it also reads back. */
export interface SnapshotSink extends ByteSink {
  /** Reads up to `into.length` bytes from `at` (bytes appended earlier); returns how many. */
  readAt(at: number, into: Uint8Array): number;
}

/** The size of the pieces {@link writeSnapshotSteps} hands to its sink. */
const WRITE_CHUNK_BYTES = 1 << 20;

/**
 * Pieces checksummed between two yields when the written snapshot is read back (Corona's 10 MB in one
 * step took 12 ms).
 */
const CHUNKS_PER_STEP = 4;

/**
 * {@link encodeSnapshotSteps} straight into `out`, in pieces of `chunkBytes`: the same bytes, but never
 * more than one piece of them in memory (at Corona scale the whole snapshot is 10 MB, for a 200 MB mod
 * 175 MB). The offsets and lengths are patched in place once known; the checksum, which covers them,
 * is computed by reading the written bytes back, and the prefix holding it is written last. Returns the
 * snapshot's size.
 * @example runSteps(writeFileAtomicSteps(fs, path, function* (file) { yield* writeSnapshotSteps(s, file) }))
 */
export function* writeSnapshotSteps(
  s: Snapshot,
  out: SnapshotSink,
  chunkBytes = WRITE_CHUNK_BYTES,
): Generator<void, number, void> {
  const w = new ByteWriter(chunkBytes, out);
  const headerLength = yield* writeContent(s, w);
  w.flush();
  const size = w.length;
  let sum = 0;
  const chunk = new Uint8Array(chunkBytes);
  for (let at = PREFIX, pieces = 0; at < size;) {
    const n = out.readAt(at, chunk.subarray(0, Math.min(chunkBytes, size - at)));
    if (n <= 0) throw new Error(`snapshot writer: the file ends at ${at} of ${size} bytes`);
    sum = snapshotChecksum(chunk.subarray(0, n), sum);
    at += n;
    if (++pieces % CHUNKS_PER_STEP === 0) yield;
  }
  out.writeAt(0, prefixOf(headerLength, size, sum));
  return size;
}

/** The 24-byte prefix: magic, version, header and body length, checksum of everything after it. */
function prefixOf(headerLength: number, size: number, checksum: number): Uint8Array {
  const prefix = new Uint8Array(PREFIX);
  prefix.set(SNAPSHOT_MAGIC, 0);
  const dv = new DataView(prefix.buffer);
  dv.setUint32(8, SNAPSHOT_SCHEMA_VERSION, true);
  dv.setUint32(12, headerLength, true);
  dv.setUint32(16, size - PREFIX - headerLength, true);
  dv.setUint32(20, checksum, true);
  return prefix;
}

/**
 * Writes a placeholder prefix, the header and the body of `s` to `w` (yielding after every few hundred
 * files) and returns the header's length.
 */
function* writeContent(s: Snapshot, w: ByteWriter): Generator<void, number, void> {
  if (s.schemaVersion !== SNAPSHOT_SCHEMA_VERSION) {
    throw new Error(
      `encodeSnapshot: this build writes snapshot version ${SNAPSHOT_SCHEMA_VERSION}, not ${s.schemaVersion}`,
    );
  }
  const table = new StringTable();
  const header = packr().pack({
    toolVersion: s.toolVersion,
    projectDir: s.projectDir,
    sdkDir: s.sdkDir,
    schemaKey: s.schemaKey,
    generatedAt: s.generatedAt,
    buildId: s.buildId,
    phase: s.phase,
    complete: s.complete,
    stale: s.stale,
    stats: s.stats,
    fileCount: s.files.length,
    recordLayout: RECORD_LAYOUT,
  });
  w.bytes(new Uint8Array(PREFIX));
  w.bytes(header);
  const body = w.length;
  w.u32(0);
  if (s.linked) {
    w.uint(1);
    const lengthAt = w.length;
    w.u32(0);
    yield* writeLinkStateSteps(w, table, s.linked);
    w.setU32(lengthAt, w.length - lengthAt - 4);
  } else w.uint(0);
  w.uint(s.files.length);
  let written = 0;
  // A step ends after a few hundred files, or sooner after a few big records (a map's: Upheaval's 1 MB maps
  // with the RA3 schema made one step of 256 files take 100 ms).
  let stepAt = w.length;
  for (const f of s.files) {
    w.uint(table.intern(f.path));
    if (f.stamp === null) w.uint(0);
    else {
      w.uint(1);
      w.float(f.stamp.size);
      w.float(f.stamp.mtimeMs);
    }
    const lengthAt = w.length;
    w.u32(0);
    writeObject(w, table, RECORD_FIELDS, f.record);
    w.setU32(lengthAt, w.length - lengthAt - 4);
    if (++written % FILES_PER_STEP === 0 || w.length - stepAt >= STEP_BYTES) {
      stepAt = w.length;
      yield;
    }
  }
  w.setU32(body, w.length - body);
  yield* writeStringTableSteps(w, table.strings);
  return header.length;
}

/**
 * Writes a snapshot's string table: the count, each string's length, then the UTF-8 of all of them
 * after their byte count; yields after every `perStep` strings (at Corona scale the table written in
 * one step was half of a 55 ms step). The same bytes for any `perStep`.
 */
export function* writeStringTableSteps(
  w: ByteWriter,
  strings: readonly string[],
  perStep = STRINGS_PER_STEP,
): Generator<void, void, void> {
  w.uint(strings.length);
  for (let i = 0; i < strings.length; i++) {
    w.uint(strings[i].length);
    if ((i + 1) % perStep === 0) yield;
  }
  const blobAt = w.length;
  w.u32(0);
  for (let i = 0; i < strings.length; i++) {
    w.utf8(strings[i]);
    if ((i + 1) % perStep === 0) yield;
  }
  w.setU32(blobAt, w.length - blobAt - 4);
}

/**
 * Checks the prefix, checksum and header of a snapshot (not the body) against `expect`.
 * @example readSnapshotHeader(bytes, { projectDir, toolVersion: TOOL_VERSION })
 */
export function readSnapshotHeader(bytes: Uint8Array, expect: SnapshotExpectation): HeaderResult {
  if (bytes.length === 0) return fail("empty", "the snapshot file is empty");
  const magicPart = Math.min(bytes.length, SNAPSHOT_MAGIC.length);
  for (let i = 0; i < magicPart; i++) {
    if (bytes[i] !== SNAPSHOT_MAGIC[i]) {
      return fail("foreign", "the file is not an ra3 snapshot (it does not start with RA3SNAP)");
    }
  }
  if (bytes.length < PREFIX) {
    return fail(
      "truncated",
      `the snapshot is truncated: ${bytes.length} bytes, shorter than its ${PREFIX}-byte prefix`,
    );
  }
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const version = dv.getUint32(8, true);
  if (version !== SNAPSHOT_SCHEMA_VERSION) {
    return fail(
      "version",
      `the snapshot has format version ${version}; this ra3 reads version ${SNAPSHOT_SCHEMA_VERSION}`,
    );
  }
  const headerLength = dv.getUint32(12, true);
  const bodyLength = dv.getUint32(16, true);
  const expected = PREFIX + headerLength + bodyLength;
  if (bytes.length < expected) {
    return fail("truncated", `the snapshot is truncated: ${bytes.length} of ${expected} bytes`);
  }
  if (bytes.length > expected) {
    const extra = bytes.length - expected;
    return fail("corrupt", `the snapshot is corrupt: ${extra} unexpected byte${extra === 1 ? "" : "s"} after its end`);
  }
  if (snapshotChecksum(bytes.subarray(PREFIX)) !== dv.getUint32(20, true)) {
    return fail("corrupt", "the snapshot is corrupt: checksum mismatch");
  }

  let raw: unknown;
  try {
    raw = packr().unpack(bytes.subarray(PREFIX, PREFIX + headerLength));
  } catch (e) {
    return fail("corrupt", `the snapshot is corrupt: its header does not decode (${(e as Error).message})`);
  }
  const header = checkHeader(raw, bytes.length);
  if (typeof header === "string") {
    return fail("corrupt", `the snapshot is corrupt: header field ${header} is missing or has the wrong type`);
  }
  const layout = (raw as { recordLayout?: unknown }).recordLayout;
  if (layout !== RECORD_LAYOUT) {
    return fail(
      "version",
      `the snapshot's record layout (${String(layout)}) differs from this build's (${RECORD_LAYOUT})`,
    );
  }
  if (header.toolVersion !== expect.toolVersion) {
    return fail("tool", `the snapshot was written by ra3 ${header.toolVersion}; this is ra3 ${expect.toolVersion}`);
  }
  if (pathKey(header.projectDir) !== pathKey(expect.projectDir)) {
    return fail("project", `the snapshot belongs to another project (${header.projectDir}), not ${expect.projectDir}`);
  }
  if (expect.schemaKey !== undefined && header.schemaKey !== expect.schemaKey) {
    return fail(
      "schema",
      `the snapshot was made with another schema (${header.schemaKey}); this run uses ${expect.schemaKey}`,
    );
  }
  return { ok: true, header };
}

/**
 * The snapshot in `bytes` if it is intact and matches `expect`; otherwise why not. Never throws.
 * @example const r = decodeSnapshot(bytes, { projectDir, toolVersion }); if (!r.ok) log(r.message)
 */
export function decodeSnapshot(bytes: Uint8Array, expect: SnapshotExpectation): DecodeResult {
  return runSteps(decodeSnapshotSteps(bytes, expect));
}

/**
 * {@link decodeSnapshot} in steps: yields after the linked section and every few hundred files (a
 * long-running process lets other work run there) and returns the result. `onLinked` is called with
 * the linked section (and the header) as soon as it is read and checked, before any record is decoded.
 * With `lazy`, the files are {@link LazySnapshotFile}s: each record is decoded when first read (and a
 * record that does not decode is found only then); else every record is decoded now.
 */
export function* decodeSnapshotSteps(
  bytes: Uint8Array,
  expect: SnapshotExpectation,
  onLinked?: (linked: LinkState, header: SnapshotHeaderInfo) => void,
  lazy = false,
): Generator<void, DecodeResult, void> {
  const head = readSnapshotHeader(bytes, expect);
  if (!head.ok) return head;
  const h = head.header;
  // A big snapshot's checksum and string table are a step each (a small one decodes in one step).
  const big = bytes.length >= LARGE_SNAPSHOT_BYTES;
  if (big) yield;
  const headerLength = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(12, true);
  try {
    const body = PREFIX + headerLength;
    const tableOffset = new ByteReader(bytes, body).u32();
    if (tableOffset < 4 || tableOffset > bytes.length - body) {
      throw new CorruptInput(`the string table's offset ${tableOffset} is outside the body`);
    }
    const t = new ByteReader(bytes, body + tableOffset);
    const count = t.count();
    const lengths = new Array<number>(count);
    for (let i = 0; i < count; i++) lengths[i] = t.uint();
    const blobLength = t.u32();
    const text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(t.bytes(blobLength));
    if (t.pos !== t.end) throw new CorruptInput(`${t.end - t.pos} bytes are left after the string table`);
    const table = new Array<string>(count);
    let at = 0;
    for (let i = 0; i < count; i++) {
      table[i] = text.slice(at, at + lengths[i]);
      at += lengths[i];
      if (big && (i + 1) % STRINGS_PER_STEP === 0) yield;
    }
    if (at !== text.length) throw new CorruptInput("the string table lengths do not add up");
    if (big) yield;
    const r = new ByteReader(bytes, body + 4, body + tableOffset);
    const section = yield* readLinkedSection(r, table);
    if (section.linked) {
      onLinked?.(section.linked, h);
      yield;
    }
    const fileCount = r.count();
    if (fileCount !== h.fileCount) {
      throw new CorruptInput(`the body holds ${fileCount} files, the header says ${h.fileCount}`);
    }
    const files = new Array<SnapshotFile>(fileCount);
    const region: RecordRegion = { bytes, table };
    for (let i = 0; i < fileCount; i++) {
      const path = table[r.uint()];
      if (path === undefined) throw new CorruptInput("a file path is outside the string table");
      const hasStamp = r.uint();
      const stamp = hasStamp === 1 ? { size: r.float(), mtimeMs: r.float() } : hasStamp === 0 ? null : badStamp();
      const length = r.u32();
      const start = r.pos;
      r.bytes(length);
      files[i] = lazy
        ? new LazySnapshotFile(path, stamp, region, start, r.pos)
        : { path, stamp, record: decodeRecord(path, region, start, r.pos) };
      if ((i + 1) % (lazy ? 8 * FILES_PER_STEP : FILES_PER_STEP) === 0) yield;
    }
    if (r.pos !== r.end) throw new CorruptInput(`${r.end - r.pos} bytes are left after the last file`);
    const { fileCount: _count, size: _size, ...meta } = h;
    const linked = section.linked ? { linked: section.linked } : {};
    const linkedProblem = section.problem === null ? {} : { linkedProblem: section.problem };
    return { ok: true, snapshot: { ...meta, files, ...linked, ...linkedProblem } };
  } catch (e) {
    // The checksum matched, so this is an encoder from another build writing the same version: still corrupt.
    if (e instanceof CorruptRecord) return fail("corrupt", e.message);
    if (e instanceof CorruptInput || e instanceof TypeError || e instanceof RangeError) {
      return fail("corrupt", `the snapshot is corrupt: ${e.message}`);
    }
    return fail("corrupt", `the snapshot is corrupt: ${String(e)}`);
  }
}

/**
 * The linked section at `r` (leaving `r` after it), or null with why it was refused: a section that
 * does not decode or does not hold together is skipped by its length, and the records after it are read.
 */
function* readLinkedSection(
  r: ByteReader,
  table: readonly string[],
): Generator<void, { readonly linked: LinkState | null; readonly problem: string | null }, void> {
  const marker = r.uint();
  if (marker === 0) return { linked: null, problem: null };
  if (marker !== 1) throw new CorruptInput(`the linked section marker is ${marker}, not 0 or 1`);
  const sub = r.slice(r.u32());
  try {
    const linked = yield* readLinkStateSteps(sub, table);
    if (sub.pos !== sub.end) return { linked: null, problem: `${sub.end - sub.pos} bytes are left after it` };
    const problem = yield* linkStateProblemSteps(linked);
    return problem === null ? { linked, problem: null } : { linked: null, problem };
  } catch (e) {
    if (e instanceof CorruptInput || e instanceof TypeError || e instanceof RangeError) {
      return { linked: null, problem: e.message };
    }
    throw e;
  }
}

function badStamp(): never {
  throw new CorruptInput("a file stamp marker is neither 0 nor 1");
}

function fail(reason: DecodeFailureReason, message: string): DecodeFailure {
  return { ok: false, reason, message };
}

/** The header as a typed value, or the name of the first field that is missing or mistyped. */
function checkHeader(raw: unknown, size: number): SnapshotHeaderInfo | string {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return "(the header itself)";
  const o = raw as Record<string, unknown>;
  const strings = ["toolVersion", "projectDir", "schemaKey", "generatedAt"] as const;
  for (const k of strings) if (typeof o[k] !== "string") return k;
  if (o.sdkDir !== null && typeof o.sdkDir !== "string") return "sdkDir";
  for (const k of ["buildId", "fileCount"] as const) if (!Number.isSafeInteger(o[k]) || (o[k] as number) < 0) return k;
  if (o.phase !== "xml" && o.phase !== "art") return "phase";
  for (const k of ["complete", "stale"] as const) if (typeof o[k] !== "boolean") return k;
  const stats = o.stats;
  if (typeof stats !== "object" || stats === null || Array.isArray(stats)) return "stats";
  for (const v of Object.values(stats)) if (typeof v !== "number") return "stats";
  return {
    schemaVersion: SNAPSHOT_SCHEMA_VERSION,
    toolVersion: o.toolVersion as string,
    projectDir: o.projectDir as string,
    sdkDir: o.sdkDir as string | null,
    schemaKey: o.schemaKey as string,
    generatedAt: o.generatedAt as string,
    buildId: o.buildId as number,
    phase: o.phase as SnapshotPhase,
    complete: o.complete as boolean,
    stale: o.stale as boolean,
    stats: { ...(stats as Record<string, number>) },
    fileCount: o.fileCount as number,
    size,
  };
}
