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
  return runSteps(loadWorkspaceSchemaSteps(config));
}

/**
 * {@link loadWorkspaceSchema} with the schema cache's write left to the caller: `writeCache` writes it (once;
 * nothing when the model came from the cache or cannot be cached) and returns why it could not, else null.
 * A cold one-shot run calls it after its answer and the snapshot's save.
 */
export function loadWorkspaceSchemaDeferred(
  config: SchemaConfig,
): { schema: LoadedSchema; writeCache: () => string | null } {
  return runSteps(loadSteps(config, undefined, true));
}

/**
 * {@link loadWorkspaceSchema} in steps (a server answers between them), the XSDs read by `readFile`
 * (default: the disk). `loadMs` is the time from the
 * first step to the last, pauses included.
 */
export function* loadWorkspaceSchemaSteps(
  config: SchemaConfig,
  readFile?: (path: string) => Uint8Array,
): Generator<void, LoadedSchema, void> {
  return (yield* loadSteps(config, readFile, false)).schema;
}

function* loadSteps(
  config: SchemaConfig,
  readFile: ((path: string) => Uint8Array) | undefined,
  deferWrite: boolean,
): Generator<void, { schema: LoadedSchema; writeCache: () => string | null }, void> {
  const nothing = () => null;
  if (!config.schemaDir) {
    return {
      schema: { queries: null, dir: null, source: null, diagnostics: [], fileCount: 0, loadMs: 0, contentKey: null },
      writeCache: nothing,
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
  return { schema, writeCache: loaded.writeCache ?? nothing };
}
