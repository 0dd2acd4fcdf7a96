import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { instanceHash, symbolHash } from "../../src/formats/fasthash.ts";
import {
  indexManifestAssets,
  learnTypeNames,
  type Manifest,
  type ManifestAsset,
  type ManifestParse,
  parseManifest,
  referencesOf,
  splitName,
  typeNameOf,
} from "../../src/formats/manifest.ts";
import { ENTRY, FIELD, sampleManifest as sample, withByte, withU32, writeManifest } from "./manifest-writer.ts";
import { CORPORA } from "../../scripts/corpora.ts";

const GAME_OBJECT = 0x942fff2d;
const WEAPON_TEMPLATE = 0x94d4d96e;
const W3D_MESH = 0xc2b1a262;
const W3D_CONTAINER = 0xf0f08712;
const W3D_HIERARCHY = 0x61d7ea40;
const W3D_ANIMATION = 0x2448ae30;

/** The assets of {@link sample} as a version-5 parse must return them. */
function expectedAssets(version: 5 | 6 | 7): ManifestAsset[] {
  const plain = (
    name: string,
    typeName: string,
    id: string,
    typeId: number,
    sourceFile: string,
    extra: Partial<ManifestAsset> = {},
  ): ManifestAsset => ({
    typeId,
    instanceId: instanceHash(id),
    typeHash: 0x11111111,
    instanceHash: 0x22222222,
    name,
    typeName,
    id,
    sourceFile,
    referenceStart: 0,
    referenceCount: 0,
    instanceDataSize: 0,
    relocationDataSize: 0,
    importsDataSize: 0,
    ...extra,
  });
  const assets = [
    plain("GameObject:GDIRifleman", "GameObject", "GDIRifleman", GAME_OBJECT, "DATA:gdi/units/gdirifleman.xml", {
      typeHash: 0x132408db,
      instanceHash: 0xcafef00d,
      referenceCount: 2,
      instanceDataSize: 120,
      relocationDataSize: 8,
      importsDataSize: 12,
    }),
    plain("W3DHierarchy:AUBarracks", "W3DHierarchy", "AUBarracks", W3D_HIERARCHY, "art:aubarracks.xml"),
    plain("W3DAnimation:AUBarracks", "W3DAnimation", "AUBarracks", W3D_ANIMATION, "art:aubarracks.xml"),
    plain("W3DContainer:AUBarracks", "W3DContainer", "AUBarracks", W3D_CONTAINER, "art:aubarracks.xml", {
      referenceStart: 2,
      referenceCount: 1,
    }),
    plain("W3DMesh:AUBarracks_SKN:Mesh01", "W3DMesh", "Mesh01", W3D_MESH, "art:aubarracks.xml", {
      instanceDataSize: 64,
    }),
    plain("9Patch:Odd", "#DEADBEEF", "Odd", 0xdeadbeef, "misc.xml"),
    plain("NoColon", "#0000002A", "NoColon", 0x2a, "misc.xml"),
  ];
  if (version === 5) return assets;
  return assets.map((a, i) => ({ ...a, isTokenized: i === 3 }));
}

function ok(parse: ManifestParse): Manifest {
  if (!parse.ok) throw new Error(`expected a successful parse, got: ${parse.error.message} @${parse.error.offset}`);
  return parse.manifest;
}

describe("parseManifest on synthetic files", () => {
  test("the writer lays out version 5 as computed by hand", () => {
    const w = writeManifest(sample(5));
    // names 23+24+24+24+30+11+8 = 144 bytes, sources 31+19+9 = 59, manifests 17+24 = 41, 3 refs = 24.
    expect([w.assetsStart, w.refStart, w.manifestsStart, w.namesStart, w.sourcesStart, w.end]).toEqual([
      48,
      356,
      380,
      421,
      565,
      624,
    ]);
    expect([...w.bytes.subarray(0, 4)]).toEqual([0, 0, 5, 0]);
    expect(writeManifest(sample(6)).end).toBe(652);
    expect(writeManifest(sample(7)).end).toBe(656);
    expect([...writeManifest(sample(7, true)).bytes.subarray(0, 8)]).toEqual([0, 0, 0, 0, 0, 7, 1, 1]);
  });

  for (const version of [5, 6, 7] as const) {
    for (const bigEndian of [false, true]) {
      test(`version ${version}, ${bigEndian ? "big" : "little"}-endian: exact result`, () => {
        const w = writeManifest(sample(version, bigEndian));
        const m = ok(parseManifest(w.bytes));
        expect(m.header).toEqual({
          version,
          isBigEndian: bigEndian,
          isLinked: version !== 5,
          streamChecksum: 0x71495b12,
          allTypesHash: 0xeb19d975,
          assetCount: 7,
          totalInstanceDataSize: 184,
          maxInstanceChunkSize: 120,
          maxRelocationChunkSize: 8,
          maxImportsChunkSize: 12,
          assetReferenceBufferSize: 24,
          referencedManifestNameBufferSize: 41,
          assetNameBufferSize: 144,
          sourceFileNameBufferSize: 59,
        });
        expect(m.assets).toEqual(expectedAssets(version));
        expect([...m.references]).toEqual([
          W3D_CONTAINER,
          instanceHash("GUInfantry"),
          WEAPON_TEMPLATE,
          instanceHash("GDIRifle"),
          W3D_HIERARCHY,
          instanceHash("aubarracks"),
        ]);
        expect(m.referencedManifests).toEqual([
          { kind: 1, path: "global.manifest" },
          { kind: 2, path: "static_common.manifest" },
        ]);
        expect(m.bytesConsumed).toBe(w.bytes.length);
        expect(m.warnings).toEqual([]);
      });
    }
  }

  test("version 5 assets carry no isTokenized field at all", () => {
    const m = ok(parseManifest(writeManifest(sample(5)).bytes));
    expect("isTokenized" in m.assets[0]).toBe(false);
  });

  test("an empty manifest (no assets, no buffers) parses", () => {
    const m = ok(parseManifest(writeManifest({ version: 6, assets: [] }).bytes));
    expect(m.assets).toEqual([]);
    expect(m.references.length).toBe(0);
    expect(m.referencedManifests).toEqual([]);
    expect(m.bytesConsumed).toBe(48);
  });

  test("the same id under W3DHierarchy, W3DAnimation and W3DContainer is kept three times", () => {
    const m = ok(parseManifest(writeManifest(sample(5)).bytes));
    const barracks = m.assets.filter((a) => a.id === "AUBarracks").map((a) => a.typeName);
    expect(barracks).toEqual(["W3DHierarchy", "W3DAnimation", "W3DContainer"]);
    const index = indexManifestAssets([m]);
    const id = instanceHash("aubarracks");
    expect(index.resolve(W3D_HIERARCHY, id)?.asset.name).toBe("W3DHierarchy:AUBarracks");
    expect(index.resolve(W3D_ANIMATION, id)?.asset.name).toBe("W3DAnimation:AUBarracks");
    expect(index.resolve(W3D_CONTAINER, id)?.asset.name).toBe("W3DContainer:AUBarracks");
    expect(index.resolve(GAME_OBJECT, id)).toBeUndefined();
    expect(index.size).toBe(7);
  });

  test("a source file name shared by several assets is decoded once (same string)", () => {
    const m = ok(parseManifest(writeManifest(sample(5)).bytes));
    expect(m.assets[1].sourceFile).toBe("art:aubarracks.xml");
    expect(Object.is(m.assets[1].sourceFile, m.assets[4].sourceFile)).toBe(true);
  });

  test("non-ASCII names: valid UTF-8 is decoded as UTF-8, anything else byte for byte", () => {
    const w = writeManifest({ version: 5, assets: [{ name: "Texture:ab", source: "x.xml" }] });
    const utf8 = w.bytes.slice();
    // Replace "ab" (bytes at namesStart + 8, + 9) by the two-byte UTF-8 encoding of "é".
    utf8[w.namesStart + 8] = 0xc3;
    utf8[w.namesStart + 9] = 0xa9;
    expect(ok(parseManifest(utf8)).assets[0].name).toBe("Texture:é");
    const latin = withByte(w.bytes, w.namesStart + 8, 0xe9);
    expect(ok(parseManifest(latin)).assets[0].name).toBe("Texture:éb");
  });
});

describe("parseManifest failures (exact messages)", () => {
  const base = writeManifest(sample(5));
  const v6 = writeManifest(sample(6));
  const v7 = writeManifest(sample(7));
  const entry = (w: typeof base, i: number, field: number): number => w.assetsStart + i * w.entryBytes + 4 * field;
  const field = (w: typeof base, k: number): number => w.fieldsAt + 4 * k;
  const failure = (bytes: Uint8Array, options?: Parameters<typeof parseManifest>[1]) => {
    const r = parseManifest(bytes, options);
    if (r.ok) throw new Error("expected a failure");
    return r.error;
  };

  test("empty file", () => {
    expect(failure(new Uint8Array(0))).toEqual({
      message: "empty file (a manifest starts with a 48-byte header)",
      offset: 0,
    });
  });

  test("truncated header (version 5/6 layout, and a file too short to tell)", () => {
    expect(failure(base.bytes.subarray(0, 20))).toEqual({
      message: "truncated header: the file has 20 bytes, a version-5/6 header needs 48",
      offset: 20,
    });
    expect(failure(new Uint8Array(3))).toEqual({
      message: "truncated header: the file has 3 bytes, a version-5/6 header needs 48",
      offset: 3,
    });
  });

  test("truncated header (version 7 layout)", () => {
    expect(failure(v7.bytes.subarray(0, 50))).toEqual({
      message: "truncated header: the file has 50 bytes, a version-7 header needs 52",
      offset: 50,
    });
  });

  test("bad flag bytes", () => {
    expect(failure(withByte(base.bytes, 0, 2))).toEqual({
      message: "IsBigEndian flag byte is 2 (expected 0 or 1)",
      offset: 0,
    });
    expect(failure(withByte(base.bytes, 1, 0xff))).toEqual({
      message: "IsLinked flag byte is 255 (expected 0 or 1)",
      offset: 1,
    });
    expect(failure(withByte(v7.bytes, 6, 7))).toEqual({
      message: "IsBigEndian flag byte is 7 (expected 0 or 1)",
      offset: 6,
    });
    expect(failure(withByte(v7.bytes, 7, 2))).toEqual({
      message: "IsLinked flag byte is 2 (expected 0 or 1)",
      offset: 7,
    });
  });

  test("unsupported version", () => {
    const v4 = base.bytes.slice();
    v4[2] = 4;
    expect(failure(v4)).toEqual({
      message: "unsupported manifest version 4 (expected 5 or 6, or 7 after a zero first word)",
      offset: 2,
    });
    const seven = base.bytes.slice();
    seven[2] = 7;
    expect(failure(seven)).toEqual({
      message: "unsupported manifest version 7 (expected 5 or 6, or 7 after a zero first word)",
      offset: 2,
    });
    const v7as6 = v7.bytes.slice();
    v7as6[4] = 6;
    expect(failure(v7as6)).toEqual({
      message: "unsupported manifest version 6 after a zero first word (expected 7)",
      offset: 4,
    });
  });

  test("the big-endian flag swaps Version: a little-endian 5 under IsBigEndian=1 reads as 1280", () => {
    expect(failure(withByte(base.bytes, 0, 1))).toEqual({
      message: "unsupported manifest version 1280 (expected 5 or 6, or 7 after a zero first word)",
      offset: 2,
    });
  });

  test("asset count larger than the remaining bytes, including 0xFFFFFFFF", () => {
    expect(failure(withU32(base.bytes, field(base, FIELD.assetCount), 0xffffffff))).toEqual({
      message:
        "asset count 4294967295 needs 188978560980 bytes of 44-byte entries, but only 576 bytes follow the header",
      offset: 48,
    });
    // 576 / 44 = 13.09: 14 entries cannot fit; 13 fit, and then the reference buffer does not.
    expect(failure(withU32(base.bytes, field(base, FIELD.assetCount), 14))).toEqual({
      message: "asset count 14 needs 616 bytes of 44-byte entries, but only 576 bytes follow the header",
      offset: 48,
    });
    expect(failure(withU32(v6.bytes, field(v6, FIELD.assetCount), 100))).toEqual({
      message: "asset count 100 needs 4800 bytes of 48-byte entries, but only 604 bytes follow the header",
      offset: 48,
    });
  });

  test("a section running past the end of the file", () => {
    expect(failure(withU32(base.bytes, field(base, FIELD.assetReferenceBufferSize), 0xfffffff8))).toEqual({
      message: "asset reference buffer of 4294967288 bytes at offset 356 runs past the end of the file (624 bytes)",
      offset: 356,
    });
    expect(failure(withU32(base.bytes, field(base, FIELD.referencedManifestNameBufferSize), 300))).toEqual({
      message: "referenced-manifest buffer of 300 bytes at offset 380 runs past the end of the file (624 bytes)",
      offset: 380,
    });
    expect(failure(withU32(base.bytes, field(base, FIELD.assetNameBufferSize), 204))).toEqual({
      message: "asset-name buffer of 204 bytes at offset 421 runs past the end of the file (624 bytes)",
      offset: 421,
    });
    expect(failure(base.bytes.subarray(0, 623))).toEqual({
      message: "source-file-name buffer of 59 bytes at offset 565 runs past the end of the file (623 bytes)",
      offset: 565,
    });
  });

  test("reference buffer size not a multiple of 8", () => {
    let bytes = withU32(base.bytes, field(base, FIELD.assetReferenceBufferSize), 20);
    bytes = withU32(bytes, field(base, FIELD.referencedManifestNameBufferSize), 45);
    expect(failure(bytes)).toEqual({ message: "asset reference buffer size 20 is not a multiple of 8", offset: 356 });
  });

  test("name offset out of range", () => {
    expect(failure(withU32(base.bytes, entry(base, 1, ENTRY.nameOffset), 144))).toEqual({
      message: "asset 1: name offset 144 is outside the asset-name buffer (144 bytes)",
      offset: entry(base, 1, ENTRY.nameOffset),
    });
    expect(failure(withU32(base.bytes, entry(base, 2, ENTRY.sourceOffset), 0xffffffff))).toEqual({
      message: "asset 2: source file name offset 4294967295 is outside the source-file-name buffer (59 bytes)",
      offset: entry(base, 2, ENTRY.sourceOffset),
    });
  });

  test("unterminated name", () => {
    // The last byte of the name buffer is the NUL of asset 6's name.
    expect(failure(withByte(base.bytes, base.sourcesStart - 1, 0x78))).toEqual({
      message:
        "asset 6: name at offset 557 has no terminating NUL before the end of the asset-name buffer (offset 565)",
      offset: 557,
    });
    expect(failure(withByte(base.bytes, base.end - 1, 0x78))).toEqual({
      message:
        "asset 5: source file name at offset 615 has no terminating NUL before the end of the source-file-name buffer (offset 624)",
      offset: 615,
    });
  });

  test("name longer than maxNameBytes", () => {
    // "static_common.manifest" is 22 bytes, "GameObject:GDIRifleman" 22.
    expect(failure(base.bytes, { maxNameBytes: 21 })).toEqual({
      message: "referenced-manifest path at offset 398 is longer than 21 bytes",
      offset: 398,
    });
    const noRefs = writeManifest({ ...sample(5), referencedManifests: [] });
    expect(failure(noRefs.bytes, { maxNameBytes: 21 })).toEqual({
      message: "asset 0: name at offset 380 is longer than 21 bytes",
      offset: 380,
    });
    // The longest name is 29 bytes, the longest source 30.
    expect(failure(noRefs.bytes, { maxNameBytes: 29 })).toEqual({
      message: "asset 0: source file name at offset 524 is longer than 29 bytes",
      offset: 524,
    });
    expect(ok(parseManifest(noRefs.bytes, { maxNameBytes: 30 })).assets.length).toBe(7);
  });

  test("reference slice out of range", () => {
    expect(failure(withU32(base.bytes, entry(base, 0, ENTRY.referenceCount), 4))).toEqual({
      message: "asset 0: 4 references at byte offset 0 run past the asset reference buffer (24 bytes)",
      offset: entry(base, 0, ENTRY.referenceOffset),
    });
    expect(failure(withU32(base.bytes, entry(base, 3, ENTRY.referenceOffset), 0xfffffff8))).toEqual({
      message: "asset 3: 1 references at byte offset 4294967288 run past the asset reference buffer (24 bytes)",
      offset: entry(base, 3, ENTRY.referenceOffset),
    });
    // An empty slice at the very end of the buffer is fine.
    const atEnd = withU32(
      withU32(base.bytes, entry(base, 3, ENTRY.referenceOffset), 24),
      entry(base, 3, ENTRY.referenceCount),
      0,
    );
    expect(ok(parseManifest(atEnd)).assets[3].referenceStart).toBe(3);
  });

  test("reference offset not a multiple of 8", () => {
    expect(failure(withU32(base.bytes, entry(base, 3, ENTRY.referenceOffset), 12))).toEqual({
      message: "asset 3: reference offset 12 is not a multiple of 8",
      offset: entry(base, 3, ENTRY.referenceOffset),
    });
  });

  test("IsTokenized not 0/1 (versions 6 and 7)", () => {
    expect(failure(withU32(v6.bytes, entry(v6, 2, ENTRY.isTokenized), 2))).toEqual({
      message: "asset 2: IsTokenized is 2 (expected 0 or 1)",
      offset: entry(v6, 2, ENTRY.isTokenized),
    });
  });

  test("referenced-manifest kind not 1 or 2", () => {
    // The second record starts after 1 + "global.manifest" + NUL = 17 bytes.
    expect(failure(withByte(base.bytes, base.manifestsStart + 17, 3))).toEqual({
      message: "referenced-manifest entry at offset 397 has kind 3 (expected 1 = reference or 2 = patch)",
      offset: 397,
    });
    expect(failure(withByte(base.bytes, base.manifestsStart, 0))).toEqual({
      message: "referenced-manifest entry at offset 380 has kind 0 (expected 1 = reference or 2 = patch)",
      offset: 380,
    });
  });

  test("referenced-manifest path unterminated, or missing after the kind byte", () => {
    expect(failure(withByte(base.bytes, base.namesStart - 1, 0x78))).toEqual({
      message:
        "referenced-manifest path at offset 398 has no terminating NUL before the end of the referenced-manifest buffer (offset 421)",
      offset: 398,
    });
    // Shrink the buffer to its first byte (a kind with no path); the names buffer grows to compensate.
    let bytes = withU32(base.bytes, field(base, FIELD.referencedManifestNameBufferSize), 1);
    bytes = withU32(bytes, field(base, FIELD.assetNameBufferSize), 144 + 40);
    expect(failure(bytes)).toEqual({
      message:
        "referenced-manifest entry at offset 380 has no path before the end of the referenced-manifest buffer (offset 381)",
      offset: 381,
    });
  });

  test("trailing bytes: a warning by default, an error with strict", () => {
    const longer = new Uint8Array(base.bytes.length + 3);
    longer.set(base.bytes);
    const r = parseManifest(longer);
    const m = ok(r);
    expect(m.assets.length).toBe(7);
    expect(m.bytesConsumed).toBe(624);
    expect(m.warnings).toEqual([{
      message: "3 trailing bytes after the source-file-name buffer, which ends at offset 624",
      offset: 624,
    }]);
    expect(failure(longer, { strict: true })).toEqual({
      message: "3 trailing bytes after the source-file-name buffer, which ends at offset 624",
      offset: 624,
    });
  });

  test("a Node Buffer inside a larger ArrayBuffer (as pooled Buffers are) parses like its bytes", () => {
    // Buffer#slice is a view, not a copy: reading words through it must still honour byteOffset.
    const inBuffer = (bytes: Uint8Array): Buffer => {
      const host = new ArrayBuffer(bytes.length + 8);
      new Uint8Array(host).set(bytes, 3);
      return Buffer.from(host, 3, bytes.length);
    };
    expect(ok(parseManifest(inBuffer(base.bytes)))).toEqual(ok(parseManifest(base.bytes)));
    expect(ok(parseManifest(inBuffer(writeManifest(sample(7, true)).bytes))).assets).toEqual(expectedAssets(7));
  });

  test("a subarray of a larger buffer is read at its own offsets", () => {
    const host = new Uint8Array(base.bytes.length + 10);
    host.set(base.bytes, 7);
    const m = ok(parseManifest(host.subarray(7, 7 + base.bytes.length)));
    expect(m.assets.map((a) => a.name)).toEqual(expectedAssets(5).map((a) => a.name));
  });
});

describe("splitName", () => {
  test.each([
    ["GameObject:GDIRifleman", 1, "GameObject", "GDIRifleman"],
    ["W3DMesh:AUBARRACKS_SKN:AUBARRACKS", 1, "W3DMesh", "AUBARRACKS"],
    ["_x9:Y", 1, "_x9", "Y"],
    ["9Patch:Odd", 0xdeadbeef, "#DEADBEEF", "Odd"],
    ["Has Space:Odd", 0xdeadbeef, "#DEADBEEF", "Odd"],
    [":Empty", 0xff, "#000000FF", "Empty"],
    ["NoColon", 0x2a, "#0000002A", "NoColon"],
    ["Trailing:", 1, "Trailing", ""],
  ])("%s", (name, typeId, typeName, id) => expect(splitName(name, typeId)).toEqual({ typeName, id }));
});

describe("referencesOf, indexManifestAssets, learnTypeNames", () => {
  const m = ok(parseManifest(writeManifest(sample(5)).bytes));

  test("referencesOf returns the asset's slice in file order", () => {
    expect(referencesOf(m, m.assets[0])).toEqual([
      { typeId: W3D_CONTAINER, instanceId: instanceHash("GUInfantry") },
      { typeId: WEAPON_TEMPLATE, instanceId: instanceHash("GDIRifle") },
    ]);
    expect(referencesOf(m, m.assets[3])).toEqual([{ typeId: W3D_HIERARCHY, instanceId: instanceHash("aubarracks") }]);
    expect(referencesOf(m, m.assets[1])).toEqual([]);
  });

  test("the index resolves across manifests and lists duplicates in manifest order", () => {
    const other = ok(
      parseManifest(
        writeManifest({
          version: 5,
          assets: [
            { name: "W3DContainer:GUInfantry", source: "art:guinfantry.xml" },
            { name: "GameObject:GDIRifleman", source: "DATA:mod/gdirifleman.xml" },
          ],
        }).bytes,
      ),
    );
    const index = indexManifestAssets([m, other]);
    const [toContainer, toWeapon] = referencesOf(m, m.assets[0]);
    expect(index.resolve(toContainer.typeId, toContainer.instanceId)).toEqual({ manifest: 1, asset: other.assets[0] });
    expect(index.resolve(toWeapon.typeId, toWeapon.instanceId)).toBeUndefined();
    expect(index.lookup(toWeapon.typeId, toWeapon.instanceId)).toEqual([]);
    const rifleman = index.lookup(GAME_OBJECT, instanceHash("gdirifleman"));
    expect(rifleman.map((l) => [l.manifest, l.asset.sourceFile])).toEqual([
      [0, "DATA:gdi/units/gdirifleman.xml"],
      [1, "DATA:mod/gdirifleman.xml"],
    ]);
    expect(index.size).toBe(8);
  });

  test("learnTypeNames: hash match wins, else majority prefix, ties by ordinal order", () => {
    const typed = (assets: { name: string; typeId: number }[]) =>
      ok(parseManifest(writeManifest({ version: 5, assets: assets.map((a) => ({ ...a, source: "s.xml" })) }).bytes));
    const n = typed([
      // Two spellings of W3DContainer's id; only one hashes to it, and it wins although outnumbered.
      { name: "W3dContainer:A", typeId: W3D_CONTAINER },
      { name: "W3dContainer:B", typeId: W3D_CONTAINER },
      { name: "W3DContainer:C", typeId: W3D_CONTAINER },
      // An id no prefix hashes to: majority.
      { name: "Beta:A", typeId: 7 },
      { name: "Alpha:B", typeId: 7 },
      { name: "Beta:C", typeId: 7 },
      // A tie: ordinal order ("Gamma" < "gamma").
      { name: "gamma:A", typeId: 8 },
      { name: "Gamma:B", typeId: 8 },
      // Only non-identifier prefixes: unnamed.
      { name: "9x:A", typeId: 9 },
    ]);
    const names = learnTypeNames([n]);
    expect([...names].sort((a, b) => a[0] - b[0])).toEqual([
      [7, "Beta"],
      [8, "Gamma"],
      [W3D_CONTAINER, "W3DContainer"],
    ]);
    expect(typeNameOf(9, names)).toBe("#00000009");
    expect(typeNameOf(7, names)).toBe("Beta");
  });

  test("learnTypeNames names types that only appear as reference targets, from other manifests or known names", () => {
    const names = learnTypeNames([m], ["WeaponTemplate", "W3DMesh"]);
    expect(typeNameOf(WEAPON_TEMPLATE, names)).toBe("WeaponTemplate");
    expect(typeNameOf(W3D_CONTAINER, names)).toBe("W3DContainer");
    expect(typeNameOf(W3D_MESH, names)).toBe("W3DMesh");
    expect(names.get(0xdeadbeef)).toBeUndefined();
    expect(learnTypeNames([m]).get(WEAPON_TEMPLATE)).toBeUndefined();
  });
});

// ---------------------------------------------------------------------------------------------------
// Corpus: the three Tiberium Wars manifests built by EA's BinaryAssetBuilder.

const corpora = CORPORA;
const twDir = join(corpora, "tw-sdk", "BuiltMods", "CnC3Xml");

describe("TW manifests (corpus)", () => {
  const load = (name: string): { bytes: Uint8Array; manifest: Manifest } => {
    const bytes = new Uint8Array(readFileSync(join(twDir, `${name}.manifest`)));
    return { bytes, manifest: ok(parseManifest(bytes)) };
  };
  const all = existsSync(twDir)
    ? { global: load("global"), static: load("static"), worldbuilder: load("worldbuilder") }
    : undefined;

  test.skipIf(!all)("every byte is consumed and the asset counts are exact", () => {
    const facts = Object.entries(all!).map(([name, { bytes, manifest }]) => [
      name,
      bytes.length,
      manifest.bytesConsumed,
      manifest.header.version,
      manifest.header.isBigEndian,
      manifest.header.isLinked,
      manifest.assets.length,
      manifest.references.length / 2,
      manifest.warnings.length,
    ]);
    expect(facts).toEqual([
      ["global", 1031457, 1031457, 5, false, false, 12921, 10804, 0],
      ["static", 1465623, 1465623, 5, false, false, 14010, 32378, 0],
      ["worldbuilder", 1071716, 1071716, 5, false, false, 10399, 27103, 0],
    ]);
  });

  test.skipIf(!all)("every typeId is symbolHash(typeName) and every instanceId is instanceHash(id)", () => {
    const exceptions: string[] = [];
    for (const [file, { manifest }] of Object.entries(all!)) {
      for (const a of manifest.assets) {
        if (symbolHash(a.typeName) !== a.typeId) exceptions.push(`${file}: ${a.name} typeId`);
        if (instanceHash(a.id) !== a.instanceId) exceptions.push(`${file}: ${a.name} instanceId`);
      }
    }
    expect(exceptions).toEqual([]);
  });

  test.skipIf(!all)("each asset's sizes add up to TotalInstanceDataSize", () => {
    for (const { manifest } of Object.values(all!)) {
      const sum = manifest.assets.reduce((n, a) => n + a.instanceDataSize, 0);
      expect(sum).toBe(manifest.header.totalInstanceDataSize);
    }
  });

  test.skipIf(!all)("all 32,378 references of static.manifest resolve against the three manifests", () => {
    const index = indexManifestAssets([all!.global.manifest, all!.static.manifest, all!.worldbuilder.manifest]);
    const s = all!.static.manifest;
    let total = 0;
    const unresolved: string[] = [];
    for (const a of s.assets) {
      for (const r of referencesOf(s, a)) {
        total++;
        if (!index.resolve(r.typeId, r.instanceId)) unresolved.push(`${a.name} → ${r.typeId}:${r.instanceId}`);
      }
    }
    expect(total).toBe(32378);
    expect(unresolved).toEqual([]);
    // 37,330 assets, two textures present in both static and worldbuilder.
    expect(index.size).toBe(37328);
    expect(index.lookup(symbolHash("Texture"), instanceHash("shadowi")).map((l) => l.manifest)).toEqual([1, 2]);
  });

  test.skipIf(!all)("referenced manifests", () => {
    expect(all!.global.manifest.referencedManifests).toEqual([]);
    expect(all!.static.manifest.referencedManifests).toEqual([{ kind: 1, path: "global.manifest" }]);
    expect(all!.worldbuilder.manifest.referencedManifests).toEqual([
      { kind: 1, path: "global.manifest" },
      { kind: 1, path: "static.manifest" },
      { kind: 1, path: "download.manifest" },
    ]);
  });

  test.skipIf(!all)("a known asset, field by field", () => {
    expect(all!.static.manifest.assets[0]).toEqual({
      typeId: 726253425,
      instanceId: 348416771,
      typeHash: 3369168493,
      instanceHash: 3701925400,
      name: "Achievement:Completed_Level_4_GOOD",
      typeName: "Achievement",
      id: "Completed_Level_4_GOOD",
      sourceFile: "DATA:globaldata/xenonachievements.xml",
      referenceStart: 0,
      referenceCount: 0,
      instanceDataSize: 44,
      relocationDataSize: 8,
      importsDataSize: 0,
    });
  });

  test.skipIf(!all)("learned type names: every name hashes to its id; worldbuilder references one unnamed type", () => {
    const ms = [all!.global.manifest, all!.static.manifest, all!.worldbuilder.manifest];
    const names = learnTypeNames(ms);
    expect(names.size).toBe(98);
    expect([...names].filter(([id, name]) => symbolHash(name) !== id)).toEqual([]);
    const unnamed = new Set<string>();
    for (const m of ms) {
      for (let k = 0; k < m.references.length; k += 2) {
        if (!names.has(m.references[k])) unnamed.add(typeNameOf(m.references[k], names));
      }
    }
    expect([...unnamed]).toEqual(["#B22F87C9"]);
  });
});
