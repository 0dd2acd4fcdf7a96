/**
 * Link phase 1, files: one {@link FileInfo} per record under the project or SDK root (or reached by a
 * walk), and one `missing` entry per file a walk reached that has no record. A file's state (compiled,
 * referenced, not included), streams and whether it is compiled only through `instance` includes come
 * from the include walk; whether it has an XML error, from its own record. Each entry depends on one
 * record and that file's reach only, so the table merges file by file.
 */
import type { FileReach, WalkContext } from "./include-walk.ts";
import type { KeyedFile, LinkContext } from "./link-context.ts";
import type { FileInfo, FileState, XmlErrorAt } from "./linked.ts";
import type { FileRecord } from "./records.ts";
import type { WalkResult } from "./include-walk.ts";

/** File key → what the index says about the file. */
export type FileTable = ReadonlyMap<string, FileInfo>;

const STATE_OF: Record<WalkContext, FileState> = { 0: "compiled", 1: "compiled", 2: "referenced" };

/** Records between two yields of {@link linkFilesSteps}. */
const FILES_PER_STEP = 2048;

/**
 * The files of the index: records first (in record order), then the walk's missing targets; in steps of a
 * few thousand records (at Corona scale the phase was 35–50 ms in one piece).
 * @example runSteps(linkFilesSteps(ctx, walk)).get(pathKey("/m/x/Data/Mod.xml"))?.state // "compiled"
 */
export function* linkFilesSteps(ctx: LinkContext, walk: WalkResult): Generator<void, FileTable, void> {
  const files = new Map<string, FileInfo>();
  let n = 0;
  for (const f of ctx.all) {
    const info = fileInfoOf(ctx, f, walk.reached.get(f.key));
    if (info) files.set(f.key, info);
    if (++n % FILES_PER_STEP === 0) yield;
  }
  yield;
  for (const [key, reach] of walk.reached) {
    if (files.has(key)) continue;
    files.set(key, {
      path: reach.path,
      kind: "missing",
      origin: ctx.originOf(reach.path),
      ...reachFacts(reach),
      fragment: false,
      foreign: false,
      rootName: null,
      assetCount: 0,
      xmlError: null,
    });
  }
  return files;
}

/** State, compatibility flag, streams and instance-only of a file from how the walks reached it. */
function reachFacts(
  reach: FileReach | undefined,
): Pick<FileInfo, "state" | "active" | "streams" | "viaInstance"> {
  if (!reach) return { state: "not-included", active: false, streams: [], viaInstance: false };
  const state = STATE_OF[reach.context];
  return { state, active: state === "compiled", streams: [...reach.streams], viaInstance: reach.context === 1 };
}

/**
 * One record's file info, or null for a record outside both roots that no walk reached (it depends on
 * that record and that file's reach only, so a later link re-makes it for a changed file alone).
 */
export function fileInfoOf(ctx: LinkContext, { loaded }: KeyedFile, reach: FileReach | undefined): FileInfo | null {
  const underRoots = ctx.insideProject(loaded.path) || ctx.insideSdk(loaded.path);
  if (!underRoots && !reach) return null;
  const rec = loaded.record;
  return {
    path: loaded.path,
    kind: rec.kind,
    origin: rec.kind === "manifest" ? "manifest" : ctx.originOf(loaded.path),
    ...reachFacts(reach),
    fragment: rec.fragment,
    foreign: rec.foreign,
    rootName: rec.rootName,
    assetCount: rec.assets.length,
    xmlError: xmlErrorOf(rec),
  };
}

/** The first well-formedness error of a record, or null. */
function xmlErrorOf(rec: FileRecord): XmlErrorAt | null {
  for (const d of rec.diagnostics) {
    if (d.code === "xml-syntax") return { line: d.line, column: d.column, message: d.message };
  }
  return null;
}
