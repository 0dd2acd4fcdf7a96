/**
 * The linker: from file records to a {@link LinkedIndex}, as a sequence of phases. Each phase is a
 * function from the read-only {@link LinkContext} and the outputs of earlier phases to a plain output;
 * the published index builds its derived indexes in `linked.ts`. Pure: every file-system question goes
 * through the {@link LinkInputs} ports.
 */
import { type WalkResult, walkStreams } from "./include-walk.ts";
import { linkAssets } from "./link-assets.ts";
import { linkContext, type LinkInputs, type RecordLookup } from "./link-context.ts";
import { linkDefines } from "./link-defines.ts";
import { linkDiagnostics } from "./link-diagnostics.ts";
import { linkFiles } from "./link-files.ts";
import { linkInherit } from "./link-inherit.ts";
import { linkPoid } from "./link-poid.ts";
import { linkReferences } from "./link-references.ts";
import { linkStats } from "./link-stats.ts";
import { linkStrings } from "./link-strings.ts";
import { LinkedIndex, rankAssets } from "./linked.ts";
import { runSteps } from "../steps.ts";

/**
 * Links `records` into an index (`walked`: the include walk, when the caller has it already).
 * @example link(records, inputs).findAssets("AlliedAthenaCannon")
 */
export function link(records: RecordLookup, inputs: LinkInputs, walked?: WalkResult): LinkedIndex {
  return runSteps(linkSteps(records, inputs, walked));
}

/**
 * {@link link} as its phases: the generator yields between two phases (a long-running driver lets other
 * work run there) and returns the index. `stats.linkMs` counts the phases' time, not the pauses.
 */
export function* linkSteps(
  records: RecordLookup,
  inputs: LinkInputs,
  walked?: WalkResult,
): Generator<void, LinkedIndex, void> {
  let spent = 0;
  let since = performance.now();
  function* phaseBoundary(): Generator<void, void, void> {
    spent += performance.now() - since;
    yield;
    since = performance.now();
  }
  const ctx = linkContext(records, inputs);
  const walk = walked ?? walkStreams(records, inputs);
  yield* phaseBoundary();
  const files = linkFiles(ctx, walk);
  const table = linkAssets(ctx, files, walk);
  const { assets } = table;
  yield* phaseBoundary();
  const ranking = rankAssets(assets);
  const { defines, defineUses, defineUseSites } = linkDefines(ctx, files);
  yield* phaseBoundary();
  const references = linkReferences(ctx, files, table, ranking.byId);
  const { sites } = references;
  yield* phaseBoundary();
  const inherit = linkInherit(ctx, assets, sites);
  const poidSites = linkPoid(ctx, table, references.splicedModules);
  const { strings, stringUses } = linkStrings(ctx, files, table);
  const { diagnostics, external } = linkDiagnostics(ctx, {
    walk,
    files,
    assets,
    defines,
    references,
    inherit,
    byId: ranking.byId,
  });
  yield* phaseBoundary();
  const stats = linkStats(ctx, {
    files,
    assets,
    sites,
    defines,
    diagnostics: diagnostics.length,
    externalReferences: external.active + external.inactive,
    linkMs: spent + performance.now() - since,
  });
  return new LinkedIndex({
    files,
    assets,
    ranking,
    sites,
    includes: walk.includes,
    defines,
    diagnostics,
    streams: walk.streams,
    stats,
    wanted: [...walk.wanted],
    schema: inputs.schema,
    projectDir: inputs.projectDir,
    sdkDir: inputs.sdkDir,
    defineUses,
    defineUseSites,
    inheritCycles: inherit.cycles,
    strings,
    stringUses,
    poidSites,
  });
}
