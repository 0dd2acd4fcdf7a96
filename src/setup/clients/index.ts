export type {
  ClientConfigWriter,
  ClientId,
  ConfigLocation,
  ConfigProblem,
  EditResult,
  EntryInspection,
  ParsedConfig,
  ReadResult,
  Scope,
  ServerEntry,
} from "./types.ts";
export {
  argValue,
  entryCommand,
  type EntryInputs,
  homeArgs,
  printEntry,
  ra3ServerEntry,
  SERVER_NAME,
  serverEntryFor,
} from "./entry.ts";
export { allWriters, clientIds, writerFor, writersNamed } from "./registry.ts";
export {
  applyConfigChange,
  type ApplyResult,
  type ConfigChange,
  type ConfigPlan,
  formatProblem,
  planConfigChange,
  planConfigRemoval,
  type RemovalTarget,
  removeConfigEntry,
} from "./plan.ts";
