/**
 * The short text each tool answer carries besides `structuredContent`: a few readable lines a model
 * can act on (one line per item, file:line, the next call), never the JSON again. Some clients show the
 * model only this text, so every item of the structured answer appears here too, compactly. Every value
 * from the mod goes through {@link t}, so a hidden character in it is escaped (`query/visible.ts`).
 */
import type { IndexEnvelope } from "../query/envelope.ts";
import type { FindAssetResult, ListAssetsResult } from "../query/assets.ts";
import type { FindReferencesResult } from "../query/references.ts";
import { edgeNote, type UsesResult } from "../query/uses.ts";
import type { DefinitionResult } from "../query/definition.ts";
import type { ResolveIncludeResult } from "../query/includes.ts";
import type { FileResult } from "../query/files.ts";
import type { FileListResult } from "../query/file-list.ts";
import type { FindDefineResult } from "../query/defines.ts";
import type { GuideAnswer } from "../query/guide.ts";
import type { UnreferencedResult } from "../query/unreferenced.ts";
import type { CheckResult } from "../query/check.ts";
import type { SearchStringsResult } from "../query/strings.ts";
import type { StatusResult } from "../query/status.ts";
import type { IndexSummary } from "../query/summary.ts";
import type { BuildTimings } from "../workspace/workspace.ts";
import { visible, visibleLines } from "../query/visible.ts";
import { viaOf } from "../query/answers.ts";

/** Markers the size bound adds to a shortened answer. */
export interface Bounded {
  readonly truncated?: boolean;
  readonly omitted?: Readonly<Record<string, number>>;
  /** Strings cut short (ending in "…") because one item alone was too large. */
  readonly shortened?: number;
}

export interface StatusAnswer extends StatusResult {
  readonly progress: { readonly phase: string; readonly done: number; readonly total: number } | null;
  readonly lastError: string | null;
  readonly note: string | null;
}

export interface ProjectListing {
  readonly mode: "single" | "container" | "none";
  readonly root: string;
  readonly projects: readonly {
    readonly name: string;
    readonly dir: string;
    readonly marker: string | null;
    readonly opened: boolean;
    readonly state: IndexEnvelope["state"] | null;
    readonly game: IndexEnvelope["game"];
  }[];
  readonly note: string | null;
}

export interface ReindexAnswer extends IndexSummary {
  readonly timings: BuildTimings;
  readonly parsedFiles: number;
  readonly artFiles: number;
  readonly sdkFiles: number;
}

/**
 * A template literal whose interpolated values are made {@link visible}: a line break, control or bidi
 * character inside an id, a path or a message from the mod is escaped, so it cannot add a line to the
 * answer or reorder it. (Applied twice it changes nothing more.)
 */
function t(parts: TemplateStringsArray, ...values: unknown[]): string {
  let out = parts[0];
  for (let i = 0; i < values.length; i++) out += visible(String(values[i])) + parts[i + 1];
  return out;
}

const plural = (n: number, word: string, many = `${word}s`) => `${n} ${n === 1 ? word : many}`;

/** One line about the index when answers may be partial or old; "" when it is ready and fresh. */
export function indexNote(index: IndexEnvelope | null): string {
  if (!index) return "";
  if (index.state === "error") {
    return t`(index: the last build or update failed; this answer comes from the previous index, built ${
      index.builtAt ?? "earlier"
    })`;
  }
  if (index.state === "building") return "(index: a rebuild is running; this answer comes from the previous index)";
  if (index.stale) {
    return t`(index stale: files may have changed since it was built; pass consistency "strict" for an answer that reflects them)`;
  }
  if (index.reachedOnly) {
    return "(index: only the files the entry points include are read so far; definitions, references and includes in files nothing includes may be missing until the rest is read)";
  }
  if (!index.complete) return "(index still scanning .w3x art: art assets and their references may be missing for now)";
  return "";
}

/**
 * The index facts every text answer ends with, as the JSON's short envelope has them: state (and
 * "incomplete" / "stale" when so), build id and time, project folder.
 * @example indexLine(env) // "index ready, build 2 of 2026-12-01T09:50:03.940Z, /mods/MyMod"
 */
export function indexLine(index: IndexEnvelope): string {
  const flags = [index.complete ? "" : "incomplete", index.stale ? "stale" : ""].filter(Boolean);
  return t`index ${index.state}${flags.length ? ` (${flags.join(", ")})` : ""}, build ${index.buildId}${
    index.builtAt ? t` of ${index.builtAt}` : ""
  }, ${index.projectDir}`;
}

/** The lines the size bound adds when it shortened lists. */
export function boundNote(r: Bounded): string {
  const parts = Object.entries(r.omitted ?? {}).map(([k, n]) => t`${n} ${k} left out`);
  if (r.shortened) parts.push(t`${r.shortened} long ${r.shortened === 1 ? "value" : "values"} cut short (…)`);
  if (!parts.length) return "";
  return t`(answer shortened to stay under the size limit: ${parts.join(", ")}; narrow the question${
    "nextCursor" in r ? " or follow nextCursor" : ""
  })`;
}

type FileState = FileResult["state"];

/** `compiled in static+global:X`, `referenced, not compiled (sdk:static)`, `not included: no entry point reaches it`. */
function stateWords(state: FileState, streams: readonly string[]): string {
  if (state === "compiled") return t`compiled in ${streams.join("+")}`;
  if (state === "referenced") return t`referenced, not compiled${streams.length ? t` (${streams.join("+")})` : ""}`;
  return "not included: no entry point reaches it";
}

/** `file not included`, `referenced file, not compiled`, for flags on lines. */
function stateOfFile(state: FileState): string {
  return state === "not-included" ? "file not included" : "referenced file, not compiled";
}

/** " (heuristic)" and the like, for the reference kinds `via` does not spell. */
function kindNote(kind: string): string {
  return kind === "attribute" || kind === "content" || kind === "inheritFrom" ? "" : ` (${kind})`;
}

function pageHint(nextCursor: string | null): string {
  return nextCursor ? t`next page: pass cursor "${nextCursor}"` : "";
}

/** The text of find_asset: one line per definition with file:line and flags. */
export function renderFindAsset(r: FindAssetResult): string {
  const lines = [t`${plural(r.definitions.length, "definition")} of "${r.id}"${r.type ? t` as ${r.type}` : ""}:`];
  for (const d of r.definitions) {
    const at = d.origin === "manifest"
      ? t`${d.file} (manifest${d.manifestSource ? t`, built from ${d.manifestSource}` : ""})`
      : t`${d.file}:${d.line}${d.endLine > d.line ? t`-${d.endLine}` : ""}`;
    const flags = [
      d.origin,
      stateWords(d.state, d.streams),
      d.viaInstance ? "instance include only" : "",
      d.fileHasErrors ? "file has an XML error" : "",
    ].filter(Boolean).join(", ");
    lines.push(t`- ${d.type} ${d.id}  ${at}  [${flags}]${d.inheritFrom ? t`  inheritFrom ${d.inheritFrom}` : ""}`);
  }
  for (const n of r.notes) lines.push(visible(n));
  if (r.types.length > 1) lines.push(t`several types: pass type (${r.types.join(", ")}) to the next call`);
  return lines.join("\n");
}

/** The text of get_definition: a header with the line range, then the XML in a fenced block. */
export function renderDefinition(r: DefinitionResult): string {
  const range = r.shown
    ? t`lines ${r.shown.from}-${r.shown.to}${r.truncated ? t` of ${r.startLine}-${r.endLine}+` : ""}`
    : "";
  const flags = [r.origin, stateWords(r.state, r.streams), r.fileHasErrors ? "file has an XML error" : ""]
    .filter(Boolean).join(", ");
  const head = t`${r.type} ${r.id}  ${r.file}${range ? t` ${range}` : ""}  [${flags}]`;
  const lines = [head];
  if (r.note) lines.push(visible(r.note));
  if (r.text !== null) lines.push("```xml", visibleLines(r.text), "```");
  if (r.truncated && r.shown) {
    lines.push(t`(cut at line ${r.shown.to}; the definition goes on: ask get_asset_references for what it references)`);
  }
  for (const o of r.otherDefinitions) {
    const state = o.state === "compiled"
      ? ""
      : t`, ${o.state === "referenced" ? "referenced, not compiled" : "not included"}`;
    lines.push(t`also defined: ${o.file}:${o.line} [${o.origin}${state}]`);
  }
  return lines.join("\n");
}

/** The text of find_references: the totals (by kind), one line per site, then the next-page hint. */
export function renderFindReferences(r: FindReferencesResult): string {
  // As in the JSON answer: the counts by kind and of assets only when they say more than the sites do.
  const byKind = Object.entries(r.byKind);
  const kinds = byKind.length === 1 && byKind[0][1] === r.total ? "" : byKind.map(([k, n]) => t`${k} ${n}`).join(", ");
  const lines = [
    t`${r.type} ${r.id}: ${plural(r.total, "reference")}${r.kinds.length ? t` of kind ${r.kinds.join(", ")}` : ""}${
      r.assets === r.total ? "" : t` from ${plural(r.assets, "asset")}`
    }${r.references.length < r.total ? t` (showing ${r.references.length})` : ""}${
      kinds ? t`; by kind: ${kinds}` : ""
    }`,
  ];
  for (const s of r.references) {
    const from = s.from ? t`${s.from.type} ${s.from.id}` : "(outside any asset)";
    const written = s.value === r.id ? "" : t` = "${s.value}"`;
    const notes = [
      s.confirmedByManifest ? "confirmed by the compiled manifest" : "",
      s.cycle ? t`inheritFrom cycle: ${s.cycle.join(" → ")}` : "",
      s.unspliced ? "in a fragment nothing splices: typed by a guess" : "",
      s.state === "compiled" ? "" : stateOfFile(s.state),
    ].filter((n) => n !== "");
    lines.push(
      t`- ${s.file}:${s.line}  ${from}  ${viaOf(s)}${kindNote(s.kind)}${written}${
        notes.length ? t`  (${notes.join("; ")})` : ""
      }`,
    );
  }
  const hint = pageHint(r.nextCursor);
  if (hint) lines.push(hint);
  return lines.join("\n");
}

/** The text of get_asset_references: one line per edge, indented by depth, with provenance. */
export function renderUses(r: UsesResult): string {
  const lines = [
    t`${r.asset.type} ${r.asset.id} (${r.asset.file}:${r.asset.line}) references, depth ${r.depth}${
      r.targetTypes.length ? t`, only ${r.targetTypes.join(", ")}` : ""
    }:`,
  ];
  if (r.inheritChain.length) lines.push(t`inherits: ${r.inheritChain.map((a) => a.id).join(" → ")}`);
  for (const e of r.edges) {
    const via = t`${viaOf(e.via)}${kindNote(e.via.kind)}`;
    const note = edgeNote(e);
    const to = e.to.file
      ? t`${e.to.type} ${e.to.id} (${e.to.file}:${e.to.line}${note ? t`; ${note}` : ""})`
      : t`${e.to.type} ${e.to.id} (${note ?? "not found"})`;
    const inherited = e.definedIn ? t` [inherited from ${e.definedIn.id}]` : "";
    lines.push(
      t`- ${"  ".repeat(e.depth - 1)}${e.from.id} → ${to} via ${via} at ${e.source.file}:${e.source.line}${inherited}`,
    );
  }
  if (r.edges.length === 0) lines.push("(no references)");
  if (r.truncated) lines.push(t`truncated at ${r.edges.length} edges: raise maxEdges or narrow targetTypes`);
  if (r.omittedByTargetType) {
    lines.push(t`${plural(r.omittedByTargetType, "edge")} to other types left out by targetTypes`);
  }
  return lines.join("\n");
}

/** The text of list_assets_by_type: one line per id, then the next-page hint. */
export function renderListAssets(r: ListAssetsResult): string {
  const lines = [t`${r.items.length} of ${r.total} ${r.type}${r.prefix ? t` starting with "${r.prefix}"` : ""}:`];
  for (const i of r.items) {
    lines.push(
      t`- ${i.id}  ${i.file}:${i.line}${i.state === "compiled" ? "" : t` (${stateOfFile(i.state)})`}${
        i.origin === "project" ? "" : t` [${i.origin}]`
      }`,
    );
  }
  const hint = pageHint(r.nextCursor);
  if (hint) lines.push(hint);
  return lines.join("\n");
}

/** The text of resolve_include: the outcome, then every candidate tried. */
export function renderResolveInclude(r: ResolveIncludeResult): string {
  const head = r.resolved
    ? t`${r.source} → ${r.resolved}${r.caseFixed ? " (letter case fixed)" : ""}${
      r.twoLetterRule ? " (ART two-letter folder rule)" : ""
    }; ${stateWords(r.state, r.streams)}`
    : t`${r.source} does not resolve${r.reason ? t`: ${r.reason}` : ""}`;
  const lines = [head, t`from ${r.from}`];
  // Only worth a line when a reference include would not simply read the file.
  const a = r.asReference;
  if (a.answeredBy === "manifest" || a.answeredBy === "sdk-stream") {
    lines.push(t`as a reference include: ${referenceWords(a)}`);
  }
  for (const c of r.tried) {
    lines.push(t`- ${c.outside ? "outside (not looked up)" : c.hit ? "hit " : "miss"} ${c.candidate}`);
  }
  return lines.join("\n");
}

/** What a reference include of a source uses, in words. */
function referenceWords(a: ResolveIncludeResult["asReference"]): string {
  if (a.answeredBy === "manifest") {
    return t`the prebuilt manifest ${a.manifest} (${
      a.manifestFrom === "babproj" ? "from a .babproj StreamReference" : "in the SDK's builtmods"
    }); the XML is not read`;
  }
  if (a.answeredBy === "sdk-stream") return t`the SDK stream ${a.sdkStream} (indexed as referenced)`;
  if (a.answeredBy === "xml") {
    return "no prebuilt manifest: the XML itself, indexed as referenced (resolvable, not compiled)";
  }
  return "nothing: no manifest and no file";
}

/** An include edge's type and what answers it, for the file texts. */
function edgeWords(e: FileResult["includes"][number]): string {
  const how = e.resolution === "file" || e.resolution === "missing" ? "" : t`, ${e.resolution}`;
  return t`${e.type ?? "invalid type: ignored"}${how}`;
}

/**
 * The text of is_file_active: the summary sentence (state and why), the include chain (its entry point,
 * then one line per hop), the XML error, then the include edges.
 */
export function renderFile(r: FileResult): string {
  const lines = [
    visible(r.summary),
    t`kind ${r.kind}, ${plural(r.assets, "asset")}, ${plural(r.diagnostics, "diagnostic")}`,
  ];
  if (r.chain) {
    const e = r.chain.entry;
    lines.push(t`entry point ${e.file} (${e.stream}: ${e.reason})`);
    for (const h of r.chain.hops) lines.push(t`- chain: ${h.file}:${h.line} includes ${h.source} (${h.type})`);
  }
  if (r.xmlError) {
    lines.push(t`XML error at ${r.file}:${r.xmlError.line}:${r.xmlError.column}: ${r.xmlError.message}`);
  }
  for (const e of r.includedBy) lines.push(t`- included by ${e.file}:${e.line} (${edgeWords(e)})`);
  for (const e of r.includes) {
    lines.push(t`- line ${e.line} includes ${e.source} (${edgeWords(e)}) → ${e.file ?? "not found"}`);
  }
  if (r.truncated) {
    lines.push(
      t`(this page: ${r.includedBy.length} of ${r.includedByTotal} including files, ${r.includes.length} of ${r.includesTotal} includes)`,
    );
  }
  const hint = pageHint(r.nextCursor);
  if (hint) lines.push(hint);
  return lines.join("\n");
}

/**
 * The text of list_files: the counts per state, then one line per file with what the JSON item has
 * (its state when not the filter's or compiled, kind when not XML, streams, asset count, flags), then
 * the next-page hint.
 */
export function renderListFiles(r: FileListResult): string {
  const what = r.state ? `${r.state === "not-included" ? "not included" : r.state} ` : "";
  const lines = [
    t`${r.items.length} of ${plural(r.total, `${what}file`)}${
      r.prefix ? t` under ${r.prefix}` : ""
    } (${r.byState.compiled} compiled, ${r.byState.referenced} referenced, ${r.byState["not-included"]} not included):`,
  ];
  for (const i of r.items) {
    const flags = [
      r.state || i.state === "compiled" ? "" : i.state === "not-included" ? "not included" : i.state,
      i.kind === "missing" ? "missing on disk" : i.kind === "xml" ? "" : i.kind,
      i.streams.join("+"),
      plural(i.assets, "asset"),
      i.viaInstance ? "instance include only" : "",
      i.fragment && !i.foreign ? "fragment" : "",
      i.foreign ? "not asset XML" : "",
      i.hasXmlError ? "XML error" : "",
    ].filter(Boolean).join(", ");
    lines.push(t`- ${i.file}  [${flags}]`);
  }
  const hint = pageHint(r.nextCursor);
  if (hint) lines.push(hint);
  return lines.join("\n");
}

/** The text of find_define: one line per declaration and the use count. */
export function renderFindDefine(r: FindDefineResult): string {
  const lines = r.definitions.map((d) =>
    t`$${d.name} = ${JSON.stringify(d.value)}  ${d.file}:${d.line}${
      d.state === "compiled" ? "" : t`  (${stateOfFile(d.state)})`
    }`
  );
  if (r.inEffect > 1) lines.push(t`declared ${r.inEffect} times in the files the build sees: a duplicate`);
  else if (r.inEffect === 0) lines.push("no declaration is in a file the build sees");
  lines.push(
    t`${plural(r.uses, "use")} in compiled or referenced files; ${plural(r.useSitesTotal, "use site")} in all:`,
  );
  for (const u of r.useSites) {
    lines.push(
      t`- ${u.file}:${u.line}  ${u.attribute ? t`${u.element}@${u.attribute}` : u.element}${
        u.state === "compiled" ? "" : t`  (${stateOfFile(u.state)})`
      }`,
    );
  }
  const hint = pageHint(r.nextCursor);
  if (hint) lines.push(hint);
  return lines.join("\n");
}

/** The text of find_unreferenced: ids grouped by type, then the caveat. */
export function renderUnreferenced(r: UnreferencedResult): string {
  const lines = [
    t`${plural(r.total, "unreferenced project asset")}${r.type ? t` of type ${r.type}` : ""}${
      r.rule === "heuristic" ? " (no schema: types judged by what the project references)" : ""
    }:`,
  ];
  let type = "";
  for (const i of r.items) {
    if (i.type !== type) {
      type = i.type;
      lines.push(t`${type}:`);
    }
    lines.push(t`- ${i.id}  ${i.file}:${i.line}${i.overridesVanilla ? "  (overrides a vanilla asset)" : ""}`);
  }
  const hint = pageHint(r.nextCursor);
  if (hint) lines.push(hint);
  if (r.caveat) lines.push(visible(r.caveat));
  lines.push("leads, not proof: maps, scripts and the game's code also look ids up");
  return lines.join("\n");
}

/** The text of check_files: the counts, one line per listed diagnostic, then what the caps left out. */
export function renderCheck(r: CheckResult): string {
  const scope = r.files ? r.files.join(", ") : "the project";
  const lines = [
    t`${plural(r.errors, "error")}, ${plural(r.warnings, "warning")}, ${plural(r.information, "note")} in ${scope}`,
  ];
  for (const d of r.diagnostics) {
    lines.push(t`- ${d.file ? t`${d.file}:${d.line}:${d.column}` : "(project)"} ${d.severity} ${d.code}: ${d.message}`);
  }
  const hint = pageHint(r.nextCursor);
  if (hint) lines.push(hint);
  if (r.total > r.listed) {
    lines.push(t`${r.total - r.listed} of the ${r.total} are not listed (too many of one code in one file):`);
    for (const u of r.unlisted) lines.push(t`- ${u.file ?? "(project)"} ${u.code} ×${u.count}, from line ${u.line}`);
    if (r.unlistedGroupsNotShown) lines.push(t`- and ${r.unlistedGroupsNotShown} more files or codes`);
  }
  return lines.join("\n");
}

/** The text of search_strings: each entry with the assets that use its key. */
export function renderSearchStrings(r: SearchStringsResult): string {
  if (r.noStringTable) return "the project has no string table (*.str): display names cannot be searched";
  const lines = [t`${r.matches.length} of ${plural(r.total, "match", "matches")} for "${r.query}":`];
  for (const m of r.matches) {
    const shown = m.text.replace(/\n/g, "\\n");
    lines.push(t`- ${m.key} "${shown.length > 100 ? shown.slice(0, 97) + "…" : shown}"  ${m.file}:${m.line}`);
    for (const a of m.assets) lines.push(t`    used by ${a.type} ${a.id} (${a.field}) ${a.file}:${a.line}`);
  }
  return lines.join("\n");
}

/** The text of get_status: project, SDK, schema, index state and counts, streams, types. */
export function renderStatus(r: StatusAnswer, index: IndexEnvelope | null): string {
  const lines = [t`project ${r.project}${r.game ? t` (${r.game})` : ""}${r.marker ? t`, marker ${r.marker}` : ""}`];
  lines.push(
    r.sdk
      ? t`sdk ${r.sdk.dir} (${r.sdk.status}${r.sdk.source ? t`, from ${r.sdk.source}` : ""}${
        r.sdk.missing.length ? t`; missing ${r.sdk.missing.join(", ")}` : ""
      })`
      : "no SDK: project-only mode (vanilla assets are not indexed)",
  );
  for (const c of r.sdkCandidates) {
    lines.push(
      t`- sdk candidate ${c.source}${c.path ? t` ${c.path}` : ""}: ${c.accepted ? "used" : "skipped"}, ${c.reason}`,
    );
  }
  lines.push(
    r.schema.dir
      ? t`schema ${r.schema.dir} (${r.schema.source ?? "given"}, ${r.schema.files} files)`
      : "no schema: references matched heuristically",
  );
  const p = r.progress;
  const progress = p ? t`, ${p.phase} ${p.done}/${p.total}` : "";
  lines.push(
    t`index ${r.state}${progress}, build ${r.buildId}${r.builtAt ? t` at ${r.builtAt}` : ""}${
      r.complete ? "" : ", incomplete"
    }${r.stale ? ", stale" : ""}`,
  );
  if (index && index.counts.files > 0) {
    const c = index.counts;
    lines.push(
      t`${c.files} files, ${c.assets} assets (+${c.sdkAssets} SDK), ${c.references} references, ${c.defines} defines, ${c.diagnostics} diagnostics`,
    );
  }
  for (const s of r.streams) {
    lines.push(
      t`stream ${s.name}: ${s.entry} (${plural(s.files, "file")}${s.context === "referenced" ? ", referenced" : ""})${
        s.reason ? t` — ${s.reason}` : ""
      }`,
    );
  }
  for (const n of r.entryNotes) lines.push(t`entry points: ${n}`);
  if (r.types.length) lines.push(t`types: ${r.types.join(", ")}`);
  if (r.lastError) lines.push(t`last build failed: ${r.lastError}`);
  if (r.note) lines.push(visible(r.note));
  return lines.join("\n");
}

/** The JSON answer of list_projects: what is not the usual left out (a marker, a state once opened). */
export function projectsAnswer(r: ProjectListing): unknown {
  return {
    mode: r.mode,
    // One project: the root is its folder.
    ...(r.mode === "single" ? {} : { root: r.root }),
    projects: r.projects.map((p) => ({
      name: p.name,
      dir: p.dir,
      ...(p.marker ? { marker: p.marker } : {}),
      ...(p.opened ? {} : { opened: false }),
      ...(p.state ? { state: p.state } : {}),
      ...(p.game ? { game: p.game } : {}),
    })),
    ...(r.note ? { note: r.note } : {}),
  };
}

/** The text of list_projects: one line per project. */
export function renderProjects(r: ProjectListing): string {
  const lines = [
    r.mode === "container"
      ? t`${plural(r.projects.length, "mod")} below ${r.root} (pass the name as project):`
      : r.mode === "single"
      ? "one project (project is optional):"
      : t`no mod: ${r.note ?? ""}`,
  ];
  for (const p of r.projects) {
    lines.push(
      t`- ${p.name}  ${p.dir}  ${p.opened ? (p.state ?? "") : "not opened yet"}${p.game ? t` (${p.game})` : ""}`,
    );
  }
  return lines.join("\n");
}

/** The text of get_usage_guide: the guide text itself. */
export function renderGuide(r: GuideAnswer): string {
  return r.text;
}

/** The text of reindex: the build summary in five lines. */
export function renderReindex(r: ReindexAnswer): string {
  const ms = r.timings;
  const lines = [
    t`rebuilt ${r.project} in ${Math.round(ms.totalMs)} ms (${
      r.mode === "sdk" ? t`SDK ${r.sdk}` : "project-only mode"
    }; ${r.parsedFiles} files parsed, ${r.artFiles} art, ${r.sdkFiles} SDK)`,
    t`timings: scan ${ms.scanMs} ms, schema ${ms.schemaMs}, parse ${ms.parseMs}, sdk ${ms.sdkMs}, link ${ms.linkMs}, art ${ms.artMs}`,
  ];
  for (const s of r.streams) {
    lines.push(t`stream ${s.name}: ${s.entry} (${plural(s.files, "file")}${s.layer === "sdk" ? ", SDK" : ""})`);
  }
  lines.push(
    t`files: ${r.files.total} (${r.files.compiled} compiled, ${r.files.referenced} referenced, ${r.files.notIncluded} not included; ${r.files.art} art, ${r.files.fragments} fragments)`,
  );
  const total = r.assetsByType.reduce((a, b) => a + b.count, 0);
  lines.push(
    t`assets: ${total} in ${plural(r.assetsByType.length, "type")}${
      r.assetsByType.length ? t`: ${r.assetsByType.map((c) => t`${c.type} ${c.count}`).join(", ")}` : ""
    }`,
  );
  const sdkAssets = r.sdkAssetsByOrigin.sdk + r.sdkAssetsByOrigin.manifest;
  if (sdkAssets) {
    lines.push(t`SDK assets: ${r.sdkAssetsByOrigin.sdk} from XML, ${r.sdkAssetsByOrigin.manifest} from manifests`);
  }
  lines.push(
    t`references: ${r.references.total} (${r.references.resolved} resolved, ${r.references.external} outside the project, ${r.references.unresolved} unresolved)`,
  );
  if (r.unresolvedIncludes.length) {
    lines.push(t`unresolved includes: ${r.unresolvedIncludes.map((u) => t`${u.source} ×${u.count}`).join(", ")}`);
  }
  const d = r.diagnostics;
  lines.push(
    t`diagnostics: ${plural(d.errors, "error")}, ${plural(d.warnings, "warning")}, ${plural(d.information, "note")}${
      d.byCode.length ? t`: ${d.byCode.map((c) => t`${c.code} ${c.count}`).join(", ")}` : ""
    }${d.errors + d.warnings ? " (check_files lists them)" : ""}`,
  );
  for (const n of d.notes) lines.push(t`- ${n}`);
  return lines.join("\n");
}
