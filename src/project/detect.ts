/**
 * Project-root detection and the layout of one project (its well-known entry files and folders; which
 * of them are entry points is decided in `entry-points.ts`).
 *
 * A folder is a mod project when it has `Data/Mod.xml`, `Data/Static.xml` (a Kane's Wrath-style mod),
 * a `*.babproj`, or `Data/AdditionalMaps/MapMetaData_*.xml` (checked in that order; every name compared
 * ignoring case).
 */
import { CaseResolver, matchingEntries } from "./case-resolver.ts";
import type { DirectoryLister } from "./fs-port.ts";
import { ancestors, isAbsoluteAnyOs, native, pathKey, toAbsolute } from "./paths.ts";

/** Which marker made a folder a project root. */
export type ProjectMarker = "mod" | "static" | "babproj" | "mapmetadata";

/** A detected project root. */
export interface ProjectRoot {
  readonly dir: string;
  readonly marker: ProjectMarker;
}

/** Folders examined upward, the start folder included. */
const MAX_UPWARD_FOLDERS = 12;

/** How deep {@link findProjectsBelow} looks below a container folder by default. */
const DEFAULT_DOWNWARD_DEPTH = 3;

/**
 * Lower-cased folder names never descended into when looking for projects below a container: a mod's
 * own content folders, SDK folders and tool folders. `sagexml` and `cnc3xml` (the vanilla XML trees
 * of RA3 and TW, thousands of files and never a mod) replace the peer's `sageml` typo.
 */
const SKIPPED_CONTAINER_NAMES: ReadonlySet<string> = new Set([
  "data",
  "art",
  "art1",
  "audio",
  "audio1",
  "builtmods",
  "builtmods-quantum",
  "sagexml",
  "cnc3xml",
  "schemas",
  "xsd",
  "hlsl",
  "node_modules",
  "packages",
  "dist",
  "out",
  "bin",
  "obj",
  ".git",
  ".vs",
  ".vscode",
]);

/** A global-stream entry file name: `MapMetaData_<anything>.xml`, any case. */
export function isMapMetadataName(name: string): boolean {
  return /^mapmetadata_.*\.xml$/i.test(name);
}

/** A BinaryAssetBuilder project file name: `*.babproj`, any case. */
function isBabprojName(name: string): boolean {
  return name.toLowerCase().endsWith(".babproj");
}

/** What a project root contains, with real on-disk casing. */
export interface ProjectLayout {
  readonly dir: string;
  /** null when `dir` carries no marker (described anyway, e.g. for `--project` pointing elsewhere). */
  readonly marker: ProjectMarker | null;
  readonly dataDir: string | null;
  readonly modXml: string | null;
  /** `Data/Static.xml` (the static root of a Kane's Wrath-style mod), or null. */
  readonly staticXml: string | null;
  readonly additionalMapsDir: string | null;
  /** Map-metadata entry files, sorted by file name ignoring case. */
  readonly mapMetadata: readonly string[];
  readonly babprojFiles: readonly string[];
  /** Existing `Art1`, `Art` folders, in BAB search order. */
  readonly artDirs: readonly string[];
  /** Existing `Audio1`, `Audio` folders, in BAB search order. */
  readonly audioDirs: readonly string[];
}

type ListerOrResolver = DirectoryLister | CaseResolver;

function resolverOf(l: ListerOrResolver): CaseResolver {
  return l instanceof CaseResolver ? l : new CaseResolver(l);
}

function compareNames(a: string, b: string): number {
  const la = a.toLowerCase();
  const lb = b.toLowerCase();
  if (la !== lb) return la < lb ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Every child folder of `dir` named `name` ignoring case (exact case first). */
function childDirs(r: CaseResolver, dir: string, name: string): string[] {
  const entries = r.entries(dir);
  if (!entries) return [];
  return matchingEntries(entries, name, "directory").map((e) => native.join(dir, e.name));
}

function filesMatching(r: CaseResolver, dir: string, test: (name: string) => boolean): string[] {
  const entries = r.entries(dir) ?? [];
  return entries
    .filter((e) => !e.isDirectory && test(e.name))
    .map((e) => e.name)
    .sort(compareNames)
    .map((n) => native.join(dir, n));
}

interface DataFacts {
  readonly dataDir: string | null;
  readonly modXml: string | null;
  readonly additionalMapsDir: string | null;
  readonly mapMetadata: readonly string[];
}

/**
 * Finds `Data`, `Data/Mod.xml` and the map-metadata files. Several `Data` folders differing by case
 * can only exist on a case-sensitive FS; then the one holding Mod.xml (else map metadata) is used.
 */
function dataFacts(r: CaseResolver, dir: string): DataFacts {
  const datas = childDirs(r, dir, "Data");
  let dataDir: string | null = null;
  let modXml: string | null = null;
  for (const d of datas) {
    modXml = r.childNamed(d, "Mod.xml", "file");
    if (modXml) {
      dataDir = d;
      break;
    }
  }
  let maps: { data: string; dir: string; files: string[] } | null = null;
  for (const d of dataDir ? [dataDir] : datas) {
    for (const am of childDirs(r, d, "additionalmaps")) {
      const files = filesMatching(r, am, isMapMetadataName);
      if (maps === null || (maps.files.length === 0 && files.length > 0)) maps = { data: d, dir: am, files };
    }
  }
  return {
    dataDir: dataDir ?? maps?.data ?? datas[0] ?? null,
    modXml,
    additionalMapsDir: maps?.dir ?? null,
    mapMetadata: maps?.files ?? [],
  };
}

/**
 * The marker that makes `dir` a project root, or null.
 * @example projectMarkerOf("/mods/Upheaval", lister) // "mod"
 */
export function projectMarkerOf(dir: string, lister: ListerOrResolver): ProjectMarker | null {
  const r = resolverOf(lister);
  const entries = r.entries(dir);
  if (!entries) return null;
  const datas = matchingEntries(entries, "Data", "directory").map((e) => native.join(dir, e.name));
  if (datas.some((d) => r.childNamed(d, "Mod.xml", "file") !== null)) return "mod";
  if (datas.some((d) => r.childNamed(d, "Static.xml", "file") !== null)) return "static";
  if (entries.some((e) => !e.isDirectory && isBabprojName(e.name))) return "babproj";
  for (const d of datas) {
    for (const am of childDirs(r, d, "additionalmaps")) {
      if ((r.entries(am) ?? []).some((e) => !e.isDirectory && isMapMetadataName(e.name))) return "mapmetadata";
    }
  }
  return null;
}

/**
 * The nearest project root at or above `start` (a folder or a file; a file starts at its folder),
 * examining at most {@link MAX_UPWARD_FOLDERS} folders; null when none (or `start` does not exist).
 * @example findProjectRoot("/mods/X/Data/Units", lister) // { dir: "/mods/X", marker: "mod" }
 */
export function findProjectRoot(start: string, lister: ListerOrResolver): ProjectRoot | null {
  const r = resolverOf(lister);
  // Real casing first, so a path typed in the wrong case still works on a case-sensitive file system.
  let from = r.resolvePath(toAbsolute(start));
  if (from === null) return null;
  if (r.entries(from) === null) from = native.dirname(from);
  for (const dir of ancestors(from, MAX_UPWARD_FOLDERS)) {
    const marker = projectMarkerOf(dir, r);
    if (marker) return { dir, marker };
  }
  return null;
}

/**
 * Project roots inside the container folder `dir` (itself included, at depth 0) down to `depth`
 * folders below it, sorted by path. Does not descend into a found root or into skip-list folders
 * ({@link SKIPPED_CONTAINER_NAMES}).
 * @example findProjectsBelow("/sdk/Mods", lister) // [{ dir: "/sdk/Mods/A", marker: "mod" }, …]
 */
export function findProjectsBelow(
  dir: string,
  lister: ListerOrResolver,
  depth = DEFAULT_DOWNWARD_DEPTH,
): ProjectRoot[] {
  const r = resolverOf(lister);
  const found = new Map<string, ProjectRoot>();
  const visit = (d: string, level: number): void => {
    const marker = projectMarkerOf(d, r);
    if (marker) {
      const key = pathKey(d);
      if (!found.has(key)) found.set(key, { dir: d, marker });
      return;
    }
    if (level >= depth) return;
    for (const e of r.entries(d) ?? []) {
      if (e.isDirectory && !SKIPPED_CONTAINER_NAMES.has(e.name.toLowerCase())) visit(native.join(d, e.name), level + 1);
    }
  };
  // An absolute path in any OS's syntax is taken as given (setup's tests walk Windows paths on Linux).
  visit(isAbsoluteAnyOs(dir) ? dir : toAbsolute(dir), 0);
  return [...found.values()].sort((a, b) => (a.dir < b.dir ? -1 : a.dir > b.dir ? 1 : 0));
}

/**
 * The well-known entry files and content folders of the project at `dir`, with real casing.
 * @example describeProject("/mods/Upheaval", lister).mapMetadata // ["/mods/Upheaval/Data/AdditionalMaps/MapMetaData_Global.xml"]
 */
export function describeProject(dir: string, lister: ListerOrResolver): ProjectLayout {
  const r = resolverOf(lister);
  const given = toAbsolute(dir);
  const root = r.resolvePath(given, "directory") ?? given;
  const facts = dataFacts(r, root);
  const firstDir = (name: string): string[] => childDirs(r, root, name).slice(0, 1);
  return {
    dir: root,
    marker: projectMarkerOf(root, r),
    dataDir: facts.dataDir,
    modXml: facts.modXml,
    staticXml: facts.dataDir ? r.childNamed(facts.dataDir, "Static.xml", "file") : null,
    additionalMapsDir: facts.additionalMapsDir,
    mapMetadata: facts.mapMetadata,
    babprojFiles: filesMatching(r, root, isBabprojName),
    artDirs: [...firstDir("Art1"), ...firstDir("Art")],
    audioDirs: [...firstDir("Audio1"), ...firstDir("Audio")],
  };
}
