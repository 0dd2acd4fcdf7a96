/**
 * Loads the schema a workspace uses (the `--schema` folder, the project's own `Schemas/xsd`, or the
 * SDK's), or none: then the index runs in heuristic mode and says so.
 */
import { join } from "node:path";
import { loadSchemaCachedSteps, SCHEMA_CACHE_FORMAT } from "../schema/cache.ts";
import type { SchemaDiagnostic, SchemaQueries } from "../schema/model.ts";
import { Schema } from "../schema/schema.ts";
import { runSteps } from "../steps.ts";
import type { WorkspaceConfig } from "./config.ts";

export interface LoadedSchema {
  readonly queries: SchemaQueries | null;
  readonly dir: string | null;
  readonly source: WorkspaceConfig["schemaSource"];
  readonly diagnostics: readonly SchemaDiagnostic[];
  readonly fileCount: number;
  readonly loadMs: number;
  /** The schema cache format and the XSD set's content key (`SchemaLoadResult.contentKey`), or null without a schema. */
  readonly contentKey: string | null;
  /** True while the set is still to be loaded (a server loads it after answering): not heuristic mode. */
  readonly pending?: boolean;
}

/**
 * What a workspace reports before its schema is loaded (a server loading it in steps): the folder it will
 * come from, no files and no queries yet.
 */
export function unloadedSchema(config: SchemaConfig): LoadedSchema {
  return {
    queries: null,
    dir: config.schemaDir,
    source: config.schemaDir ? config.schemaSource : null,
    diagnostics: [],
    fileCount: 0,
    loadMs: 0,
    contentKey: null,
    pending: config.schemaDir !== null,
  };
}

type SchemaConfig = Pick<WorkspaceConfig, "schemaDir" | "schemaSource" | "home">;

/** The schema for `config` (null queries when there is no XSD set: heuristic mode). */
export function loadWorkspaceSchema(config: SchemaConfig): LoadedSchema {
  return runSteps(loadSteps(config, undefined, false)).schema;
}

/** A loaded schema and its cache's write, left to the caller (see {@link loadWorkspaceSchemaDeferredSteps}). */
export interface DeferredSchema {
  readonly schema: LoadedSchema;
  /**
   * Writes the XSD set's model cache in steps, once (nothing when the model came from the cache or cannot be
   * cached); returns why it could not be written, else null.
   */
  readonly writeCache: () => Generator<void, string | null, void>;
}

/** {@link loadWorkspaceSchemaDeferredSteps} at once (a cold one-shot run writes the cache after its answer). */
export function loadWorkspaceSchemaDeferred(config: SchemaConfig): DeferredSchema {
  return runSteps(loadWorkspaceSchemaDeferredSteps(config));
}

/**
 * The schema for `config` in steps (a server answers between them), the XSDs read by `readFile` (default:
 * the disk), with the schema cache's write left to the caller, who makes it after its first answer (≈ 25 ms
 * for the RA3 set, a fifth of its first load).
 */
export function* loadWorkspaceSchemaDeferredSteps(
  config: SchemaConfig,
  readFile?: (path: string) => Uint8Array,
): Generator<void, DeferredSchema, void> {
  return yield* loadSteps(config, readFile, true);
}

/**
 * Loads the schema in steps (a server answers between them), the XSDs read by `readFile` (default: the
 * disk); with `deferWrite` the model cache's write is left to the caller. `loadMs` is the time from the
 * first step to the last, pauses included.
 */
function* loadSteps(
  config: SchemaConfig,
  readFile: ((path: string) => Uint8Array) | undefined,
  deferWrite: boolean,
): Generator<void, DeferredSchema, void> {
  if (!config.schemaDir) {
    return {
      schema: { queries: null, dir: null, source: null, diagnostics: [], fileCount: 0, loadMs: 0, contentKey: null },
      writeCache: noWrite,
    };
  }
  const t = performance.now();
  // The parsed model is the same for every project using this XSD folder: cache it under the home folder.
  const loaded = yield* loadSchemaCachedSteps(config.schemaDir, join(config.home, "cache", "schema"), {
    readFile,
    deferWrite,
  });
  yield;
  const loadMs = Math.round((performance.now() - t) * 10) / 10;
  const schema: LoadedSchema = {
    queries: loaded.model ? new Schema(loaded.model) : null,
    dir: config.schemaDir,
    source: config.schemaSource,
    diagnostics: loaded.diagnostics,
    fileCount: loaded.files.length,
    loadMs,
    // The same bytes make another model when the loader changes, which bumps the cache format.
    contentKey: loaded.model && loaded.contentKey ? `${SCHEMA_CACHE_FORMAT}.${loaded.contentKey}` : null,
  };
  return { schema, writeCache: loaded.writeCache ?? noWrite };
}

/** A cache write with nothing to write. */
// deno-lint-ignore require-yield
function* noWrite(): Generator<void, string | null, void> {
  return null;
}
