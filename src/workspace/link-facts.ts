/**
 * The facts a stored link depends on beyond the records: the configuration (layout, SDK, entry options,
 * build scripts), what the project scan reported, and every question the case-insensitive resolver has
 * asked of a folder listing (the include walk's resolution, search paths, manifests, SDK streams and
 * the project model all go through it) with its answer. A warm start asks the same questions after
 * its scan: equal answers and equal records give the same walk and the same index, so the stored ones
 * are used. A file that appears where nothing looks (the snapshot's home beside the mod) changes nothing.
 */
import { createHash } from "node:crypto";
import type { LinkFacts } from "../store/link-codec.ts";
import type { WorkspaceConfig } from "./config.ts";

/**
 * The facts of a link made now, or null when they cannot be told exactly (a folder that could not be
 * listed was stepped through by exact names).
 * @example linkFactsNow(config, scanFacts, false)?.folders.length
 */
export function linkFactsNow(config: WorkspaceConfig, scan: string, unlistable: boolean): LinkFacts | null {
  if (unlistable) return null;
  const lookups = config.resolver.lookups();
  return {
    config: configKey(config),
    scan,
    folders: lookups.map(([dir, names]) => JSON.stringify([dir, ...names])),
    listing: digest(config.resolver.lookupAnswers(lookups)),
  };
}

/**
 * Whether `stored` still holds: the same configuration and scan report, and every stored question of a
 * folder answered as it was (folders the scan read answer from its listings; the others are read now).
 */
export function linkFactsHold(config: WorkspaceConfig, stored: LinkFacts, scan: string): boolean {
  if (stored.config !== configKey(config) || stored.scan !== scan) return false;
  const lookups = stored.folders.map((line) => {
    const [dir, ...names] = JSON.parse(line) as string[];
    return [dir, names] as const;
  });
  return digest(config.resolver.lookupAnswers(lookups)) === stored.listing;
}

function configKey(config: WorkspaceConfig): string {
  const { projectDir, layout, sdk, entries, buildScripts } = config;
  return digest(JSON.stringify([projectDir, layout, sdk, entries, buildScripts]));
}

function digest(text: string): string {
  return createHash("sha1").update(text).digest("hex");
}
