/**
 * A disk cache of loaded schema models. Parsing ~800 XSDs costs ~150 ms; reading the cached model
 * costs a stat per XSD plus a msgpack decode. The cache entry is keyed by the XSD folder and
 * validated by the (path, size, mtime) stamp of every file read, plus the include targets that were
 * missing (a cached "not found" must not outlive the file's creation). Writes are atomic (temp file +
 * rename); a corrupt or foreign cache file is ignored and replaced.
 *
 * The file is read and written in steps (a server answers between them): a header (the stamps and
 * everything but the complex types) and the complex types in chunks of {@link TYPES_PER_CHUNK}, each
 * packed on its own. Decoding the RA3 set's 1,393 types in one piece took 23-45 ms; a chunk takes a
 * few. Layout: the 4 bytes `RA3C`, the header's byte length (u32, little-endian), the header, the chunks.
 */
import { createHash } from "node:crypto";
import { readFileSync, statSync } from "node:fs";
import { Packr } from "msgpackr";
import { writeFileAtomic } from "../disk/atomic.ts";
import { nodeFileSystem } from "../disk/port.ts";
import { CaseResolver } from "../project/case-resolver.ts";
import { NodeDirectoryLister } from "../project/fs-port.ts";
import { joinPath, pathKey, toAbsolute } from "../project/paths.ts";
import { runSteps } from "../steps.ts";
import { type LoadSchemaOptions, loadSchemaSteps, type SchemaLoadResult } from "./load.ts";
import type { ComplexTypeInfo } from "./model.ts";

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
}

/** `[path, size, mtimeMs]` of a file the model was built from. */
type Stamp = readonly [string, number, number];

interface CacheFile {
  readonly format: number;
  readonly dir: string;
  readonly stamps: readonly Stamp[];
  readonly result: SchemaLoadResult;
}

/** The header of a cache file: its entry with the complex types left out, and the chunks' byte lengths. */
interface CacheHeader extends CacheFile {
  readonly chunks: readonly number[];
}

/** Complex types per chunk of the cache file (one chunk is packed or unpacked per step). */
const TYPES_PER_CHUNK = 128;
const MAGIC = [0x52, 0x41, 0x33, 0x43]; // "RA3C"
/** Magic and header length. */
const PREFIX_BYTES = 8;

// Shared arrays (enumeration values reused by many attributes) are written once and stay shared.
const packr = new Packr({ structuredClone: true });

/**
 * The cache file for the XSD folder `dir` inside `cacheDir`.
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

/** Stamps checked between two steps of a cache read. */
const STAMPS_PER_STEP = 128;

/** The header of the cache file's bytes and where its chunks start, or null when it is not one. */
function readHeader(bytes: Uint8Array): { header: CacheHeader; at: number } | null {
  if (bytes.length < PREFIX_BYTES || MAGIC.some((b, i) => bytes[i] !== b)) return null;
  const length = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(4, true);
  if (PREFIX_BYTES + length > bytes.length) return null;
  const header = packr.unpack(bytes.subarray(PREFIX_BYTES, PREFIX_BYTES + length)) as CacheHeader;
  if (!header || !Array.isArray(header.chunks) || !header.result?.model) return null;
  const at = PREFIX_BYTES + length;
  let end = at;
  for (const n of header.chunks) end += typeof n === "number" && n > 0 ? n : NaN;
  return end === bytes.length ? { header, at } : null;
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
  // The complex types, a chunk per step, in their order.
  const complexTypes: Record<string, ComplexTypeInfo> = {};
  let at = read.at;
  for (const length of entry.chunks) {
    yield;
    let pairs: [string, ComplexTypeInfo][];
    try {
      pairs = packr.unpack(bytes.subarray(at, at + length)) as [string, ComplexTypeInfo][];
    } catch {
      return null;
    }
    if (!Array.isArray(pairs)) return null;
    for (const [name, info] of pairs) complexTypes[name] = info;
    at += length;
  }
  return { ...entry.result, model: { ...entry.result.model!, complexTypes } };
}

/** Writes `entry` as a cache file, packing its complex types a chunk per step; returns a warning or null. */
function* writeCacheSteps(file: string, entry: CacheFile): Generator<void, string | null, void> {
  try {
    const model = entry.result.model!;
    const types = Object.entries(model.complexTypes);
    const chunks: Uint8Array[] = [];
    for (let i = 0; i < types.length; i += TYPES_PER_CHUNK) {
      // A copy: the packer reuses its buffer for the next value.
      chunks.push(Uint8Array.from(packr.pack(types.slice(i, i + TYPES_PER_CHUNK))));
      yield;
    }
    const header: CacheHeader = {
      ...entry,
      result: { ...entry.result, model: { ...model, complexTypes: {} } },
      chunks: chunks.map((c) => c.length),
    };
    const head = packr.pack(header);
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

/**
 * Like {@link loadSchema}, but answers from the cache in `cacheDir` when no XSD changed, and refreshes
 * the cache otherwise. A folder or entry file that is missing is never cached.
 * @example loadSchemaCached(sdkXsd, join(home, "cache")).fromCache // true on the second run
 */
export function loadSchemaCached(
  dir: string,
  cacheDir: string,
  options: LoadSchemaOptions = {},
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
  options: LoadSchemaOptions = {},
): Generator<void, CachedSchemaLoadResult, void> {
  const cacheFile = schemaCacheFile(dir, cacheDir);
  const cached = yield* readCache(cacheFile, toAbsolute(dir));
  if (cached) return { ...cached, fromCache: true, cacheFile, cacheWarning: null };

  // Stamp each file just before reading it: an edit made during the load then fails the next check.
  const stamps: Stamp[] = [];
  let unstamped = false;
  const read = options.readFile ?? ((p: string) => readFileSync(p));
  const readFile = (p: string): Uint8Array => {
    const s = stampOf(p);
    if (s === null) unstamped = true;
    else stamps.push(s);
    return read(p);
  };
  const result = yield* loadSchemaSteps(dir, { ...options, readFile });
  if (result.model === null || unstamped) return { ...result, fromCache: false, cacheFile, cacheWarning: null };
  yield;
  const cacheWarning = yield* writeCacheSteps(cacheFile, {
    format: SCHEMA_CACHE_FORMAT,
    dir: pathKey(toAbsolute(dir)),
    stamps,
    result,
  });
  return { ...result, fromCache: false, cacheFile, cacheWarning };
}
