/**
 * A small `.manifest` writer for tests: builds version 5/6/7 files in either endianness from a spec,
 * laid out the way BinaryAssetBuilder lays them out (formats.md §3), and reports where each section
 * starts so tests can corrupt specific fields.
 */
import { instanceHash, symbolHash } from "../../src/formats/fasthash.ts";

export interface SyntheticAsset {
  /** `Type:Id` or `Type:Sub:Id`. */
  readonly name: string;
  readonly source: string;
  /** `[typeId, instanceId]` pairs. */
  readonly refs?: readonly (readonly [number, number])[];
  /** Defaults: symbolHash(prefix before the first `:`), instanceHash(last segment). */
  readonly typeId?: number;
  readonly instanceId?: number;
  readonly typeHash?: number;
  readonly instanceHash?: number;
  readonly instanceDataSize?: number;
  readonly relocationDataSize?: number;
  readonly importsDataSize?: number;
  readonly isTokenized?: boolean;
}

export interface SyntheticManifest {
  readonly version: 5 | 6 | 7;
  readonly bigEndian?: boolean;
  readonly linked?: boolean;
  readonly streamChecksum?: number;
  readonly allTypesHash?: number;
  readonly assets: readonly SyntheticAsset[];
  readonly referencedManifests?: readonly { readonly kind: number; readonly path: string }[];
}

export interface WrittenManifest {
  readonly bytes: Uint8Array;
  readonly headerBytes: number;
  /** Offset of the first of the 11 header u32 fields. */
  readonly fieldsAt: number;
  readonly entryBytes: number;
  readonly assetsStart: number;
  readonly refStart: number;
  readonly manifestsStart: number;
  readonly namesStart: number;
  readonly sourcesStart: number;
  readonly end: number;
}

/** Header u32 field indexes, in file order. */
export const FIELD = {
  streamChecksum: 0,
  allTypesHash: 1,
  assetCount: 2,
  totalInstanceDataSize: 3,
  maxInstanceChunkSize: 4,
  maxRelocationChunkSize: 5,
  maxImportsChunkSize: 6,
  assetReferenceBufferSize: 7,
  referencedManifestNameBufferSize: 8,
  assetNameBufferSize: 9,
  sourceFileNameBufferSize: 10,
} as const;

/** Asset entry u32 field indexes. */
export const ENTRY = {
  typeId: 0,
  instanceId: 1,
  typeHash: 2,
  instanceHash: 3,
  referenceOffset: 4,
  referenceCount: 5,
  nameOffset: 6,
  sourceOffset: 7,
  instanceDataSize: 8,
  relocationDataSize: 9,
  importsDataSize: 10,
  isTokenized: 11,
} as const;

const ascii = new TextEncoder();

/** Serialises `spec`. Source names are stored once and shared by offset, as BAB does. */
export function writeManifest(spec: SyntheticManifest): WrittenManifest {
  const le = !spec.bigEndian;
  const v7 = spec.version === 7;
  const headerBytes = v7 ? 52 : 48;
  const entryBytes = spec.version === 5 ? 44 : 48;

  const names: number[] = [];
  const nameOffsets = spec.assets.map((a) => pushString(names, a.name));
  const sources: number[] = [];
  const sourceAt = new Map<string, number>();
  const sourceOffsets = spec.assets.map((a) => {
    let at = sourceAt.get(a.source);
    if (at === undefined) sourceAt.set(a.source, at = pushString(sources, a.source));
    return at;
  });
  const manifests: number[] = [];
  for (const m of spec.referencedManifests ?? []) {
    manifests.push(m.kind);
    pushString(manifests, m.path);
  }
  const refPairs = spec.assets.reduce((n, a) => n + (a.refs?.length ?? 0), 0);

  const assetsStart = headerBytes;
  const refStart = assetsStart + spec.assets.length * entryBytes;
  const manifestsStart = refStart + refPairs * 8;
  const namesStart = manifestsStart + manifests.length;
  const sourcesStart = namesStart + names.length;
  const end = sourcesStart + sources.length;

  const bytes = new Uint8Array(end);
  const view = new DataView(bytes.buffer);
  const flagsAt = v7 ? 6 : 0;
  bytes[flagsAt] = spec.bigEndian ? 1 : 0;
  bytes[flagsAt + 1] = spec.linked ? 1 : 0;
  view.setUint16(v7 ? 4 : 2, spec.version, le);
  const fieldsAt = v7 ? 8 : 4;
  const totalInstance = spec.assets.reduce((n, a) => n + (a.instanceDataSize ?? 0), 0);
  const fields = [
    spec.streamChecksum ?? 0x12345678,
    spec.allTypesHash ?? 0x9abcdef0,
    spec.assets.length,
    totalInstance,
    Math.max(0, ...spec.assets.map((a) => a.instanceDataSize ?? 0)),
    Math.max(0, ...spec.assets.map((a) => a.relocationDataSize ?? 0)),
    Math.max(0, ...spec.assets.map((a) => a.importsDataSize ?? 0)),
    refPairs * 8,
    manifests.length,
    names.length,
    sources.length,
  ];
  fields.forEach((v, k) => view.setUint32(fieldsAt + 4 * k, v, le));

  let refAt = 0;
  spec.assets.forEach((a, i) => {
    const at = assetsStart + i * entryBytes;
    const colon = a.name.indexOf(":");
    const refs = a.refs ?? [];
    const entry = [
      a.typeId ?? symbolHash(colon < 0 ? a.name : a.name.slice(0, colon)),
      a.instanceId ?? instanceHash(a.name.slice(a.name.lastIndexOf(":") + 1)),
      a.typeHash ?? 0x11111111,
      a.instanceHash ?? 0x22222222,
      refs.length ? refAt * 8 : 0,
      refs.length,
      nameOffsets[i],
      sourceOffsets[i],
      a.instanceDataSize ?? 0,
      a.relocationDataSize ?? 0,
      a.importsDataSize ?? 0,
    ];
    if (spec.version !== 5) entry.push(a.isTokenized ? 1 : 0);
    entry.forEach((v, k) => view.setUint32(at + 4 * k, v, le));
    for (const [t, id] of refs) {
      view.setUint32(refStart + refAt * 8, t, le);
      view.setUint32(refStart + refAt * 8 + 4, id, le);
      refAt++;
    }
  });
  bytes.set(manifests, manifestsStart);
  bytes.set(names, namesStart);
  bytes.set(sources, sourcesStart);
  return {
    bytes,
    headerBytes,
    fieldsAt,
    entryBytes,
    assetsStart,
    refStart,
    manifestsStart,
    namesStart,
    sourcesStart,
    end,
  };
}

function pushString(out: number[], s: string): number {
  const at = out.length;
  out.push(...ascii.encode(s), 0);
  return at;
}

/** A copy of `bytes` with the u32 at `offset` set to `value` in the given byte order. */
export function withU32(bytes: Uint8Array, offset: number, value: number, bigEndian = false): Uint8Array {
  const copy = bytes.slice();
  new DataView(copy.buffer).setUint32(offset, value, !bigEndian);
  return copy;
}

/** A copy of `bytes` with the byte at `offset` set to `value`. */
export function withByte(bytes: Uint8Array, offset: number, value: number): Uint8Array {
  const copy = bytes.slice();
  copy[offset] = value;
  return copy;
}

/**
 * The synthetic manifest most tests use: 7 assets (one with 2 references, one with 1; the id
 * `AUBarracks` under W3DHierarchy, W3DAnimation and W3DContainer; a 3-segment name; a non-identifier
 * prefix; a name without `:`) and two referenced manifests.
 */
export function sampleManifest(version: 5 | 6 | 7, bigEndian = false): SyntheticManifest {
  return {
    version,
    bigEndian,
    linked: version !== 5,
    streamChecksum: 0x71495b12,
    allTypesHash: 0xeb19d975,
    assets: [
      {
        name: "GameObject:GDIRifleman",
        source: "DATA:gdi/units/gdirifleman.xml",
        refs: [
          [0xf0f08712, /* W3DContainer */ instanceHash("GUInfantry")],
          [0x94d4d96e, /* WeaponTemplate */ instanceHash("GDIRifle")],
        ],
        typeHash: 0x132408db,
        instanceHash: 0xcafef00d,
        instanceDataSize: 120,
        relocationDataSize: 8,
        importsDataSize: 12,
      },
      { name: "W3DHierarchy:AUBarracks", source: "art:aubarracks.xml" },
      { name: "W3DAnimation:AUBarracks", source: "art:aubarracks.xml" },
      {
        name: "W3DContainer:AUBarracks",
        source: "art:aubarracks.xml",
        refs: [[0x61d7ea40, /* W3DHierarchy */ instanceHash("aubarracks")]],
        isTokenized: true,
      },
      { name: "W3DMesh:AUBarracks_SKN:Mesh01", source: "art:aubarracks.xml", instanceDataSize: 64 },
      { name: "9Patch:Odd", source: "misc.xml", typeId: 0xdeadbeef },
      { name: "NoColon", source: "misc.xml", typeId: 0x2a },
    ],
    referencedManifests: [
      { kind: 1, path: "global.manifest" },
      { kind: 2, path: "static_common.manifest" },
    ],
  };
}
