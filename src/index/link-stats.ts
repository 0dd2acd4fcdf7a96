/**
 * Link phase, stats: the counts every answer's envelope carries (project files and how many are compiled or referenced,
 * assets by layer, references and how many resolved, defines, diagnostics) and the link's own time.
 */
import { extensionOf } from "../project/paths.ts";
import type { LinkContext } from "./link-context.ts";
import type { FileTable } from "./link-files.ts";
import type { AssetDef, DefineDef, LinkStats, ReferenceSite } from "./linked.ts";

/** What the counts are taken from. */
export interface StatsInputs {
  readonly files: FileTable;
  readonly assets: readonly AssetDef[];
  readonly sites: readonly ReferenceSite[];
  readonly defines: ReadonlyMap<string, readonly DefineDef[]>;
  readonly diagnostics: number;
  /** Sites that could not be judged without an SDK. */
  readonly externalReferences: number;
  readonly linkMs: number;
}

/**
 * The link's counts (`same`: an earlier link's, whose project files and assets are counted the same:
 * the same files in the same states and the same assets' origins).
 * @example linkStats(ctx, parts).activeFiles // XML and .w3x project files some stream reaches
 */
export function linkStats(ctx: LinkContext, parts: StatsInputs, same?: LinkStats): LinkStats {
  const counts = same ?? fileAndAssetCounts(ctx, parts);
  let defineCount = 0;
  // The declarations in effect (those of files no entry point includes are listed, never counted).
  for (const list of parts.defines.values()) for (const d of list) if (d.state !== "not-included") defineCount++;
  let resolved = 0;
  for (const s of parts.sites) if (s.status === "resolved") resolved++;
  return {
    files: parts.files.size,
    projectFiles: counts.projectFiles,
    activeFiles: counts.activeFiles,
    referencedFiles: counts.referencedFiles,
    assets: counts.assets,
    sdkAssets: parts.assets.length - counts.assets,
    references: parts.sites.length,
    resolvedReferences: resolved,
    externalReferences: parts.externalReferences,
    defines: defineCount,
    diagnostics: parts.diagnostics,
    linkMs: Math.round(parts.linkMs * 10) / 10,
  };
}

/** The counts of project files by state and of project assets. */
function fileAndAssetCounts(
  ctx: LinkContext,
  parts: StatsInputs,
): Pick<LinkStats, "projectFiles" | "activeFiles" | "referencedFiles" | "assets"> {
  let projectFiles = 0;
  let activeFiles = 0;
  let referencedFiles = 0;
  for (const f of parts.files.values()) {
    // counts.files covers the XML and .w3x files under the project root (not string tables, babproj, manifests).
    const ext = extensionOf(f.path);
    if (f.kind === "missing" || !ctx.insideProject(f.path) || (ext !== ".xml" && ext !== ".w3x")) continue;
    projectFiles++;
    if (f.state === "compiled") activeFiles++;
    else if (f.state === "referenced") referencedFiles++;
  }
  let projectAssets = 0;
  for (const a of parts.assets) if (a.origin === "project" && ctx.insideProject(a.file)) projectAssets++;
  return { projectFiles, activeFiles, referencedFiles, assets: projectAssets };
}
