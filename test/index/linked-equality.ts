/**
 * Exact comparison of two linked indexes: every field the published index holds (maps and lists in their
 * own order, derived indexes included, diagnostics included), except the link's own timing and the schema
 * object. Fields are found by walking the index, so a field added later is compared without a change here.
 */
import type { LinkedIndex } from "../../src/index/linked.ts";

/** Fields that are not content: the timing of the link and the schema (the same XSDs, another object). */
const SKIPPED = new Set(["schema", "linkMs"]);

/**
 * A plain, JSON-comparable form of `v`: maps (and read-only map classes) and sets become their entries in
 * order, typed arrays arrays, class instances their own fields (private ones too), functions and skipped
 * fields nothing. Holes in sparse arrays stay distinguishable from `undefined` entries.
 */
function plain(v: unknown, seen: Set<object>): unknown {
  if (v === null || typeof v !== "object") return typeof v === "function" ? "<fn>" : v;
  if (seen.has(v)) return "<cycle>";
  seen.add(v);
  try {
    // A map, or a class that stands for one (a read-only map made on demand): its entries in its order.
    if (v instanceof Map || mapLike(v)) {
      return { map: [...(v as ReadonlyMap<unknown, unknown>)].map(([k, x]) => [plain(k, seen), plain(x, seen)]) };
    }
    if (v instanceof Set) return { set: [...v].map((x) => plain(x, seen)) };
    if (ArrayBuffer.isView(v)) return { typed: Array.from(v as unknown as ArrayLike<number>) };
    if (Array.isArray(v)) {
      const out: unknown[] = [];
      for (let i = 0; i < v.length; i++) out.push(i in v ? plain(v[i], seen) : "<hole>");
      return out;
    }
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(v)) {
      if (SKIPPED.has(k)) continue;
      out[k] = plain((v as Record<string, unknown>)[k], seen);
    }
    return out;
  } finally {
    seen.delete(v);
  }
}

/** Whether `v` is a read-only map other than a `Map` (get, has, size and its entries). */
function mapLike(v: object): boolean {
  const m = v as Partial<ReadonlyMap<unknown, unknown>>;
  return typeof m.get === "function" && typeof m.has === "function" && typeof m.entries === "function" &&
    typeof m.size === "number" && typeof m[Symbol.iterator] === "function";
}

/** The first place two plain values differ, as a path and both values (shortened), or null. */
function firstDifference(a: unknown, b: unknown, path: string): string | null {
  if (a === b) return null;
  const sa = JSON.stringify(a);
  const sb = JSON.stringify(b);
  if (sa === sb) return null;
  if (Array.isArray(a) && Array.isArray(b)) {
    for (let i = 0; i < Math.min(a.length, b.length); i++) {
      const d = firstDifference(a[i], b[i], `${path}[${i}]`);
      if (d) return d;
    }
    return `${path}: length ${a.length} ≠ ${b.length}`;
  }
  if (a && b && typeof a === "object" && typeof b === "object" && !Array.isArray(a) && !Array.isArray(b)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    for (const k of keys) {
      const d = firstDifference((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], `${path}.${k}`);
      if (d) return d;
    }
  }
  const cut = (s: string | undefined) => (s === undefined ? "undefined" : s.length > 400 ? `${s.slice(0, 400)}…` : s);
  return `${path}: ${cut(sa)}\n  ≠ ${cut(sb)}`;
}

/**
 * Where `actual` differs from `expected` (a path such as `.sites[12].targets` and both values), or null
 * when they hold the same content in the same orders.
 * @example expect(linkedDifference(incremental, fresh)).toBeNull()
 */
export function linkedDifference(actual: LinkedIndex, expected: LinkedIndex): string | null {
  return firstDifference(plain(actual, new Set()), plain(expected, new Set()), "");
}
