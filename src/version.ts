/**
 * The tool's version, from package.json, and what the build embedded about itself: the short commit and
 * the build date, set by `scripts/build.ts` through `bun build --define`. Run from source (bun test,
 * deno run) neither is defined and both are null.
 */
import pkg from "../package.json" with { type: "json" };

// Replaced by literals in a compiled binary; undeclared (so `typeof` is "undefined") in source runs.
declare const RA3_BUILD_COMMIT: string | undefined;
declare const RA3_BUILD_DATE: string | undefined;

export const TOOL_VERSION: string = pkg.version;
/** The commit (short hash, `-dirty` when built from modified files) and UTC build date, or nulls from source. */
export const BUILD: { readonly commit: string | null; readonly date: string | null } = {
  commit: typeof RA3_BUILD_COMMIT === "string" ? RA3_BUILD_COMMIT : null,
  date: typeof RA3_BUILD_DATE === "string" ? RA3_BUILD_DATE : null,
};

/**
 * The `ra3 --version` line for a build.
 * @example versionLine({ commit: "cf8fc17", date: "2026-12-01" }) // "ra3 0.1.0 (cf8fc17, built 2026-12-01)"
 */
export function versionLine(build: typeof BUILD = BUILD): string {
  if (build.commit === null) return `ra3 ${TOOL_VERSION} (from source, not a build)`;
  return `ra3 ${TOOL_VERSION} (${build.commit}, built ${build.date ?? "on an unknown date"})`;
}
