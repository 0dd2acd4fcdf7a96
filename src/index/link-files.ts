/**
 * Link phase 1, files: one {@link FileInfo} per record under the project or SDK root (or reached by a
 * walk), and one `missing` entry per file a walk reached that has no record. Whether a file is active,
 * in which streams and whether only through `instance` includes comes from the include walk.
 */
import type { FileState, WalkResult } from "./include-walk.ts";
import type { KeyedFile, LinkContext } from "./link-context.ts";
import type { FileInfo } from "./linked.ts";

/** File key → what the index says about the file. */
export type FileTable = ReadonlyMap<string, FileInfo>;

/**
 * The files of the index: records first (in record order), then the walk's missing targets.
 * @example linkFiles(ctx, walk).get(pathKey("/m/x/Data/Mod.xml"))?.active // true
 */
export function linkFiles(ctx: LinkContext, walk: WalkResult): FileTable {
  const files = new Map<string, FileInfo>();
  for (const f of ctx.all) {
    const info = fileInfoOf(ctx, f, walk.fileStates.get(f.key));
    if (info) files.set(f.key, info);
  }
  for (const [key, st] of walk.fileStates) {
    if (files.has(key)) continue;
    files.set(key, {
      path: st.path,
      kind: "missing",
      origin: ctx.originOf(st.path),
      active: st.reached,
      streams: [...st.streams],
      viaInstance: st.reached && !st.viaAll,
      fragment: false,
      rootName: null,
      assetCount: 0,
    });
  }
  return files;
}

/** One record's file info, or null for a record outside both roots that no walk reached. */
function fileInfoOf(ctx: LinkContext, { loaded }: KeyedFile, st: FileState | undefined): FileInfo | null {
  const underRoots = ctx.insideProject(loaded.path) || ctx.insideSdk(loaded.path);
  if (!underRoots && !st?.reached) return null;
  const rec = loaded.record;
  return {
    path: loaded.path,
    kind: rec.kind,
    origin: rec.kind === "manifest" ? "manifest" : ctx.originOf(loaded.path),
    active: st?.reached ?? false,
    streams: st ? [...st.streams] : [],
    viaInstance: st ? st.reached && !st.viaAll : false,
    fragment: rec.fragment,
    rootName: rec.rootName,
    assetCount: rec.assets.length,
  };
}
