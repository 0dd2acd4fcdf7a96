/**
 * Link phase, defines: the project-global `$DEFINE` table (declarations in the files the build sees —
 * compiled or referenced, since the builder merges the defines of every included document — by
 * lower-cased name) and how often those files use each name.
 */
import type { LinkContext } from "./link-context.ts";
import type { FileTable } from "./link-files.ts";
import { type DefineDef, push } from "./linked.ts";

export interface DefineTable {
  /** Lower-cased name → declarations in compiled or referenced files, in record order. */
  readonly defines: ReadonlyMap<string, readonly DefineDef[]>;
  /** Lower-cased name → `$NAME` uses in compiled or referenced files. */
  readonly defineUses: ReadonlyMap<string, number>;
}

/**
 * The defines of the compiled and referenced files and their use counts.
 * @example linkDefines(ctx, files).defines.get("my_tank_damage")?.[0].value // "120"
 */
export function linkDefines(ctx: LinkContext, files: FileTable): DefineTable {
  const defines = new Map<string, DefineDef[]>();
  const defineUses = new Map<string, number>();
  for (const { loaded, key } of ctx.all) {
    const info = files.get(key);
    if (!info || info.state === "not-included") continue;
    for (const d of loaded.record.defines) {
      push(defines, d.name.toLowerCase(), {
        name: d.name,
        value: d.value,
        file: loaded.path,
        line: d.line,
        column: d.column,
        origin: info.origin,
        active: info.active,
      });
    }
    for (const u of loaded.record.defineUses) {
      const k = u.name.toLowerCase();
      defineUses.set(k, (defineUses.get(k) ?? 0) + 1);
    }
  }
  return { defines, defineUses };
}
