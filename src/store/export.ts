/**
 * `ra3 export`: the linked index as the public, documented format (docs/snapshot-format.md): arrays of
 * plain records with stable field names, paths relative to the project or SDK root with `/`. Unlike the
 * private snapshot it is built from the linked index (resolved references, streams, file states), plus the
 * core's records for what linking does not keep (string tables, file stamps).
 */
import { Packr } from "./msgpack.ts";
import { displayPath, isInside, pathKey } from "../project/paths.ts";
import type { FileStamp } from "../index/core.ts";
import type { AssetDef, LinkedIndex } from "../index/linked.ts";
import type { FileRecord } from "../index/records.ts";
import { EXPORT_SCHEMA_VERSION, PublicSnapshot } from "./export-schema.ts";
import type { SnapshotPhase } from "./codec.ts";

export type ExportFormat = "json" | "msgpack";

/** Build facts the linked index does not carry. */
export interface ExportMeta {
  readonly toolVersion: string;
  readonly generatedAt: string;
  readonly buildId: number;
  readonly phase: SnapshotPhase;
  readonly complete: boolean;
  readonly stale: boolean;
  /** Extra numbers (timings …), merged over the link statistics. */
  readonly stats?: Readonly<Record<string, number>>;
}

/** The part of the index core the export reads (`IndexCore` satisfies it). */
export interface RecordSource {
  values(): Iterable<{ readonly path: string; readonly record: FileRecord; readonly stamp: FileStamp | null }>;
}

type FileRoot = "project" | "sdk" | null;
const ROOT_RANK = (r: FileRoot): number => (r === "project" ? 0 : r === "sdk" ? 1 : 2);

/**
 * The public snapshot of `linked` as a plain object (deterministic order: files by root then path;
 * assets, references and includes in index order; strings by file then line).
 */
export function buildPublicSnapshot(linked: LinkedIndex, core: RecordSource, meta: ExportMeta): PublicSnapshot {
  const show = (p: string) => displayPath(linked, p);
  const stamps = new Map<string, FileStamp | null>();
  const stringFiles: { path: string; record: FileRecord }[] = [];
  for (const f of core.values()) {
    stamps.set(pathKey(f.path), f.stamp);
    if (f.record.kind === "str") stringFiles.push({ path: f.path, record: f.record });
  }

  type FileDiag = PublicSnapshot["files"][number]["diagnostics"][number];
  const fileDiagnostics = new Map<string, FileDiag[]>();
  const looseDiagnostics: PublicSnapshot["diagnostics"] = [];
  for (const d of linked.diagnostics) {
    const key = d.file === null ? null : pathKey(d.file);
    if (key !== null && linked.files.has(key)) {
      let list = fileDiagnostics.get(key);
      if (!list) fileDiagnostics.set(key, list = []);
      list.push({ code: d.code, severity: d.severity, message: d.message, line: d.line, column: d.column });
    } else {
      looseDiagnostics.push({
        code: d.code,
        severity: d.severity,
        message: d.message,
        file: d.file === null ? null : show(d.file),
        line: d.line,
        column: d.column,
      });
    }
  }

  const omitted = new Map<string, NonNullable<PublicSnapshot["files"][number]["omittedDiagnostics"]>>();
  for (const g of linked.omittedDiagnostics) {
    const key = pathKey(g.file);
    let list = omitted.get(key);
    if (!list) omitted.set(key, list = []);
    list.push({ code: g.code, severity: g.severity, count: g.count, line: g.line, column: g.column });
  }

  const files = [...linked.files.entries()]
    .map(([key, f]) => {
      const stamp = stamps.get(key) ?? null;
      const root: FileRoot = isInside(f.path, linked.projectDir)
        ? "project"
        : linked.sdkDir && isInside(f.path, linked.sdkDir)
        ? "sdk"
        : null;
      return {
        path: show(f.path),
        kind: f.kind,
        root,
        stream: f.streams[0] ?? null,
        streams: [...f.streams],
        state: f.state,
        active: f.active,
        foreign: f.foreign,
        xmlError: f.xmlError ? { line: f.xmlError.line, column: f.xmlError.column, message: f.xmlError.message } : null,
        size: stamp ? stamp.size : null,
        mtimeMs: stamp ? stamp.mtimeMs : null,
        diagnostics: fileDiagnostics.get(key) ?? [],
        // Only for a file past the records' cap: every other row is as before.
        ...(omitted.has(key) ? { omittedDiagnostics: omitted.get(key)! } : {}),
      };
    })
    .sort((a, b) => ROOT_RANK(a.root) - ROOT_RANK(b.root) || compare(a.path, b.path));

  const ref = (a: AssetDef) => ({ type: a.type, id: a.id });
  const assets = linked.assets.map((a) => ({
    type: a.type,
    id: a.id,
    file: show(a.file),
    line: a.line,
    column: a.column,
    origin: a.origin,
    stream: a.streams[0] ?? null,
    streams: [...a.streams],
    state: a.state,
    active: a.active,
    fileHasErrors: a.fileHasErrors,
  }));

  const defines = [...linked.defines.values()].flat().map((d) => ({
    name: d.name,
    value: d.value,
    file: show(d.file),
    line: d.line,
    state: d.state,
  }));

  const references = linked.sites.map((s) => ({
    from: s.from >= 0 ? ref(linked.assets[s.from]) : null,
    to: s.targets.length > 0 ? ref(linked.assets[s.targets[0]]) : null,
    status: s.status,
    value: s.value,
    kind: s.kind,
    element: s.element,
    parent: s.parent,
    attribute: s.attribute,
    file: show(s.file),
    line: s.line,
    column: s.column,
    state: s.state,
    confirmedByManifest: s.confirmedByManifest,
    unspliced: s.unspliced,
  }));

  // The public enumeration is closed: an include leading outside the roots is `missing` with `outside`.
  const includes = linked.includes.map((e) => {
    const edge = {
      from: show(e.from),
      to: e.to === null ? null : show(e.to),
      source: e.source,
      type: e.type,
      resolution: e.resolution === "outside" ? "missing" as const : e.resolution,
      line: e.line,
    };
    return e.resolution === "outside" ? { ...edge, outside: true as const } : edge;
  });

  const strings = stringFiles
    .map((f) => ({ file: show(f.path), record: f.record }))
    .sort((a, b) => compare(a.file, b.file))
    .flatMap((f) => f.record.strings.map((s) => ({ key: s.key, text: s.text, file: f.file, line: s.line })));

  const stats: Record<string, number> = {};
  for (const [k, v] of Object.entries(linked.stats)) if (typeof v === "number") stats[k] = v;
  Object.assign(stats, meta.stats ?? {});

  return {
    schemaVersion: EXPORT_SCHEMA_VERSION,
    tool: { name: "ra3", version: meta.toolVersion },
    project: linked.projectDir,
    sdk: linked.sdkDir,
    generatedAt: meta.generatedAt,
    buildId: meta.buildId,
    phase: meta.phase,
    complete: meta.complete,
    stale: meta.stale,
    stats,
    files,
    assets,
    defines,
    references,
    includes,
    strings,
    diagnostics: looseDiagnostics,
  };
}

/**
 * The public snapshot as bytes: UTF-8 JSON (one top-level key and one array row per line) or msgpack (plain maps and
 * arrays, readable by any msgpack library).
 * @example writeFileAtomic("ra3-export.json", exportSnapshot(linked, core, meta, "json"))
 */
export function exportSnapshot(
  linked: LinkedIndex,
  core: RecordSource,
  meta: ExportMeta,
  format: ExportFormat,
): Uint8Array {
  const snapshot = buildPublicSnapshot(linked, core, meta);
  if (format === "json") return new TextEncoder().encode(jsonText(snapshot));
  return new Packr({ useRecords: false, moreTypes: false }).pack(snapshot);
}

export type ParsedExport = { readonly ok: true; readonly snapshot: PublicSnapshot } | {
  readonly ok: false;
  readonly message: string;
};

/**
 * Reads an export back and validates it against the schema (what a consumer would do; used by tests).
 * @example parseExport(bytes, "msgpack")
 */
export function parseExport(bytes: Uint8Array, format: ExportFormat): ParsedExport {
  let raw: unknown;
  try {
    raw = format === "json"
      ? JSON.parse(new TextDecoder().decode(bytes))
      : new Packr({ useRecords: false, moreTypes: false }).unpack(bytes);
  } catch (e) {
    return { ok: false, message: `the export is not valid ${format}: ${(e as Error).message}` };
  }
  const r = PublicSnapshot.safeParse(raw);
  if (!r.success) {
    const first = r.error.issues[0];
    return {
      ok: false,
      message: `the export does not match the schema at ${first.path.join(".") || "(root)"}: ${first.message}`,
    };
  }
  return { ok: true, snapshot: r.data };
}

/** JSON with one top-level key per line and one row per line: compact, yet greppable and diffable. */
function jsonText(snapshot: PublicSnapshot): string {
  const parts = Object.entries(snapshot).map(([k, v]) => {
    const value = Array.isArray(v)
      ? (v.length === 0 ? "[]" : `[\n  ${v.map((row) => JSON.stringify(row)).join(",\n  ")}\n ]`)
      : JSON.stringify(v);
    return ` ${JSON.stringify(k)}: ${value}`;
  });
  return `{\n${parts.join(",\n")}\n}\n`;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
