/**
 * The JSON answer of every question: what `ra3 <command> --json` prints under `result` and what the MCP
 * tools return as `structuredContent.result` (one shape for both front ends). Claude Code and Codex
 * show their models only this JSON, so it carries the same facts as the text answer in about as many
 * bytes. The conventions, the same in every answer:
 *
 * - a place is one string, `at: "path:line"` (`path:line:column` for diagnostics), the path relative to
 *   the project root with `/` (to the SDK root for SDK and manifest definitions); split at the last `:`;
 * - an asset another answer points at is `"Type:Id"` (the mod XML's own notation; type names have no
 *   `:`, so split at the first);
 * - how a reference is written is `via`: `Element@attribute`, `Element` (the element's text) or
 *   `inheritFrom`; `kind` is added only for the other kinds (`heuristic`, `manifest`, …);
 * - a field with its usual value is left out: `origin` `"project"`, `active` `true`, `state`
 *   `"compiled"`, `viaInstance` `false`, nulls, `false` flags, empty lists, a last page's `nextCursor`,
 *   what equals the question (an item's `id` or `type` when it is the one asked for); so a file or
 *   definition the build does not compile carries `state` (`"referenced"` or `"not-included"`) and,
 *   for the scripts that read the older boolean, `active: false`;
 * - counts per key are objects (`{"WeaponTemplate": 6}`), not lists of pairs.
 *
 * The query functions keep their full result types (the text renderings and tests use them); these
 * functions only choose and spell the fields. A fact a query gains must be added here to reach JSON.
 */
import type { FindAssetResult, ListAssetsResult } from "./assets.ts";
import type { CheckResult, DiagnosticView } from "./check.ts";
import type { FindDefineResult } from "./defines.ts";
import type { DefinitionResult } from "./definition.ts";
import type { FileListResult } from "./file-list.ts";
import type { FileResult, IncludeEdgeView } from "./files.ts";
import type { GuideAnswer } from "./guide.ts";
import type { ResolveIncludeResult } from "./includes.ts";
import type { AssetView } from "./present.ts";
import type { FindReferencesResult, SiteView } from "./references.ts";
import type { StatusResult } from "./status.ts";
import type { SearchStringsResult } from "./strings.ts";
import type { IndexSummary } from "./summary.ts";
import type { UnreferencedResult } from "./unreferenced.ts";
import type { UsesResult } from "./uses.ts";

type Json = Readonly<Record<string, unknown>>;

/** `"path:line"`. */
export function at(file: string, line: number, column?: number): string {
  return column === undefined ? `${file}:${line}` : `${file}:${line}:${column}`;
}

/** `"Type:Id"`. */
export function assetRef(a: { readonly type: string; readonly id: string }): string {
  return `${a.type}:${a.id}`;
}

/** The reference kinds `via` spells by itself; the others also get `kind`. */
const SPELLED_KINDS = new Set(["attribute", "content", "inheritFrom"]);

/**
 * How a reference is written: `Element@attribute`, `Element` (its text), or `inheritFrom`. (The parent
 * element is left out: mostly a container such as `Behaviors` or `Nuggets`; `get_definition` shows it.)
 * @example viaOf({ kind: "attribute", element: "Weapon", attribute: "Template" }) // "Weapon@Template"
 */
export function viaOf(
  s: { readonly kind: string; readonly element: string; readonly attribute: string | null },
): string {
  if (s.kind === "inheritFrom") return "inheritFrom";
  return s.attribute ? `${s.element}@${s.attribute}` : s.element;
}

/** Flags whose usual value is true: `false` is the fact worth writing. */
const KEEP_FALSE = new Set(["active", "exists"]);

/**
 * `o` without the entries whose value is undefined, null, an empty list or object, or `false` (except
 * for {@link KEEP_FALSE}: pass undefined for their usual `true`).
 */
function lean(o: Record<string, unknown>): Json {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(o)) {
    if (v === undefined || v === null || (v === false && !KEEP_FALSE.has(k))) continue;
    if (Array.isArray(v) && v.length === 0) continue;
    if (typeof v === "object" && !Array.isArray(v) && Object.keys(v as object).length === 0) continue;
    out[k] = v;
  }
  return out;
}

/** The markers the size bound adds (`truncated`, `omitted`, `shortened`), carried over as they are. */
function bound(r: object): Json {
  const b = r as { truncated?: boolean; omitted?: Record<string, number>; shortened?: number };
  return lean({ truncated: b.truncated, omitted: b.omitted, shortened: b.shortened });
}

const counts = (list: readonly { readonly count: number }[], key: (x: never) => string): Record<string, number> =>
  Object.fromEntries(list.map((x) => [key(x as never), x.count]));

/** Where a definition is, and what is unusual about it. */
function definitionFacts(d: AssetView, id: string): Json {
  return lean({
    type: d.type,
    id: d.id === id ? undefined : d.id,
    at: d.origin === "manifest" ? d.file : at(d.file, d.line),
    endLine: d.origin === "manifest" ? undefined : d.endLine,
    origin: d.origin === "project" ? undefined : d.origin,
    streams: d.streams,
    state: stateOf(d.state),
    active: unusual(d.active),
    viaInstance: d.viaInstance,
    fileHasErrors: d.fileHasErrors,
    inheritFrom: d.inheritFrom,
    manifestSource: d.manifestSource,
  });
}

const unusual = (v: boolean): false | undefined => (v ? undefined : false);

/** A file's or definition's state when it is not the usual `"compiled"`. */
const stateOf = (s: "compiled" | "referenced" | "not-included"): string | undefined => s === "compiled" ? undefined : s;

/** `find_asset` / `ra3 find`. */
export function findAssetAnswer(r: FindAssetResult): Json {
  const id = r.definitions[0]?.id ?? r.id;
  return lean({
    id,
    type: r.type,
    definitions: r.definitions.map((d) => definitionFacts(d, id)),
    types: r.types.length > 1 ? r.types : undefined,
    notes: r.notes,
    ...bound(r),
  });
}

/** `get_definition`. */
export function definitionAnswer(r: DefinitionResult): Json {
  const shownAll = r.shown && r.shown.from === r.startLine && r.shown.to === r.endLine;
  return lean({
    type: r.type,
    id: r.id,
    at: r.origin === "manifest" ? r.file : at(r.file, r.startLine),
    endLine: r.origin === "manifest" ? undefined : r.endLine,
    shown: r.shown && !shownAll ? `${r.shown.from}-${r.shown.to}` : undefined,
    origin: r.origin === "project" ? undefined : r.origin,
    streams: r.streams,
    state: stateOf(r.state),
    active: unusual(r.active),
    fileHasErrors: r.fileHasErrors || undefined,
    inheritFrom: r.inheritFrom,
    manifestSource: r.manifestSource,
    note: r.note,
    text: r.text,
    truncated: r.truncated,
    otherDefinitions: r.otherDefinitions.map((o) =>
      lean({
        at: at(o.file, o.line),
        origin: o.origin === "project" ? undefined : o.origin,
        state: stateOf(o.state),
        active: unusual(o.active),
      })
    ),
    omitted: (r as { omitted?: Record<string, number> }).omitted,
    shortened: (r as { shortened?: number }).shortened,
  });
}

/** One reference site. */
function siteFacts(s: SiteView, id: string): Json {
  return lean({
    from: s.from ? assetRef(s.from) : undefined,
    at: at(s.file, s.line),
    via: viaOf(s),
    kind: SPELLED_KINDS.has(s.kind) ? undefined : s.kind,
    value: s.value === id ? undefined : s.value,
    through: s.via,
    confirmedByManifest: s.confirmedByManifest,
    unspliced: s.unspliced,
    cycle: s.cycle,
    state: stateOf(s.state),
    active: unusual(s.active),
  });
}

/** True when `byKind` holds one kind only, counting all `total` sites. */
function singleKindOfAll(byKind: Readonly<Record<string, number | undefined>>, total: number): boolean {
  const counts = Object.values(byKind);
  return counts.length === 1 && counts[0] === total;
}

/** `find_references` / `ra3 refs`. */
export function findReferencesAnswer(r: FindReferencesResult): Json {
  return lean({
    asset: assetRef(r),
    kinds: r.kinds,
    total: r.total,
    // Usual values left out: one referencing asset per site, and every site of the one kind each site shows.
    assets: r.assets === r.total ? undefined : r.assets,
    byKind: singleKindOfAll(r.byKind, r.total) ? undefined : r.byKind,
    byOrigin: r.byOrigin.sdk || r.byOrigin.manifest ? r.byOrigin : undefined,
    references: r.references.map((s) => siteFacts(s, r.id)),
    nextCursor: r.nextCursor,
    ...bound(r),
  });
}

/** `get_asset_references` / `ra3 uses`. */
export function usesAnswer(r: UsesResult): Json {
  const root = assetRef(r.asset);
  return lean({
    asset: root,
    at: at(r.asset.file, r.asset.line),
    depth: r.depth,
    targetTypes: r.targetTypes,
    inherits: r.inheritChain.map(assetRef),
    edges: r.edges.map((e) =>
      lean({
        from: assetRef(e.from) === root ? undefined : assetRef(e.from),
        to: assetRef(e.to),
        target: e.to.file !== null ? at(e.to.file, e.to.line ?? 0) : undefined,
        status: e.to.status === "resolved" ? undefined : e.to.status,
        via: viaOf(e.via),
        kind: SPELLED_KINDS.has(e.via.kind) ? undefined : e.via.kind,
        at: at(e.source.file, e.source.line),
        inheritedFrom: e.definedIn ? assetRef(e.definedIn) : undefined,
        cycle: e.cycle,
        depth: e.depth > 1 ? e.depth : undefined,
      })
    ),
    truncated: r.truncated,
    omittedByTargetType: r.omittedByTargetType || undefined,
    ...bound(r),
  });
}

/** `list_assets_by_type` / `ra3 list`. */
export function listAssetsAnswer(r: ListAssetsResult): Json {
  return lean({
    type: r.type,
    prefix: r.prefix,
    total: r.total,
    items: r.items.map((i) =>
      lean({
        id: i.id,
        type: i.type === r.type ? undefined : i.type,
        at: at(i.file, i.line),
        origin: i.origin === "project" ? undefined : i.origin,
        state: stateOf(i.state),
        active: unusual(i.active),
      })
    ),
    nextCursor: r.nextCursor,
    ...bound(r),
  });
}

/**
 * What a `type="reference"` include of the source uses, when it is not simply the resolved file (or,
 * for a source that resolves to nothing, nothing): a prebuilt manifest or the SDK stream.
 */
function asReferenceFacts(r: ResolveIncludeResult): Json | undefined {
  const a = r.asReference;
  const usual = r.resolved !== null ? a.answeredBy === "xml" : a.answeredBy === "nothing";
  if (usual) return undefined;
  return lean({ answeredBy: a.answeredBy, manifest: a.manifest, manifestFrom: a.manifestFrom, sdkStream: a.sdkStream });
}

/** `resolve_include` / `ra3 include`. */
export function resolveIncludeAnswer(r: ResolveIncludeResult): Json {
  const facts = lean({
    source: r.source,
    from: r.from,
    prefix: r.prefix,
    resolved: r.resolved,
    exists: r.resolved !== null ? unusual(r.exists) : undefined,
    caseFixed: r.caseFixed,
    twoLetterRule: r.twoLetterRule,
    state: r.resolved !== null ? stateOf(r.state) : undefined,
    active: r.resolved !== null ? unusual(r.active) : undefined,
    streams: r.streams,
    asReference: asReferenceFacts(r),
    tried: r.tried.map((t) => t.candidate),
    outside: r.outside,
    reason: r.reason,
    ...bound(r),
  });
  // A miss says `resolved: null` explicitly: it is the answer.
  return r.resolved === null ? { resolved: null, ...facts } : facts;
}

/**
 * One include edge: `type` left out when `"all"` and written `null` when missing or invalid (the builder
 * ignores the include); `resolution` only when something other than the file answers it.
 */
function includeEdge(e: IncludeEdgeView, into: boolean): Json {
  const facts = lean({
    at: into && e.file !== null ? at(e.file, e.line) : undefined,
    line: into ? undefined : e.line,
    source: e.source,
    type: e.type === "all" ? undefined : e.type,
    resolution: e.resolution === "file" || e.resolution === "missing" ? undefined : e.resolution,
    target: into || e.file === null ? undefined : e.file,
    missing: into ? undefined : !e.resolved,
  });
  return e.type === null ? { ...facts, type: null } : facts;
}

/**
 * The shortest include chain: the entry point, its stream and why it is one, then one hop per include
 * (`at` the include, `source` as written, `type` left out when `"all"`); each hop names the file the
 * next hop is in, the last one the file asked about.
 */
function chainFacts(c: NonNullable<FileResult["chain"]>): Json {
  return {
    entry: c.entry.file,
    stream: c.entry.stream,
    reason: c.entry.reason,
    hops: c.hops.map((h) =>
      lean({ at: at(h.file, h.line), source: h.source, type: h.type === "all" ? undefined : h.type })
    ),
  };
}

/** `is_file_active` / `ra3 file`. */
export function fileAnswer(r: FileResult): Json {
  return lean({
    file: r.file,
    exists: unusual(r.exists),
    kind: r.kind,
    origin: r.origin === "project" ? undefined : r.origin,
    state: stateOf(r.state),
    active: unusual(r.active),
    streams: r.streams,
    viaInstance: r.viaInstance,
    fragment: r.fragment,
    foreign: r.foreign,
    assets: r.assets,
    diagnostics: r.diagnostics,
    xmlError: r.xmlError
      ? { at: at(r.file, r.xmlError.line, r.xmlError.column), message: r.xmlError.message }
      : undefined,
    chain: r.chain ? chainFacts(r.chain) : undefined,
    includedBy: r.includedBy.map((e) => includeEdge(e, true)),
    includedByTotal: r.includedByTotal,
    includes: r.includes.map((e) => includeEdge(e, false)),
    includesTotal: r.includesTotal,
    truncated: r.truncated,
    nextCursor: r.nextCursor,
    ...bound(r),
  });
}

/**
 * `list_files` / `ra3 files`: a page of files; an item's `state` is left out when it is the filter's (or,
 * without a filter, `"compiled"`), `kind` when `"xml"`.
 */
export function listFilesAnswer(r: FileListResult): Json {
  return lean({
    state: r.state,
    prefix: r.prefix,
    total: r.total,
    byState: r.byState,
    items: r.items.map((i) =>
      lean({
        file: i.file,
        state: r.state ? undefined : stateOf(i.state),
        kind: i.kind === "xml" ? undefined : i.kind,
        streams: i.streams,
        assets: i.assets,
        viaInstance: i.viaInstance,
        fragment: i.fragment,
        foreign: i.foreign,
        hasXmlError: i.hasXmlError,
      })
    ),
    nextCursor: r.nextCursor,
    ...bound(r),
  });
}

/** `find_define` / `ra3 define`. */
export function findDefineAnswer(r: FindDefineResult): Json {
  return lean({
    name: r.name,
    definitions: r.definitions.map((d) =>
      lean({
        name: d.name === r.name ? undefined : d.name,
        value: d.value,
        at: at(d.file, d.line),
        origin: d.origin === "project" ? undefined : d.origin,
        state: stateOf(d.state),
      })
    ),
    inEffect: r.inEffect === 1 ? undefined : r.inEffect,
    uses: r.uses,
    useSitesTotal: r.useSitesTotal === r.useSites.length ? undefined : r.useSitesTotal,
    useSites: r.useSites.map((u) =>
      lean({ at: at(u.file, u.line), via: viaOf({ kind: "content", ...u }), state: stateOf(u.state) })
    ),
    nextCursor: r.nextCursor,
    ...bound(r),
  });
}

/** `{Type: [{id, at}]}` in the items' order (they come sorted by type). */
function groupedByType(
  items: readonly {
    readonly type: string;
    readonly id: string;
    readonly file: string;
    readonly line: number;
    readonly overridesVanilla: boolean;
  }[],
): Record<string, Json[]> {
  const groups: Record<string, Json[]> = {};
  for (const i of items) {
    (groups[i.type] ??= []).push(lean({ id: i.id, at: at(i.file, i.line), overridesVanilla: i.overridesVanilla }));
  }
  return groups;
}

/** `find_unreferenced` / `ra3 unreferenced`: the page's items grouped by type. */
export function unreferencedAnswer(r: UnreferencedResult): Json {
  return lean({
    type: r.type,
    total: r.total,
    byType: r.type ? undefined : counts(r.byType, (x: { type: string }) => x.type),
    items: groupedByType(r.items),
    nextCursor: r.nextCursor,
    rule: r.rule,
    overridesLeftOut: r.overridesLeftOut || undefined,
    caveat: r.caveat,
    ...bound(r),
  });
}

function diagnosticFacts(d: DiagnosticView): Json {
  return lean({
    at: d.file !== null ? at(d.file, d.line, d.column) : undefined,
    severity: d.severity,
    code: d.code,
    message: d.message,
  });
}

/** `check_files` / `ra3 check --format json`. */
export function checkAnswer(r: CheckResult): Json {
  return lean({
    files: r.files,
    total: r.total,
    errors: r.errors,
    warnings: r.warnings,
    information: r.information,
    byCode: counts(r.byCode, (x: { code: string }) => x.code),
    listed: r.listed === r.total ? undefined : r.listed,
    unlisted: r.unlisted.map((u) =>
      lean({
        at: u.file !== null ? at(u.file, u.line, u.column) : undefined,
        severity: u.severity,
        code: u.code,
        count: u.count,
      })
    ),
    unlistedGroupsNotShown: r.unlistedGroupsNotShown || undefined,
    diagnostics: r.diagnostics.map(diagnosticFacts),
    nextCursor: r.nextCursor,
    ...bound(r),
  });
}

/** `search_strings` / `ra3 strings`. */
export function searchStringsAnswer(r: SearchStringsResult): Json {
  return lean({
    query: r.query,
    total: r.total,
    noStringTable: r.noStringTable,
    matches: r.matches.map((m) =>
      lean({
        key: m.key,
        text: m.text,
        at: at(m.file, m.line),
        assets: m.assets.map((a) => ({ asset: assetRef(a), field: a.field, at: at(a.file, a.line) })),
      })
    ),
    ...bound(r),
  });
}

/**
 * `get_status` / `ra3 status`: the project's facts. The index state, build and counts are in the full
 * envelope beside it, so they are not repeated here.
 */
export function statusAnswer<R extends StatusResult>(r: R): Json {
  const { project: _p, game: _g, state: _s, buildId: _b, builtAt: _t, complete: _c, stale: _st, ...rest } = r;
  return lean({
    ...rest,
    streams: r.streams.map((s) =>
      lean({
        name: s.name,
        entry: s.entry,
        context: s.context === "compiled" ? undefined : s.context,
        origin: s.origin,
        reason: s.reason,
        files: s.files,
      })
    ),
    sdk: r.sdk ? lean({ ...r.sdk }) : null,
    sdkCandidates: r.sdkCandidates.map((c) => lean({ ...c, accepted: c.accepted ? true : undefined })),
    schema: lean({ ...r.schema }),
  });
}

/** `reindex` / `ra3 index`: the build summary (and whatever the front end adds: timings, snapshot). */
export function summaryAnswer<R extends IndexSummary>(r: R): Json {
  const { schema: _schema, assetsByType, sdkAssetsByOrigin, references, unresolvedIncludes, diagnostics, ...rest } = r;
  return lean({
    ...rest,
    streams: r.streams.map((s) =>
      lean({
        name: s.name,
        entry: s.entry,
        layer: s.layer === "project" ? undefined : s.layer,
        context: s.context === "compiled" ? undefined : s.context,
        files: s.files,
      })
    ),
    assetsByType: counts(assetsByType, (x: { type: string }) => x.type),
    sdkAssetsByOrigin: sdkAssetsByOrigin.sdk || sdkAssetsByOrigin.manifest ? sdkAssetsByOrigin : undefined,
    references,
    unresolvedIncludes: counts(unresolvedIncludes, (x: { source: string }) => x.source),
    diagnostics: lean({
      errors: diagnostics.errors,
      warnings: diagnostics.warnings,
      information: diagnostics.information,
      byCode: counts(diagnostics.byCode, (x: { code: string }) => x.code),
      notes: diagnostics.notes,
    }),
  });
}

/** `get_usage_guide`: the sections' ids (or, without a topic, the topics), and the text. */
export function guideAnswer(r: GuideAnswer): Json {
  return lean({
    topic: r.topic,
    sections: r.sections.map((s) => s.id),
    topics: r.topics.map((t) => t.id),
    text: r.text,
    ...bound(r),
  });
}

/** A failed query's `error`: code, message, and details when there are any. */
export function errorAnswer(e: {
  readonly code: string;
  readonly message: string;
  readonly details?: Readonly<Record<string, unknown>>;
}): Json {
  const details = e.details ? lean({ ...e.details }) : undefined;
  return details && Object.keys(details).length ? { code: e.code, message: e.message, details } : {
    code: e.code,
    message: e.message,
  };
}
