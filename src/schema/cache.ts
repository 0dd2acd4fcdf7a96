/**
 * A disk cache of loaded schema models. Parsing ~800 XSDs costs ~150 ms; reading the cached model
 * costs a stat per XSD plus a JSON parse. The cache entry is keyed by the XSD folder and
 * validated by the (path, size, mtime) stamp of every file read, plus the include targets that were
 * missing (a cached "not found" must not outlive the file's creation). Writes are atomic (temp file +
 * rename); a corrupt or foreign cache file is ignored and replaced.
 *
 * The file is read and written in steps (a server answers between them): a header (the stamps, everything
 * but the complex types, and the pools below) and the complex types in chunks of {@link TYPES_PER_CHUNK},
 * each its own JSON text. The model shares objects — an attribute inherited by fifty types is one object,
 * an enumeration's values one array for every attribute of that type — so the header holds each shared
 * attribute, child and enumeration once (the pools), and a type names its attributes and children by their
 * pool index. That keeps the sharing (and the file small) while the engine's JSON does the work: msgpack
 * with object tracking, in plain JavaScript, was a third of the first load (≈ 40 ms for the RA3 set's
 * 1,393 types). Layout: the 4 bytes `RA3S`, the header's byte length (u32, little-endian), the header,
 * the chunks, all UTF-8 JSON.
 */
import { createHash } from "node:crypto";
import { closeSync, fstatSync, openSync, readFileSync, statSync } from "node:fs";
import { writeFileAtomic } from "../disk/atomic.ts";
import { nodeFileSystem } from "../disk/port.ts";
import { CaseResolver } from "../project/case-resolver.ts";
import { NodeDirectoryLister } from "../project/fs-port.ts";
import { joinPath, pathKey, toAbsolute } from "../project/paths.ts";
import { runSteps } from "../steps.ts";
import { type LoadSchemaOptions, loadSchemaSteps, type SchemaLoadResult } from "./load.ts";
import type { AttributeInfo, ChildInfo, ComplexTypeInfo, SchemaModel, ValueInfo } from "./model.ts";

/**
 * Bump whenever the model's shape or the loader's output changes: older cache files are then ignored, and
 * snapshots are re-keyed (their schema key is this format with the XSD set's content key).
 */
export const SCHEMA_CACHE_FORMAT = 2;

export interface CachedSchemaLoadResult extends SchemaLoadResult {
  /** True when the model came from the cache file. */
  readonly fromCache: boolean;
  /** The cache file used (or that would have been used). */
  readonly cacheFile: string;
  /** Why the cache could not be written (the load itself succeeded), else null. */
  readonly cacheWarning: string | null;
  /**
   * With `deferWrite`: the cache's write in steps, left to the caller (null when there is nothing to write:
   * the model came from the cache, or could not be cached). Writes once (later runs do nothing); returns
   * why it could not be written, else null.
   */
  readonly writeCache?: (() => Generator<void, string | null, void>) | null;
}

/** {@link loadSchemaCachedSteps}'s options: the loader's, and whether the cache's write is left to the caller. */
export interface CachedSchemaLoadOptions extends LoadSchemaOptions {
  /**
   * Do not write the cache: return its write as `writeCache`, for a caller that answers first (a cold
   * one-shot run: the write, ≈ 25 ms for the RA3 set, then comes after the answer). The stamps it writes
   * are those of the files read, so a file edited in between fails the next run's check as it would now.
   */
  readonly deferWrite?: boolean;
}

/** `[path, size, mtimeMs]` of a file the model was built from. */
type Stamp = readonly [string, number, number];

interface CacheFile {
  readonly format: number;
  readonly dir: string;
  readonly stamps: readonly Stamp[];
  readonly result: SchemaLoadResult;
}

/**
 * The header of a cache file: its entry with the complex types left out, the pools the chunks' types
 * point into, and the chunks' byte lengths.
 */
interface CacheHeader extends CacheFile {
  readonly pools: Pools;
  readonly chunks: readonly number[];
}

/**
 * What several types share, each once: enumerations (value lists), attributes and children, with their
 * `enumValues` as an index into `enums`.
 */
interface Pools {
  readonly enums: readonly (readonly string[])[];
  readonly attributes: readonly Pooled<AttributeInfo>[];
  readonly children: readonly PooledChild[];
}

/** A value description with its enumeration as an index into {@link Pools.enums}. */
type Pooled<T extends ValueInfo> = Omit<T, "enumValues"> & { enumValues: number };
type PooledChild = Omit<ChildInfo, "content"> & { content?: Pooled<ValueInfo> | null };

/**
 * A type's attributes or children as pool indexes, in their order: an index alone when the key is the
 * pooled entry's name (always, for a model the loader built), else `[key, index]`.
 */
type PooledMembers = readonly (number | readonly [string, number])[];

/** A complex type as a chunk stores it. */
type PooledType = Omit<ComplexTypeInfo, "attributes" | "children" | "content"> & {
  readonly attributes: PooledMembers;
  readonly children: PooledMembers;
  readonly content: Pooled<ValueInfo> | null;
};

/** Complex types per chunk of the cache file (one chunk is written or read per step). */
const TYPES_PER_CHUNK = 128;
const MAGIC = [0x52, 0x41, 0x33, 0x53]; // "RA3S": the pooled JSON layout ("RA3C" was msgpack)
/** Magic and header length. */
const PREFIX_BYTES = 8;

const utf8 = new TextEncoder();
const fromUtf8 = new TextDecoder("utf-8", { fatal: true });

/**
 * The cache file for the XSD folder `dir` inside `cacheDir`.
 * The name ends in `.msgpack`, the first layout's: kept, so the file of an older ra3 is replaced rather
 * than left beside a new one (the magic tells the layouts apart).
 * @example schemaCacheFile("/sdk/Schemas/xsd", "/home/u/.ra3modxml/cache") // "/home/u/.ra3modxml/cache/schema-1f0c….msgpack"
 */
export function schemaCacheFile(dir: string, cacheDir: string): string {
  const hash = createHash("sha256").update(pathKey(toAbsolute(dir))).digest("hex").slice(0, 16);
  return joinPath(toAbsolute(cacheDir), `schema-${hash}.msgpack`);
}

function stampOf(path: string): Stamp | null {
  try {
    const st = statSync(path);
    return [path, st.size, st.mtimeMs];
  } catch {
    return null;
  }
}

/** A file's bytes and the stamp of that same file (through its descriptor); throws when it cannot be read. */
function readStamped(path: string): { bytes: Uint8Array; stamp: Stamp } {
  const fd = openSync(path, "r");
  try {
    const st = fstatSync(fd);
    return { bytes: readFileSync(fd), stamp: [path, st.size, st.mtimeMs] };
  } finally {
    closeSync(fd);
  }
}

/** Stamps checked between two steps of a cache read. */
const STAMPS_PER_STEP = 128;

/** The header of the cache file's bytes and where its chunks start, or null when it is not one. */
function readHeader(bytes: Uint8Array): { header: CacheHeader; at: number } | null {
  if (bytes.length < PREFIX_BYTES || MAGIC.some((b, i) => bytes[i] !== b)) return null;
  const length = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(4, true);
  if (PREFIX_BYTES + length > bytes.length) return null;
  const header = parseJson(bytes.subarray(PREFIX_BYTES, PREFIX_BYTES + length)) as CacheHeader | null;
  if (!header || !Array.isArray(header.chunks) || !header.result?.model || !validPools(header.pools)) return null;
  const at = PREFIX_BYTES + length;
  let end = at;
  for (const n of header.chunks) end += typeof n === "number" && n > 0 ? n : NaN;
  return end === bytes.length ? { header, at } : null;
}

/** The JSON value of UTF-8 `bytes`, or null when they are not valid UTF-8 JSON. */
function parseJson(bytes: Uint8Array): unknown {
  try {
    return JSON.parse(fromUtf8.decode(bytes));
  } catch {
    return null;
  }
}

function validPools(p: Pools | undefined): p is Pools {
  return typeof p === "object" && p !== null && Array.isArray(p.enums) && Array.isArray(p.attributes) &&
    Array.isArray(p.children);
}

function* readCache(file: string, dir: string): Generator<void, SchemaLoadResult | null, void> {
  let bytes: Uint8Array;
  let read: { header: CacheHeader; at: number } | null;
  try {
    bytes = readFileSync(file);
    read = readHeader(bytes);
  } catch {
    return null; // missing or corrupt: rebuilt and rewritten by the caller
  }
  if (!read) return null;
  const entry = read.header;
  if (entry.format !== SCHEMA_CACHE_FORMAT || entry.dir !== pathKey(dir) || !Array.isArray(entry.stamps)) {
    return null;
  }
  yield;
  for (let i = 0; i < entry.stamps.length; i++) {
    const [path, size, mtime] = entry.stamps[i];
    const now = stampOf(path);
    if (now === null || now[1] !== size || now[2] !== mtime) return null;
    if (i % STAMPS_PER_STEP === STAMPS_PER_STEP - 1) yield;
  }
  if (entry.result.missing.length > 0) {
    const resolver = new CaseResolver(new NodeDirectoryLister());
    if (entry.result.missing.some((p) => resolver.exists(p))) return null;
  }
  // The pools, then the complex types, a chunk per step, in their order.
  const pools = revivePools(entry.pools);
  if (!pools) return null;
  const complexTypes: Record<string, ComplexTypeInfo> = {};
  let at = read.at;
  for (const length of entry.chunks) {
    yield;
    const pairs = parseJson(bytes.subarray(at, at + length));
    if (!Array.isArray(pairs)) return null;
    for (const pair of pairs as [string, PooledType][]) {
      const info = reviveType(pair?.[1], pools);
      if (info === null || typeof pair[0] !== "string") return null;
      complexTypes[pair[0]] = info;
    }
    at += length;
  }
  return { ...entry.result, model: { ...entry.result.model!, complexTypes } };
}

/** The revived pools: attributes and children as model objects, shared by every type naming them. */
interface LivePools {
  readonly attributes: readonly AttributeInfo[];
  readonly children: readonly ChildInfo[];
  readonly enums: readonly (readonly string[])[];
}

/**
 * The pools of a header with their enumeration indexes replaced by the arrays (in place: the objects are
 * the header's, fresh from the parse), or null when an index points nowhere.
 */
function revivePools(p: Pools): LivePools | null {
  const enums = p.enums;
  for (const e of enums) if (!Array.isArray(e)) return null;
  for (const a of p.attributes) if (!reviveValue(a, enums)) return null;
  for (const c of p.children) {
    if (typeof c !== "object" || c === null || (c.content && !reviveValue(c.content, enums))) return null;
  }
  return p as unknown as LivePools;
}

/** Replaces `v.enumValues` (an index) by its array, in place; false when it names none. */
function reviveValue(v: Pooled<ValueInfo>, enums: readonly (readonly string[])[]): boolean {
  if (typeof v !== "object" || v === null) return false;
  const values = enums[v.enumValues];
  if (values === undefined) return false;
  (v as unknown as { enumValues: readonly string[] }).enumValues = values;
  return true;
}

/** A chunk's type as a model type (its members the pools' objects), or null when it does not hold together. */
function reviveType(t: PooledType | undefined, pools: LivePools): ComplexTypeInfo | null {
  if (typeof t !== "object" || t === null) return null;
  const attributes = members(t.attributes, pools.attributes);
  const children = members(t.children, pools.children);
  if (attributes === null || children === null) return null;
  if (t.content && !reviveValue(t.content, pools.enums)) return null;
  // In place (the object is fresh from the parse), so its keys keep their order.
  const live = t as unknown as { attributes: unknown; children: unknown };
  live.attributes = attributes;
  live.children = children;
  return t as unknown as ComplexTypeInfo;
}

/** The record of pooled members `list` names (see {@link PooledMembers}), or null when one points nowhere. */
function members<T extends { readonly name: string }>(
  list: PooledMembers,
  pool: readonly T[],
): Record<string, T> | null {
  if (!Array.isArray(list)) return null;
  const out: Record<string, T> = {};
  for (const m of list) {
    const [key, i] = typeof m === "number" ? [null, m] : m;
    const item = pool[i];
    if (item === undefined) return null;
    out[key ?? item.name] = item;
  }
  return out;
}

/** Writes `entry` as a cache file, its complex types a chunk per step; returns a warning or null. */
function* writeCacheSteps(file: string, entry: CacheFile): Generator<void, string | null, void> {
  try {
    const model = entry.result.model!;
    const { pools, types } = pooled(model);
    const chunks: Uint8Array[] = [];
    for (let i = 0; i < types.length; i += TYPES_PER_CHUNK) {
      chunks.push(utf8.encode(JSON.stringify(types.slice(i, i + TYPES_PER_CHUNK))));
      yield;
    }
    const header: CacheHeader = {
      ...entry,
      result: { ...entry.result, model: { ...model, complexTypes: {} } },
      pools,
      chunks: chunks.map((c) => c.length),
    };
    const head = utf8.encode(JSON.stringify(header));
    const out = new Uint8Array(PREFIX_BYTES + head.length + chunks.reduce((n, c) => n + c.length, 0));
    out.set(MAGIC, 0);
    new DataView(out.buffer).setUint32(4, head.length, true);
    out.set(head, PREFIX_BYTES);
    let at = PREFIX_BYTES + head.length;
    for (const c of chunks) {
      out.set(c, at);
      at += c.length;
    }
    writeFileAtomic(nodeFileSystem(), file, out);
    return null;
  } catch (e) {
    return `could not write the schema cache ${file}: ${(e as Error).message}`;
  }
}

/** The model's complex types in pooled form, and the pools: each shared object once, by identity. */
function pooled(model: SchemaModel): { pools: Pools; types: [string, PooledType][] } {
  const enums: (readonly string[])[] = [];
  const attributes: Pooled<AttributeInfo>[] = [];
  const children: PooledChild[] = [];
  const enumAt = new Map<readonly string[], number>();
  const attributeAt = new Map<AttributeInfo, number>();
  const childAt = new Map<ChildInfo, number>();
  const enumOf = (values: readonly string[]): number => {
    let i = enumAt.get(values);
    if (i === undefined) enumAt.set(values, i = enums.push(values) - 1);
    return i;
  };
  const value = <T extends ValueInfo>(v: T): Pooled<T> => ({ ...v, enumValues: enumOf(v.enumValues) });
  const attributeOf = (a: AttributeInfo): number => {
    let i = attributeAt.get(a);
    if (i === undefined) attributeAt.set(a, i = attributes.push(value(a)) - 1);
    return i;
  };
  const childOf = (c: ChildInfo): number => {
    let i = childAt.get(c);
    if (i === undefined) {
      i = children.push(c.content ? { ...c, content: value(c.content) } : (c as PooledChild)) - 1;
      childAt.set(c, i);
    }
    return i;
  };
  const types: [string, PooledType][] = [];
  for (const [name, t] of Object.entries(model.complexTypes)) {
    const attrs: (number | [string, number])[] = [];
    for (const [key, a] of Object.entries(t.attributes)) {
      attrs.push(key === a.name ? attributeOf(a) : [key, attributeOf(a)]);
    }
    const kids: (number | [string, number])[] = [];
    for (const [key, c] of Object.entries(t.children)) kids.push(key === c.name ? childOf(c) : [key, childOf(c)]);
    types.push([name, { ...t, attributes: attrs, children: kids, content: t.content ? value(t.content) : null }]);
  }
  return { pools: { enums, attributes, children }, types };
}

/**
 * Like {@link loadSchema}, but answers from the cache in `cacheDir` when no XSD changed, and refreshes
 * the cache otherwise. A folder or entry file that is missing is never cached.
 * @example loadSchemaCached(sdkXsd, join(home, "cache")).fromCache // true on the second run
 */
export function loadSchemaCached(
  dir: string,
  cacheDir: string,
  options: CachedSchemaLoadOptions = {},
): CachedSchemaLoadResult {
  return runSteps(loadSchemaCachedSteps(dir, cacheDir, options));
}

/**
 * {@link loadSchemaCached} in steps: the cache file's header is one, its stamp checks, the decode of its
 * complex types, a load from the XSDs (see {@link loadSchemaSteps}) and the cache's write are several.
 */
export function* loadSchemaCachedSteps(
  dir: string,
  cacheDir: string,
  options: CachedSchemaLoadOptions = {},
): Generator<void, CachedSchemaLoadResult, void> {
  const cacheFile = schemaCacheFile(dir, cacheDir);
  const cached = yield* readCache(cacheFile, toAbsolute(dir));
  const deferred = options.deferWrite ? { writeCache: null } : {};
  if (cached) return { ...cached, fromCache: true, cacheFile, cacheWarning: null, ...deferred };

  // Stamp each file just before reading it: an edit made during the load then fails the next check.
  // Read from the disk, the stamp is that of the file read (its descriptor's), one stat fewer per file.
  const stamps: Stamp[] = [];
  let unstamped = false;
  const read = options.readFile;
  const readFile = (p: string): Uint8Array => {
    if (!read) {
      let r;
      try {
        r = readStamped(p);
      } catch (e) {
        unstamped = true; // a file that could not be read: the model is not cached (the loader says why)
        throw e;
      }
      stamps.push(r.stamp);
      return r.bytes;
    }
    const s = stampOf(p);
    if (s === null) unstamped = true;
    else stamps.push(s);
    return read(p);
  };
  const { deferWrite, ...loadOptions } = options;
  const result = yield* loadSchemaSteps(dir, { ...loadOptions, readFile });
  if (result.model === null || unstamped) {
    return { ...result, fromCache: false, cacheFile, cacheWarning: null, ...deferred };
  }
  const entry: CacheFile = { format: SCHEMA_CACHE_FORMAT, dir: pathKey(toAbsolute(dir)), stamps, result };
  if (deferWrite) {
    let written = false;
    const writeCache = function* (): Generator<void, string | null, void> {
      if (written) return null;
      written = true;
      return yield* writeCacheSteps(cacheFile, entry);
    };
    return { ...result, fromCache: false, cacheFile, cacheWarning: null, writeCache };
  }
  yield;
  const cacheWarning = yield* writeCacheSteps(cacheFile, entry);
  return { ...result, fromCache: false, cacheFile, cacheWarning };
}
