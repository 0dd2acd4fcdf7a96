/**
 * The size bound every tool answer obeys: the serialized `structuredContent` plus the text rendering
 * stay under {@link MAX_ANSWER_CHARS} whatever the arguments. Paged tools re-run their query with a
 * smaller page (so `nextCursor` stays exact); everything else has its longest lists shortened here,
 * with `truncated: true` and `omitted` counts, never a cut in the middle of JSON.
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
 * `result` with its largest list (by serialized size) cut to about `factor` of its length, marked
 * `truncated: true` with the count left out under `omitted["path.to.list"]`; null when no list is left.
 * @example shrinkLists({ items: [1, 2, 3, 4] }, 0.5) // { items: [1], truncated: true, omitted: { items: 3 } }
 */
export function shrinkLists<R extends object>(
  result: R,
  factor: number,
): (R & { truncated: true; omitted: Record<string, number> }) | null {
  const slots = arraySlots(result).filter((s) => s.length > 0);
  if (slots.length === 0) return null;
  const biggest = slots.reduce((a, b) => (b.size > a.size ? b : a));
  const keep = Math.max(0, Math.min(biggest.length - 1, Math.floor(biggest.length * factor * 0.9)));
  const key = biggest.path.join(".");
  const prior = (result as { omitted?: Record<string, number> }).omitted ?? {};
  const cut = withArray(result as Record<string, unknown>, biggest.path, keep);
  return { ...cut, truncated: true, omitted: { ...prior, [key]: (prior[key] ?? 0) + biggest.length - keep } } as R & {
    truncated: true;
    omitted: Record<string, number>;
  };
}
