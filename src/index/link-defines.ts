/**
 * Link phase, defines: every `<Define>` declaration by lower-cased name, each with its file's state —
 * the declarations in effect (the builder merges the defines of every document the build sees: compiled
 * or referenced files) first, then those in files no entry point includes, so duplicates are visible —
 * and every `$NAME` use with its place, counted for the files the build sees.
 */
import type { LinkContext } from "./link-context.ts";
import type { FileTable } from "./link-files.ts";
import { type DefineDef, type DefineUseSite, type FileState, push } from "./linked.ts";

export interface DefineTable {
  /** Lower-cased name → every declaration: compiled, then referenced, then not-included files' (each in record order). */
  readonly defines: ReadonlyMap<string, readonly DefineDef[]>;
  /** Lower-cased name → `$NAME` uses in compiled or referenced files. */
  readonly defineUses: ReadonlyMap<string, number>;
  /** Lower-cased name → every use, compiled files' first, then by file and line. */
  readonly defineUseSites: ReadonlyMap<string, readonly DefineUseSite[]>;
}

const STATE_RANK: Record<FileState, number> = { compiled: 0, referenced: 1, "not-included": 2 };

/**
 * The defines of every file and their uses.
 * @example linkDefines(ctx, files).defines.get("my_tank_damage")?.[0].value // "120"
 */
export function linkDefines(ctx: LinkContext, files: FileTable): DefineTable {
  const defines = new Map<string, DefineDef[]>();
  const defineUses = new Map<string, number>();
  const defineUseSites = new Map<string, DefineUseSite[]>();
  for (const { loaded, key } of ctx.all) {
    const info = files.get(key);
    if (!info) continue;
    const { state } = info;
    for (const d of loaded.record.defines) {
      push(defines, d.name.toLowerCase(), {
        name: d.name,
        value: d.value,
        file: loaded.path,
        line: d.line,
        column: d.column,
        origin: info.origin,
        state,
        active: info.active,
      });
    }
    for (const u of loaded.record.defineUses) {
      const k = u.name.toLowerCase();
      if (state !== "not-included") defineUses.set(k, (defineUses.get(k) ?? 0) + 1);
      push(defineUseSites, k, {
        file: loaded.path,
        line: u.line,
        column: u.column,
        element: u.element,
        attribute: u.attribute,
        state,
      });
    }
  }
  // Stable sorts: record order is kept within a state (and within a file).
  for (const list of defines.values()) list.sort((a, b) => STATE_RANK[a.state] - STATE_RANK[b.state]);
  for (const list of defineUseSites.values()) {
    list.sort((a, b) =>
      STATE_RANK[a.state] - STATE_RANK[b.state] || (a.file < b.file ? -1 : a.file > b.file ? 1 : 0) ||
      a.line - b.line || a.column - b.column
    );
  }
  return { defines, defineUses, defineUseSites };
}
