/**
 * The 16 tools of the MCP server, in {@link TOOL_NAMES} order: each a declaration (title, a description
 * written for a model, bounded argument schema, output schema, annotations) and a thin handler over
 * one query-layer function. All logic lives in `src/query/`; nothing here computes an answer itself.
 */
import type { DisplayRoots } from "../project/paths.ts";
import type { CallToolResult, ToolAnnotations } from "@modelcontextprotocol/server";
import * as z from "zod";
import type { LinkedIndex } from "../index/linked.ts";
import { findAsset, listAssets } from "../query/assets.ts";
import { checkFiles } from "../query/check.ts";
import { definitionOf, definitionTarget } from "../query/definition.ts";
import { findDefine } from "../query/defines.ts";
import { envelopeOf, type IndexEnvelope, isQueryError, type QueryResult } from "../query/envelope.ts";
import { fileQuery } from "../query/files.ts";
import { FILE_STATES, listFiles } from "../query/file-list.ts";
import { guideQuery } from "../query/guide.ts";
import { resolveIncludeQuery } from "../query/includes.ts";
import { findReferences, REFERENCE_KINDS } from "../query/references.ts";
import { statusOf } from "../query/status.ts";
import { searchStrings } from "../query/strings.ts";
import { summarize } from "../query/summary.ts";
import { unreferenced } from "../query/unreferenced.ts";
import { DEFAULT_MAX_EDGES, uses } from "../query/uses.ts";
import type { SourceText } from "../workspace/source-text.ts";
import { BuildCancelled, type BuildPhase } from "../workspace/workspace.ts";
import { TOOL_NAMES, type ToolName } from "../skill/tool-names.ts";
import {
  argumentProblem,
  argumentsOf,
  choiceList,
  count,
  CURSOR,
  flag,
  ID,
  LIMIT,
  MCP_HARD_LIMIT,
  optionalChoice,
  optionalText,
  text,
  textList,
  TYPE,
} from "./inputs.ts";
import type { ProjectHandle, ProjectRegistry } from "./projects.ts";
import * as A from "../query/answers.ts";
import * as R from "./render.ts";
import {
  acquireIndex,
  awaitSnapshot,
  errorResult,
  type Failure,
  failure,
  makeStrict,
  type Outcome,
  type Presentation,
  toToolResult,
} from "./respond.ts";
import * as S from "./schemas.ts";

/** What a handler gets from the request besides its arguments (the server maps the SDK's context to it). */
export interface Extra {
  /** Aborted when the client cancels the request. */
  readonly signal: AbortSignal;
  /** The request's `_meta.progressToken`, when the client wants progress notifications. */
  readonly progressToken?: string | number;
  /** Sends a notification related to this request. */
  notify(method: string, params: Record<string, unknown>): Promise<void>;
}

export interface ToolEnv {
  readonly registry: ProjectRegistry;
  readonly strictTimeoutMs: number;
  /** Reads a file's text for `get_definition` (the workspace's reader; tests may inject). */
  readonly readSource: (path: string, roots: DisplayRoots) => SourceText;
  readonly log: (line: string) => void;
}

export interface ToolDeclaration {
  readonly name: ToolName;
  readonly title: string;
  readonly description: string;
  readonly input: z.ZodObject;
  readonly output: z.ZodObject;
  readonly annotations: ToolAnnotations;
  /** Takes the arguments as the client sent them: the handler validates them against `input` itself. */
  readonly handler: (args: unknown, extra: Extra) => Promise<CallToolResult>;
}

const READ_ONLY: ToolAnnotations = { readOnlyHint: true, idempotentHint: true, openWorldHint: false };
/** The source excerpt of get_definition: it appears twice (structured and text), so about 8,000 characters. */
const DEFINITION_CHARS = 8_000;
const DEFINITION_LINES = 200;

const clampLimit = (
  n: number | undefined,
): number | undefined => (n === undefined ? undefined : Math.min(n, MCP_HARD_LIMIT));
/** A smaller page size for a too-large answer: down to one item, never none (null when already one). */
const smallerCount = (current: number, factor: number): number | null =>
  current > 1 ? Math.max(1, Math.min(current - 1, Math.floor(current * factor * 0.9))) : null;

interface QuerySpec<I, Rz> {
  readonly name: ToolName;
  readonly title: string;
  readonly description: string;
  readonly input: z.ZodObject;
  /** The answer's shape in one line, for the output schema. */
  readonly shape: string;
  run(linked: LinkedIndex, args: I, handle: ProjectHandle): QueryResult<Rz>;
  render(r: Rz): string;
  /** The JSON answer, shared with the CLI's `--json` (`query/answers.ts`). */
  answer(r: Rz): unknown;
  /** Arguments for a smaller answer when this one is too large (null: cannot get smaller). */
  refit?(args: I, r: Rz, factor: number): I | null;
  /**
   * While the index holds only the files the include graph reaches (`reachedOnly`): `"hit"` answers
   * at once when the query finds what it looks up there (a miss waits for the rest, then runs again);
   * absent, the tool waits for the rest first (its answer depends on every file).
   */
  readonly reachedOnly?: "hit";
}

/** A tool answered by a query over the project's index. */
function queryTool<I extends { project?: string; consistency?: "eventual" | "strict" }, Rz>(
  spec: QuerySpec<I, Rz>,
  env: ToolEnv,
): ToolDeclaration {
  return {
    name: spec.name,
    title: spec.title,
    description: spec.description,
    input: spec.input,
    output: S.answerSchema(spec.shape),
    annotations: READ_ONLY,
    handler: guarded(env, spec.name, spec.input, async (raw, extra) => {
      const args = raw as unknown as I;
      const got = await acquireIndex(env.registry, args, env.strictTimeoutMs, extra.signal);
      if (!("linked" in got)) return errorResult(got);
      const ws = got.handle.service.ws;
      let linked = got.linked;
      // Waits (bounded; after the timeout it answers from what is published, marked reachedOnly).
      const rest = async () => {
        await ws.waitForRest(env.strictTimeoutMs, extra.signal);
        linked = ws.linked ?? linked;
      };
      if (ws.reachedOnly && spec.reachedOnly !== "hit") await rest();
      let first = spec.run(linked, args, got.handle);
      if (isQueryError(first) && spec.reachedOnly === "hit" && ws.reachedOnly) {
        await rest();
        first = spec.run(linked, args, got.handle);
      }
      const index = envelopeOf(got.handle.service.view());
      if (isQueryError(first)) return errorResult(failure(index, first));
      let current = args;
      const refit = spec.refit;
      const presentation: Presentation<Rz> = {
        render: (r) => spec.render(r),
        answer: (r) => spec.answer(r),
        refit: refit
          ? (r, factor) => {
            const next = refit(current, r, factor);
            if (next === null) return null;
            current = next;
            const again = spec.run(linked, next, got.handle);
            return isQueryError(again) ? null : again;
          }
          : undefined,
      };
      return toToolResult({ index, result: first }, presentation);
    }),
  };
}

/**
 * Validates the arguments against `input` (a bad one is an isError result with one sentence per problem),
 * then runs `fn`; a bug in it is logged to stderr and reported as an isError result rather than a crash.
 */
function guarded(
  env: ToolEnv,
  name: string,
  input: z.ZodObject,
  fn: (args: Record<string, unknown>, extra: Extra) => Promise<CallToolResult>,
) {
  return async (raw: unknown, extra: Extra): Promise<CallToolResult> => {
    const parsed = input.safeParse(raw ?? {});
    if (!parsed.success) {
      return errorResult({ index: null, error: { code: "bad_argument", message: argumentProblem(parsed.error) } });
    }
    try {
      return await fn(parsed.data as Record<string, unknown>, extra);
    } catch (e) {
      env.log(`${name} failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
      return errorResult({
        index: null,
        error: {
          code: "internal",
          message: `ra3 failed to answer ${name}: ${
            e instanceof Error ? e.message : String(e)
          } (a bug; details are on the server's stderr)`,
        },
      });
    }
  };
}

// ---- argument schemas ----

const FIND_ASSET = argumentsOf("find_asset", { id: ID, type: TYPE });
const GET_DEFINITION = argumentsOf("get_definition", { id: ID, type: TYPE });
const FIND_REFERENCES = argumentsOf("find_references", {
  id: ID,
  type: TYPE,
  kinds: choiceList(
    "kinds",
    REFERENCE_KINDS,
    'Only sites of these kinds, e.g. ["inheritFrom"] for the assets that inherit from it (its children). Omit for all; byKind counts every kind either way.',
  ),
  limit: LIMIT,
  cursor: CURSOR,
});
const GET_ASSET_REFERENCES = argumentsOf("get_asset_references", {
  id: ID,
  type: TYPE,
  depth: count(
    "depth",
    1,
    3,
    "How far to follow references: 1 (default) lists the asset's own, 2 and 3 also what those reference. inheritFrom hops do not count.",
  ),
  targetTypes: textList(
    "targetTypes",
    "asset type names",
    10,
    128,
    'Keep only edges whose target is one of these types (or a subtype), e.g. ["WeaponTemplate"]; the inheritFrom edges leading to them are kept.',
  ),
  maxEdges: count("maxEdges", 1, 1000, "Cap on returned edges (default 100); when reached, truncated is true."),
});
const LIST_ASSETS = argumentsOf("list_assets_by_type", {
  type: text(
    "type",
    'an asset type such as "WeaponTemplate"',
    128,
    "The asset type (XML element name), e.g. WeaponTemplate, GameObject. get_status lists the types present.",
  ),
  prefix: optionalText("prefix", "the start of the ids wanted", 256, "Only ids starting with this (case-insensitive)."),
  limit: LIMIT,
  cursor: CURSOR,
});
const RESOLVE_INCLUDE = argumentsOf("resolve_include", {
  source: text(
    "source",
    'the source attribute of an <Include>, e.g. "DATA:Units/MyTank.xml"',
    1024,
    'Exactly as written in <Include source="…"> or xi:include href, e.g. DATA:Units/MyTank.xml or ../Shared/Armor.xml.',
  ),
  from: optionalText(
    "from",
    "a file path relative to the project root",
    1024,
    "The including file, relative to the project root (default Data/Mod.xml); needed for relative sources.",
  ),
});
const IS_FILE_ACTIVE = argumentsOf("is_file_active", {
  path: text(
    "path",
    'a file path relative to the project root, e.g. "Data/Mod.xml"',
    1024,
    "The file, relative to the project root (or absolute inside the project or SDK).",
  ),
  limit: count(
    "limit",
    1,
    10_000,
    `Include edges per list and page (default 100; at most ${MCP_HARD_LIMIT} are returned, fewer when the answer would be too large).`,
  ),
  cursor: CURSOR,
});
const LIST_FILES = argumentsOf("list_files", {
  state: optionalChoice(
    "state",
    FILE_STATES,
    'Only files in this state: "not-included" (nothing includes them: candidates for cleanup), "referenced" (only reference includes reach them) or "compiled". Omit for all.',
  ),
  prefix: optionalText(
    "prefix",
    'the start of a path relative to the project root, e.g. "Data/Units/"',
    1024,
    "Only files whose path relative to the project root starts with this (case-insensitive).",
  ),
  limit: LIMIT,
  cursor: CURSOR,
});
const FIND_DEFINE = argumentsOf("find_define", {
  name: text(
    "name",
    'a define name such as "MY_TANK_DAMAGE"',
    128,
    "The define's name, with or without the leading $ (case-insensitive).",
  ),
  limit: count("limit", 1, 10_000, `Use sites per page (default 50; at most ${MCP_HARD_LIMIT} are returned).`),
  cursor: CURSOR,
});
const FIND_UNREFERENCED = argumentsOf("find_unreferenced", {
  type: optionalText("type", 'an asset type such as "WeaponTemplate"', 128, "Only assets of this type."),
  includeOverrides: flag(
    "includeOverrides",
    "Without an SDK, assets that override a vanilla asset (overridesVanilla) are left out, since vanilla assets, not indexed, may reference them; true lists them too.",
  ),
  limit: LIMIT,
  cursor: CURSOR,
});
const CHECK_FILES = argumentsOf("check_files", {
  paths: textList(
    "paths",
    "file paths relative to the project root",
    100,
    1024,
    "Files to check, relative to the project root; omit for the whole project.",
  ),
  limit: LIMIT,
  cursor: CURSOR,
});
const SEARCH_STRINGS = argumentsOf("search_strings", {
  text: text(
    "text",
    'part of an in-game text, e.g. "Heavy Tank"',
    200,
    "Text to look for in the string table (case-insensitive): a display name or part of it, or a string key.",
  ),
  limit: count("limit", 1, 10_000, `Matches to return (default 20, at most ${MCP_HARD_LIMIT}).`),
});
const GET_STATUS = argumentsOf("get_status", {});
const LIST_PROJECTS = argumentsOf("list_projects", {});
const GET_USAGE_GUIDE = argumentsOf("get_usage_guide", {
  topic: optionalText(
    "topic",
    'a topic such as "workflows" or a tool name',
    128,
    "A tool name (find_asset), a guide heading (workflows, rules) or a primer subject (includes, inheritFrom, defines). Omit for the list of topics.",
  ),
});
const REINDEX = argumentsOf("reindex", {});

type In<T extends z.ZodType> = z.infer<T>;

// ---- the tools ----

/** Every tool, in the order of {@link TOOL_NAMES}. */
export function toolDeclarations(env: ToolEnv): ToolDeclaration[] {
  const byName = new Map<ToolName, ToolDeclaration>();
  const add = (d: ToolDeclaration) => byName.set(d.name, d);

  add(getStatusTool(env));
  add(listProjectsTool(env));

  add(
    queryTool<In<typeof FIND_ASSET>, ReturnType<typeof findAsset> extends QueryResult<infer X> ? X : never>(
      {
        name: "find_asset",
        title: "Find where an asset is defined",
        description:
          'Where is an asset defined? Given an id (case-insensitive), returns every definition: type, file, line, origin (project, sdk or manifest), streams and, when the build does not compile it, its state: "referenced" (only reference includes reach it: resolvable, not compiled) or "not-included". fileHasErrors means the defining file has an XML error: the builder rejects that file until it is fixed (notes says where). A project definition with the same type and id overrides the vanilla one. For a Type:Id value pass the id after the last colon and the type. An unknown id is an error listing similar ids. Next: get_definition for the XML, find_references for who uses it, get_asset_references for what it uses.',
        input: FIND_ASSET,
        shape:
          '{id, type?, definitions: [{type, at: "path:line", endLine, streams, origin?, state?, active?, viaInstance?, fileHasErrors?, inheritFrom?, manifestSource?}], types?, notes?}',
        run: (linked, a) => findAsset(linked, a.id, a.type),
        reachedOnly: "hit",
        render: R.renderFindAsset,
        answer: A.findAssetAnswer,
      },
      env,
    ),
  );

  add(
    queryTool<In<typeof GET_DEFINITION> & { maxChars?: number }, ReturnType<typeof definitionOf>>(
      {
        name: "get_definition",
        title: "Show an asset's XML",
        description:
          "The XML source of one asset definition (up to 200 lines), with its file and line range, origin and the other definitions of the same type and id. Pass type when the id names assets of several types (the error lists them). Assets known only from a compiled manifest have no XML: the answer names the manifest. Next: get_asset_references resolves everything the definition references; find_asset on its inheritFrom parent.",
        input: GET_DEFINITION,
        shape:
          '{type, id, at, endLine, shown?: "from-to", streams, origin?, active?, inheritFrom?, manifestSource?, note?, text, truncated?, otherDefinitions?: [{at, origin?, active?}]}',
        run: (linked, a) => {
          const target = definitionTarget(linked, a.id, a.type);
          if (isQueryError(target)) return target;
          const source = target.def.origin === "manifest" ? null : env.readSource(target.def.file, linked);
          return definitionOf(linked, target, source, {
            maxLines: DEFINITION_LINES,
            maxChars: a.maxChars ?? DEFINITION_CHARS,
          });
        },
        reachedOnly: "hit",
        render: R.renderDefinition,
        answer: A.definitionAnswer,
        refit: (a, r, f) => {
          const now = a.maxChars ?? DEFINITION_CHARS;
          if (!r.text) return null;
          const next = Math.floor(now * f * 0.9);
          return next >= 200 ? { ...a, maxChars: next } : null;
        },
      },
      env,
    ),
  );

  add(
    queryTool<In<typeof FIND_REFERENCES>, ReturnType<typeof findReferences> extends QueryResult<infer X> ? X : never>(
      {
        name: "find_references",
        title: "Find who references an asset",
        description:
          "Who references an asset: every reference site that resolves to it (file, line, the asset it is written in, element, attribute), project files first, compiled files before the others (state says referenced or not-included). Kinds: attribute, content (element text) and inheritFrom are written in the XML; default is an XSD default of a reference attribute the element omits (the compiler fills it in; the site is the element's start tag); name is a plain-string field the engine looks up by id at run time (AI build orders, death sounds, movies); manifest is a compiled manifest's pair with no XML site (with an SDK, a pair that an XML site stands for only confirms it: confirmedByManifest); heuristic is a guess without a schema. kinds filters ([\"inheritFrom\"] lists its children); byKind counts every kind, assets the distinct referencing assets. Every kind is a use: deleting the asset breaks it. Pass type when the id names several types. Paged: pass nextCursor back as cursor. Next: get_definition on a referencing asset, is_file_active on a site's file.",
        input: FIND_REFERENCES,
        shape:
          '{asset: "Type:Id", kinds?, total, assets?, byKind?: {kind: n}, byOrigin?, references: [{from: "Type:Id", at, via, kind?: default|name|manifest|heuristic, value?, through?, confirmedByManifest?, unspliced?, cycle?, state?, active?}], nextCursor?}',
        run: (linked, a) =>
          findReferences(linked, a.id, {
            type: a.type,
            kinds: a.kinds,
            limit: clampLimit(a.limit),
            cursor: a.cursor,
          }),
        render: R.renderFindReferences,
        answer: A.findReferencesAnswer,
        refit: (a, r, f) => {
          const n = smallerCount(r.references.length, f);
          return n === null ? null : { ...a, limit: n };
        },
      },
      env,
    ),
  );

  add(
    queryTool<In<typeof GET_ASSET_REFERENCES>, ReturnType<typeof uses> extends QueryResult<infer X> ? X : never>(
      {
        name: "get_asset_references",
        title: "What an asset references, with provenance",
        description:
          'What an asset references: edges {from, to, via, source, definedIn?}. to is the target (type, id, file, line); via the element and attribute holding the reference; source its file and line; definedIn is set when the edge is inherited from an inheritFrom ancestor. depth 1-3 follows references further (inheritFrom hops are free). targetTypes keeps only edges to those types, e.g. ["WeaponTemplate"] for a unit\'s weapons, ["LocomotorTemplate"], ["ArmorTemplate"], ["FXList"]. maxEdges caps the answer: truncated and omittedByTargetType say what was left out.',
        input: GET_ASSET_REFERENCES,
        shape:
          '{asset: "Type:Id", at, depth, targetTypes?, inherits?, edges: [{from?, to: "Type:Id", target?: "path:line", status?, via, kind?, at, inheritedFrom?, depth?}], truncated?, omittedByTargetType?}',
        run: (linked, a) =>
          uses(linked, a.id, { type: a.type, depth: a.depth, targetTypes: a.targetTypes, maxEdges: a.maxEdges }),
        render: R.renderUses,
        answer: A.usesAnswer,
        refit: (a, r, f) => {
          const n = smallerCount(Math.min(r.edges.length, a.maxEdges ?? DEFAULT_MAX_EDGES), f);
          return n === null ? null : { ...a, maxEdges: n };
        },
      },
      env,
    ),
  );

  add(
    queryTool<In<typeof LIST_ASSETS>, ReturnType<typeof listAssets> extends QueryResult<infer X> ? X : never>(
      {
        name: "list_assets_by_type",
        title: "List the assets of a type",
        description:
          "The ids of one asset type (e.g. WeaponTemplate, GameObject), optionally only those starting with prefix, with file, line and, when not compiled, state (referenced or not-included), one page at a time (limit, cursor; pass nextCursor back as cursor). get_status lists the types present. Next: find_asset or get_definition on an id.",
        input: LIST_ASSETS,
        shape: "{type, prefix?, total, items: [{id, at, origin?, state?, active?}], nextCursor?}",
        run: (linked, a) =>
          listAssets(linked, a.type, { prefix: a.prefix, limit: clampLimit(a.limit), cursor: a.cursor }),
        render: R.renderListAssets,
        answer: A.listAssetsAnswer,
        refit: (a, r, f) => {
          const n = smallerCount(r.items.length, f);
          return n === null ? null : { ...a, limit: n };
        },
      },
      env,
    ),
  );

  add(
    queryTool<
      In<typeof RESOLVE_INCLUDE>,
      ReturnType<typeof resolveIncludeQuery> extends QueryResult<infer X> ? X : never
    >(
      {
        name: "resolve_include",
        title: "Resolve an Include source",
        description:
          'How an <Include source="…"> (or xi:include href) string resolves: every candidate path tried in search order, the hit, letter-case fixes, the target\'s streams and, when not compiled, its state (referenced, not-included), and asReference when a type="reference" include of it would not read the file itself: a prebuilt manifest (found through a .babproj StreamReference or the SDK\'s builtmods) or the SDK stream (without asReference, such an include reads the XML and indexes it as referenced). from is the including file (default Data/Mod.xml); relative sources depend on it. Next: is_file_active on the hit, check_files on the including file.',
        input: RESOLVE_INCLUDE,
        shape:
          '{source, from, prefix?, resolved (null: no hit), exists?, caseFixed?, twoLetterRule?, state?, active?, streams?, asReference?: {answeredBy: "manifest"|"sdk-stream", manifest?, manifestFrom?, sdkStream?}, tried: [path], outside? (true: it leads outside the folders ra3 reads, not looked up), reason?}',
        run: (linked, a, h) =>
          resolveIncludeQuery(
            linked,
            h.service.ws.ports.projectResolver,
            h.service.ws.config.layout,
            a.source,
            a.from,
            h.service.ws.ports.references,
          ),
        render: R.renderResolveInclude,
        answer: A.resolveIncludeAnswer,
      },
      env,
    ),
  );

  add(
    queryTool<In<typeof IS_FILE_ACTIVE>, ReturnType<typeof fileQuery> extends QueryResult<infer X> ? X : never>(
      {
        name: "is_file_active",
        title: "Is a file compiled into the mod?",
        description:
          'Is a file compiled into the mod? A file is compiled (reached from an entry point through all/instance includes or xi:include: edits take effect; state is then left out), "referenced" (reached only through type="reference" includes: its assets can be referenced, but the build does not compile it) or "not-included" (nothing reaches it: edits change nothing in game); active: false whenever it is not compiled. chain is the shortest include chain from the entry point (each hop: the include at file:line, source and type; type all left out). Also: streams, xmlError (the builder rejects the file until it is fixed), which files include it and what it includes (paged: includedByTotal and includesTotal count every edge; pass nextCursor back as cursor). path is relative to the project root. Next: resolve_include to test an include line, check_files on the file.',
        input: IS_FILE_ACTIVE,
        shape:
          "{file, exists?, kind, origin?, state?, active?, streams, viaInstance?, fragment?, foreign?, assets, diagnostics, xmlError?: {at, message}, chain?: {entry, stream, reason, hops: [{at, source, type?}]}, includedBy: [{at, source, type?, resolution?}], includedByTotal, includes: [{line, source, type?, resolution?, target?, missing?}], includesTotal, truncated?, nextCursor?}",
        run: (linked, a) => fileQuery(linked, a.path, { limit: clampLimit(a.limit), cursor: a.cursor }),
        reachedOnly: "hit",
        render: R.renderFile,
        answer: A.fileAnswer,
        refit: (a, r, f) => {
          const n = smallerCount(Math.max(r.includes.length, r.includedBy.length), f);
          return n === null ? null : { ...a, limit: n };
        },
      },
      env,
    ),
  );

  add(
    queryTool<In<typeof LIST_FILES>, ReturnType<typeof listFiles> extends QueryResult<infer X> ? X : never>(
      {
        name: "list_files",
        title: "List the project's files by state",
        description:
          'The project\'s XML and art files, by state: "not-included" lists the files nothing includes (where every cleanup starts), "referenced" those only reference includes reach, "compiled" those the build compiles. Sorted by path, paged (limit, cursor; pass nextCursor back as cursor), with byState counting each state. prefix narrows to a folder. Next: is_file_active on one file for its include chain.',
        input: LIST_FILES,
        shape:
          '{state?, prefix?, total, byState: {compiled, referenced, "not-included"}, items: [{file, state?, kind?, streams?, assets, viaInstance?, fragment?, foreign?, hasXmlError?}], nextCursor?}',
        run: (linked, a) =>
          listFiles(linked, { state: a.state, prefix: a.prefix, limit: clampLimit(a.limit), cursor: a.cursor }),
        render: R.renderListFiles,
        answer: A.listFilesAnswer,
        refit: (a, r, f) => {
          const n = smallerCount(r.items.length, f);
          return n === null ? null : { ...a, limit: n };
        },
      },
      env,
    ),
  );

  add(
    queryTool<In<typeof FIND_DEFINE>, ReturnType<typeof findDefine> extends QueryResult<infer X> ? X : never>(
      {
        name: "find_define",
        title: "Look up a $DEFINE",
        description:
          "Where a $DEFINE is declared and used: every declaration with its value and file:line, those in effect first (compiled, then referenced files), then those in files no entry point includes (state says so), so duplicates are visible; inEffect counts the declarations the build sees (left out when 1; more than one is a duplicate to resolve, 0 means none is in effect). Then the use sites ($NAME in an attribute or text) with file:line, paged (limit, cursor; useSitesTotal counts them all when there are more pages), and uses, the count in compiled or referenced files. name may include the leading $. A $NAME used but never declared is reported by check_files.",
        input: FIND_DEFINE,
        shape:
          "{name, definitions: [{value, at, origin?, state?}], inEffect?, uses, useSitesTotal?, useSites: [{at, via, state?}], nextCursor?}",
        run: (linked, a) => findDefine(linked, a.name, { limit: clampLimit(a.limit), cursor: a.cursor }),
        render: R.renderFindDefine,
        answer: A.findDefineAnswer,
        refit: (a, r, f) => {
          const n = smallerCount(r.useSites.length, f);
          return n === null ? null : { ...a, limit: n };
        },
      },
      env,
    ),
  );

  add(
    queryTool<In<typeof FIND_UNREFERENCED>, ReturnType<typeof unreferenced> extends QueryResult<infer X> ? X : never>(
      {
        name: "find_unreferenced",
        title: "Find unused project assets",
        description:
          "Compiled project assets that nothing references, among the types designed to be referenced (weapons, objects, FX, sounds, …), grouped by type and sorted by id, paged (limit, cursor). Every kind of reference is a use: written ones, XSD defaults, runtime names (AI build orders, …) and compiled manifest pairs, in compiled or referenced files. Without an SDK (project-only mode) vanilla assets are not indexed, so what they reference is not seen: caveat says so, and an asset that overrides a vanilla asset (overridesVanilla: the same id in the SDK or a manifest, or an inheritFrom naming its own id) is left out (overridesLeftOut counts them; includeOverrides: true lists them). Leads, not proof: maps, scripts and the game's code also look ids up. Next: find_references to confirm one.",
        input: FIND_UNREFERENCED,
        shape:
          "{type?, total, byType?: {Type: n}, items: {Type: [{id, at, overridesVanilla?}]}, nextCursor?, rule, overridesLeftOut?, caveat?}",
        run: (linked, a) =>
          unreferenced(linked, {
            type: a.type,
            includeOverrides: a.includeOverrides,
            limit: clampLimit(a.limit),
            cursor: a.cursor,
          }),
        render: R.renderUnreferenced,
        answer: A.unreferencedAnswer,
        refit: (a, r, f) => {
          const n = smallerCount(r.items.length, f);
          return n === null ? null : { ...a, limit: n };
        },
      },
      env,
    ),
  );

  add(
    queryTool<In<typeof CHECK_FILES>, ReturnType<typeof checkFiles> extends QueryResult<infer X> ? X : never>(
      {
        name: "check_files",
        title: "Check files for problems",
        description:
          'Diagnostics for the given files, or for the whole project without paths: XML syntax errors, unresolved references, missing include targets, duplicate ids, undefined $DEFINEs, include cycles…, each with file, line, severity, code and message; counts by severity and code (exact; per file at most 200 of one code are listed, the rest counted in unlisted); paged (limit, cursor). After editing files pass consistency: "strict" so the answer reflects the edits.',
        input: CHECK_FILES,
        shape:
          '{files?, total, errors, warnings, information, byCode: {code: n}, listed?, unlisted?: [{at?, severity, code, count}], unlistedGroupsNotShown?, diagnostics: [{at?: "path:line:column", severity, code, message}], nextCursor?}',
        run: (linked, a) =>
          checkFiles(linked, a.paths && a.paths.length ? a.paths : null, {
            limit: clampLimit(a.limit),
            cursor: a.cursor,
          }),
        render: R.renderCheck,
        answer: A.checkAnswer,
        refit: (a, r, f) => {
          const n = smallerCount(r.diagnostics.length, f);
          return n === null ? null : { ...a, limit: n };
        },
      },
      env,
    ),
  );

  add(
    queryTool<In<typeof SEARCH_STRINGS>, ReturnType<typeof searchStrings> extends QueryResult<infer X> ? X : never>(
      {
        name: "search_strings",
        title: "Search in-game text",
        description:
          "Search the mod's string table (.str) for in-game text: matching entries (key such as NAME:MyTank, text, file, line), exact and whole-word matches first, and the assets whose display fields use each key. Use it when you have a display name rather than an id. Next: find_asset on an asset id.",
        input: SEARCH_STRINGS,
        shape: '{query, total, noStringTable?, matches: [{key, text, at, assets: [{asset: "Type:Id", field, at}]}]}',
        run: (linked, a) => searchStrings(linked, a.text, clampLimit(a.limit)),
        render: R.renderSearchStrings,
        answer: A.searchStringsAnswer,
        refit: (a, r, f) => {
          const n = smallerCount(r.matches.length, f);
          return n === null ? null : { ...a, limit: n };
        },
      },
      env,
    ),
  );

  add(usageGuideTool(env));
  add(reindexTool(env));

  return TOOL_NAMES.map((name) => {
    const d = byName.get(name);
    if (!d) throw new Error(`tool ${name} is not declared`);
    return d;
  });
}

// ---- tools that do not answer from a query over the index ----

function getStatusTool(env: ToolEnv): ToolDeclaration {
  return {
    name: "get_status",
    title: "Index status",
    description:
      "Is there an index for this mod, how complete and fresh is it, and what does it hold? Returns the index envelope (state, counts, complete, stale), the project, its SDK (or project-only mode), schema, streams (each with its entry point, where it came from and why: a build script, a .babproj, --entry, a well-known name; entryNotes warns when plausible entries disagree) and the asset types present, with build progress while building. Cheap: call it first. If state is no_index, or index.projectDir is not the folder you work in, do not use these tools for that folder.",
    input: GET_STATUS,
    output: S.answerSchema(
      "{marker, mode, sdk, sdkCandidates, schema, streams: [{name, entry, context?, origin, reason, files}], entryNotes?, types, progress?, lastError?, note?}",
      { fullIndex: true },
    ),
    annotations: READ_ONLY,
    handler: guarded(env, "get_status", GET_STATUS, async (raw, extra) => {
      const args = raw as In<typeof GET_STATUS>;
      const reg = env.registry;
      if (reg.mode === "none") return toToolResult(noProjectStatus(reg), STATUS);
      const h = reg.pick(args.project);
      if (isQueryError(h)) return errorResult(failure(null, h));
      // Like every tool: it waits only while a saved snapshot is decoded into a servable index, never
      // for a build or the refresh after a warm start (it then reports their state and progress).
      if (args.consistency === "strict") {
        const f = await makeStrict(h, env.strictTimeoutMs, extra.signal);
        if (f) return errorResult(f);
      } else await awaitSnapshot(reg, h, extra.signal);
      const svc = h.service;
      const p = svc.ws.progress;
      const result: R.StatusAnswer = {
        ...statusOf(svc.ws),
        progress: p ? { phase: p.phase, done: p.done, total: p.total } : null,
        lastError: svc.error,
        note: null,
      };
      return toToolResult({ index: envelopeOf(svc.view()), result }, STATUS);
    }),
  };
}

/** get_status: the full envelope (SDK, game, counts) beside the project's facts; its text has its own index line. */
const STATUS: Presentation<R.StatusAnswer> = {
  render: R.renderStatus,
  answer: A.statusAnswer,
  fullIndex: true,
  ownIndexLine: true,
};

function noProjectStatus(reg: ProjectRegistry): Outcome<R.StatusAnswer> {
  const index: IndexEnvelope = {
    projectDir: reg.root,
    sdkDir: null,
    game: null,
    state: "no_index",
    buildId: 0,
    builtAt: null,
    complete: false,
    stale: false,
    counts: { files: 0, assets: 0, sdkAssets: 0, references: 0, defines: 0, diagnostics: 0 },
  };
  const result: R.StatusAnswer = {
    project: reg.root,
    marker: null,
    game: null,
    mode: "project-only",
    sdk: null,
    sdkCandidates: [],
    schema: { dir: null, source: null, files: 0, heuristic: true },
    state: "no_index",
    buildId: 0,
    builtAt: null,
    complete: false,
    stale: false,
    streams: [],
    entryNotes: [],
    types: [],
    progress: null,
    lastError: null,
    note: `${reg.note}; this folder has no index: do not use the ra3 tools for it`,
  };
  return { index, result };
}

function listProjectsTool(env: ToolEnv): ToolDeclaration {
  return {
    name: "list_projects",
    title: "Projects this server answers for",
    description:
      "The mod projects this server can answer for, each with its folder, marker and index state. A server started on a folder holding several mods serves each of them: pass an entry's name (or dir) as project to any other tool. With one project, project is optional.",
    input: LIST_PROJECTS,
    output: S.answerSchema(
      "{mode, root? (several mods), projects: [{name, dir, marker?, opened? (false: not yet), state?, game?}], note?}",
      {
        indexNullable: true,
      },
    ),
    annotations: READ_ONLY,
    handler: guarded(env, "list_projects", LIST_PROJECTS, async () => {
      const reg = env.registry;
      const projects = reg.projects.map((p) => {
        const svc = reg.opened(p);
        const view = svc?.view();
        return {
          name: p.name,
          dir: p.dir,
          marker: p.marker,
          opened: svc !== null,
          state: view?.lifecycle.state ?? null,
          game: view?.game ?? null,
        };
      });
      const single = reg.single;
      const svc = single ? reg.opened(single) : null;
      const result: R.ProjectListing = { mode: reg.mode, root: reg.root, projects, note: reg.note };
      return toToolResult({ index: svc ? envelopeOf(svc.view()) : null, result }, {
        render: R.renderProjects,
        answer: R.projectsAnswer,
      });
    }),
  };
}

function usageGuideTool(env: ToolEnv): ToolDeclaration {
  return {
    name: "get_usage_guide",
    title: "How to use these tools",
    description:
      "Sections of the ra3 usage guide: workflows, rules, each tool's arguments and results, and a primer on SAGE mod XML (includes, streams, inheritFrom, $DEFINEs, Type:Id, manifests). Without topic: the list of topics. topic may be a tool name (find_asset), a heading (workflows, rules) or a primer subject (includes, inheritFrom).",
    input: GET_USAGE_GUIDE,
    output: S.answerSchema("{topic?, sections?, topics?, text}", { indexNullable: true }),
    annotations: READ_ONLY,
    handler: guarded(env, "get_usage_guide", GET_USAGE_GUIDE, async (raw) => {
      const args = raw as In<typeof GET_USAGE_GUIDE>;
      let index: IndexEnvelope | null = null;
      if (args.project !== undefined || env.registry.mode === "single") {
        const h = env.registry.pick(args.project);
        if (isQueryError(h)) return errorResult(failure(null, h));
        index = envelopeOf(h.service.view());
      }
      return toToolResult({ index, result: guideQuery(args.topic) }, { render: R.renderGuide, answer: A.guideAnswer });
    }),
  };
}

function reindexTool(env: ToolEnv): ToolDeclaration {
  return {
    name: "reindex",
    title: "Rebuild the index",
    description:
      'Rebuild the project\'s index from disk now and return the new envelope with a build summary (files, assets by type, references, diagnostics, timings). Changes no mod file. Costs a full build: after a few edits prefer consistency: "strict" on the next question; use reindex when state is error or stale does not clear. Sends progress notifications when the request has a progress token; can be cancelled.',
    input: REINDEX,
    output: S.answerSchema(
      "{project, sdk?, mode, streams: [{name, entry, layer?, context?, files}], files, assetsByType: {Type: n}, references, unresolvedIncludes?, diagnostics, timings, parsedFiles, artFiles, sdkFiles}",
      { fullIndex: true },
    ),
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    handler: guarded(env, "reindex", REINDEX, async (raw, extra) => {
      const args = raw as In<typeof REINDEX>;
      const h = env.registry.pick(args.project);
      if (isQueryError(h)) return errorResult(failure(null, h));
      const svc = h.service;
      const progress = progressReporter(extra);
      let report;
      try {
        report = await svc.reindex(progress?.step, extra.signal);
      } catch (e) {
        const index = envelopeOf(svc.view());
        if (e instanceof BuildCancelled || extra.signal.aborted) {
          // The previous index is still published and nothing was relinked.
          svc.recoverFromCancelledBuild(env.strictTimeoutMs);
          return errorResult(
            failure(index, {
              code: "cancelled",
              message: "the rebuild was cancelled; the previous index is still served",
            }),
          );
        }
        return errorResult(
          failure(index, {
            code: "internal",
            message: `the rebuild failed: ${(e as Error).message}; the previous index (if any) is still served`,
          }),
        );
      }
      await progress?.finish();
      const ws = svc.ws;
      const linked = ws.linked;
      if (!linked) {
        return errorResult(
          failure(envelopeOf(svc.view()), {
            code: "no_index",
            message: "the rebuild published no index; call get_status",
          }),
        );
      }
      const s = ws.schema;
      const result: R.ReindexAnswer = {
        ...summarize(linked, { dir: s.dir, source: s.source, files: s.fileCount, loaded: s.queries !== null }),
        timings: report.timings,
        parsedFiles: report.parsedFiles,
        artFiles: report.artFiles,
        sdkFiles: report.sdkFiles,
      };
      return toToolResult({ index: envelopeOf(svc.view()), result }, {
        render: R.renderReindex,
        answer: A.summaryAnswer,
        fullIndex: true,
      });
    }),
  };
}

const PHASES: readonly BuildPhase[] = ["scan", "reach", "xml", "sdk", "link", "art"];
const PHASE_UNITS = 1000;

/**
 * `notifications/progress` for a request that carries a progress token: monotonically increasing over
 * the build's phases (each worth {@link PHASE_UNITS}), at most one every 50 ms. Null without a token.
 */
function progressReporter(
  extra: Extra,
): { step: (phase: BuildPhase, done: number, total: number) => void; finish: () => Promise<void> } | null {
  const token = extra.progressToken;
  if (token === undefined) return null;
  const total = PHASES.length * PHASE_UNITS;
  let last = -1;
  let sentAt = 0;
  const send = (progress: number, message: string) =>
    extra.notify("notifications/progress", { progressToken: token, progress, total, message }).catch(() => {});
  return {
    step: (phase, done, n) => {
      const i = PHASES.indexOf(phase);
      const p = Math.max(0, i) * PHASE_UNITS +
        (n > 0 ? Math.min(PHASE_UNITS - 1, Math.floor((PHASE_UNITS * done) / n)) : 0);
      const now = Date.now();
      if (p <= last || now - sentAt < 50) return;
      last = p;
      sentAt = now;
      void send(p, `${phase} ${done}/${n}`);
    },
    finish: async () => {
      if (last < total) await send(total, "done");
    },
  };
}

export type { Failure };
