/**
 * Completion listings (MCP resource-template completions): asset types, ids (of one type, or all) and
 * project file paths that start with what the user typed, case-insensitively, shortest first, bounded:
 * at most 100 values are sent (the SDK's cut) and no value longer than {@link MAX_COMPLETION_VALUE} is
 * offered, so a completion answer stays under 20,000 characters like every answer.
 */
import { displayPath, isInside } from "../project/paths.ts";
import type { LinkedIndex } from "../index/linked.ts";

/** The SDK reports the total and cuts to 100; a few more than that are returned so the total means something. */
const MAX_COMPLETION_CANDIDATES = 1000;
/** Longer values (a hostile or broken id, a deep path) are not offered: 100 of them, quoted, fit in 20,000 characters. */
export const MAX_COMPLETION_VALUE = 190;

/**
 * The asset types present that start with `prefix`.
 * @example completeTypes(linked, "weap") // ["WeaponTemplate"]
 */
export function completeTypes(linked: LinkedIndex, prefix: string): string[] {
  return completeFrom(linked.byType.keys(), prefix);
}

/**
 * Asset ids starting with `prefix`: of `type` when it is a type present, else of every type.
 * @example completeIds(linked, "WeaponTemplate", "athena") // ["AthenaCannonBeam"]
 */
export function completeIds(linked: LinkedIndex, type: string | undefined, prefix: string): string[] {
  const list = type ? linked.byType.get(type) : undefined;
  const ids = list ? list.map((i) => linked.assets[i].id) : linked.assets.map((a) => a.id);
  return completeFrom(ids, prefix).slice(0, MAX_COMPLETION_CANDIDATES);
}

/**
 * Project files (relative, with `/`) starting with `prefix` (backslashes accepted).
 * @example completeFiles(linked, "data\\mo") // ["Data/Mod.xml"]
 */
export function completeFiles(linked: LinkedIndex, prefix: string): string[] {
  const paths: string[] = [];
  for (const f of linked.files.values()) {
    if (f.kind !== "missing" && isInside(f.path, linked.projectDir)) paths.push(displayPath(linked, f.path));
  }
  return completeFrom(paths, prefix.replace(/\\/g, "/")).slice(0, MAX_COMPLETION_CANDIDATES);
}

/**
 * The distinct values (case-insensitive) of at most {@link MAX_COMPLETION_VALUE} characters starting with
 * `prefix`, shortest first, then in code-unit order.
 */
function completeFrom(values: Iterable<string>, prefix: string): string[] {
  const p = prefix.toLowerCase();
  const out: string[] = [];
  const seen = new Set<string>();
  for (const v of values) {
    if (v.length > MAX_COMPLETION_VALUE) continue;
    const l = v.toLowerCase();
    if (!l.startsWith(p) || seen.has(l)) continue;
    seen.add(l);
    out.push(v);
  }
  // Sorting first makes the first 100 (what the SDK keeps) the shortest matches.
  return out.sort((a, b) => a.length - b.length || (a < b ? -1 : a > b ? 1 : 0));
}
