/**
 * `$DEFINE` lookup.
 */
import type { LinkedIndex } from "../index/linked.ts";
import { type DefineView, defineView, suggest } from "./present.ts";
import { queryError, type QueryResult } from "./envelope.ts";
import { explainMissingDefine } from "./not-found.ts";

export interface FindDefineResult {
  readonly name: string;
  /** Every declaration (duplicates are kept: the schema has no shadowing rule). */
  readonly definitions: readonly DefineView[];
  /** Number of `$NAME` uses in compiled or referenced files. */
  readonly uses: number;
}

/**
 * Declarations of a define, case-insensitive, with or without the leading `$`.
 * @example findDefine(linked, "$ATHENA_RANGE").definitions[0].value // "350"
 */
export function findDefine(linked: LinkedIndex, name: string): QueryResult<FindDefineResult> {
  const n = name.trim().replace(/^\$/, "");
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(n)) {
    return queryError(
      "bad_argument",
      `"${name}" is not a define name; names look like ATHENA_RANGE (letters, digits, _)`,
    );
  }
  const list = linked.defines.get(n.toLowerCase());
  if (!list || list.length === 0) {
    const suggestions = suggest(n, [...linked.defines.values()].map((l) => l[0].name));
    return explainMissingDefine(
      linked,
      n,
      queryError(
        "not_found",
        `no <Define name="${n}"> in the compiled or referenced files` +
          (suggestions.length ? `; similar: ${suggestions.join(", ")}` : ""),
        { suggestions },
      ),
    );
  }
  return {
    name: list[0].name,
    definitions: list.map((d) => defineView(linked, d)),
    uses: linked.defineUses.get(n.toLowerCase()) ?? 0,
  };
}
