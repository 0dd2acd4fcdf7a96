/**
 * Makes a "not found" answer actionable. A malformed project file comes first: ra3 reads what it can
 * around an XML error, but what the error swallowed is unknown, so a not-found names those files before
 * anything else. Then, in project-only mode, an asset id or `$DEFINE` name the project uses but does not
 * declare is probably vanilla, and the index holds no vanilla data without an SDK. The asset and define
 * queries end their not-found errors here, so `ra3 find` and `find_asset` say the same.
 */
import { displayPath } from "../project/paths.ts";
import type { AssetDef, LinkedIndex } from "../index/linked.ts";
import { type QueryError, queryError } from "./envelope.ts";
import { projectFilesWithXmlErrors, similarIds, unresolvedSitesOf } from "./miss-tables.ts";

/** What project-only mode tells the user to do (the same words for the CLI and MCP). */
const GIVE_SDK = "start ra3 with --sdk <SDK folder> or set RA3_SDK";

/**
 * The error for an id with no definition of the wanted type: the types it does have (`all`, its
 * definitions of any type), else "no asset has the id" with similar ids, explained for project-only mode.
 * @example noSuchAsset(linked, "AthenaCanon", null, []).error.message // 'no asset has the id "AthenaCanon"; similar ids: …'
 */
export function noSuchAsset(
  linked: LinkedIndex,
  wanted: string,
  typeName: string | null,
  all: readonly AssetDef[],
): QueryError {
  if (all.length > 0) {
    const types = [...new Set(all.map((a) => a.type))];
    return queryError(
      "not_found",
      `"${wanted}" exists only as ${types.join(", ")}, not as ${typeName}; retry with one of those types`,
      { types },
    );
  }
  const suggestions = similarIds(linked, wanted);
  const broken = projectFilesWithXmlErrors(linked);
  return explainMissing(
    linked,
    wanted,
    queryError(
      "not_found",
      `no asset has the id "${wanted}"` +
        (suggestions.length
          ? `; similar ids: ${suggestions.join(", ")}`
          : "; check the spelling or search display names with search_strings") +
        (broken.length ? `; ${brokenFilesSentence(broken)}` : ""),
      broken.length ? { suggestions, filesWithXmlErrors: broken } : { suggestions },
    ),
    broken.length > 0,
  );
}

const MAX_BROKEN_SHOWN = 3;

function brokenFilesSentence(broken: readonly string[]): string {
  const shown = broken.slice(0, MAX_BROKEN_SHOWN).join(", ");
  const more = broken.length > MAX_BROKEN_SHOWN ? ` and ${broken.length - MAX_BROKEN_SHOWN} more` : "";
  return `${broken.length} project file${
    broken.length === 1 ? " has an XML error" : "s have XML errors"
  } (${shown}${more}): what an error swallowed could not be read, so fix ${
    broken.length === 1 ? "it" : "them"
  } (check_files) before concluding the id is not defined`;
}

/**
 * `e` explained when it is a not-found without an SDK: `no_sdk` with the project's own uses when the
 * project references the id (probably vanilla), else the note that vanilla assets are not indexed. Not
 * when project files have XML errors (`broken`): the id may be defined in what they failed to give.
 * @example explainMissing(linked, "Allies", e, false).error.code // "no_sdk"
 */
function explainMissing(linked: LinkedIndex, id: string, e: QueryError, broken: boolean): QueryError {
  if (e.error.code !== "not_found" || linked.sdkDir !== null || broken) return e;
  if (linked.findAssets(id.trim()).length > 0) return e; // exists with another type: the message says so
  const sites = unresolvedSitesOf(linked, id.trim());
  const details = e.error.details as Record<string, unknown> | undefined;
  if (sites.length === 0) {
    return queryError("not_found", `${e.error.message} (project-only mode: vanilla assets are not indexed)`, details);
  }
  const examples = sites.slice(0, 3).map((s) => `${displayPath(linked, s.file)}:${s.line}`).join(", ");
  return queryError(
    "no_sdk",
    `${e.error.message}; the project references it ${sites.length} time${
      sites.length === 1 ? "" : "s"
    } (${examples}), so it is probably a vanilla asset: no SDK is configured (project-only mode), ${GIVE_SDK} to index vanilla assets`,
    details,
  );
}

/**
 * A define's not-found without an SDK, when compiled or referenced files use the name: `no_sdk` (probably a vanilla define).
 * @example explainMissingDefine(linked, "VANILLA_RANGE", e).error.code // "no_sdk"
 */
export function explainMissingDefine(linked: LinkedIndex, name: string, e: QueryError): QueryError {
  if (e.error.code !== "not_found" || linked.sdkDir !== null) return e;
  const n = linked.defineUses.get(name.trim().replace(/^\$/, "").toLowerCase()) ?? 0;
  if (n === 0) return e;
  return queryError(
    "no_sdk",
    `${e.error.message}; the project uses it ${n} time${
      n === 1 ? "" : "s"
    }, so it is probably a vanilla define: no SDK is configured (project-only mode), ${GIVE_SDK} to include vanilla defines`,
  );
}
