/**
 * The size bound every tool answer obeys: the serialized `structuredContent` plus the text rendering
 * stay under {@link MAX_ANSWER_CHARS} whatever the arguments. Paged tools re-run their query with a
 * smaller page (so `nextCursor` stays exact); everything else has its longest lists shortened here,
 * with `truncated: true` and `omitted` counts, never a cut in the middle of JSON. A list is never cut
 * below one item: an item too large on its own (a page of one) keeps its place and has its long
 * strings shortened instead (`shortened` counts them), so a cursor never skips it.
 */

export const MAX_ANSWER_CHARS = 20_000;

/** Characters an answer costs: its structured JSON and its text. */
export function answerSize(structured: unknown, text: string): number {
  return JSON.stringify(structured).length + text.length;
}

interface ArraySlot {
  readonly path: readonly string[];
  readonly length: number;
  readonly size: number;
}

function arraySlots(value: unknown, path: string[] = [], out: ArraySlot[] = []): ArraySlot[] {
  if (Array.isArray(value)) {
    out.push({ path: [...path], length: value.length, size: JSON.stringify(value).length });
    return out;
  }
  if (typeof value === "object" && value !== null) {
    for (const [k, v] of Object.entries(value)) {
      if (k === "omitted") continue;
      arraySlots(v, [...path, k], out);
    }
  }
  return out;
}

function withArray(value: Record<string, unknown>, path: readonly string[], keep: number): Record<string, unknown> {
  const [head, ...rest] = path;
  const child = value[head];
  const next = rest.length === 0
    ? (child as unknown[]).slice(0, keep)
    : withArray(child as Record<string, unknown>, rest, keep);
  return { ...value, [head]: next };
}

/**
 * `result` with its largest list (by serialized size) of two or more items cut to about `factor` of its
 * length (one item at least), marked `truncated: true` with the count left out under
 * `omitted["path.to.list"]`; null when no list has two items.
 * @example shrinkLists({ items: [1, 2, 3, 4] }, 0.5) // { items: [1], truncated: true, omitted: { items: 3 } }
 */
export function shrinkLists<R extends object>(
  result: R,
  factor: number,
): (R & { truncated: true; omitted: Record<string, number> }) | null {
  const slots = arraySlots(result).filter((s) => s.length > 1);
  if (slots.length === 0) return null;
  const biggest = slots.reduce((a, b) => (b.size > a.size ? b : a));
  const keep = Math.max(1, Math.min(biggest.length - 1, Math.floor(biggest.length * factor * 0.9)));
  const key = biggest.path.join(".");
  const prior = (result as { omitted?: Record<string, number> }).omitted ?? {};
  const cut = withArray(result as Record<string, unknown>, biggest.path, keep);
  return { ...cut, truncated: true, omitted: { ...prior, [key]: (prior[key] ?? 0) + biggest.length - keep } } as R & {
    truncated: true;
    omitted: Record<string, number>;
  };
}

/** The longest strings {@link shortenStrings} starts from, halved each round down to {@link MIN_STRING}. */
export const FIRST_STRING_CUT = 4096;
const MIN_STRING = 32;

function cutStrings(value: unknown, max: number, count: { n: number }): unknown {
  if (typeof value === "string") {
    if (value.length <= max) return value;
    count.n++;
    return `${value.slice(0, max - 1)}…`;
  }
  if (Array.isArray(value)) return value.map((v) => cutStrings(v, max, count));
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, cutStrings(v, max, count)]));
  }
  return value;
}

/**
 * `result` with every string longer than `max` characters cut to `max` (ending in "…"), marked
 * `truncated: true` and `shortened` (how many strings are cut; a second pass with a smaller `max` cuts
 * the same ones again, and maybe more); null when no string is that long or `max` is below
 * {@link MIN_STRING}.
 * @example shortenStrings({ items: [{ id: "x".repeat(50) }] }, 32)?.shortened // 1
 */
export function shortenStrings<R extends object>(
  result: R,
  max: number,
): (R & { truncated: true; shortened: number }) | null {
  if (max < MIN_STRING) return null;
  const count = { n: 0 };
  const { shortened: _, ...rest } = result as { shortened?: number };
  const cut = cutStrings(rest, max, count) as R;
  if (count.n === 0) return null;
  return { ...cut, truncated: true, shortened: count.n };
}
