/**
 * Link phase, Poid: pipeline-local references (e.g. `UpdateModuleId`) name modules of their own object —
 * its own local ids, or those spliced into it by xi:include. Resolved within the object, never globally;
 * a miss has no target and no diagnostic (modules may come from elsewhere).
 */
import type { AssetTable } from "./link-assets.ts";
import type { LinkContext } from "./link-context.ts";
import type { SplicedModule } from "./link-splice.ts";
import type { PoidSite } from "./linked.ts";

/**
 * The Poid sites of every non-fragment record, in record order.
 * @example linkPoid(ctx, assets, splicedModules)[0].target // { element: "AIUpdate", file, line }
 */
export function linkPoid(
  ctx: LinkContext,
  table: AssetTable,
  splicedModules: ReadonlyMap<number, readonly SplicedModule[]>,
): PoidSite[] {
  const poidSites: PoidSite[] = [];
  for (const { loaded, key } of ctx.all) {
    const rec = loaded.record;
    if (rec.poidRefs.length === 0 || rec.fragment) continue;
    const indexes = table.recordAssets.get(key) ?? [];
    for (const r of rec.poidRefs) {
      if (r.owner < 0) continue;
      const asset = indexes[r.owner];
      const want = r.value.toLowerCase();
      const own = rec.localIds.find((m) => m.owner === r.owner && m.id.toLowerCase() === want);
      const spliced = own ? undefined : splicedModules.get(asset)?.find((m) => m.id.toLowerCase() === want);
      const target = own
        ? { element: own.element, file: loaded.path, line: own.line }
        : spliced
        ? { element: spliced.element, file: spliced.file, line: spliced.line }
        : null;
      poidSites.push({
        from: asset,
        value: r.value,
        element: r.element,
        attribute: r.attribute,
        file: loaded.path,
        line: r.line,
        column: r.column,
        target,
      });
    }
  }
  return poidSites;
}
