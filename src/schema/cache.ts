/**
 * A disk cache of loaded schema models. Parsing ~800 XSDs costs ~150 ms; reading the cached model
 * costs a stat per XSD plus one msgpack decode. The cache entry is keyed by the XSD folder and
 * validated by the (path, size, mtime) stamp of every file read, plus the include targets that were
 * missing (a cached "not found" must not outlive the file's creation). Writes are atomic (temp file +
 * rename); a corrupt or foreign cache file is ignored and replaced.
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

function* readCache(file: string, dir: string): Generator<void, SchemaLoadResult | null, void> {
  let entry: CacheFile;
  try {
    entry = packr.unpack(readFileSync(file)) as CacheFile;
  } catch {
    return null; // missing or corrupt: rebuilt and rewritten by the caller
  }
  if (!entry || entry.format !== SCHEMA_CACHE_FORMAT || entry.dir !== pathKey(dir) || !Array.isArray(entry.stamps)) {
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
  return entry.result;
}

function writeCache(file: string, entry: CacheFile): string | null {
  try {
    writeFileAtomic(nodeFileSystem(), file, packr.pack(entry));
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
 * {@link loadSchemaCached} in steps: the cache file's decode is one, its stamp checks and a load from the
 * XSDs (see {@link loadSchemaSteps}) are several.
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
  const cacheWarning = writeCache(cacheFile, {
    format: SCHEMA_CACHE_FORMAT,
    dir: pathKey(toAbsolute(dir)),
    stamps,
    result,
  });
  return { ...result, fromCache: false, cacheFile, cacheWarning };
}
