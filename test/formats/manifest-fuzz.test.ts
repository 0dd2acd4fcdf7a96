/**
 * Robustness of parseManifest against truncated and corrupted input: deterministic (seeded PRNG), on
 * synthetic manifests always and on the TW manifests when the corpus is present. Every call must
 * return a well-formed result (never throw, never hit the internal-error guard), and a successful
 * result must be internally consistent.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { type ManifestParse, parseManifest } from "../../src/formats/manifest.ts";
import { ENTRY, FIELD, sampleManifest, writeManifest, type WrittenManifest } from "./manifest-writer.ts";
import { CORPORA } from "../../scripts/corpora.ts";

/** mulberry32: small, deterministic, good enough to pick offsets and values. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const MAX_NAME = 1024;

/** Returns a description of what is wrong with `r` for input `bytes`, or "" when it is well-formed. */
function problemsOf(bytes: Uint8Array, r: ManifestParse): string {
  if (typeof r !== "object" || r === null || typeof r.ok !== "boolean") return "not a ManifestParse";
  if (!r.ok) {
    const { message, offset } = r.error;
    if (typeof message !== "string" || message.length === 0) return "empty message";
    if (message.startsWith("internal error")) return `guard hit: ${message}`;
    if (!Number.isInteger(offset) || offset < 0 || offset > bytes.length) return `offset ${offset} outside the file`;
    return "";
  }
  const m = r.manifest;
  if (m.bytesConsumed > bytes.length) return "consumed more than the file";
  if ((m.bytesConsumed < bytes.length) !== (m.warnings.length === 1)) return "trailing-bytes warning mismatch";
  if (m.assets.length !== m.header.assetCount) return "asset count mismatch";
  if (m.references.length * 4 !== m.header.assetReferenceBufferSize) return "reference buffer size mismatch";
  const pairs = m.references.length / 2;
  for (const a of m.assets) {
    if (a.referenceStart + a.referenceCount > pairs) return `asset ${a.name}: reference slice out of range`;
    if (a.name.length > MAX_NAME || a.sourceFile.length > MAX_NAME) return "name longer than the limit";
    if ((a.isTokenized === undefined) !== (m.header.version === 5)) return "isTokenized presence";
  }
  for (const rm of m.referencedManifests) if (rm.kind !== 1 && rm.kind !== 2) return "bad referenced-manifest kind";
  return "";
}

/** Parses `bytes`, recording any exception or malformed result under `label`. */
function check(bytes: Uint8Array, label: string, failures: string[]): ManifestParse | undefined {
  let r: ManifestParse;
  try {
    r = parseManifest(bytes);
  } catch (e) {
    failures.push(`${label}: threw ${String(e)}`);
    return undefined;
  }
  const p = problemsOf(bytes, r);
  if (p) failures.push(`${label}: ${p}`);
  return r;
}

const INTERESTING = [
  0,
  1,
  2,
  3,
  4,
  7,
  8,
  0x7f,
  0x80,
  0xff,
  0xffff,
  0x10000,
  0x7fffffff,
  0x80000000,
  0xfffffff8,
  0xffffffff,
];

function setU32(bytes: Uint8Array, at: number, v: number, bigEndian: boolean): void {
  new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).setUint32(at, v >>> 0, !bigEndian);
}

/** One random corruption of a copy of `w.bytes`. */
function mutate(w: WrittenManifest, rnd: () => number, bigEndian: boolean): Uint8Array {
  const b = w.bytes.slice();
  const pick = (n: number): number => Math.floor(rnd() * n);
  const value = (): number =>
    (rnd() < 0.7 ? INTERESTING[pick(INTERESTING.length)] : pick(0x100000000)) + (rnd() < 0.2 ? b.length : 0);
  switch (pick(5)) {
    case 0: // a few random bytes anywhere
      for (let k = 1 + pick(4); k > 0; k--) b[pick(b.length)] = pick(256);
      break;
    case 1: // one header field
      setU32(b, w.fieldsAt + 4 * pick(11), value(), bigEndian);
      break;
    case 2: // one field of one asset entry
      if (w.refStart > w.assetsStart) {
        const entries = (w.refStart - w.assetsStart) / w.entryBytes;
        setU32(b, w.assetsStart + pick(entries) * w.entryBytes + 4 * pick(w.entryBytes / 4), value(), bigEndian);
      }
      break;
    case 3: // flag / version bytes
      b[pick(w.fieldsAt)] = rnd() < 0.5 ? pick(256) : pick(8);
      break;
    default: // bit flips in the string sections
      for (let k = 1 + pick(8); k > 0; k--) {
        const at = w.manifestsStart + pick(Math.max(1, w.end - w.manifestsStart));
        if (at < b.length) b[at] ^= 1 << pick(8);
      }
  }
  return b;
}

describe("parseManifest fuzz (synthetic)", () => {
  const variants = [
    [5, false],
    [6, true],
    [7, false],
    [7, true],
  ] as const;

  for (const [version, bigEndian] of variants) {
    const w = writeManifest(sampleManifest(version, bigEndian));

    test(`v${version} ${bigEndian ? "BE" : "LE"}: every truncation fails cleanly`, () => {
      const failures: string[] = [];
      let okCount = 0;
      for (let n = 0; n < w.bytes.length; n++) {
        const r = check(w.bytes.subarray(0, n), `truncate ${n}`, failures);
        if (r?.ok) okCount++;
      }
      expect(failures).toEqual([]);
      // A truncated file always loses part of a declared section.
      expect(okCount).toBe(0);
    });

    test(`v${version} ${bigEndian ? "BE" : "LE"}: 2,500 random mutations never throw`, () => {
      const rnd = prng(0x5eed + version * 2 + (bigEndian ? 1 : 0));
      const failures: string[] = [];
      let okCount = 0;
      for (let i = 0; i < 2500; i++) {
        const r = check(mutate(w, rnd, bigEndian), `mutation ${i}`, failures);
        if (r?.ok) okCount++;
      }
      expect(failures).toEqual([]);
      // Some mutations hit fields the reader does not interpret (hashes, sizes), so both outcomes occur.
      expect(okCount).toBeGreaterThan(0);
      expect(okCount).toBeLessThan(2500);
    });
  }

  test("extreme values in every header and entry field, in both byte orders", () => {
    const failures: string[] = [];
    for (const [version, bigEndian] of variants) {
      const w = writeManifest(sampleManifest(version, bigEndian));
      const fields = [
        ...Array.from({ length: 11 }, (_, k) => w.fieldsAt + 4 * k),
        ...Array.from({ length: 7 * (w.entryBytes / 4) }, (_, k) => w.assetsStart + 4 * k),
      ];
      for (const at of fields) {
        for (const v of [...INTERESTING, w.bytes.length, w.bytes.length - 1]) {
          for (const order of [bigEndian, !bigEndian]) {
            const b = w.bytes.slice();
            setU32(b, at, v, order);
            check(b, `v${version} field@${at}=${v}`, failures);
          }
        }
      }
    }
    expect(failures).toEqual([]);
  });

  test("asset count 0xFFFFFFFF, and every section size 0xFFFFFFFF, fail before anything is read", () => {
    const w = writeManifest(sampleManifest(5));
    for (
      const k of [
        FIELD.assetCount,
        FIELD.assetReferenceBufferSize,
        FIELD.referencedManifestNameBufferSize,
        FIELD.assetNameBufferSize,
        FIELD.sourceFileNameBufferSize,
      ]
    ) {
      const b = w.bytes.slice();
      setU32(b, w.fieldsAt + 4 * k, 0xffffffff, false);
      const r = parseManifest(b);
      expect(r.ok).toBe(false);
      if (!r.ok) {
        expect(r.error.message).toMatch(
          /^(asset count 4294967295 needs|.* of 4294967295 bytes at offset \d+ runs past the end of the file)/,
        );
      }
    }
  });

  test("name offsets into a long NUL-free run fail at the first asset, after at most maxNameBytes + 1 bytes", () => {
    // 2,000 assets whose names all point into one 100,000-byte name without a NUL nearby.
    const assets = Array.from(
      { length: 2000 },
      (_, i) => ({ name: i === 0 ? "Texture:" + "x".repeat(100_000) : `Texture:T${i}`, source: "a.xml" }),
    );
    const w = writeManifest({ version: 5, assets });
    const b = w.bytes.slice();
    for (let i = 0; i < 2000; i++) setU32(b, w.assetsStart + i * 44 + 4 * ENTRY.nameOffset, i * 37, false);
    const r = parseManifest(b);
    expect(w.namesStart).toBe(88048);
    expect(r).toEqual({
      ok: false,
      error: { message: "asset 0: name at offset 88048 is longer than 1024 bytes", offset: 88048 },
    });
  });

  test("many assets pointing inside one long name stay bounded (each decode ≤ maxNameBytes)", () => {
    const assets = Array.from(
      { length: 3000 },
      (_, i) => ({ name: i === 0 ? "Texture:" + "y".repeat(1000) : `Texture:T${i}`, source: "a.xml" }),
    );
    const w = writeManifest({ version: 5, assets });
    const b = w.bytes.slice();
    for (let i = 0; i < 3000; i++) setU32(b, w.assetsStart + i * 44 + 4 * ENTRY.nameOffset, i % 1000, false);
    const r = parseManifest(b);
    if (!r.ok) throw new Error(r.error.message);
    expect(r.manifest.assets[999].name).toBe("y".repeat(9));
    expect(r.manifest.assets[1000].name.length).toBe(1008);
  });
});

const twDir = join(CORPORA, "tw-sdk", "BuiltMods", "CnC3Xml");

describe("parseManifest fuzz (TW manifests)", () => {
  const files = existsSync(twDir) ? ["global", "static", "worldbuilder"] : [];

  test.skipIf(files.length === 0)("truncations at every interesting offset fail cleanly", () => {
    const failures: string[] = [];
    let count = 0;
    for (const name of files) {
      const bytes = new Uint8Array(readFileSync(join(twDir, `${name}.manifest`)));
      const r = parseManifest(bytes);
      if (!r.ok) throw new Error(r.error.message);
      const h = r.manifest.header;
      const refStart = 48 + h.assetCount * 44;
      const bounds = [0, 48, refStart];
      for (
        const size of [
          h.assetReferenceBufferSize,
          h.referencedManifestNameBufferSize,
          h.assetNameBufferSize,
          h.sourceFileNameBufferSize,
        ]
      ) {
        bounds.push(bounds[bounds.length - 1] + size);
      }
      const lengths = new Set<number>();
      for (let n = 0; n <= 600; n++) lengths.add(n);
      for (const b of bounds) for (let d = -4; d <= 4; d++) if (b + d >= 0 && b + d < bytes.length) lengths.add(b + d);
      const rnd = prng(0xc0ffee + name.length);
      for (let i = 0; i < 300; i++) lengths.add(Math.floor(rnd() * bytes.length));
      for (const n of lengths) {
        const t = check(bytes.subarray(0, n), `${name} truncated to ${n}`, failures);
        if (t?.ok) failures.push(`${name} truncated to ${n}: parsed`);
        count++;
      }
    }
    expect(failures).toEqual([]);
    expect(count).toBe(2812);
  });

  test.skipIf(files.length === 0)("random mutations and extreme header values never throw", () => {
    const failures: string[] = [];
    for (const name of files) {
      const bytes = new Uint8Array(readFileSync(join(twDir, `${name}.manifest`)));
      const r = parseManifest(bytes);
      if (!r.ok) throw new Error(r.error.message);
      const h = r.manifest.header;
      const refStart = 48 + h.assetCount * 44;
      const manifestsStart = refStart + h.assetReferenceBufferSize;
      const w: WrittenManifest = {
        bytes,
        headerBytes: 48,
        fieldsAt: 4,
        entryBytes: 44,
        assetsStart: 48,
        refStart,
        manifestsStart,
        namesStart: manifestsStart + h.referencedManifestNameBufferSize,
        sourcesStart: manifestsStart + h.referencedManifestNameBufferSize + h.assetNameBufferSize,
        end: bytes.length,
      };
      // Header: the fields that size or count something, and the flag/version bytes.
      for (
        const k of [
          FIELD.assetCount,
          FIELD.assetReferenceBufferSize,
          FIELD.referencedManifestNameBufferSize,
          FIELD.assetNameBufferSize,
          FIELD.sourceFileNameBufferSize,
        ]
      ) {
        for (const v of [...INTERESTING, bytes.length]) {
          const b = bytes.slice();
          setU32(b, 4 + 4 * k, v, false);
          check(b, `${name} header field ${k} = ${v}`, failures);
        }
      }
      for (let at = 0; at < 4; at++) {
        for (const v of [0, 1, 2, 5, 6, 7, 0xff]) {
          check(Object.assign(bytes.slice(), { [at]: v }), `${name} byte ${at} = ${v}`, failures);
        }
      }
      const rnd = prng(0xbadc0de + name.length);
      for (let i = 0; i < 30; i++) check(mutate(w, rnd, false), `${name} mutation ${i}`, failures);
    }
    expect(failures).toEqual([]);
    // Every TW manifest, parsed a few hundred times: seconds on a busy machine, not the default 5.
  }, 60_000);
});
