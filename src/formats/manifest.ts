/**
 * Reader for SAGE binary `.manifest` files (BinaryAssetBuilder output, versions 5, 6 and 7, either
 * endianness). Layout: formats.md §3; interpretation: domain-spec.md §7.
 *
 * Safety contract: {@link parseManifest} never throws and never trusts a count, size or offset read from
 * the file. `layoutOf` checks every section against the file length before anything is allocated;
 * after that every loop is bounded by a checked section size, and every string by {@link
 * ManifestParseOptions.maxNameBytes}. So work and memory are linear in the input size.
 */
import { formatTypeId, symbolHash } from "./fasthash.ts";

/** The fixed header, with the 11 u32 fields in file order. */
export interface ManifestHeader {
  readonly version: 5 | 6 | 7;
  readonly isBigEndian: boolean;
  readonly isLinked: boolean;
  readonly streamChecksum: number;
  readonly allTypesHash: number;
  readonly assetCount: number;
  readonly totalInstanceDataSize: number;
  readonly maxInstanceChunkSize: number;
  readonly maxRelocationChunkSize: number;
  readonly maxImportsChunkSize: number;
  readonly assetReferenceBufferSize: number;
  readonly referencedManifestNameBufferSize: number;
  readonly assetNameBufferSize: number;
  readonly sourceFileNameBufferSize: number;
}

/** One asset entry, with its strings resolved. */
export interface ManifestAsset {
  /** Case-sensitive FastHash of the type (element) name. */
  readonly typeId: number;
  /** FastHash of the lower-cased id. */
  readonly instanceId: number;
  /** Hash of the type's binary layout (not of its name). */
  readonly typeHash: number;
  readonly instanceHash: number;
  /** As stored, e.g. `GameObject:GDIRifleman` or `W3DMesh:AUBARRACKS_SKN:AUBARRACKS`. */
  readonly name: string;
  /** The name's prefix before the first `:` when it is an identifier, else `#` + hex type id. Raw case. */
  readonly typeName: string;
  /** The last `:`-separated segment of the name (the whole name when it has no `:`). */
  readonly id: string;
  /** As stored, e.g. `DATA:globaldata/armor.xml`. */
  readonly sourceFile: string;
  /** Index of the asset's first reference pair in {@link Manifest.references} (byte offset / 8). */
  readonly referenceStart: number;
  readonly referenceCount: number;
  readonly instanceDataSize: number;
  readonly relocationDataSize: number;
  readonly importsDataSize: number;
  /** Versions 6 and 7 only. */
  readonly isTokenized?: boolean;
}

/** A `(typeId, instanceId)` pair from the reference buffer. */
export interface ManifestReference {
  readonly typeId: number;
  readonly instanceId: number;
}

/** An entry of the referenced-manifest buffer: 1 = Reference, 2 = Patch. */
export interface ReferencedManifest {
  readonly kind: 1 | 2;
  readonly path: string;
}

/** A positioned problem; `offset` is the absolute file byte offset of the region or field at fault. */
export interface ManifestProblem {
  readonly message: string;
  readonly offset: number;
}

export interface Manifest {
  readonly header: ManifestHeader;
  readonly assets: readonly ManifestAsset[];
  /**
   * The whole reference buffer as flat pairs: pair k is `[references[2k], references[2k+1]]` =
   * `(typeId, instanceId)`. An asset's references are pairs `referenceStart .. referenceStart+referenceCount-1`.
   */
  readonly references: Uint32Array;
  readonly referencedManifests: readonly ReferencedManifest[];
  /** Bytes covered by the header and the five sections; equals the file length unless there is a warning. */
  readonly bytesConsumed: number;
  /** Non-fatal findings: only trailing bytes after the last section (see {@link ManifestParseOptions.strict}). */
  readonly warnings: readonly ManifestProblem[];
}

export type ManifestParse =
  | { readonly ok: true; readonly manifest: Manifest }
  | { readonly ok: false; readonly error: ManifestProblem };

export interface ManifestParseOptions {
  /**
   * Trailing bytes after the source-file-name buffer are a warning by default (the game and BAB read
   * sections by their sizes and never look past them, so the data read is complete and consistent);
   * `strict: true` makes them an error.
   */
  readonly strict?: boolean;
  /**
   * Longest accepted name or path in bytes, NUL excluded (default 1024; real names are < 300). Bounds
   * the work per asset when offsets are corrupt.
   */
  readonly maxNameBytes?: number;
}

const V56_HEADER_BYTES = 48;
const V7_HEADER_BYTES = 52;
const HEADER_U32_COUNT = 11;
const DEFAULT_MAX_NAME_BYTES = 1024;

/**
 * Parses a `.manifest` file. Returns `{ ok: true, manifest }`, or `{ ok: false, error }` with a message
 * and the file offset at fault; never throws.
 * @example parseManifest(bytes) // { ok: true, manifest: { header: { version: 5, … }, assets: [...], … } }
 */
export function parseManifest(bytes: Uint8Array, options: ManifestParseOptions = {}): ManifestParse {
  try {
    return parse(bytes, options);
  } catch (e) {
    // Unreachable by construction; kept so a bug surfaces as a parse failure rather than a crash.
    return fail(`internal error while reading the manifest: ${e instanceof Error ? e.message : String(e)}`, 0);
  }
}

class Failure {
  constructor(readonly problem: ManifestProblem) {}
}

function fail(message: string, offset: number): { ok: false; error: ManifestProblem } {
  return { ok: false, error: { message, offset } };
}

interface Layout {
  readonly header: ManifestHeader;
  readonly entryBytes: number;
  readonly assetsStart: number;
  readonly refStart: number;
  readonly manifestsStart: number;
  readonly namesStart: number;
  readonly sourcesStart: number;
  readonly end: number;
}

function parse(bytes: Uint8Array, options: ManifestParseOptions): ManifestParse {
  const layout = layoutOf(bytes);
  if (layout instanceof Failure) return { ok: false, error: layout.problem };
  const { header, end } = layout;
  const warnings: ManifestProblem[] = [];
  if (end < bytes.length) {
    const message = `${
      bytes.length - end
    } trailing bytes after the source-file-name buffer, which ends at offset ${end}`;
    if (options.strict) return fail(message, end);
    warnings.push({ message, offset: end });
  }
  // Both sized from header fields that layoutOf checked against the file length.
  const references = u32Words(bytes, layout.refStart, header.assetReferenceBufferSize, header.isBigEndian);
  const entries = u32Words(bytes, layout.assetsStart, layout.refStart - layout.assetsStart, header.isBigEndian);

  const requested = options.maxNameBytes ?? DEFAULT_MAX_NAME_BYTES;
  const maxNameBytes = Number.isFinite(requested) && requested >= 1 ? Math.floor(requested) : DEFAULT_MAX_NAME_BYTES;
  const manifests = readReferencedManifests(bytes, layout.manifestsStart, layout.namesStart, maxNameBytes);
  if (manifests instanceof Failure) return { ok: false, error: manifests.problem };

  const names = new StringBuffer(bytes, layout.namesStart, layout.sourcesStart, "asset-name", maxNameBytes, false);
  const sources = new StringBuffer(bytes, layout.sourcesStart, layout.end, "source-file-name", maxNameBytes, true);
  const assets = readAssets(entries, layout, names, sources);
  if (assets instanceof Failure) return { ok: false, error: assets.problem };

  return {
    ok: true,
    manifest: { header, assets, references, referencedManifests: manifests, bytesConsumed: end, warnings },
  };
}

/** Reads the header and checks that every section fits in the file, in file order. */
function layoutOf(bytes: Uint8Array): Layout | Failure {
  const length = bytes.length;
  if (length === 0) return new Failure({ message: "empty file (a manifest starts with a 48-byte header)", offset: 0 });
  const v7 = length >= 4 && (bytes[0] | bytes[1] | bytes[2] | bytes[3]) === 0;
  const headerBytes = v7 ? V7_HEADER_BYTES : V56_HEADER_BYTES;
  if (length < headerBytes) {
    const which = v7 ? "version-7" : "version-5/6";
    return new Failure({
      message: `truncated header: the file has ${length} bytes, a ${which} header needs ${headerBytes}`,
      offset: length,
    });
  }
  const flagsAt = v7 ? 6 : 0;
  for (const [i, flag] of [[0, "IsBigEndian"], [1, "IsLinked"]] as const) {
    const b = bytes[flagsAt + i];
    if (b > 1) return new Failure({ message: `${flag} flag byte is ${b} (expected 0 or 1)`, offset: flagsAt + i });
  }
  const isBigEndian = bytes[flagsAt] === 1;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const versionAt = v7 ? 4 : 2;
  const version = view.getUint16(versionAt, !isBigEndian);
  if (v7 && version !== 7) {
    return new Failure({
      message: `unsupported manifest version ${version} after a zero first word (expected 7)`,
      offset: versionAt,
    });
  }
  if (!v7 && version !== 5 && version !== 6) {
    return new Failure({
      message: `unsupported manifest version ${version} (expected 5 or 6, or 7 after a zero first word)`,
      offset: versionAt,
    });
  }
  const fieldsAt = v7 ? 8 : 4;
  const u: number[] = [];
  for (let k = 0; k < HEADER_U32_COUNT; k++) u.push(view.getUint32(fieldsAt + 4 * k, !isBigEndian));
  const header: ManifestHeader = {
    version: version as 5 | 6 | 7,
    isBigEndian,
    isLinked: bytes[flagsAt + 1] === 1,
    streamChecksum: u[0],
    allTypesHash: u[1],
    assetCount: u[2],
    totalInstanceDataSize: u[3],
    maxInstanceChunkSize: u[4],
    maxRelocationChunkSize: u[5],
    maxImportsChunkSize: u[6],
    assetReferenceBufferSize: u[7],
    referencedManifestNameBufferSize: u[8],
    assetNameBufferSize: u[9],
    sourceFileNameBufferSize: u[10],
  };

  const entryBytes = version === 5 ? 44 : 48;
  const assetsStart = headerBytes;
  // Compare counts, not products, so nothing here depends on the product being representable.
  const fit = Math.floor((length - assetsStart) / entryBytes);
  if (header.assetCount > fit) {
    return new Failure({
      message: `asset count ${header.assetCount} needs ${
        header.assetCount * entryBytes
      } bytes of ${entryBytes}-byte entries, but only ${length - assetsStart} bytes follow the header`,
      offset: assetsStart,
    });
  }
  const refStart = assetsStart + header.assetCount * entryBytes;
  const sections: readonly [string, number][] = [
    ["asset reference buffer", header.assetReferenceBufferSize],
    ["referenced-manifest buffer", header.referencedManifestNameBufferSize],
    ["asset-name buffer", header.assetNameBufferSize],
    ["source-file-name buffer", header.sourceFileNameBufferSize],
  ];
  const starts: number[] = [];
  let at = refStart;
  for (const [what, size] of sections) {
    if (size > length - at) {
      return new Failure({
        message: `${what} of ${size} bytes at offset ${at} runs past the end of the file (${length} bytes)`,
        offset: at,
      });
    }
    starts.push(at);
    at += size;
  }
  if (header.assetReferenceBufferSize % 8 !== 0) {
    return new Failure({
      message: `asset reference buffer size ${header.assetReferenceBufferSize} is not a multiple of 8`,
      offset: refStart,
    });
  }
  return {
    header,
    entryBytes,
    assetsStart,
    refStart,
    manifestsStart: starts[1],
    namesStart: starts[2],
    sourcesStart: starts[3],
    end: at,
  };
}

function readReferencedManifests(
  bytes: Uint8Array,
  start: number,
  end: number,
  maxNameBytes: number,
): ReferencedManifest[] | Failure {
  const out: ReferencedManifest[] = [];
  const paths = new StringBuffer(bytes, start, end, "referenced-manifest", maxNameBytes, false);
  let p = start;
  // Each record uses at least 2 bytes (kind + NUL), so this runs at most (end - start) / 2 times.
  while (p < end) {
    const kind = bytes[p];
    if (kind !== 1 && kind !== 2) {
      return new Failure({
        message: `referenced-manifest entry at offset ${p} has kind ${kind} (expected 1 = reference or 2 = patch)`,
        offset: p,
      });
    }
    if (p + 1 === end) {
      return new Failure({
        message:
          `referenced-manifest entry at offset ${p} has no path before the end of the referenced-manifest buffer (offset ${end})`,
        offset: end,
      });
    }
    const path = paths.stringAt(p + 1 - start, -1, "referenced-manifest path");
    if (path instanceof Failure) return path;
    out.push({ kind, path: path.text });
    p = start + path.nulAt + 1;
  }
  return out;
}

function readAssets(
  entries: Uint32Array,
  layout: Layout,
  names: StringBuffer,
  sources: StringBuffer,
): ManifestAsset[] | Failure {
  const { header, entryBytes, assetsStart } = layout;
  const referencePairs = header.assetReferenceBufferSize / 8;
  const tokenized = header.version !== 5;
  const assets: ManifestAsset[] = [];
  for (let i = 0; i < header.assetCount; i++) {
    const at = assetsStart + i * entryBytes;
    const w = i * (entryBytes / 4);
    const typeId = entries[w];
    const referenceOffset = entries[w + 4];
    const referenceCount = entries[w + 5];
    if (referenceOffset % 8 !== 0) {
      return new Failure({
        message: `asset ${i}: reference offset ${referenceOffset} is not a multiple of 8`,
        offset: at + 16,
      });
    }
    const referenceStart = referenceOffset / 8;
    if (referenceStart > referencePairs || referenceCount > referencePairs - referenceStart) {
      return new Failure({
        message:
          `asset ${i}: ${referenceCount} references at byte offset ${referenceOffset} run past the asset reference buffer (${header.assetReferenceBufferSize} bytes)`,
        offset: at + 16,
      });
    }
    let isTokenized: boolean | undefined;
    if (tokenized) {
      const t = entries[w + 11];
      if (t > 1) return new Failure({ message: `asset ${i}: IsTokenized is ${t} (expected 0 or 1)`, offset: at + 44 });
      isTokenized = t === 1;
    }
    const name = names.stringAt(entries[w + 6], i, "name", at + 24);
    if (name instanceof Failure) return name;
    const source = sources.stringAt(entries[w + 7], i, "source file name", at + 28);
    if (source instanceof Failure) return source;
    const { typeName, id } = splitName(name.text, typeId);
    const asset: ManifestAsset = {
      typeId,
      instanceId: entries[w + 1],
      typeHash: entries[w + 2],
      instanceHash: entries[w + 3],
      name: name.text,
      typeName,
      id,
      sourceFile: source.text,
      referenceStart,
      referenceCount,
      instanceDataSize: entries[w + 8],
      relocationDataSize: entries[w + 9],
      importsDataSize: entries[w + 10],
    };
    assets.push(tokenized ? { ...asset, isTokenized } : asset);
  }
  return assets;
}

const hostIsBigEndian = new Uint8Array(new Uint32Array([1]).buffer)[0] === 0;

/**
 * `byteLength` bytes at `start` as u32 words in host order. Copying gives an aligned buffer, so the
 * words are read with typed-array indexing instead of a DataView call per field. (Not `bytes.slice`:
 * on a Node Buffer that is a view into a possibly pooled ArrayBuffer.)
 */
function u32Words(bytes: Uint8Array, start: number, byteLength: number, bigEndian: boolean): Uint32Array {
  const words = new Uint32Array(Math.floor(byteLength / 4));
  new Uint8Array(words.buffer).set(bytes.subarray(start, start + words.length * 4));
  if (bigEndian !== hostIsBigEndian) {
    for (let k = 0; k < words.length; k++) {
      const v = words[k];
      words[k] = ((v & 0xff) << 24) | ((v & 0xff00) << 8) | ((v >>> 8) & 0xff00) | (v >>> 24);
    }
  }
  return words;
}

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Splits a stored asset name into its type prefix and id (domain-spec §7).
 * @example splitName("W3DMesh:AUBARRACKS_SKN:AUBARRACKS", 0xC2B1A262) // { typeName: "W3DMesh", id: "AUBARRACKS" }
 */
export function splitName(name: string, typeId: number): { readonly typeName: string; readonly id: string } {
  const first = name.indexOf(":");
  const prefix = first < 0 ? "" : name.slice(0, first);
  return {
    typeName: IDENTIFIER.test(prefix) ? prefix : formatTypeId(typeId),
    id: name.slice(name.lastIndexOf(":") + 1),
  };
}

const utf8 = new TextDecoder("utf-8", { fatal: true });
const latin1 = new TextDecoder("latin1");

/**
 * NUL-terminated strings addressed by offset inside one section. With `shared`, each offset is decoded
 * once (source file names are shared by many assets); asset names are unique, and caching them costs
 * more than it saves.
 */
class StringBuffer {
  private readonly cache: Map<number, { readonly text: string; readonly nulAt: number }> | undefined;

  constructor(
    private readonly bytes: Uint8Array,
    private readonly start: number,
    private readonly end: number,
    private readonly what: string,
    private readonly maxBytes: number,
    shared: boolean,
  ) {
    this.cache = shared ? new Map() : undefined;
  }

  /**
   * The string at `offset` (relative to the section) and the section-relative offset of its NUL.
   * `asset` (or -1) and `subject` only name the string in a failure message.
   */
  stringAt(
    offset: number,
    asset: number,
    subject: string,
    fieldAt?: number,
  ): { readonly text: string; readonly nulAt: number } | Failure {
    const hit = this.cache?.get(offset);
    if (hit) return hit;
    const size = this.end - this.start;
    if (offset >= size) {
      const label = asset < 0 ? subject : `asset ${asset}: ${subject}`;
      return new Failure({
        message: `${label} offset ${offset} is outside the ${this.what} buffer (${size} bytes)`,
        offset: fieldAt ?? this.start + offset,
      });
    }
    const from = this.start + offset;
    // Look at most maxBytes + 1 bytes ahead, so a corrupt offset costs a bounded amount of work.
    const windowEnd = Math.min(this.end, from + this.maxBytes + 1);
    const b = this.bytes;
    let nul = from;
    let high = 0;
    for (let c = b[nul]; nul < windowEnd && c !== 0; c = b[++nul]) high |= c;
    if (nul === windowEnd) {
      const label = asset < 0 ? subject : `asset ${asset}: ${subject}`;
      const message = windowEnd === this.end
        ? `${label} at offset ${from} has no terminating NUL before the end of the ${this.what} buffer (offset ${this.end})`
        : `${label} at offset ${from} is longer than ${this.maxBytes} bytes`;
      return new Failure({ message, offset: from });
    }
    const text = high < 0x80 ? latin1.decode(b.subarray(from, nul)) : decode(b.subarray(from, nul));
    const found = { text, nulAt: nul - this.start };
    this.cache?.set(offset, found);
    return found;
  }
}

function decode(b: Uint8Array): string {
  try {
    return utf8.decode(b);
  } catch {
    // Not UTF-8: keep every byte as one character rather than losing it to U+FFFD.
    return latin1.decode(b);
  }
}

/**
 * The references of `asset` as `{typeId, instanceId}` records, in file order.
 * @example referencesOf(m, m.assets[0]) // [{ typeId: 0x942FFF2D, instanceId: 0x1A2B3C4D }, …]
 */
export function referencesOf(manifest: Manifest, asset: ManifestAsset): ManifestReference[] {
  const out: ManifestReference[] = [];
  const r = manifest.references;
  const last = Math.min(asset.referenceStart + asset.referenceCount, r.length / 2);
  for (let k = asset.referenceStart; k < last; k++) out.push({ typeId: r[2 * k], instanceId: r[2 * k + 1] });
  return out;
}

/** Where an asset lives: the index of its manifest in the list given to {@link indexManifestAssets}. */
export interface ManifestAssetLocation {
  readonly manifest: number;
  readonly asset: ManifestAsset;
}

/** Lookup of assets by `(typeId, instanceId)` across manifests. */
export interface ManifestAssetIndex {
  /** Every asset with these ids, in manifest order then file order; empty when none. */
  lookup(typeId: number, instanceId: number): readonly ManifestAssetLocation[];
  /** The first asset with these ids (manifest order, then file order), or undefined. */
  resolve(typeId: number, instanceId: number): ManifestAssetLocation | undefined;
  /** Number of distinct `(typeId, instanceId)` keys. */
  readonly size: number;
}

/**
 * Indexes the assets of `manifests` by both ids. Assets sharing an id under different types (e.g. a
 * W3DHierarchy, W3DAnimation and W3DContainer all named `AUBARRACKS`) are distinct keys.
 * @example indexManifestAssets([global, s]).resolve(0x942FFF2D, instanceHash("GDIRifleman"))?.asset.name
 */
export function indexManifestAssets(manifests: readonly Manifest[]): ManifestAssetIndex {
  const byType = new Map<number, Map<number, ManifestAssetLocation[]>>();
  let size = 0;
  manifests.forEach((m, manifest) => {
    for (const asset of m.assets) {
      let byInstance = byType.get(asset.typeId);
      if (!byInstance) byType.set(asset.typeId, byInstance = new Map());
      const list = byInstance.get(asset.instanceId);
      if (list) list.push({ manifest, asset });
      else {
        byInstance.set(asset.instanceId, [{ manifest, asset }]);
        size++;
      }
    }
  });
  const none: readonly ManifestAssetLocation[] = [];
  return {
    lookup: (typeId, instanceId) => byType.get(typeId)?.get(instanceId) ?? none,
    resolve: (typeId, instanceId) => byType.get(typeId)?.get(instanceId)?.[0],
    size,
  };
}

/**
 * Learns `typeId → type name` so references to types without an asset in one manifest can be named
 * from others. A name whose {@link symbolHash} equals the id wins (from `knownTypeNames`, e.g. the XSD's
 * element names, first; then from asset name prefixes); otherwise the most frequent prefix, ties by
 * ordinal string order. Ids seen only with non-identifier prefixes are absent.
 * @example learnTypeNames([global]).get(0x942FFF2D) // "GameObject"
 */
export function learnTypeNames(
  manifests: readonly Manifest[],
  knownTypeNames: Iterable<string> = [],
): Map<number, string> {
  const names = new Map<number, string>();
  for (const name of knownTypeNames) {
    const id = symbolHash(name);
    if (!names.has(id)) names.set(id, name);
  }
  const counts = new Map<number, Map<string, number>>();
  for (const m of manifests) {
    for (const a of m.assets) {
      if (names.has(a.typeId) || a.typeName.startsWith("#")) continue;
      let c = counts.get(a.typeId);
      if (!c) counts.set(a.typeId, c = new Map());
      c.set(a.typeName, (c.get(a.typeName) ?? 0) + 1);
    }
  }
  const ids = [...counts.keys()].sort((a, b) => a - b);
  for (const id of ids) {
    let best: string | undefined;
    let bestScore = -1;
    for (const [name, count] of counts.get(id)!) {
      // A hash match outranks any count: it is the element name itself.
      const score = (symbolHash(name) === id ? 2 ** 32 : 0) + count;
      if (score > bestScore || (score === bestScore && best !== undefined && name < best)) {
        best = name;
        bestScore = score;
      }
    }
    names.set(id, best!);
  }
  return names;
}

/** The learned name of `typeId`, else `#` + hex. @example typeNameOf(0x942FFF2D, names) // "GameObject" */
export function typeNameOf(typeId: number, names: ReadonlyMap<number, string>): string {
  return names.get(typeId) ?? formatTypeId(typeId);
}
