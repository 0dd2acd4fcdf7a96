/**
 * `DATA:` / `ART:` / `AUDIO:` search lists in BinaryAssetBuilder order, and resolution of
 * `<Include source>` / `xi:include href` strings against them.
 *
 * BAB runs with the SDK as its working folder, so the SDK root is the first base of every list; a mod
 * file therefore never shadows the SDK-root placeholders (`DATA:static.xml`), but does shadow
 * `SageXml/...` for ordinary includes. Without a usable SDK the SDK entries are simply absent; there
 * is no fallback to the process's working folder.
 */
import { CaseResolver, type Lookup, OUTSIDE } from "./case-resolver.ts";
import type { ProjectLayout } from "./detect.ts";
import type { DirectoryLister } from "./fs-port.ts";
import { baseName, isInside, native, pathKey, toAbsolute } from "./paths.ts";
import { isUsableSdk, type SdkInfo } from "./sdk.ts";

/** An include path alias. */
export type IncludePrefix = "DATA" | "ART" | "AUDIO";

/** The bases tried for each alias, in order; every entry is an existing folder with real casing. */
export interface SearchPaths {
  readonly DATA: readonly string[];
  readonly ART: readonly string[];
  readonly AUDIO: readonly string[];
}

type ListerOrResolver = DirectoryLister | CaseResolver;

function resolverOf(l: ListerOrResolver): CaseResolver {
  return l instanceof CaseResolver ? l : new CaseResolver(l);
}

/** Existing folders among `dirs`, real-cased, first occurrence of each kept, order preserved. */
function existingUnique(r: CaseResolver, dirs: readonly (string | null | undefined)[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const d of dirs) {
    if (!d) continue;
    const real = r.resolvePath(d, "directory");
    if (real === null) continue;
    const key = pathKey(real);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(real);
  }
  return out;
}

/**
 * The BAB search lists for a project (mirroring the SDK build script):
 * - DATA: SDK root → modGrandParent → `<project>/Data` → `SDK/Mods` → modParent → `SDK/SageXml|CnC3Xml` → `extraData`…
 * - ART: SDK root → modGrandParent → `<project>/Art1` → `<project>/Art` → `SDK/Mods` → modParent → `SDK/Art`
 * - AUDIO: as ART with `Audio1`, `Audio`, `SDK/Audio`
 *
 * modParent/modGrandParent are the project root's parent and grandparent. SDK entries are dropped when
 * the SDK is unusable; missing folders are dropped; a folder listed twice (a mod inside `SDK/Mods`)
 * keeps its first place. `extraData` entries are relative to the project root unless absolute.
 * @example buildSearchPaths(layout, null, [], lister).DATA // ["/m", "/m/mods/X/Data", "/m/mods"]
 */
export function buildSearchPaths(
  project: ProjectLayout,
  sdk: SdkInfo | null,
  extraData: readonly string[] = [],
  resolver: ListerOrResolver,
): SearchPaths {
  const r = resolverOf(resolver);
  const modParent = native.dirname(project.dir);
  const modGrandParent = native.dirname(modParent);
  const s = isUsableSdk(sdk) ? sdk : null;
  const data = project.dataDir ?? native.join(project.dir, "Data");
  const find = (name: string): string | null => r.childNamed(project.dir, name, "directory");
  return {
    DATA: existingUnique(r, [
      s?.dir,
      modGrandParent,
      data,
      s?.modsDir,
      modParent,
      s?.vanillaDir,
      ...extraData.map((p) => toAbsolute(p, project.dir)),
    ]),
    ART: existingUnique(r, [s?.dir, modGrandParent, find("Art1"), find("Art"), s?.modsDir, modParent, s?.artDir]),
    AUDIO: existingUnique(r, [
      s?.dir,
      modGrandParent,
      find("Audio1"),
      find("Audio"),
      s?.modsDir,
      modParent,
      s?.audioDir,
    ]),
  };
}

/**
 * SDK-only lists for resolving a manifest asset's recorded source (`DATA: [SDK, SDK/SageXml]`,
 * `ART: [SDK, SDK/Art]`, `AUDIO: [SDK, SDK/Audio]`), so mod files never hijack vanilla sources.
 * Empty lists without a usable SDK.
 */
export function vanillaOnlySearchPaths(sdk: SdkInfo | null): SearchPaths {
  if (!isUsableSdk(sdk)) return { DATA: [], ART: [], AUDIO: [] };
  const two = (sub: string | null): string[] => (sub ? [sdk.dir, sub] : [sdk.dir]);
  return { DATA: two(sdk.vanillaDir), ART: two(sdk.artDir), AUDIO: two(sdk.audioDir) };
}

/** An include source split into its alias and the path after it. */
export interface ParsedIncludeSource {
  readonly prefix: IncludePrefix | null;
  /** `/`-separated, without leading slashes (except an absolute path, kept as written). */
  readonly remainder: string;
  /** True for a drive-letter path such as `C:/x.xml` (used as is, no search). */
  readonly isAbsolute: boolean;
}

/**
 * Splits an include source: trims, turns `\` into `/`, recognises `DATA:`/`ART:`/`AUDIO:` ignoring
 * case, strips leading `/`. Any other colon is not an alias.
 * @example parseIncludeSource(" data:\\GlobalData\\Weapon.xml") // { prefix: "DATA", remainder: "GlobalData/Weapon.xml", isAbsolute: false }
 */
export function parseIncludeSource(raw: string): ParsedIncludeSource {
  const s = raw.trim().replace(/\\/g, "/");
  const m = /^(data|art|audio):(.*)$/is.exec(s);
  if (m) return { prefix: m[1].toUpperCase() as IncludePrefix, remainder: m[2].replace(/^\/+/, ""), isAbsolute: false };
  if (/^[A-Za-z]:\//.test(s)) return { prefix: null, remainder: s, isAbsolute: true };
  return { prefix: null, remainder: s.replace(/^\/+/, ""), isAbsolute: false };
}

/** One candidate path tried while resolving, as written (the base's casing + the source's casing). */
export interface TriedCandidate {
  readonly candidate: string;
  readonly hit: boolean;
  /**
   * Set when the candidate lies outside the allowed roots, or passes a link leading out of them (a
   * confined resolver): it was not looked at.
   */
  readonly outside?: true;
}

/** How an include source resolved. */
export interface IncludeResolution {
  /** The raw source string. */
  readonly source: string;
  readonly prefix: IncludePrefix | null;
  readonly remainder: string;
  /** Real on-disk path of the target, or null. */
  readonly resolved: string | null;
  /** Every candidate in the order tried (stops at the hit). */
  readonly tried: readonly TriedCandidate[];
  /** True when the on-disk casing differs from the casing written in the source. */
  readonly caseFixed: boolean;
  /** True when the hit came from the `ART:` two-letter folder rule. */
  readonly twoLetterRule: boolean;
  /**
   * True when nothing was found and a candidate left the allowed roots (`confinement.ts`): the include
   * is not followed there, and the answer is the same whether anything exists there.
   */
  readonly outside: boolean;
  /** Why nothing was found (absent on a hit). */
  readonly reason?: string;
}

/** Why a confined resolution found nothing when a candidate left the roots (never whether it exists). */
export const OUTSIDE_REASON =
  "it leads outside the folders ra3 reads (the project, the SDK, the mod's parent and grandparent folders): not followed";

function joinCandidate(base: string, rel: string): string {
  return native.join(base, ...rel.split("/"));
}

/**
 * The mod's own name mapped onto its folder (see `mod-name.ts`): `DATA:<name>/rest` is also tried as
 * `<root>/rest`, right after the base `after` (the project's `Data` folder) — where the builder would find
 * it through `SDK/Mods` or the mod's parent if the folder carried the name.
 */
export interface ModAlias {
  readonly name: string;
  readonly root: string;
  readonly after: string | null;
}

/**
 * Resolves an include source the way BinaryAssetBuilder does, case-insensitively:
 * - `DATA:`/`ART:`/`AUDIO:`: each base of the alias's list in order, first existing file wins;
 * - `ART:` with no `/` in the remainder, after every base missed: each base again with
 *   `<first two characters, lower-cased>/<remainder>` (`ART:JUAntiShip.w3x` → `ju/JUAntiShip.w3x`);
 * - no alias: relative to the including file's folder; a drive-letter path is used as is;
 * - with a {@link ModAlias}, `DATA:<its name>/rest` is also tried against the project root.
 * Uncached; see {@link IncludeResolver} for the cached form.
 * @example resolveIncludeSource("DATA:static.xml", "/sdk/Mods/X/Data/Mod.xml", paths, lister).resolved // "/sdk/static.xml"
 */
export function resolveIncludeSource(
  raw: string,
  includingFile: string,
  paths: SearchPaths,
  resolver: ListerOrResolver,
  alias: ModAlias | null = null,
): IncludeResolution {
  const r = resolverOf(resolver);
  const { prefix, remainder, isAbsolute } = parseIncludeSource(raw);
  const tried: TriedCandidate[] = [];
  let escaped = false;
  const result = (
    resolved: string | null,
    caseFixed: boolean,
    twoLetterRule: boolean,
    reason?: string,
  ): IncludeResolution => {
    const outside = resolved === null && escaped;
    const base = { source: raw, prefix, remainder, resolved, tried, caseFixed, twoLetterRule, outside };
    if (outside) return { ...base, reason: OUTSIDE_REASON };
    return reason === undefined ? base : { ...base, reason };
  };
  /**
   * Records a candidate looked up below `base` (null: an absolute path) and answers its hit (null for a
   * miss or a refusal). A refusal below a base ra3 reads is the source leaving the roots; a base it does
   * not read (a drive root above the mod) is only not searched.
   */
  const attempt = (candidate: string, found: Lookup, base: string | null): string | null => {
    if (found === OUTSIDE) {
      tried.push({ candidate, hit: false, outside: true });
      if (base === null || !r.gate || r.gate.contains(base)) escaped = true;
      return null;
    }
    tried.push({ candidate, hit: found !== null });
    return found;
  };

  if (remainder === "") return result(null, false, false, prefix ? `nothing after ${prefix}:` : "empty source");

  if (prefix) {
    const bases = paths[prefix];
    if (bases.length === 0) return result(null, false, false, `the ${prefix}: search list is empty`);
    const slash = remainder.indexOf("/");
    const aliased = prefix === "DATA" && alias && slash > 0 &&
        remainder.slice(0, slash).toLowerCase() === alias.name.toLowerCase()
      ? { root: alias.root, rest: remainder.slice(slash + 1), after: alias.after ? pathKey(alias.after) : null }
      : null;
    const tryAlias = (): string | null =>
      attempt(
        joinCandidate(aliased!.root, aliased!.rest),
        r.lookup(aliased!.root, aliased!.rest, "file"),
        aliased!.root,
      );
    for (const base of bases) {
      const candidate = joinCandidate(base, remainder);
      const hit = attempt(candidate, r.lookup(base, remainder, "file"), base);
      if (hit) return result(hit, hit !== candidate, false);
      if (aliased && aliased.after === pathKey(base)) {
        const own = tryAlias();
        if (own) return result(own, baseName(own) !== baseName(aliased.rest), false);
      }
    }
    if (aliased && (aliased.after === null || !bases.some((b) => pathKey(b) === aliased.after))) {
      const own = tryAlias();
      if (own) return result(own, baseName(own) !== baseName(aliased.rest), false);
    }
    if (prefix === "ART" && !remainder.includes("/")) {
      const folder = remainder.slice(0, 2).toLowerCase();
      for (const base of bases) {
        const rest = `${folder}/${remainder}`;
        const hit = attempt(joinCandidate(base, rest), r.lookup(base, rest, "file"), base);
        // The folder name is ours, not the author's: only the file name's casing counts as a fix.
        if (hit) return result(hit, baseName(hit) !== remainder, true);
      }
      return result(
        null,
        false,
        false,
        `not found in any of the ${bases.length} ART: search paths, nor in their two-letter folders`,
      );
    }
    return result(null, false, false, `not found in any of the ${bases.length} ${prefix}: search paths`);
  }

  if (isAbsolute) {
    const candidate = native.normalize(remainder);
    const hit = attempt(candidate, r.lookupPath(candidate, "file"), null);
    return hit ? result(hit, hit !== candidate, false) : result(null, false, false, "absolute path not found");
  }

  const dir = native.dirname(includingFile);
  const candidate = joinCandidate(dir, remainder);
  const hit = attempt(candidate, r.lookup(dir, remainder, "file"), dir);
  return hit
    ? result(hit, hit !== candidate, false)
    : result(null, false, false, "not found relative to the including file's folder");
}

/**
 * {@link resolveIncludeSource} with a cache: aliased sources are cached per raw string (their answer
 * does not depend on the includer), unaliased ones per (including folder, raw string). Existence does
 * not change on content edits, so call {@link IncludeResolver.invalidate} only when files are created
 * or deleted, on a forced re-index, or when settings change.
 */
export class IncludeResolver {
  private readonly cache = new Map<string, IncludeResolution>();
  /**
   * The same answers by including file, then raw string: a walk asks again for every include of every
   * file it walks, with the same two strings, so a hit costs two lookups (no folder name cut out, no key
   * joined, no prefix test). Cleared with {@link cache}.
   */
  private readonly byFile = new Map<string, Map<string, IncludeResolution>>();
  private readonly resolver: CaseResolver;
  private hits = 0;
  private misses = 0;
  private alias: ModAlias | null = null;

  constructor(readonly paths: SearchPaths, resolver: ListerOrResolver) {
    this.resolver = resolverOf(resolver);
  }

  /** Sets (or clears) the mod's own-name alias; a change forgets every cached answer. */
  setAlias(alias: ModAlias | null): void {
    const key = (a: ModAlias | null) => (a ? `${a.name.toLowerCase()}\0${a.root}\0${a.after}` : "");
    if (key(alias) === key(this.alias)) return;
    this.alias = alias;
    this.cache.clear();
    this.byFile.clear();
  }

  /** How `raw`, written in `includingFile`, resolves (cached). */
  resolve(raw: string, includingFile: string): IncludeResolution {
    let mine = this.byFile.get(includingFile);
    const known = mine?.get(raw);
    if (known) {
      this.hits++;
      return known;
    }
    const aliased = /^\s*(data|art|audio):/i.test(raw);
    const key = aliased ? `\0${raw}` : `${native.dirname(includingFile)}\0${raw}`;
    let res = this.cache.get(key);
    if (res) this.hits++;
    else {
      this.misses++;
      res = resolveIncludeSource(raw, includingFile, this.paths, this.resolver, this.alias);
      this.cache.set(key, res);
    }
    if (!mine) this.byFile.set(includingFile, mine = new Map());
    mine.set(raw, res);
    return res;
  }

  /** Forgets every cached answer (and the case resolver's; with a path, tells the lister too). */
  invalidate(path?: string): void {
    this.cache.clear();
    this.byFile.clear();
    this.resolver.invalidate(path);
  }

  /** Cache counters: `hits` served from the cache, `misses` resolved afresh. */
  stats(): { readonly hits: number; readonly misses: number; readonly cached: number } {
    return { hits: this.hits, misses: this.misses, cached: this.cache.size };
  }
}

/** Whether an asset's file belongs to the project or the SDK. */
export type FileOrigin = "project" | "sdk";

/**
 * `project` when `path` is inside the project (tested first: a mod in `SDK/Mods` is project), `sdk`
 * when inside the SDK, else `project` (files reached through modParent or extra paths). Ignores case
 * and separators.
 * @example originOf("C:\\SDK\\SageXml\\a.xml", "C:/SDK/Mods/X", "c:/sdk") // "sdk"
 */
export function originOf(path: string, projectDir: string, sdkDir: string | null | undefined): FileOrigin {
  if (isInside(path, projectDir)) return "project";
  if (sdkDir && isInside(path, sdkDir)) return "sdk";
  return "project";
}
