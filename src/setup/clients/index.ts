export type { ClientConfigWriter, ClientId, ConfigLocation, ConfigProblem, EditResult, ParsedConfig, ReadResult, Scope, ServerEntry } from "./types.ts";
export { SERVER_NAME, printEntry, ra3ServerEntry, type EntryInputs } from "./entry.ts";
export { allWriters, clientIds, writerFor } from "./registry.ts";
export {
  applyConfigChange,
  formatProblem,
  planConfigChange,
  planConfigRemoval,
  removeConfigEntry,
  type ApplyResult,
  type ConfigChange,
  type ConfigPlan,
  type RemovalTarget,
} from "./plan.ts";
