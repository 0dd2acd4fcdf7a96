/**
 * The public export format (`ra3 export`) as a zod schema: the one definition that types the exporter,
 * validates exports in tests, and generates `docs/snapshot.schema.json`. Objects are loose (extra fields
 * allowed) because the format only grows within a `schemaVersion`: a consumer validating with an older
 * copy of the JSON Schema keeps accepting newer exports.
 */
import { z } from "zod";
import type { ReferenceKind } from "../index/records.ts";

/** The public format's version: bump it only for a change that is not purely additive. */
export const EXPORT_SCHEMA_VERSION = 2;

const REFERENCE_KINDS = [
  "attribute",
  "content",
  "inheritFrom",
  "default",
  "name",
  "heuristic",
  "manifest",
] as const satisfies readonly ReferenceKind[];
// Fails to compile when records.ts gains a reference kind this list lacks.
const _allKinds: Record<ReferenceKind, true> = {
  attribute: true,
  content: true,
  inheritFrom: true,
  default: true,
  name: true,
  heuristic: true,
  manifest: true,
};
void _allKinds;

const line = z.int().min(0).describe("1-based line (0 when the position is unknown, e.g. manifest assets)");
const column = z.int().min(0).describe("1-based column (0 when unknown)");
const relPath = z
  .string()
  .describe(
    "path relative to the project root (project files) or the SDK root (SDK and manifest files), with `/`; absolute with `/` for files outside both",
  );
const stream = z.string().nullable().describe(
  "the first stream whose include walk reaches the file; null when no entry point includes it",
);
const streams = z.array(z.string()).describe("every stream that reaches the file (empty when not included)");
const state = z.enum(["compiled", "referenced", "not-included"]).describe(
  "compiled: reached from an entry point through all/instance includes or xi:include; referenced: reached only through reference includes (resolvable, not compiled: the build uses a prebuilt manifest); not-included: no entry point reaches it",
);
const active = z.boolean().describe('`state` is "compiled" (kept for readers of schema version 1)');
const origin = z.enum(["project", "sdk", "manifest"]).describe(
  "which layer defines it: the mod, the SDK's vanilla XML, or a compiled .manifest",
);

const fileDiagnostic = z.looseObject({
  code: z.string().describe("stable machine-readable code, e.g. `xml-syntax`, `include-not-found`"),
  severity: z.enum(["error", "warning", "information"]),
  message: z.string(),
  line,
  column,
});

const assetRef = z.looseObject({ type: z.string(), id: z.string() });

/** One row of `files`. */
const PublicFile = z.looseObject({
  path: relPath,
  kind: z
    .enum(["xml", "art", "binary", "str", "babproj", "manifest", "missing"])
    .describe(
      "xml: parsed XML; art: shallow-scanned .w3x; str: string table; missing: an include target that does not exist",
    ),
  root: z
    .enum(["project", "sdk"])
    .nullable()
    .describe(
      "the root `path` is relative to: the project, the SDK, or null when the file lies outside both (then `path` is absolute)",
    ),
  stream,
  streams,
  state,
  active,
  foreign: z.boolean().describe("not asset XML (another root element and namespace): not checked against the schema"),
  xmlError: z
    .looseObject({ line, column, message: z.string() })
    .nullable()
    .describe("the file's first XML well-formedness error (the builder rejects the file); null when well-formed"),
  size: z.number().nullable().describe("bytes on disk when indexed; null when unknown"),
  mtimeMs: z.number().nullable().describe(
    "modification time (ms since the Unix epoch) when indexed; null when unknown",
  ),
  diagnostics: z.array(fileDiagnostic),
  omittedDiagnostics: z
    .array(z.looseObject({
      code: z.string(),
      severity: z.enum(["error", "warning", "information"]),
      count: z.number().describe("diagnostics of this code and severity beyond the first 200, counted, not listed"),
      line,
      column,
    }))
    .optional()
    .describe("present only when the file has more than 200 diagnostics of one code: the rest, counted"),
});

/** One row of `assets`. */
const PublicAsset = z.looseObject({
  type: z.string().describe("asset type (schema spelling when known)"),
  id: z.string(),
  file: relPath,
  line,
  column,
  origin,
  stream,
  streams,
  state,
  active,
  fileHasErrors: z.boolean().describe("the defining file has an XML error: read anyway, rejected by the builder"),
});

/** One row of `defines`. */
const PublicDefine = z.looseObject({
  name: z.string().describe("without the `$`"),
  value: z.string(),
  file: relPath,
  line,
  state: state.optional().describe(
    "the declaring file's state: only compiled and referenced files' declarations are in effect (every declaration is listed, those in effect first)",
  ),
});

/** One row of `references`: one reference site. */
const PublicReference = z.looseObject({
  from: assetRef.nullable().describe(
    "the asset the site belongs to (for a fragment spliced by xi:include: the asset that splices it in); null outside any asset",
  ),
  to: assetRef.nullable().describe("the best matching definition; null when unresolved"),
  status: z.enum(["resolved", "wrong_type", "not_found"]).describe(
    "wrong_type: the id exists, but only with types the reference does not accept",
  ),
  value: z.string().describe("the token as written, possibly `Type:Id`"),
  kind: z.enum(REFERENCE_KINDS).describe(
    "written: attribute, element content, inheritFrom; default: the XSD default of a reference attribute the element omits (the site is the element's start tag); name: a plain-string value the engine looks up by id at run time; heuristic: a guess without a schema; manifest: a compiled manifest's pair no XML site stands for (open set)",
  ),
  element: z.string(),
  parent: z.string().nullable(),
  attribute: z.string().nullable(),
  file: relPath,
  line,
  column,
  state: state.describe("the state of the file holding the site (of the splicing asset's file for a spliced fragment)"),
  confirmedByManifest: z.boolean().optional().describe(
    "a compiled manifest holds the same pair (the referencing asset and its target): the XML site stands for it",
  ),
  unspliced: z.boolean().optional().describe(
    "in a fragment no xi:include splices in: its elements are typed by a guess from the root element's name",
  ),
});

/** One row of `includes`. */
const PublicInclude = z.looseObject({
  from: relPath,
  to: relPath.nullable().describe("the resolved target; null when it could not be resolved"),
  source: z.string().describe("the `source` (or `href` for xi) as written"),
  type: z
    .enum(["all", "instance", "reference", "xi"])
    .nullable()
    .describe("null when the `type` attribute is missing or invalid (the builder ignores the include)"),
  resolution: z
    .enum(["file", "manifest", "sdk-stream", "ignored", "missing"])
    .describe(
      "what answers it: the target file; a prebuilt manifest (reference include); an SDK stream of its own (reference include); nothing (ignored: invalid type; missing: not found, or not looked up: see outside)",
    ),
  outside: z
    .literal(true)
    .optional()
    .describe(
      "present on a missing include that leads outside the folders ra3 reads (the project, the SDK, the mod's parent and grandparent): not looked up",
    ),
  line,
});

/** One row of `strings`. */
const PublicString = z.looseObject({ key: z.string(), text: z.string(), file: relPath, line });

/** The whole public export. */
export const PublicSnapshot = z
  .looseObject({
    schemaVersion: z.literal(EXPORT_SCHEMA_VERSION),
    tool: z.looseObject({ name: z.literal("ra3"), version: z.string() }),
    project: z.string().describe("absolute path of the project root"),
    sdk: z.string().nullable().describe("absolute path of the SDK root; null in project-only mode"),
    generatedAt: z.iso.datetime().describe("when the index was built (ISO-8601, UTC)"),
    buildId: z.int().min(0),
    phase: z.enum(["xml", "art"]).describe("xml: the art (.w3x) scan had not finished; art: everything was indexed"),
    complete: z.boolean(),
    stale: z.boolean().describe("files changed after this index was built"),
    stats: z.record(z.string(), z.number()).describe("counts (files, assets, references …) and timings"),
    files: z.array(PublicFile),
    assets: z.array(PublicAsset),
    defines: z.array(PublicDefine),
    references: z.array(PublicReference),
    includes: z.array(PublicInclude),
    strings: z.array(PublicString),
    diagnostics: z
      .array(fileDiagnostic.extend({ file: relPath.nullable() }))
      .describe("index-wide diagnostics (file null) and any whose file has no row in `files`"),
  })
  .meta({
    title: "ra3 snapshot export",
    description: "The public snapshot format written by `ra3 export` (docs/snapshot-format.md).",
  });

export type PublicSnapshot = z.infer<typeof PublicSnapshot>;
export type PublicFile = z.infer<typeof PublicFile>;
export type PublicAsset = z.infer<typeof PublicAsset>;
export type PublicReference = z.infer<typeof PublicReference>;

/**
 * The JSON Schema of the public format, as committed in `docs/snapshot.schema.json`.
 * @example writeFileSync("docs/snapshot.schema.json", snapshotJsonSchemaText())
 */
export function snapshotJsonSchemaText(): string {
  return JSON.stringify(z.toJSONSchema(PublicSnapshot), null, 2) + "\n";
}
