/**
 * `$DEFINE` lookup (`find_define`, `ra3 define`): where a define is declared and where it is used.
 * Every declaration is listed with its file's state — compiled files' first, then referenced, then
 * files no entry point includes — so a duplicate, or a declaration the build never sees, is visible;
 * the use sites come paged, compiled files' first.
 */
import type { DefineUseSite, LinkedIndex } from "../index/linked.ts";
import { displayPath } from "../project/paths.ts";
import { clampLimit } from "./assets.ts";
import { decodeCursor, type DefineView, defineView, encodeCursor, suggest } from "./present.ts";
import { queryError, type QueryResult } from "./envelope.ts";
import { explainMissingDefine } from "./not-found.ts";

/** One `$NAME` use. */
export interface DefineUseView {
  readonly file: string;
  readonly line: number;
  readonly column: number;
  readonly element: string;
  readonly attribute: string | null;
  readonly state: DefineUseSite["state"];
}

export interface FindDefineResult {
  readonly name: string;
  /** Every declaration, those in effect (compiled, then referenced files) first. */
  readonly definitions: readonly DefineView[];
  /** How many declarations are in effect (more than one: a duplicate the builder sees). */
  readonly inEffect: number;
  /** Number of `$NAME` uses in compiled or referenced files. */
  readonly uses: number;
  /** Every use, in files of any state (compiled first), counted. */
  readonly useSitesTotal: number;
  /** One page of them. */
  readonly useSites: readonly DefineUseView[];
  readonly nextCursor: string | null;
}

/**
 * Declarations and uses of a define, case-insensitive, with or without the leading `$`.
 * @example findDefine(linked, "$ATHENA_RANGE").definitions[0].value // "350"
 */
export function findDefine(
  linked: LinkedIndex,
  name: string,
  options: { limit?: number | null; cursor?: string | null } = {},
): QueryResult<FindDefineResult> {
  const n = name.trim().replace(/^\$/, "");
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(n)) {
    return queryError(
      "bad_argument",
      `"${name}" is not a define name; names look like ATHENA_RANGE (letters, digits, _)`,
    );
  }
  const offset = options.cursor ? decodeCursor(options.cursor) : 0;
  if (offset === null) {
    return queryError("bad_argument", "the cursor is not valid; pass the nextCursor of a previous answer or omit it");
  }
  const limit = clampLimit(options.limit);
  const key = n.toLowerCase();
  const list = linked.defines.get(key);
  if (!list || list.length === 0) {
    const suggestions = suggest(n, [...linked.defines.values()].map((l) => l[0].name));
    return explainMissingDefine(
      linked,
      n,
      queryError(
        "not_found",
        `no <Define name="${n}"> in any indexed file` +
          (suggestions.length ? `; similar: ${suggestions.join(", ")}` : ""),
        { suggestions },
      ),
    );
  }
  const sites = linked.defineUseSites.get(key) ?? [];
  return {
    name: list[0].name,
    definitions: list.map((d) => defineView(linked, d)),
    inEffect: list.filter((d) => d.state !== "not-included").length,
    uses: linked.defineUses.get(key) ?? 0,
    useSitesTotal: sites.length,
    useSites: sites.slice(offset, offset + limit).map((u) => ({
      file: displayPath(linked, u.file),
      line: u.line,
      column: u.column,
      element: u.element,
      attribute: u.attribute,
      state: u.state,
    })),
    nextCursor: offset + limit < sites.length ? encodeCursor(offset + limit) : null,
  };
}
