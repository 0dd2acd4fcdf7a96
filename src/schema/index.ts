/**
 * The schema layer: an SDK's XSD set → a plain-data {@link SchemaModel} ({@link loadSchema}, cached on
 * disk by {@link loadSchemaCached}) and the queries the indexer asks per element and attribute
 * ({@link Schema}).
 */
export { loadSchemaCached, SCHEMA_CACHE_FORMAT, schemaCacheFile } from "./cache.ts";
export type { CachedSchemaLoadResult } from "./cache.ts";
export type { SchemaBuildStats } from "./build.ts";
export { detectGameFromAssetKinds } from "./game.ts";
export { loadSchema, SCHEMA_ENTRY_FILE } from "./load.ts";
export type { LoadSchemaOptions, SchemaLoadResult } from "./load.ts";
export type {
  AttributeInfo,
  ChildInfo,
  ComplexTypeInfo,
  GameId,
  SchemaDiagnostic,
  SchemaModel,
  SchemaQueries,
  SimpleTypeInfo,
  ValueInfo,
} from "./model.ts";
export {
  ASSET_NAMESPACE,
  isSchemaAttributeName,
  isSchemaElementNamespace,
  Schema,
  XINCLUDE_NAMESPACE,
} from "./schema.ts";
