/**
 * Link phase, strings: the entries of the project's `.str` string tables, and the assets whose display
 * fields use each string key.
 */
import type { AssetTable } from "./link-assets.ts";
import type { LinkContext } from "./link-context.ts";
import type { FileTable } from "./link-files.ts";
import { push, type StringDef, type StringUse } from "./linked.ts";

export interface StringTable {
  readonly strings: readonly StringDef[];
  /** Lower-cased key → the assets using it. */
  readonly stringUses: ReadonlyMap<string, readonly StringUse[]>;
}

/**
 * String-table entries and their uses, in record order.
 * @example linkStrings(ctx, files, assets).stringUses.get("name:mytank")?.[0].attribute // "DisplayName"
 */
export function linkStrings(ctx: LinkContext, files: FileTable, table: AssetTable): StringTable {
  const strings: StringDef[] = [];
  const stringUses = new Map<string, StringUse[]>();
  for (const { loaded, key } of ctx.all) {
    if (!files.get(key)) continue;
    if (loaded.record.kind === "str" && ctx.insideProject(loaded.path)) {
      for (const e of loaded.record.strings) {
        strings.push({ key: e.key, text: e.text, file: loaded.path, line: e.line });
      }
    }
    if (loaded.record.stringKeys.length === 0) continue;
    const indexes = table.recordAssets.get(key) ?? [];
    for (const u of loaded.record.stringKeys) {
      if (u.owner < 0 || indexes[u.owner] === undefined) continue;
      push(stringUses, u.key.toLowerCase(), {
        asset: indexes[u.owner],
        element: u.element,
        attribute: u.attribute,
        line: u.line,
      });
    }
  }
  return { strings, stringUses };
}
