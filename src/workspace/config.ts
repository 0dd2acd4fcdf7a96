/**
 * Resolves what a run works on: the project (flag, or detection from the working directory — the
 * logical one, never with its links resolved), the SDK (flag → RA3_SDK → detection → project-only), the
 * schema folder, the state folder, explicit entry points and the build scripts that name entry points.
 * Returns an environment error value (exit status 3) instead of throwing.
 */
import { readFileSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { BUILD_SCRIPT_EXTENSIONS, entriesNamedByScript, MAX_BUILD_SCRIPT_BYTES } from "../project/build-scripts.ts";
import { logicalCwd } from "../project/cwd.ts";
import { CaseResolver } from "../project/case-resolver.ts";
import { Confinement } from "../project/confinement.ts";
import {
  describeProject,
  findProjectRoot,
  findProjectsBelow,
  type ProjectLayout,
  type ProjectRoot,
} from "../project/detect.ts";
import { type DirectoryLister, NodeDirectoryLister } from "../project/fs-port.ts";
import { resolveHome } from "../project/home.ts";
import { baseName, extensionOf, native, pathKey, toAbsolute } from "../project/paths.ts";
import { isUsableSdk, resolveSdk, type SdkInfo, type SdkResolution, systemRegistryQuery } from "../project/sdk.ts";
import type { BuildScript } from "./link-inputs.ts";

export interface WorkspaceConfig {
  readonly projectDir: string;
  readonly layout: ProjectLayout;
  readonly sdk: SdkInfo | null;
  readonly sdkResolution: SdkResolution;
  /** XSD folder and where it came from, or null (heuristic mode). */
  readonly schemaDir: string | null;
  readonly schemaSource: "flag" | "project" | "sdk" | null;
  readonly home: string;
  readonly lister: DirectoryLister;
  readonly resolver: CaseResolver;
  /** What this run may read: the project, the SDK, the mod's parent and grandparent (`confinement.ts`). */
  readonly confinement: Confinement;
  /** `--entry` values as given (relative to the project root, or absolute); empty: detect. */
  readonly entries: readonly string[];
  /** Build scripts (in the project, its parent and grandparent, the SDK root) that name this mod's files. */
  readonly buildScripts: readonly BuildScript[];
}

export interface EnvError {
  readonly envError: string;
  /** Projects found below the start folder when there were several (a container folder). */
  readonly projects?: readonly ProjectRoot[];
}

export interface ConfigRequest {
  readonly project: string | null;
  readonly sdk: string | null;
  readonly schema: string | null;
  readonly home: string | null;
  /** `--entry` values; empty or absent: detect the entry points. */
  readonly entries?: readonly string[];
  readonly cwd?: string;
  readonly env?: Record<string, string | undefined>;
  readonly lister?: DirectoryLister;
}

/** True when `r` is an environment error. */
export function isEnvError<T>(r: T | EnvError): r is EnvError {
  return typeof r === "object" && r !== null && typeof (r as EnvError).envError === "string";
}

/**
 * Finds the project for a run: `--project` (walking up from it to the nearest root), else the working
 * directory walked upward, else a single project below it.
 */
function locateProject(
  req: Pick<ConfigRequest, "project" | "cwd">,
  resolver: CaseResolver,
): ProjectRoot | EnvError {
  const cwd = req.cwd ?? logicalCwd(process.env);
  if (req.project !== null) {
    const start = toAbsolute(req.project, cwd);
    if (!resolver.exists(start)) return { envError: `the project folder ${start} does not exist; check --project` };
    const root = findProjectRoot(start, resolver);
    if (root) return root;
    const below = findProjectsBelow(start, resolver);
    if (below.length === 1) return below[0];
    if (below.length > 1) {
      return { envError: `${start} holds ${below.length} mods; pass one of them with --project`, projects: below };
    }
    return {
      envError:
        `no Red Alert 3 mod at ${start}: expected Data/Mod.xml, a *.babproj file or Data/AdditionalMaps/MapMetaData_*.xml there or in a parent folder`,
    };
  }
  const root = findProjectRoot(cwd, resolver);
  if (root) return root;
  const below = findProjectsBelow(cwd, resolver);
  if (below.length === 1) return below[0];
  if (below.length > 1) {
    return { envError: `${cwd} holds ${below.length} mods; pass one of them with --project`, projects: below };
  }
  return {
    envError:
      `no Red Alert 3 mod found from ${cwd}: run ra3 inside a mod folder (one with Data/Mod.xml) or pass --project DIR`,
  };
}

/** Resolves the whole configuration of a run. */
export function resolveConfig(req: ConfigRequest): WorkspaceConfig | EnvError {
  const env = req.env ?? process.env;
  const cwd = req.cwd ?? logicalCwd(env);
  const lister = req.lister ?? new NodeDirectoryLister();
  const resolver = new CaseResolver(lister);
  const root = locateProject(req, resolver);
  if (isEnvError(root)) return root;
  const layout = describeProject(root.dir, resolver);
  const sdkResolution = resolveSdk({
    flag: req.sdk ?? undefined,
    env,
    lister: resolver,
    detectors: { projectDir: root.dir, queryRegistry: systemRegistryQuery },
    cwd,
  });
  if (req.sdk !== null && req.sdk.trim() !== "" && !isUsableSdk(sdkResolution.sdk)) {
    const flagged = sdkResolution.candidates.find((c) => c.source === "flag");
    return { envError: `--sdk ${req.sdk} is not a usable SDK: ${flagged?.reason ?? "no Schemas/xsd/CnC3Types.xsd"}` };
  }
  const sdk = isUsableSdk(sdkResolution.sdk) ? sdkResolution.sdk : null;

  let schemaDir: string | null = null;
  let schemaSource: WorkspaceConfig["schemaSource"] = null;
  if (req.schema !== null) {
    schemaDir = toAbsolute(req.schema, cwd);
    schemaSource = "flag";
  } else {
    const own = resolver.resolve(root.dir, "Schemas/xsd", "directory");
    if (own && resolver.childNamed(own, "CnC3Types.xsd", "file")) {
      schemaDir = own;
      schemaSource = "project";
    } else if (sdk?.schemaDir) {
      schemaDir = sdk.schemaDir;
      schemaSource = "sdk";
    }
  }
  const home = resolveHome({ flag: req.home ?? undefined, env, homedir: homedir(), cwd });
  const confinement = new Confinement({ projectDir: root.dir, sdkDir: sdk?.dir ?? null }, lister);
  return {
    projectDir: root.dir,
    layout,
    sdk,
    sdkResolution,
    schemaDir,
    schemaSource,
    home,
    lister,
    resolver,
    confinement,
    entries: req.entries ?? [],
    buildScripts: readBuildScripts(root.dir, sdk?.dir ?? null, resolver, confinement),
  };
}

/** Build scripts read per run at most (an SDK root holds a handful). */
const MAX_BUILD_SCRIPTS = 32;

/**
 * The build scripts next to the mod (its folder, parent and grandparent — where an SDK root with its
 * BuildMod.bat usually is — and the SDK root) that name files of this mod, with those names. Scripts
 * are only read, never run; unreadable or oversized ones are skipped, and so are the folders and links
 * the confinement does not admit (a parent that is a drive root, a script linked from elsewhere).
 */
function readBuildScripts(
  projectDir: string,
  sdkDir: string | null,
  resolver: CaseResolver,
  confinement: Confinement,
): BuildScript[] {
  const parent = native.dirname(projectDir);
  const dirs = [projectDir, parent, native.dirname(parent), ...(sdkDir ? [sdkDir] : [])]
    .filter((d) => confinement.roots.some((r) => pathKey(r) === pathKey(d)));
  const seen = new Set<string>();
  const out: BuildScript[] = [];
  let read = 0;
  for (const dir of dirs) {
    if (seen.has(pathKey(dir))) continue;
    seen.add(pathKey(dir));
    for (const e of resolver.entries(dir) ?? []) {
      if (!BUILD_SCRIPT_EXTENSIONS.has(extensionOf(e.name)) || read >= MAX_BUILD_SCRIPTS) continue;
      const path = native.join(dir, e.name);
      // A link is judged before its kind is asked (that would stat its target).
      if ((e.isLink && !confinement.admits(path)) || e.isDirectory) continue;
      let text: string;
      try {
        if (statSync(path).size > MAX_BUILD_SCRIPT_BYTES) continue;
        text = readFileSync(path, "latin1");
      } catch {
        continue;
      }
      read++;
      const entries = entriesNamedByScript(text, baseName(projectDir), pathKey(dir) === pathKey(projectDir));
      if (entries.length > 0) out.push({ path, entries });
    }
  }
  return out;
}
