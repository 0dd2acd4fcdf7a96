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
import { runSteps } from "../steps.ts";
import type { WorkspaceConfig } from "./config.ts";

/**
 * The facts of a link made now, or null when they cannot be told exactly (a folder that could not be
 * listed was stepped through by exact names).
 * @example linkFactsNow(config, scanFacts, false)?.folders.length
 */
export function linkFactsNow(config: WorkspaceConfig, scan: string, unlistable: boolean): LinkFacts | null {
  return runSteps(linkFactsNowSteps(config, scan, unlistable));
}

/**
 * {@link linkFactsNow} in steps: the folders' questions written and their answers hashed a few hundred
 * folders at a time (at Corona scale all of them took 19–25 ms in one block, in the first save after a
 * cold build). The answers are hashed in parts: the digest of the parts is that of the whole text.
 * `perStep`: folders per step.
 */
export function* linkFactsNowSteps(
  config: WorkspaceConfig,
  scan: string,
  unlistable: boolean,
  perStep = FOLDERS_PER_STEP,
): Generator<void, LinkFacts | null, void> {
  if (unlistable) return null;
  const lookups = config.resolver.lookups();
  const folders: string[] = [];
  const hash = createHash("sha1");
  for (let at = 0; at < lookups.length; at += perStep) {
    const part = lookups.slice(at, at + perStep);
    for (const [dir, names] of part) folders.push(JSON.stringify([dir, ...names]));
    hash.update(config.resolver.lookupAnswers(part));
    yield;
  }
  return { config: configKey(config), scan, folders, listing: hash.digest("hex") };
}

/** Folders whose stored questions are asked again between two yields of {@link linkFactsHoldSteps}. */
const FOLDERS_PER_STEP = 256;

/**
 * Whether `stored` still holds: the same configuration and scan report, and every stored question of a
 * folder answered as it was (folders the scan read answer from its listings; the others are read now).
 * In steps: the questions are asked a few hundred folders at a time (at Corona scale all of them took
 * 25–50 ms in one block); the answers are the same string in parts.
 */
export function* linkFactsHoldSteps(
  config: WorkspaceConfig,
  stored: LinkFacts,
  scan: string,
): Generator<void, boolean, void> {
  if (stored.config !== configKey(config) || stored.scan !== scan) return false;
  const hash = createHash("sha1");
  for (let at = 0; at < stored.folders.length; at += FOLDERS_PER_STEP) {
    const lookups = stored.folders.slice(at, at + FOLDERS_PER_STEP).map((line) => {
      const [dir, ...names] = JSON.parse(line) as string[];
      return [dir, names] as const;
    });
    hash.update(config.resolver.lookupAnswers(lookups));
    yield;
  }
  return hash.digest("hex") === stored.listing;
}

function configKey(config: WorkspaceConfig): string {
  const { projectDir, layout, sdk, entries, buildScripts } = config;
  return digest(JSON.stringify([projectDir, layout, sdk, entries, buildScripts]));
}

function digest(text: string): string {
  return createHash("sha1").update(text).digest("hex");
}
