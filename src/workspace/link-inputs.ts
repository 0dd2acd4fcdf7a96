/**
 * Wires the project model (layout, SDK, search paths, case-insensitive resolution) into the ports the
 * linker asks: how an include resolves (with the mod's own-name alias when its folder is named
 * otherwise), which manifest stands for a `reference` include (a `.babproj` StreamReference first, then
 * the SDK's builtmods folders), where the SDK's vanilla stream roots are, which entry points the project
 * has and why, and what the driver noticed on the way (the diagnostics of {@link LinkInputs.environment}).
 * What depends on the records (babproj streams, the own-name alias) is recomputed when the core's
 * include structure changes. Every lookup here is confined (`project/confinement.ts`): an include, a
 * manifest or an entry that leads outside the allowed roots resolves to nothing, marked `outside`.
 */
import type { CaseResolver } from "../project/case-resolver.ts";
import { Confinement } from "../project/confinement.ts";
import type { ProjectLayout } from "../project/detect.ts";
import { type EntryPlan, planEntries } from "../project/entry-points.ts";
import { type OwnModName, ownModName } from "../project/mod-name.ts";
import { baseName, displayPath, isInside, pathKey, segmentsOf, toAbsolute, toPosix } from "../project/paths.ts";
import type { ScriptedEntry } from "../project/build-scripts.ts";
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
import type { Diagnostic } from "../index/linked.ts";
import type { StreamReferenceDecl } from "../index/records.ts";
import type { ReferenceLookup } from "../query/includes.ts";
import { runSteps } from "../steps.ts";

/** A build script read at start: its path and the XML files it names inside a mod folder. */
export interface BuildScript {
  readonly path: string;
  readonly entries: readonly ScriptedEntry[];
}

/** What the driver adds to the project model: explicit entries, build scripts, its own findings. */
export interface LinkOptions {
  /** `--entry` values as written (relative to the project root, or absolute). */
  readonly entries?: readonly string[];
  readonly buildScripts?: readonly BuildScript[];
  /** Diagnostics the driver found (paths differing only in case), read at each link. */
  readonly driverNotes?: () => readonly Diagnostic[];
  /** Folders of the project the driver's scan could not list (the lookups add the ones they meet). */
  readonly unlistedFolders?: () => Iterable<string>;
  /** The driver's confinement (one per run); else one is made for the layout and SDK. */
  readonly confinement?: Confinement;
}

export interface LinkPorts {
  readonly inputs: LinkInputs;
  readonly projectResolver: IncludeResolver;
  readonly sdkResolver: IncludeResolver;
  /** What answers a `reference` include (for `resolve_include`). */
  readonly references: ReferenceLookup;
  /** The allowed roots every lookup here is confined to. */
  readonly confinement: Confinement;
  /** Drops every cached resolution (after files were created or deleted). */
  invalidate(path?: string): void;
}

/** The project facts that depend on records, for one include structure of the core. */
interface RecordFacts {
  readonly structure: number;
  readonly plan: EntryPlan;
  readonly own: OwnModName | null;
  readonly streamReferences: readonly StreamReferenceDecl[];
}

/** Builds the linker ports for a project. Entry points include babproj streams found in `core`. */
export function makeLinkPorts(
  layout: ProjectLayout,
  sdk: SdkInfo | null,
  schema: SchemaQueries | null,
  resolver: CaseResolver,
  core: IndexCore,
  options: LinkOptions = {},
): LinkPorts {
  const usable = isUsableSdk(sdk) ? sdk : null;
  const confinement = options.confinement ??
    new Confinement({ projectDir: layout.dir, sdkDir: usable ? usable.dir : null }, resolver.lister);
  // The search folders are the builder's, whatever they are; what is looked up below them is confined.
  const paths = buildSearchPaths(layout, usable, [], resolver);
  const confined = resolver.confined(confinement);
  // The alias-free resolver judges which self-includes need the alias; the project's own answers come
  // from the aliased one.
  const plainResolver = new IncludeResolver(paths, confined);
  const projectResolver = new IncludeResolver(paths, confined);
  const sdkResolver = new IncludeResolver(vanillaOnlySearchPaths(usable), confined);
  const manifestCache = new Map<string, { path: string; from: "babproj" | "builtmods" } | null>();
  const rootCache = new Map<string, string | null>();
  let facts: RecordFacts | null = null;

  /** The record facts of the core's include structure, made in steps when they are out of date. */
  function* currentSteps(): Generator<void, RecordFacts, void> {
    if (facts && facts.structure === core.structure) return facts;
    const made = yield* recordFactsSteps(layout, core, confined, plainResolver, options);
    // Records do not change while one job runs in steps; a query asking meanwhile made the same facts.
    if (facts && facts.structure === made.structure) return facts;
    facts = made;
    projectResolver.setAlias(
      facts.own ? { name: facts.own.name, root: layout.dir, after: layout.dataDir } : null,
    );
    manifestCache.clear();
    return facts;
  }
  // Asked on every include the walk resolves: the common case (up to date) makes no generator.
  const current = (): RecordFacts => facts && facts.structure === core.structure ? facts : runSteps(currentSteps());

  const streamBase = (source: string): string | null => {
    const name = baseName(parseIncludeSource(source).remainder);
    return name ? name.replace(/\.[^.]*$/, "") : null;
  };

  const references: ReferenceLookup = {
    manifest(source, streamEntry) {
      const key = `${source.toLowerCase()}\u0000${streamEntry ? pathKey(streamEntry) : ""}`;
      if (manifestCache.has(key)) return manifestCache.get(key)!;
      const found = babprojManifest(current().streamReferences, source, streamEntry, layout, usable, confined) ??
        builtmodsManifest(streamBase(source), usable, confined);
      manifestCache.set(key, found);
      return found;
    },
    sdkStreamRoot(source) {
      if (!usable || !usable.vanillaDir) return null;
      const key = source.toLowerCase();
      if (rootCache.has(key)) return rootCache.get(key)!;
      const base = streamBase(source);
      const found = base ? confined.childNamed(usable.vanillaDir, `${base}.xml`, "file") : null;
      rootCache.set(key, found);
      return found;
    },
  };

  const inputs: LinkInputs = {
    projectDir: layout.dir,
    sdkDir: usable ? usable.dir : null,
    sdkUsable: usable !== null,
    get entries(): EntryPoint[] {
      return current().plan.entries.map((e) => ({
        stream: e.stream,
        file: e.file,
        layer: "project",
        context: "compiled",
        origin: e.origin,
        reason: e.reason,
      }));
    },
    *prepareSteps() {
      yield* currentSteps();
    },
    schema,
    resolve(source, includingFile, layer) {
      if (layer === "project") current();
      const r = (layer === "sdk" ? sdkResolver : projectResolver).resolve(source, includingFile);
      return { path: r.resolved, caseFixed: r.caseFixed, prefixed: r.prefix !== null, outside: r.outside };
    },
    manifestFor(source, streamEntry) {
      return references.manifest(source, streamEntry)?.path ?? null;
    },
    sdkStreamRoot: (source) => references.sdkStreamRoot(source),
    environment() {
      const f = current();
      const out: Diagnostic[] = f.plan.notes.map((n) => ({ ...n, line: n.file ? 1 : 0, column: n.file ? 1 : 0 }));
      if (f.own) out.push(aliasNote(layout, f.own));
      out.push(
        ...unlistableNotes(layout, [
          ...resolver.unlistableSeen,
          ...confined.unlistableSeen,
          ...(options.unlistedFolders?.() ?? []),
        ]),
      );
      if (options.driverNotes) out.push(...options.driverNotes());
      return out;
    },
  };
  return {
    inputs,
    projectResolver,
    sdkResolver,
    references,
    confinement,
    invalidate(path) {
      confinement.invalidate();
      plainResolver.invalidate(path);
      projectResolver.invalidate(path);
      sdkResolver.invalidate(path);
      manifestCache.clear();
      rootCache.clear();
      facts = null;
    },
  };
}

/**
 * The entry plan, the mod's own name and the babproj stream references, from the records of `core`, in
 * steps (the own-name check resolves every `DATA:` include of the project: 75-130 ms at Corona scale).
 */
function* recordFactsSteps(
  layout: ProjectLayout,
  core: IndexCore,
  resolver: CaseResolver,
  plain: IncludeResolver,
  options: LinkOptions,
): Generator<void, RecordFacts, void> {
  const structure = core.structure;
  const babprojStreams: { babproj: string; written: string }[] = [];
  const streamReferences: StreamReferenceDecl[] = [];
  for (const bp of layout.babprojFiles) {
    const rec = core.file(bp)?.record;
    if (!rec) continue;
    for (const written of rec.streamSources) babprojStreams.push({ babproj: bp, written });
    streamReferences.push(...rec.streamReferences);
  }
  const inProject = (rest: string) => resolver.resolve(layout.dir, rest, "file") !== null;
  const unresolved = yield* unresolvedDataIncludesSteps(layout, core, plain);
  const own = ownModName(baseName(layout.dir), babprojStreams.map((b) => b.written), unresolved, inProject);
  const plan = planEntries({
    projectDir: layout.dir,
    explicit: (options.entries ?? []).map((written) => ({
      written,
      file: resolver.resolvePath(toAbsolute(written, layout.dir), "file"),
    })),
    scripted: (options.buildScripts ?? []).flatMap((s) =>
      s.entries.flatMap((e) => {
        const file = resolver.resolve(layout.dir, e.inMod, "file");
        return file ? [{ script: s.path, line: e.line, file }] : [];
      })
    ),
    babproj: babprojStreams.flatMap((b) => {
      const file = locateInProject(b.written, layout.dir, resolver);
      return file ? [{ babproj: b.babproj, file }] : [];
    }),
    modXml: layout.modXml,
    staticXml: layout.staticXml,
    mapMetadata: layout.mapMetadata,
  });
  return { structure, plan, own, streamReferences };
}

/** Files whose includes are resolved between two steps of {@link unresolvedDataIncludesSteps}. */
const FILES_PER_STEP = 256;

/** The remainders of the project's `DATA:` includes that resolve nowhere without the own-name alias. */
function* unresolvedDataIncludesSteps(
  layout: ProjectLayout,
  core: IndexCore,
  plain: IncludeResolver,
): Generator<void, string[], void> {
  const out: string[] = [];
  // The records in link order first (after files appeared, that sorts them all): in steps of its own.
  yield* core.prepareOrderSteps();
  const files = [...core.values()];
  yield;
  let n = 0;
  for (const f of files) {
    if (++n % FILES_PER_STEP === 0) yield;
    if (!isInside(f.path, layout.dir)) continue;
    const sources = [...f.record.includes.map((i) => i.source), ...f.record.xincludes.map((x) => x.href)];
    for (const source of sources) {
      const parsed = parseIncludeSource(source);
      if (parsed.prefix !== "DATA" || segmentsOf(parsed.remainder).length < 2) continue;
      if (plain.resolve(source, f.path).resolved === null) out.push(parsed.remainder);
    }
  }
  return out;
}

/** One warning per project folder that cannot be listed (sorted, each once). */
function unlistableNotes(layout: ProjectLayout, folders: readonly string[]): Diagnostic[] {
  const inside = new Map<string, string>();
  for (const d of folders) if (isInside(d, layout.dir)) inside.set(pathKey(d), d);
  return [...inside.values()].sort().map((d) => ({
    code: "unlistable-folder",
    severity: "warning",
    message: `the folder ${
      displayPath({ projectDir: layout.dir, sdkDir: null }, d)
    } cannot be listed (permission denied): its files are found only when an include names them in their exact letter case, and files nothing includes there are not indexed; give the folder read permission`,
    file: null,
    line: 0,
    column: 0,
  }));
}

/** The one note that the mod's own name is mapped onto its folder. */
function aliasNote(layout: ProjectLayout, own: OwnModName): Diagnostic {
  const why = own.from === "babproj"
    ? `its .babproj builds Mods\\${own.name}\\…`
    : `${own.includes} of its includes name DATA:${own.name}/…`;
  return {
    code: "mod-name-alias",
    severity: "information",
    message: `the mod calls itself "${own.name}" (${why}) but its folder is "${
      baseName(layout.dir)
    }": DATA:${own.name}/… is resolved against the project root, as the builder would in a folder named ${own.name}`,
    file: null,
    line: 0,
    column: 0,
  };
}

/**
 * The manifest a `.babproj` StreamReference names for `source` in the stream entered at `streamEntry`
 * (a reference named by the include's file name or its path after the alias), mapped into the SDK or the
 * project; null when none matches or the manifest is not there.
 */
function babprojManifest(
  refs: readonly StreamReferenceDecl[],
  source: string,
  streamEntry: string | null,
  layout: ProjectLayout,
  sdk: SdkInfo | null,
  resolver: CaseResolver,
): { path: string; from: "babproj" } | null {
  if (refs.length === 0) return null;
  const parsed = parseIncludeSource(source);
  const names = new Set([parsed.remainder.toLowerCase(), baseName(parsed.remainder).toLowerCase()]);
  for (const r of refs) {
    if (!names.has(toPosix(r.name).replace(/^\/+/, "").toLowerCase())) continue;
    if (streamEntry) {
      const stream = locateInProject(r.stream, layout.dir, resolver);
      if (stream && pathKey(stream) !== pathKey(streamEntry)) continue;
    }
    // At least the manifest's folder and name must match: a bare `static.manifest` anywhere is not it.
    const found = (sdk ? locateUnder(r.manifest, sdk.dir, resolver, 2) : null) ??
      locateUnder(r.manifest, layout.dir, resolver, 2);
    if (found) return { path: found, from: "babproj" };
  }
  return null;
}

/** `<stream>.manifest` in the SDK's builtmods folders (the first that has it), or null. */
function builtmodsManifest(
  base: string | null,
  sdk: SdkInfo | null,
  resolver: CaseResolver,
): { path: string; from: "builtmods" } | null {
  if (!sdk || !base) return null;
  for (const dir of sdk.manifestDirs) {
    const found = resolver.childNamed(dir, `${base}.manifest`, "file");
    if (found) return { path: found, from: "builtmods" };
  }
  return null;
}

/**
 * Maps a path written on another machine (e.g. `G:\RA3 MOD SDK\Mods\X\data\aptui\Page.xml`) into the
 * project: the longest tail of its segments that exists under the project root, case-insensitively.
 */
function locateInProject(written: string, projectDir: string, resolver: CaseResolver): string | null {
  return locateUnder(written, projectDir, resolver);
}

/**
 * The longest tail of `written`'s segments (at least `minSegments` of them) that names a file under
 * `root` (ignoring case), or null.
 */
function locateUnder(written: string, root: string, resolver: CaseResolver, minSegments = 1): string | null {
  const segs = segmentsOf(toPosix(written).replace(/^[A-Za-z]:/, ""));
  for (let i = 0; i + minSegments <= segs.length; i++) {
    const hit = resolver.resolve(root, segs.slice(i).join("/"), "file");
    if (hit) return hit;
  }
  return null;
}
