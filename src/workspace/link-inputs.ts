/**
 * Wires the project model (layout, SDK, search paths, case-insensitive resolution) into the ports the
 * linker asks: how an include resolves, which manifest stands for a `reference` include, where the SDK's
 * vanilla stream roots are, and which streams a project has (Mod.xml, map metadata, babproj).
 */
import type { CaseResolver } from "../project/case-resolver.ts";
import type { ProjectLayout } from "../project/detect.ts";
import { baseName, pathKey, segmentsOf, toPosix } from "../project/paths.ts";
import { isUsableSdk, type SdkInfo } from "../project/sdk.ts";
import {
  buildSearchPaths,
  IncludeResolver,
  parseIncludeSource,
  vanillaOnlySearchPaths,
} from "../project/search-paths.ts";
import type { SchemaQueries } from "../schema/model.ts";
import type { IndexCore } from "../index/core.ts";
import type { EntryPoint, LinkInputs } from "../index/link-context.ts";

export interface LinkPorts {
  readonly inputs: LinkInputs;
  readonly projectResolver: IncludeResolver;
  readonly sdkResolver: IncludeResolver;
  /** Drops every cached resolution (after files were created or deleted). */
  invalidate(path?: string): void;
}

/** Builds the linker ports for a project. Entry points include babproj streams found in `core`. */
export function makeLinkPorts(
  layout: ProjectLayout,
  sdk: SdkInfo | null,
  schema: SchemaQueries | null,
  resolver: CaseResolver,
  core: IndexCore,
): LinkPorts {
  const usable = isUsableSdk(sdk) ? sdk : null;
  const projectResolver = new IncludeResolver(buildSearchPaths(layout, usable, [], resolver), resolver);
  const sdkResolver = new IncludeResolver(vanillaOnlySearchPaths(usable), resolver);
  const manifestCache = new Map<string, string | null>();
  const rootCache = new Map<string, string | null>();

  const streamBase = (source: string): string | null => {
    const parsed = parseIncludeSource(source);
    const name = baseName(parsed.remainder);
    return name ? name.replace(/\.[^.]*$/, "") : null;
  };

  const inputs: LinkInputs = {
    projectDir: layout.dir,
    sdkDir: usable ? usable.dir : null,
    sdkUsable: usable !== null,
    get entries() {
      return entryPoints(layout, core, resolver);
    },
    schema,
    resolve(source, includingFile, layer) {
      const r = (layer === "sdk" ? sdkResolver : projectResolver).resolve(source, includingFile);
      return { path: r.resolved, caseFixed: r.caseFixed, prefixed: r.prefix !== null };
    },
    manifestFor(source) {
      if (!usable) return null;
      const key = source.toLowerCase();
      if (manifestCache.has(key)) return manifestCache.get(key)!;
      const base = streamBase(source);
      let found: string | null = null;
      if (base) {
        for (const dir of usable.manifestDirs) {
          found = resolver.childNamed(dir, `${base}.manifest`, "file");
          if (found) break;
        }
      }
      manifestCache.set(key, found);
      return found;
    },
    sdkStreamRoot(source) {
      if (!usable || !usable.vanillaDir) return null;
      const key = source.toLowerCase();
      if (rootCache.has(key)) return rootCache.get(key)!;
      const base = streamBase(source);
      const found = base ? resolver.childNamed(usable.vanillaDir, `${base}.xml`, "file") : null;
      rootCache.set(key, found);
      return found;
    },
  };
  return {
    inputs,
    projectResolver,
    sdkResolver,
    invalidate(path) {
      projectResolver.invalidate(path);
      sdkResolver.invalidate(path);
      manifestCache.clear();
      rootCache.clear();
    },
  };
}

/**
 * The project's entry points: `static` (Data/Mod.xml), one `global:<name>` per map-metadata file, and
 * one `babproj:<name>` per extra stream declared in a `.babproj` (its Windows paths mapped into the project).
 */
function entryPoints(layout: ProjectLayout, core: IndexCore, resolver: CaseResolver): EntryPoint[] {
  const entries: EntryPoint[] = layout.streams.map((s) => ({
    stream: s.name,
    file: s.entry,
    layer: "project" as const,
  }));
  const taken = new Set(entries.map((e) => pathKey(e.file)));
  for (const bp of layout.babprojFiles) {
    const rec = core.file(bp)?.record;
    if (!rec) continue;
    for (const source of rec.streamSources) {
      const file = locateInProject(source, layout.dir, resolver);
      if (!file || taken.has(pathKey(file))) continue;
      taken.add(pathKey(file));
      entries.push({ stream: `babproj:${baseName(file).replace(/\.xml$/i, "")}`, file, layer: "project" });
    }
  }
  return entries;
}

/**
 * Maps a path written on another machine (e.g. `G:\RA3 MOD SDK\Mods\X\data\aptui\Page.xml`) into the
 * project: the longest tail of its segments that exists under the project root, case-insensitively.
 */
function locateInProject(written: string, projectDir: string, resolver: CaseResolver): string | null {
  const segs = segmentsOf(toPosix(written).replace(/^[A-Za-z]:/, ""));
  for (let i = 0; i < segs.length; i++) {
    const hit = resolver.resolve(projectDir, segs.slice(i).join("/"), "file");
    if (hit) return hit;
  }
  return null;
}
