/**
 * String-table search (`search_strings`, `ra3 strings`): display text ↔ string key ↔ the assets whose
 * display fields (DisplayName, Description, …) use that key. "Desolator" finds the infantry's asset.
 */
import { searchStrings as searchEntries } from "../formats/str.ts";
import type { LinkedIndex } from "../index/linked.ts";
import { clampLimit } from "./assets.ts";
import { displayPath } from "../project/paths.ts";
import { queryError, type QueryResult } from "./envelope.ts";

const MAX_ASSETS_PER_KEY = 10;

export interface StringMatchView {
  readonly key: string;
  readonly text: string;
  readonly file: string;
  readonly line: number;
  /** How the query matched: exact text, whole word, substring, or the key itself. */
  readonly match: string;
  /** Assets whose display fields use the key. */
  readonly assets: readonly {
    readonly type: string;
    readonly id: string;
    readonly file: string;
    readonly line: number;
    readonly field: string;
  }[];
}

export interface SearchStringsResult {
  readonly query: string;
  readonly total: number;
  readonly matches: readonly StringMatchView[];
  /** The project has no string table (`*.str`). */
  readonly noStringTable: boolean;
}

/**
 * Searches the project's string tables for `text` (case-insensitive; exact and whole-word matches first).
 * @example searchStrings(linked, "Athena").matches[0].assets[0].id // "AlliedAthenaCannon"
 */
export function searchStrings(
  linked: LinkedIndex,
  text: string,
  limit?: number | null,
): QueryResult<SearchStringsResult> {
  const q = text.trim();
  if (!q) return queryError("bad_argument", "the search text is empty; pass part of a display name, e.g. Desolator");
  if (q.length > 200) {
    return queryError("bad_argument", `the search text is ${q.length} characters long; pass at most 200`);
  }
  const n = clampLimit(limit, 20);
  const found = searchEntries(linked.strings, q, n);
  return {
    query: q,
    total: found.total,
    noStringTable: linked.strings.length === 0,
    matches: found.matches.map((m) => {
      const def = m.entry as (typeof linked.strings)[number];
      const uses = linked.stringUses.get(m.entry.key.toLowerCase()) ?? [];
      return {
        key: m.entry.key,
        text: m.entry.text,
        file: displayPath(linked, def.file),
        line: m.entry.line,
        match: m.kind,
        assets: uses.slice(0, MAX_ASSETS_PER_KEY).map((u) => {
          const a = linked.assets[u.asset];
          return {
            type: a.type,
            id: a.id,
            file: displayPath(linked, a.file),
            line: u.line,
            field: u.attribute ? `${u.element}@${u.attribute}` : u.element,
          };
        }),
      };
    }),
  };
}
