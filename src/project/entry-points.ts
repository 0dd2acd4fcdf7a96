/**
 * Which files a mod's build starts from, and why — decided from what the project and the SDK contain,
 * never silently. The rule (docs/architecture.md "Entry points"):
 *
 * 1. Entries given explicitly (`--entry`) are the entries, all of them and only them.
 * 2. Otherwise, files a build script names are entries, and the well-known main files (`Data/Mod.xml`,
 *    which EA's DefaultScript.cs builds; `Data/Static.xml`, which a Kane's Wrath-style BuildMod.bat
 *    builds) that no script names are not — with a warning, since they look like entries.
 * 3. Without a script, every well-known main file that exists is an entry; two of them is a warning.
 * 4. Always (unless explicit): each `Data/AdditionalMaps/MapMetaData_*.xml` (a global stream) and each
 *    `.babproj` `<Stream>` is an entry too.
 *
 * A file reached by several of these is one entry with every reason. Pure: the caller finds the files.
 */
import { isMapMetadataName } from "./detect.ts";
import { baseName, displayPath, pathKey } from "./paths.ts";

/** Where an entry point came from (see `EntryOrigin` in the index layer: the same values). */
export type EntrySource = "explicit" | "build-script" | "babproj" | "well-known" | "map-metadata";

/** What the planner is told about the project (absolute, real-cased paths; null when absent). */
export interface EntryFacts {
  readonly projectDir: string;
  /** `--entry` values: as written, and the file each names (null when it names no file). */
  readonly explicit: readonly { readonly written: string; readonly file: string | null }[];
  /** Files build scripts name: the script (absolute), its line, and the file in the project. */
  readonly scripted: readonly { readonly script: string; readonly line: number; readonly file: string }[];
  /** `.babproj` streams found in the project: the babproj file and the stream's file. */
  readonly babproj: readonly { readonly babproj: string; readonly file: string }[];
  readonly modXml: string | null;
  readonly staticXml: string | null;
  readonly mapMetadata: readonly string[];
}

export interface PlannedEntry {
  readonly stream: string;
  readonly file: string;
  readonly origin: EntrySource;
  /** Every reason, joined: "named by BuildMod.bat:3; a <Stream> of mod.babproj". */
  readonly reason: string;
}

/** A finding about the entry points, for the diagnostics. */
export interface EntryNote {
  readonly code: "entry-conflict" | "entry-not-found";
  readonly severity: "warning" | "error";
  readonly message: string;
  readonly file: string | null;
}

export interface EntryPlan {
  readonly entries: readonly PlannedEntry[];
  readonly notes: readonly EntryNote[];
}

/**
 * The entry points of a project and what was noticed deciding them.
 * @example planEntries({ ...facts, modXml: "/m/X/Data/Mod.xml" }).entries[0] // { stream: "static", file: "/m/X/Data/Mod.xml", origin: "well-known", reason: "…" }
 */
export function planEntries(facts: EntryFacts): EntryPlan {
  const shown = (p: string) => displayPath({ projectDir: facts.projectDir, sdkDir: null }, p);
  const plan = new PlanBuilder(shown);
  const notes: EntryNote[] = [];
  if (facts.explicit.length > 0) {
    for (const e of facts.explicit) {
      if (e.file) plan.add(e.file, "explicit", "given with --entry");
      else {
        notes.push({
          code: "entry-not-found",
          severity: "error",
          message: `--entry ${e.written} names no file of the project; it is ignored`,
          file: null,
        });
      }
    }
    return { entries: plan.entries(), notes };
  }
  const mains = [
    { file: facts.modXml, why: "the static stream EA's DefaultScript.cs builds" },
    { file: facts.staticXml, why: "the static stream of a Kane's Wrath-style build (BuildMod.bat)" },
  ].filter((m): m is { file: string; why: string } => m.file !== null);
  for (const s of facts.scripted) plan.add(s.file, "build-script", `named by ${baseName(s.script)}:${s.line}`);
  if (facts.scripted.length > 0) {
    for (const m of mains) {
      if (plan.has(m.file)) continue;
      const named = [...new Set(facts.scripted.map((s) => shown(s.file)))].join(", ");
      notes.push({
        code: "entry-conflict",
        severity: "warning",
        message: `${shown(m.file)} looks like an entry point, but the build script ${
          baseName(facts.scripted[0].script)
        } builds ${named}: ${shown(m.file)} is treated as not included`,
        file: m.file,
      });
    }
  } else {
    for (const m of mains) plan.add(m.file, "well-known", `${shown(m.file)}: ${m.why}`);
  }
  for (const f of facts.mapMetadata) plan.add(f, "map-metadata", "a map-metadata file: built as a global stream");
  for (const b of facts.babproj) plan.add(b.file, "babproj", `a <Stream> of ${baseName(b.babproj)}`);
  const mainEntries = plan.entries().filter((e) => isMainName(e.file));
  if (mainEntries.length > 1) {
    notes.push({
      code: "entry-conflict",
      severity: "warning",
      message: `two plausible entry points disagree: ${
        mainEntries.map((e) => `${shown(e.file)} (${e.reason})`).join(" and ")
      }; both are indexed as compiled`,
      file: mainEntries[1].file,
    });
  }
  return { entries: plan.entries(), notes };
}

/** `mod.xml` or `static.xml`, any case: the root of a static stream. */
function isMainName(file: string): boolean {
  const b = baseName(file).toLowerCase();
  return b === "mod.xml" || b === "static.xml";
}

/** Entries in order of first mention, each with its reasons; stream names unique. */
class PlanBuilder {
  private readonly byKey = new Map<string, { file: string; origin: EntrySource; reasons: string[] }>();
  private readonly order: string[] = [];

  constructor(private readonly shown: (p: string) => string) {}

  has(file: string): boolean {
    return this.byKey.has(pathKey(file));
  }

  add(file: string, origin: EntrySource, reason: string): void {
    const key = pathKey(file);
    const hit = this.byKey.get(key);
    if (hit) {
      if (!hit.reasons.includes(reason)) hit.reasons.push(reason);
      return;
    }
    this.byKey.set(key, { file, origin, reasons: [reason] });
    this.order.push(key);
  }

  entries(): PlannedEntry[] {
    const names = new Set<string>();
    let mains = 0;
    return this.order.map((key) => {
      const e = this.byKey.get(key)!;
      const base = baseName(e.file).replace(/\.xml$/i, "");
      // Streams are named by the file's role: the first static root is `static`, a map-metadata file a
      // `global:` stream, the rest by where they came from.
      let stream = isMainName(e.file)
        ? (mains++ === 0 ? "static" : `static:${base}`)
        : isMapMetadataName(baseName(e.file))
        ? `global:${base}`
        : `${e.origin === "babproj" ? "babproj" : e.origin === "build-script" ? "script" : "entry"}:${base}`;
      if (names.has(stream)) stream = `${stream}:${this.shown(e.file)}`;
      names.add(stream);
      return { stream, file: e.file, origin: e.origin, reason: e.reasons.join("; ") };
    });
  }
}
