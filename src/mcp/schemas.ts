/**
 * The zod shapes of every tool's answer (`outputSchema`): the index envelope `{ index, result }` of
 * DESIGN.md, with `result` one of the query layer's result types. Objects are "loose" (extra fields
 * allowed) so a field the query layer adds later never breaks a client's validation; the compile-time
 * checks at the bottom fail when a query result type and its schema drift apart.
 */
import * as z from "zod";
import type { IndexEnvelope } from "../query/envelope.ts";
import type { FindAssetResult, ListAssetsResult } from "../query/assets.ts";
import type { FindReferencesResult } from "../query/references.ts";
import type { UsesResult } from "../query/uses.ts";
import type { DefinitionResult } from "../query/definition.ts";
import type { ResolveIncludeResult } from "../query/includes.ts";
import type { FileResult } from "../query/files.ts";
import type { FindDefineResult } from "../query/defines.ts";
import type { UnreferencedResult } from "../query/unreferenced.ts";
import type { CheckResult } from "../query/check.ts";
import type { SearchStringsResult } from "../query/strings.ts";
import type { StatusResult } from "../query/status.ts";
import type { IndexSummary } from "../query/summary.ts";

const loose = z.looseObject;
const str = z.string();
const nstr = z.string().nullable();
// Plain numbers: zod's int() adds ±2^53 bounds to every field of the advertised schema, doubling its size.
const int = z.number();
const strs = z.array(z.string());

export const STATES = ["no_index", "building", "ready_xml", "ready", "stale", "error"] as const;
const state = z.enum(STATES);
const game = z.enum(["ra3", "tw", "kw"]).nullable();
const origin = z.enum(["project", "sdk", "manifest"]);

export const IndexEnvelopeSchema = z
  .object({
    projectDir: str.describe("The project folder the index describes."),
    sdkDir: nstr.describe("The SDK folder, or null in project-only mode (no vanilla layer)."),
    game,
    state: state.describe(
      "no_index, building, ready_xml (XML indexed, art scan running), ready, stale (files changed; update pending), error (last build failed; previous index served).",
    ),
    buildId: int,
    builtAt: nstr,
    complete: z.boolean().describe("False until the .w3x art scan has finished."),
    stale: z.boolean().describe("True when files changed since the index was built."),
    counts: z.object({ files: int, assets: int, sdkAssets: int, references: int, defines: int, diagnostics: int }),
  })
  .describe("The index that answered.");

/** Present on answers the server had to shorten to stay under its size bound. */
const boundMarkers = {
  truncated: z.boolean().optional().describe("True when this is not the whole answer: lists were shortened or capped."),
  omitted: z.record(z.string(), int).optional().describe(
    "Items left out per list field because the answer would have been too large.",
  ),
  shortened: int.optional().describe('Strings cut short (ending in "…") because one item alone was too large.'),
};

const assetView = loose({
  type: str,
  id: str,
  file: str,
  line: int,
  column: int,
  endLine: int,
  origin,
  streams: strs,
  active: z.boolean(),
  viaInstance: z.boolean(),
  inheritFrom: nstr,
  manifestSource: str.optional(),
});

export const FindAssetSchema = loose({
  id: str,
  type: nstr,
  definitions: z.array(assetView),
  types: strs,
  ...boundMarkers,
});

export const DefinitionSchema = loose({
  type: str,
  id: str,
  file: str,
  origin,
  active: z.boolean(),
  streams: strs,
  inheritFrom: nstr,
  startLine: int,
  endLine: int,
  shown: loose({ from: int, to: int }).nullable(),
  text: nstr.describe("The XML source of the definition (lines shown.from..shown.to), or null."),
  truncated: z.boolean(),
  manifestSource: nstr,
  note: nstr,
  otherDefinitions: z.array(loose({ file: str, line: int, origin, active: z.boolean() })),
  omitted: boundMarkers.omitted,
  shortened: boundMarkers.shortened,
});

const referenceKind = z.enum(["attribute", "content", "inheritFrom", "heuristic", "manifest"]);

const siteView = loose({
  from: loose({ type: str, id: str }).nullable(),
  file: str,
  line: int,
  column: int,
  kind: referenceKind,
  element: str,
  parent: nstr,
  attribute: nstr,
  value: str,
  active: z.boolean(),
  via: str.optional(),
});

export const FindReferencesSchema = loose({
  id: str,
  type: str,
  total: int,
  byOrigin: loose({ project: int, sdk: int, manifest: int }),
  references: z.array(siteView),
  nextCursor: nstr.describe("Pass as cursor for the next page; null on the last page."),
  ...boundMarkers,
});

const assetRef = loose({ type: str, id: str });

export const UsesSchema = loose({
  asset: loose({ type: str, id: str, file: str, line: int }),
  depth: int,
  targetTypes: strs,
  edges: z.array(
    loose({
      from: assetRef,
      to: loose({
        type: str,
        id: str,
        file: nstr,
        line: int.nullable(),
        status: z.enum(["resolved", "wrong_type", "not_found"]),
      }),
      via: loose({ kind: referenceKind, element: str, parent: nstr, attribute: nstr }),
      source: loose({ file: str, line: int }),
      definedIn: assetRef.optional(),
      depth: int,
    }),
  ),
  truncated: z.boolean().describe("True when maxEdges (or the size bound) cut the edge list."),
  omittedByTargetType: int,
  inheritChain: z.array(assetRef),
  omitted: boundMarkers.omitted,
  shortened: boundMarkers.shortened,
});

export const ListAssetsSchema = loose({
  type: str,
  prefix: nstr,
  total: int,
  items: z.array(loose({ id: str, type: str, file: str, line: int, origin: str, active: z.boolean() })),
  nextCursor: nstr,
  ...boundMarkers,
});

export const ResolveIncludeSchema = loose({
  source: str,
  from: str,
  prefix: nstr,
  resolved: nstr,
  exists: z.boolean(),
  caseFixed: z.boolean(),
  twoLetterRule: z.boolean(),
  tried: z.array(loose({ candidate: str, hit: z.boolean() })),
  reason: nstr,
  active: z.boolean(),
  streams: strs,
  ...boundMarkers,
});

const includeEdge = loose({ file: nstr, source: str, type: str, line: int, resolved: z.boolean() });

export const FileSchema = loose({
  file: str,
  exists: z.boolean(),
  kind: str,
  origin,
  active: z.boolean(),
  streams: strs,
  viaInstance: z.boolean(),
  fragment: z.boolean(),
  assets: int,
  includedBy: z.array(includeEdge).describe("One page of the include edges into the file."),
  includedByTotal: int.describe("Every include edge into the file."),
  includes: z.array(includeEdge).describe("The same page of the include edges out of the file."),
  includesTotal: int.describe("Every include edge out of the file."),
  nextCursor: nstr.describe("The next page of both lists (pass it back as cursor), or null."),
  diagnostics: int,
  summary: str,
  ...boundMarkers,
});

export const FindDefineSchema = loose({
  name: str,
  definitions: z.array(loose({ name: str, value: str, file: str, line: int, column: int, origin })),
  uses: int,
  ...boundMarkers,
});

export const UnreferencedSchema = loose({
  type: nstr,
  total: int,
  byType: z.array(loose({ type: str, count: int })),
  items: z.array(loose({ type: str, id: str, file: str, line: int })),
  nextCursor: nstr,
  rule: z.enum(["schema", "heuristic"]),
  ...boundMarkers,
});

export const CheckSchema = loose({
  files: strs.nullable(),
  total: int,
  errors: int,
  warnings: int,
  information: int,
  byCode: z.array(loose({ code: str, count: int })),
  listed: int,
  unlisted: z.array(
    loose({
      file: nstr,
      code: str,
      severity: z.enum(["error", "warning", "information"]),
      count: int,
      line: int,
      column: int,
    }),
  ),
  unlistedGroupsNotShown: int,
  diagnostics: z.array(
    loose({
      file: nstr,
      line: int,
      column: int,
      severity: z.enum(["error", "warning", "information"]),
      code: str,
      message: str,
    }),
  ),
  nextCursor: nstr,
  ...boundMarkers,
});

export const SearchStringsSchema = loose({
  query: str,
  total: int,
  matches: z.array(
    loose({
      key: str,
      text: str,
      file: str,
      line: int,
      match: str,
      assets: z.array(loose({ type: str, id: str, file: str, line: int, field: str })),
    }),
  ),
  noStringTable: z.boolean(),
  ...boundMarkers,
});

const progress = loose({ phase: str, done: int, total: int });

export const StatusSchema = loose({
  project: str,
  marker: nstr,
  game: nstr,
  mode: z.enum(["sdk", "project-only"]),
  sdk: loose({ dir: str, status: str, source: nstr, missing: strs }).nullable(),
  sdkCandidates: z.array(loose({ source: str, path: nstr, accepted: z.boolean(), reason: str })),
  schema: loose({ dir: nstr, source: nstr, files: int, heuristic: z.boolean() }),
  state: str,
  buildId: int,
  builtAt: nstr,
  complete: z.boolean(),
  stale: z.boolean(),
  streams: z.array(loose({ name: str, entry: str, files: int })),
  types: strs.describe("Asset types present in the index, for type arguments."),
  progress: progress.nullable().describe("The running build's phase and file counts, or null."),
  lastError: nstr.describe("Why the last build or update failed, or null."),
  note: nstr,
  ...boundMarkers,
});

export const ListProjectsSchema = loose({
  mode: z.enum(["single", "container", "none"]).describe(
    "single: one mod; container: several mods below root (pass project); none: no mod found.",
  ),
  root: str,
  projects: z.array(
    loose({
      name: str.describe("Pass this (or dir) as project."),
      dir: str,
      marker: nstr,
      opened: z.boolean().describe("The server has opened (indexed or started indexing) this project."),
      state: state.nullable(),
      game,
    }),
  ),
  note: nstr,
  ...boundMarkers,
});

export const UsageGuideSchema = loose({
  topic: nstr,
  sections: z.array(loose({ id: str, title: str, source: str })),
  topics: z.array(loose({ id: str, title: str, source: str })).describe(
    "Every topic (for the index, or when nothing matched); empty otherwise.",
  ),
  text: str.describe("The guide text of the matching sections, or the topic index."),
  ...boundMarkers,
});

const diagnosticSummary = loose({
  errors: int,
  warnings: int,
  information: int,
  byCode: z.array(loose({ code: str, count: int })),
  notes: strs,
});

export const ReindexSchema = loose({
  project: str,
  sdk: nstr,
  mode: z.enum(["sdk", "project-only"]),
  schema: loose({ dir: nstr, source: nstr, files: int, heuristic: z.boolean() }),
  streams: z.array(loose({ name: str, entry: str, layer: z.enum(["project", "sdk"]), files: int, manifests: strs })),
  files: loose({ total: int, active: int, inactive: int, art: int, fragments: int }),
  assetsByType: z.array(loose({ type: str, count: int })),
  sdkAssetsByOrigin: loose({ sdk: int, manifest: int }),
  references: loose({ total: int, resolved: int, external: int, unresolved: int }),
  unresolvedIncludes: z.array(loose({ source: str, count: int })),
  diagnostics: diagnosticSummary,
  timings: loose({
    scanMs: z.number(),
    schemaMs: z.number(),
    parseMs: z.number(),
    sdkMs: z.number(),
    linkMs: z.number(),
    artMs: z.number(),
    totalMs: z.number(),
  }),
  parsedFiles: int,
  artFiles: int,
  sdkFiles: int,
  ...boundMarkers,
});

export const ErrorSchema = z
  .object({
    code: z.enum([
      "not_found",
      "ambiguous",
      "bad_argument",
      "building",
      "outside_project",
      "no_project",
      "no_sdk",
      "no_index",
      "timeout",
      "internal",
      "too_large",
      "cancelled",
    ]),
    message: str,
    details: z.record(z.string(), z.unknown()).optional(),
  })
  .describe("Present only on error results (isError: true), with result null.");

/**
 * The output schema of a tool: the envelope around `result`. On an error result `result` is null and
 * `error` says what went wrong; `index` is null only where no project is involved.
 */
export function envelopeSchema<R extends z.ZodType>(result: R, indexNullable = false) {
  return z.object({
    index: indexNullable ? IndexEnvelopeSchema.nullable() : IndexEnvelopeSchema,
    result: result.nullable(),
    error: ErrorSchema.optional(),
  });
}

// ---- compile-time checks: each query result type must satisfy its schema ----

// Loose objects infer an index signature, which plain interfaces do not satisfy: drop it for the check.
type DeepReadonly<T> = T extends (infer E)[] ? readonly DeepReadonly<E>[]
  : T extends object ? { readonly [K in keyof T as string extends K ? never : K]: DeepReadonly<T[K]> }
  : T;
type Satisfies<T extends U, U> = T;
type Out<S extends z.ZodType> = DeepReadonly<z.infer<S>>;

export type SchemaChecks = [
  Satisfies<IndexEnvelope, Out<typeof IndexEnvelopeSchema>>,
  Satisfies<FindAssetResult, Out<typeof FindAssetSchema>>,
  Satisfies<DefinitionResult, Out<typeof DefinitionSchema>>,
  Satisfies<FindReferencesResult, Out<typeof FindReferencesSchema>>,
  Satisfies<UsesResult, Out<typeof UsesSchema>>,
  Satisfies<ListAssetsResult, Out<typeof ListAssetsSchema>>,
  Satisfies<ResolveIncludeResult, Out<typeof ResolveIncludeSchema>>,
  Satisfies<FileResult, Out<typeof FileSchema>>,
  Satisfies<FindDefineResult, Out<typeof FindDefineSchema>>,
  Satisfies<UnreferencedResult, Out<typeof UnreferencedSchema>>,
  Satisfies<CheckResult, Out<typeof CheckSchema>>,
  Satisfies<SearchStringsResult, Out<typeof SearchStringsSchema>>,
  Satisfies<StatusResult & { progress: null; lastError: null; note: null }, Out<typeof StatusSchema>>,
  Satisfies<
    IndexSummary & {
      timings: { scanMs: 0; schemaMs: 0; parseMs: 0; sdkMs: 0; linkMs: 0; artMs: 0; totalMs: 0 };
      parsedFiles: 0;
      artFiles: 0;
      sdkFiles: 0;
    },
    Out<typeof ReindexSchema>
  >,
];
