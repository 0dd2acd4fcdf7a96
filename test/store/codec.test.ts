// The private snapshot codec: exact round trips of real records, and every way a file can be unusable.
import { describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { Packr } from "../../src/store/msgpack.ts";
import { emptyRecord, type FileRecord } from "../../src/index/records.ts";
import {
  type DecodeResult,
  decodeSnapshot,
  encodeSnapshot,
  readSnapshotHeader,
  RECORD_LAYOUT,
  SNAPSHOT_MAGIC,
  SNAPSHOT_SCHEMA_VERSION,
  snapshotChecksum,
} from "../../src/store/codec.ts";
import { CORPORA, recordsOf, SAMPLE, snapshotOf } from "./records.ts";

const EXPECT = { projectDir: SAMPLE, toolVersion: "9.9.9" };
const sampleFiles = recordsOf(SAMPLE, join(SAMPLE, "Schemas", "xsd"));
const sample = snapshotOf(SAMPLE, sampleFiles);
const bytes = encodeSnapshot(sample);

function failure(r: DecodeResult): { reason: string; message: string } {
  if (r.ok) throw new Error("expected a decode failure");
  return { reason: r.reason, message: r.message };
}

function occurrences(haystack: Uint8Array, needle: string): number {
  const n = new TextEncoder().encode(needle);
  let count = 0;
  outer: for (let i = 0; i + n.length <= haystack.length; i++) {
    for (let k = 0; k < n.length; k++) if (haystack[i + k] !== n[k]) continue outer;
    count++;
  }
  return count;
}

/** A copy of `b` with its header replaced by `header` (msgpack) and the checksum made valid again. */
function withHeader(b: Uint8Array, header: unknown): Uint8Array {
  const dv = new DataView(b.buffer, b.byteOffset);
  const headerLength = dv.getUint32(12, true);
  const packed = new Packr({ useRecords: false }).pack(header);
  const body = b.subarray(24 + headerLength);
  const out = new Uint8Array(24 + packed.length + body.length);
  out.set(b.subarray(0, 24));
  out.set(packed, 24);
  out.set(body, 24 + packed.length);
  new DataView(out.buffer).setUint32(12, packed.length, true);
  return resealed(out);
}

function headerOf(b: Uint8Array): Record<string, unknown> {
  const headerLength = new DataView(b.buffer, b.byteOffset).getUint32(12, true);
  // `useRecords: false` is what msgpackr's module-level `unpack` uses (maps read as plain objects).
  return new Packr({ useRecords: false }).unpack(b.subarray(24, 24 + headerLength)) as Record<string, unknown>;
}

/** A copy of `b` with the header/body changed and the checksum made valid again. */
function resealed(b: Uint8Array): Uint8Array {
  const out = b.slice();
  new DataView(out.buffer).setUint32(20, snapshotChecksum(out.subarray(24)), true);
  return out;
}

describe("snapshotChecksum (format 9: zlib's CRC-32)", () => {
  test("the standard check value, the empty input, and any cut of the input continued gives the whole's", () => {
    expect(snapshotChecksum(new TextEncoder().encode("123456789"))).toBe(0xcbf43926);
    expect(snapshotChecksum(new Uint8Array(0))).toBe(0);
    const bytes = new Uint8Array(10_000).map((_, i) => (i * 2654435761) >>> 24);
    const whole = snapshotChecksum(bytes);
    for (const cut of [1, 3, 4097, 9_999]) {
      expect(snapshotChecksum(bytes.subarray(cut), snapshotChecksum(bytes.subarray(0, cut)))).toBe(whole);
    }
    // An unaligned view gives the same value as an aligned copy; any single flipped bit changes it.
    const backing = new Uint8Array(bytes.length + 5);
    backing.set(bytes, 3);
    expect(snapshotChecksum(backing.subarray(3, 3 + bytes.length))).toBe(whole);
    const small = bytes.slice(0, 64);
    const base = snapshotChecksum(small);
    for (let bit = 0; bit < 64 * 8; bit++) {
      const b = small.slice();
      b[bit >> 3] ^= 1 << (bit & 7);
      if (snapshotChecksum(b) === base) throw new Error(`bit ${bit} went unnoticed`);
    }
  });

  test("the prefix holds the checksum of every byte after it", () => {
    const bytes = encodeSnapshot(snapshotOf(SAMPLE, recordsOf(SAMPLE, null)));
    expect(new DataView(bytes.buffer, bytes.byteOffset).getUint32(20, true)).toBe(snapshotChecksum(bytes.subarray(24)));
  });
});

describe("round trip", () => {
  test("the sample mod's records come back exactly", () => {
    expect(sampleFiles.map((f) => f.record.kind).sort()).toEqual(
      [...Array(13).fill("xml"), "art", "art", "str"].sort(),
    );
    const r = decodeSnapshot(bytes, EXPECT);
    expect(r.ok).toBe(true);
    if (r.ok) expect(r.snapshot).toEqual(sample);
  });

  test("the header is readable without the body and reports size and file count", () => {
    const r = readSnapshotHeader(bytes, EXPECT);
    expect(r.ok && { ...r.header, stats: undefined }).toEqual({
      schemaVersion: SNAPSHOT_SCHEMA_VERSION,
      toolVersion: "9.9.9",
      projectDir: SAMPLE,
      sdkDir: null,
      schemaKey: "schema-abc",
      generatedAt: "2026-01-02T03:04:05.000Z",
      buildId: 7,
      phase: "art",
      complete: true,
      stale: false,
      stats: undefined,
      fileCount: 16,
      size: bytes.length,
    });
  });

  test("strings are stored once: a type name used by many records appears once in the bytes", () => {
    const inRecords = JSON.stringify(sampleFiles).split('"WeaponTemplate"').length - 1;
    expect(inRecords).toBeGreaterThan(3);
    expect(occurrences(bytes, "WeaponTemplate")).toBe(1);
  });

  test("edge values: null stamps, unicode, lone surrogates, 32-bit hashes, negative owners, fractional mtimes", () => {
    const record: FileRecord = {
      ...emptyRecord("manifest"),
      rootName: "Wörld — 世界 🚀",
      manifestAssets: [{
        type: "GameObject",
        id: "ÜnïcødeTank",
        typeId: 0xffffffff,
        instanceId: 0x80000000,
        sourceFile: "DATA:a\\b.xml",
      }],
      manifestRefs: [0, 0xffffffff, 0, -1, 2 ** 40],
      refs: [
        {
          owner: -1,
          kind: "heuristic",
          value: "",
          refType: null,
          selfType: null,
          element: "e",
          parent: null,
          attribute: null,
          offset: 0,
          line: 0,
          column: 0,
        },
      ],
      streamSources: ["static.xml", ""],
      lineCount: 123456789,
    };
    const odd: FileRecord = { ...emptyRecord("xml"), rootName: "bad\uD800name" };
    const s = snapshotOf("C:\\Mods\\My Mod", [
      { path: "C:\\Mods\\My Mod\\a.manifest", stamp: null, record },
      { path: "C:\\Mods\\My Mod\\b.xml", stamp: { size: 2 ** 33, mtimeMs: 1731234567890.1235 }, record: odd },
    ], { sdkDir: "D:/SDK", phase: "xml", complete: false, stale: true, stats: {} });
    const r = decodeSnapshot(encodeSnapshot(s), { projectDir: "c:/mods/my mod/", toolVersion: "9.9.9" });
    if (!r.ok) throw new Error(r.message);
    expect(r.snapshot.files[0]).toEqual(s.files[0]);
    // A lone surrogate cannot be stored as UTF-8: it becomes U+FFFD, the same length.
    expect(r.snapshot.files[1].record.rootName).toBe("bad\uFFFDname");
    expect({ ...r.snapshot, files: [] }).toEqual({ ...s, files: [] });
  });

  test("a byte-order mark at the start of the string table is kept (the first string is the first path)", () => {
    const s = snapshotOf(SAMPLE, [{ path: "\uFEFFodd.xml", stamp: null, record: emptyRecord("xml") }]);
    const r = decodeSnapshot(encodeSnapshot(s), EXPECT);
    expect(r.ok && r.snapshot).toEqual(s);
  });

  test("an empty snapshot (no files) round-trips", () => {
    const s = snapshotOf(SAMPLE, []);
    const r = decodeSnapshot(encodeSnapshot(s), EXPECT);
    expect(r.ok && r.snapshot).toEqual(s);
  });

  test("encoding a value a field cannot hold is a bug and throws", () => {
    const bad = { ...emptyRecord("xml"), lineCount: 1.5 };
    expect(() => encodeSnapshot(snapshotOf(SAMPLE, [{ path: "/x.xml", stamp: null, record: bad }]))).toThrow(
      "snapshot encoder: 1.5 is not a non-negative safe integer",
    );
    expect(() => encodeSnapshot({ ...sample, schemaVersion: 99 })).toThrow(
      `encodeSnapshot: this build writes snapshot version ${SNAPSHOT_SCHEMA_VERSION}, not 99`,
    );
  });

  const upheaval = join(CORPORA, "upheaval");
  const ra3xsd = join(CORPORA, "ra3-xsd");
  test.skipIf(!existsSync(upheaval) || !existsSync(ra3xsd))(
    "Upheaval's records (with the RA3 schema) come back exactly",
    () => {
      const files = recordsOf(upheaval, ra3xsd);
      expect(files.length).toBeGreaterThan(900);
      expect(files.reduce((n, f) => n + f.record.refs.length, 0)).toBeGreaterThan(50_000);
      const s = snapshotOf(upheaval, files);
      const r = decodeSnapshot(encodeSnapshot(s), { projectDir: upheaval, toolVersion: "9.9.9" });
      if (!r.ok) throw new Error(r.message);
      expect(r.snapshot).toEqual(s);
    },
  );
});

describe("decoding never throws and says why", () => {
  test("empty file", () => {
    expect(failure(decodeSnapshot(new Uint8Array(0), EXPECT))).toEqual({
      reason: "empty",
      message: "the snapshot file is empty",
    });
  });

  test("foreign files: random bytes, JSON, plain msgpack, a gzip stream", () => {
    let seed = 12345;
    const random = Uint8Array.from({ length: 4096 }, () => ((seed = (seed * 1103515245 + 12345) >>> 0) >>> 16) & 0xff);
    const foreign = { reason: "foreign", message: "the file is not an ra3 snapshot (it does not start with RA3SNAP)" };
    expect(failure(decodeSnapshot(random, EXPECT))).toEqual(foreign);
    expect(failure(decodeSnapshot(new TextEncoder().encode('{"files":[]}'), EXPECT))).toEqual(foreign);
    expect(failure(decodeSnapshot(new Packr().pack({ files: [] }), EXPECT))).toEqual(foreign);
    expect(failure(decodeSnapshot(new Uint8Array([0x1f, 0x8b, 8, 0]), EXPECT))).toEqual(foreign);
    // Shorter than the magic but not a prefix of it.
    expect(failure(decodeSnapshot(new Uint8Array([0x52, 0x41, 0x34]), EXPECT))).toEqual(foreign);
  });

  test("truncated: inside the prefix, inside the header, inside the body, one byte short", () => {
    expect(failure(decodeSnapshot(bytes.subarray(0, 4), EXPECT))).toEqual({
      reason: "truncated",
      message: "the snapshot is truncated: 4 bytes, shorter than its 24-byte prefix",
    });
    expect(failure(decodeSnapshot(bytes.subarray(0, 30), EXPECT))).toEqual({
      reason: "truncated",
      message: `the snapshot is truncated: 30 of ${bytes.length} bytes`,
    });
    const half = Math.floor(bytes.length / 2);
    expect(failure(decodeSnapshot(bytes.subarray(0, half), EXPECT))).toEqual({
      reason: "truncated",
      message: `the snapshot is truncated: ${half} of ${bytes.length} bytes`,
    });
    expect(failure(decodeSnapshot(bytes.subarray(0, bytes.length - 1), EXPECT))).toEqual({
      reason: "truncated",
      message: `the snapshot is truncated: ${bytes.length - 1} of ${bytes.length} bytes`,
    });
  });

  test("corrupt: a flipped byte anywhere after the prefix, or trailing bytes", () => {
    for (const at of [24, 40, Math.floor(bytes.length / 2), bytes.length - 1]) {
      const b = bytes.slice();
      b[at] ^= 0x01;
      expect(failure(decodeSnapshot(b, EXPECT))).toEqual({
        reason: "corrupt",
        message: "the snapshot is corrupt: checksum mismatch",
      });
    }
    const longer = new Uint8Array(bytes.length + 3);
    longer.set(bytes);
    expect(failure(decodeSnapshot(longer, EXPECT))).toEqual({
      reason: "corrupt",
      message: "the snapshot is corrupt: 3 unexpected bytes after its end",
    });
  });

  test("corrupt even with a valid checksum: a damaged header or body", () => {
    // A header that is valid msgpack but not ours.
    const dv = new DataView(bytes.buffer, bytes.byteOffset);
    expect(failure(decodeSnapshot(withHeader(bytes, { hello: 1 }), EXPECT))).toEqual({
      reason: "corrupt",
      message: "the snapshot is corrupt: header field toolVersion is missing or has the wrong type",
    });
    expect(failure(decodeSnapshot(withHeader(bytes, { ...headerOf(bytes), phase: "done" }), EXPECT))).toEqual({
      reason: "corrupt",
      message: "the snapshot is corrupt: header field phase is missing or has the wrong type",
    });
    // A header claiming more files than the body holds.
    expect(failure(decodeSnapshot(withHeader(bytes, { ...headerOf(bytes), fileCount: 17 }), EXPECT))).toEqual({
      reason: "corrupt",
      message: "the snapshot is corrupt: the body holds 16 files, the header says 17",
    });

    // The body one byte short, with the lengths and checksum adjusted to match.
    const short = bytes.slice(0, bytes.length - 1);
    new DataView(short.buffer).setUint32(16, dv.getUint32(16, true) - 1, true);
    expect(failure(decodeSnapshot(resealed(short), EXPECT))).toEqual({
      reason: "corrupt",
      message: "the snapshot is corrupt: unexpected end of data",
    });
  });

  test("another snapshot format version", () => {
    const b = bytes.slice();
    new DataView(b.buffer).setUint32(8, SNAPSHOT_SCHEMA_VERSION + 1, true);
    expect(failure(decodeSnapshot(b, EXPECT))).toEqual({
      reason: "version",
      message: `the snapshot has format version ${
        SNAPSHOT_SCHEMA_VERSION + 1
      }; this ra3 reads version ${SNAPSHOT_SCHEMA_VERSION}`,
    });
    expect([...b.subarray(0, 8)]).toEqual([...SNAPSHOT_MAGIC]);
  });

  test("records laid out by another build's specs (a spec changed without a version bump)", () => {
    expect(RECORD_LAYOUT).toMatch(/^[0-9a-f]{8}$/);
    expect(headerOf(bytes).recordLayout).toBe(RECORD_LAYOUT);
    expect(failure(decodeSnapshot(withHeader(bytes, { ...headerOf(bytes), recordLayout: "0badc0de" }), EXPECT)))
      .toEqual({
        reason: "version",
        message: `the snapshot's record layout (0badc0de) differs from this build's (${RECORD_LAYOUT})`,
      });
  });

  test("another tool version", () => {
    expect(failure(decodeSnapshot(bytes, { projectDir: SAMPLE, toolVersion: "1.0.0" }))).toEqual({
      reason: "tool",
      message: "the snapshot was written by ra3 9.9.9; this is ra3 1.0.0",
    });
  });

  test("another project; the same project spelled differently is accepted", () => {
    expect(failure(decodeSnapshot(bytes, { projectDir: "/mods/Other Mod", toolVersion: "9.9.9" }))).toEqual({
      reason: "project",
      message: `the snapshot belongs to another project (${SAMPLE}), not /mods/Other Mod`,
    });
    expect(decodeSnapshot(bytes, { projectDir: SAMPLE.toUpperCase() + "/", toolVersion: "9.9.9" }).ok).toBe(true);
  });

  test("another schema, when the caller asks", () => {
    expect(failure(decodeSnapshot(bytes, { ...EXPECT, schemaKey: "schema-xyz" }))).toEqual({
      reason: "schema",
      message: "the snapshot was made with another schema (schema-abc); this run uses schema-xyz",
    });
    expect(decodeSnapshot(bytes, { ...EXPECT, schemaKey: "schema-abc" }).ok).toBe(true);
  });

  test("every truncation length and many single-byte flips give a failure, never an exception", () => {
    const small = encodeSnapshot(snapshotOf(SAMPLE, sampleFiles.slice(0, 3)));
    for (let n = 0; n < small.length; n += 7) {
      const r = decodeSnapshot(small.subarray(0, n), EXPECT);
      expect(r.ok).toBe(false);
    }
    for (let at = 0; at < small.length; at += 13) {
      const b = small.slice();
      b[at] ^= 0xff;
      const r = decodeSnapshot(b, EXPECT);
      if (r.ok) throw new Error(`flipping byte ${at} went unnoticed`);
    }
  });
});
