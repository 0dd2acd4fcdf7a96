/**
 * Reachable-first cold builds (issue 16 item 4): a server's build parses what the include graph reaches,
 * publishes it (`reachedOnly`) when the rest is the larger part, then parses the rest. The index after
 * the rest, and after the art, must equal a build that parses everything first: the same files, assets,
 * sites, diagnostics, orders and export bytes. Checked on synthetic mods that stress what a partial
 * record set walks differently (the mod's own-name alias, includes out of the project, files that cannot
 * be read, a .babproj stream, cycles), the sample mod, a generated corpus and the real corpora.
 */
import { describe, expect, test } from "bun:test";
import { cpSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { LinkedIndex } from "../../src/index/linked.ts";
import { presentMessage } from "../../src/query/diagnostic-codes.ts";
import { exportSnapshot } from "../../src/store/export.ts";
import { resolveConfig } from "../../src/workspace/config.ts";
import type { FileSource } from "../../src/workspace/file-source.ts";
import { type BuildReport, Workspace } from "../../src/workspace/workspace.ts";
import { generateCorpus } from "../../scripts/gen-corpus/generate.ts";
import { CORPORA } from "../../scripts/corpora.ts";
import { existsSync } from "node:fs";
import { tempDirs } from "../temp-dirs.ts";
import { SAMPLE } from "./sample-copy.ts";

const TMP = tempDirs();

/** Writes `files` (relative path → text) under a new folder named `name`; returns its path. */
function writeMod(name: string, files: Record<string, string>): string {
  const dir = join(TMP.make("ra3-reach-"), name);
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, rel)), { recursive: true });
    writeFileSync(join(dir, rel), text);
  }
  return dir;
}

const decl = (body: string, includes = "") =>
  `<?xml version="1.0" encoding="utf-8"?>\n<AssetDeclaration xmlns="uri:ea.com:eala:asset" xmlns:xi="http://www.w3.org/2001/XInclude">\n${
    includes ? `  <Includes>\n${includes}  </Includes>\n` : ""
  }${body}</AssetDeclaration>\n`;
const inc = (type: string, source: string) => `    <Include type="${type}" source="${source}"/>\n`;
const weapon = (id: string, uses = "") =>
  `  <WeaponTemplate id="${id}"${uses ? ` ProjectileTemplate="${uses}"` : ""}/>\n`;
/** A not-included draft: big enough that the rest outweighs what the include graph reaches. */
const draft = (i: number) =>
  decl(
    Array.from({ length: 12 }, (_, k) => weapon(`Draft${i}Weapon${k}`, k % 3 === 0 ? "ReachedWeapon" : "")).join(
      "",
    ),
  );

/** What a test reads of one build: the index after the XML phase and the final one, and the first one. */
interface Built {
  readonly ws: Workspace;
  readonly report: BuildReport;
  /** The first published index (reachable-first: the reachable one), with whether it was reachedOnly. */
  readonly first: { linked: LinkedIndex; reachedOnly: boolean } | null;
  /** The index published when the art phase began (every XML file). */
  readonly xml: LinkedIndex | null;
  readonly final: LinkedIndex;
}

async function buildOf(
  request: { project: string; sdk?: string; schema?: string | null },
  reachableFirst: boolean,
  source?: FileSource,
): Promise<Built> {
  const cfg = resolveConfig({
    project: request.project,
    sdk: request.sdk ?? "",
    schema: request.schema ?? null,
    home: TMP.make("ra3-reach-home-"),
    env: {},
  });
  if ("envError" in cfg) throw new Error(cfg.envError);
  const ws = new Workspace(cfg, undefined, source);
  let first: Built["first"] = null;
  let xml: LinkedIndex | null = null;
  const report = await ws.build(
    (phase) => {
      if (!first && ws.linked) first = { linked: ws.linked, reachedOnly: ws.reachedOnly };
      if (phase === "art" && !xml) xml = ws.linked;
    },
    undefined,
    { reachableFirst },
  );
  return { ws, report, first, xml, final: ws.linked! };
}

/** Every published list of an index as comparable JSON (what bench-link's fingerprint hashes). */
function contents(linked: LinkedIndex): Record<string, string> {
  const j = (v: unknown) => JSON.stringify(v);
  return {
    files: j([...linked.files]),
    assets: j(linked.assets),
    sites: j(linked.sites),
    includes: j(linked.includes),
    defines: j([...linked.defines]),
    diagnostics: j(linked.diagnostics.map((d) => ({ ...d, message: presentMessage(d) }))),
    streams: j(linked.streams),
    stats: j({ ...linked.stats, linkMs: 0 }),
    wanted: j(linked.wanted),
    defineUses: j([...linked.defineUses]),
    strings: j(linked.strings),
    poidSites: j(linked.poidSites),
    stringUses: j([...linked.stringUses]),
    byId: j([...linked.byId]),
    byType: j([...linked.byType]),
  };
}

const META = {
  toolVersion: "0",
  generatedAt: "2026-01-01T00:00:00.000Z",
  buildId: 1,
  phase: "art" as const,
  complete: true,
  stale: false,
  stats: { linkMs: 0 },
};

/** Builds `request` both ways and expects equal XML-phase and final indexes, records and export bytes. */
async function expectSameAsFullBuild(
  request: { project: string; sdk?: string; schema?: string | null },
  source?: () => FileSource,
): Promise<{ reach: Built; full: Built }> {
  const full = await buildOf(request, false, source?.());
  const reach = await buildOf(request, true, source?.());
  expect(contents(reach.xml!)).toEqual(contents(full.xml!));
  expect(contents(reach.final)).toEqual(contents(full.final));
  const order = (b: Built) => [...b.ws.core.values()].map((f) => [f.path, f.stamp]);
  expect(order(reach)).toEqual(order(full));
  const bytes = (b: Built) => Buffer.from(exportSnapshot(b.final, b.ws.core, META, "json")).toString("utf8");
  expect(bytes(reach)).toBe(bytes(full));
  expect(reach.report.unreadable).toEqual(full.report.unreadable);
  expect([reach.report.parsedFiles, reach.report.sdkFiles, reach.report.artFiles]).toEqual([
    full.report.parsedFiles,
    full.report.sdkFiles,
    full.report.artFiles,
  ]);
  return { reach, full };
}

/** The project XML files of an index with a record, relative to the project, sorted. */
function projectFiles(linked: LinkedIndex, states?: readonly string[]): string[] {
  const out: string[] = [];
  for (const f of linked.files.values()) {
    if (f.origin !== "project" || f.kind === "missing" || !f.path.endsWith(".xml")) continue;
    if (states && !states.includes(f.state)) continue;
    out.push(f.path.slice(linked.projectDir.length + 1).replace(/\\/g, "/"));
  }
  return out.sort();
}

describe("reachable first, then the rest: the same index as a full build", () => {
  test("a mod with not-included drafts: published reachable-only first, then every file", async () => {
    const dir = writeMod("Drafty", {
      "Data/Mod.xml": decl("", inc("all", "Includes/Weapons.xml") + inc("instance", "Includes/Inst.xml")),
      "Data/Includes/Weapons.xml": decl(weapon("ReachedWeapon"), inc("all", "Loop.xml")),
      "Data/Includes/Loop.xml": decl(weapon("LoopWeapon", "Draft1Weapon0"), inc("all", "Weapons.xml")),
      "Data/Includes/Inst.xml": decl(weapon("InstWeapon"), inc("all", "Missing.xml")),
      ...Object.fromEntries(Array.from({ length: 6 }, (_, i) => [`Data/Drafts/Draft${i}.xml`, draft(i)])),
      // A draft that includes a reached file: its edge exists only in the complete index.
      "Data/Drafts/Includer.xml": decl(weapon("IncluderWeapon"), inc("all", "../Includes/Weapons.xml")),
    });
    const { reach } = await expectSameAsFullBuild({ project: dir });
    const first = reach.first!;
    expect(first.reachedOnly).toBe(true);
    expect(reach.report.reachedFiles).toBe(4);
    expect(projectFiles(first.linked)).toEqual([
      "Data/Includes/Inst.xml",
      "Data/Includes/Loop.xml",
      "Data/Includes/Weapons.xml",
      "Data/Mod.xml",
    ]);
    // The reachable index holds exactly what the final index compiles or references, in the same states.
    expect(projectFiles(first.linked)).toEqual(projectFiles(reach.final, ["compiled", "referenced"]));
    for (const f of first.linked.files.values()) {
      if (f.kind !== "missing") expect([f.path, f.state]).toEqual([f.path, reach.final.file(f.path)!.state]);
    }
    expect(first.linked.findAssets("Draft3Weapon1")).toEqual([]);
    expect(reach.final.findAssets("Draft3Weapon1").length).toBe(1);
    expect(reach.ws.reachedOnly).toBe(false);
    expect(reach.ws.lifecycle.state).toBe("ready");
  });

  test("a mod cloned under another folder name: the own-name alias (decided from every file) is the same", async () => {
    // Self-includes `DATA:Real/…` in a reached file and in not-included ones: with only the reached
    // files, the alias evidence differs; the final index must not.
    const dir = writeMod("Clone", {
      "Data/Mod.xml": decl("", inc("all", "DATA:Real/Data/Includes/A.xml")),
      "Data/Includes/A.xml": decl(weapon("AWeapon"), inc("all", "DATA:Real/Data/Includes/B.xml")),
      "Data/Includes/B.xml": decl(weapon("BWeapon")),
      "Data/Drafts/Old.xml": decl(weapon("OldWeapon"), inc("all", "DATA:Real/Data/Includes/B.xml")),
      ...Object.fromEntries(Array.from({ length: 4 }, (_, i) => [`Data/Drafts/Draft${i}.xml`, draft(i)])),
    });
    const { reach } = await expectSameAsFullBuild({ project: dir });
    expect(reach.final.diagnostics.some((d) => d.code === "mod-name-alias")).toBe(true);
    expect(projectFiles(reach.final, ["compiled"])).toEqual([
      "Data/Includes/A.xml",
      "Data/Includes/B.xml",
      "Data/Mod.xml",
    ]);
  });

  test("includes out of the project, a .babproj stream and files that cannot be read", async () => {
    const base = TMP.make("ra3-reach-outside-");
    const dir = join(base, "Outer");
    const other = join(base, "Shared");
    const write = (root: string, rel: string, text: string) => {
      mkdirSync(dirname(join(root, rel)), { recursive: true });
      writeFileSync(join(root, rel), text);
    };
    write(other, "Common.xml", decl(weapon("CommonWeapon"), inc("all", "Deeper.xml")));
    write(other, "Deeper.xml", decl(weapon("DeeperWeapon")));
    write(other, "OnlyFromDraft.xml", decl(weapon("OnlyFromDraftWeapon")));
    write(
      dir,
      "Outer.babproj",
      `<?xml version="1.0"?>\n<BinaryAssetBuilderProject xmlns="urn:xmlns:ea.com:babproject">\n  <Stream Source="G:\\SDK\\Mods\\Outer\\data\\mod.xml"><Configuration Name="" Default="true"/></Stream>\n  <Stream Source="G:\\SDK\\Mods\\Outer\\data\\ui\\Page.xml"><Configuration Name=""/></Stream>\n</BinaryAssetBuilderProject>\n`,
    );
    write(dir, "Data/Mod.xml", decl("", inc("all", "../../Shared/Common.xml") + inc("all", "Locked.xml")));
    write(dir, "Data/Locked.xml", decl(weapon("LockedWeapon")));
    write(dir, "Data/UI/Page.xml", decl(weapon("PageWeapon")));
    write(
      dir,
      "Data/Drafts/UsesShared.xml",
      decl(weapon("UsesSharedWeapon"), inc("all", "../../../Shared/OnlyFromDraft.xml")),
    );
    for (let i = 0; i < 5; i++) write(dir, `Data/Drafts/Draft${i}.xml`, draft(i));
    // One reached file cannot be read (permission denied), one draft neither.
    const denied = (path: string) => /Locked\.xml$|Draft2\.xml$/.test(path);
    const source = (): FileSource => ({
      read(path) {
        if (denied(path)) throw Object.assign(new Error("EACCES: permission denied"), { code: "EACCES" });
        return readFileSync(path);
      },
    });
    const { reach } = await expectSameAsFullBuild({ project: dir }, source);
    expect(reach.first!.reachedOnly).toBe(true);
    // The babproj's second stream is an entry of the reachable index too.
    expect(reach.first!.linked.streams.map((s) => s.entry.slice(dir.length + 1).replace(/\\/g, "/"))).toEqual([
      "Data/Mod.xml",
      "Data/UI/Page.xml",
    ]);
    expect(reach.first!.linked.findAssets("DeeperWeapon").length).toBe(1);
    // Out of the project, only what a stream reaches is read (the includes of a not-included file are
    // resolved, not followed), in both builds.
    expect(reach.final.findAssets("OnlyFromDraftWeapon")).toEqual([]);
    expect(reach.final.findAssets("LockedWeapon")).toEqual([]);
    expect(reach.final.diagnostics.filter((d) => d.code === "unreadable-file").length).toBe(2);
    expect(reach.report.unreadable.map((u) => [u.path.slice(base.length + 1), u.error])).toEqual([
      ["Outer/Data/Drafts/Draft2.xml", "EACCES"],
      ["Outer/Data/Locked.xml", "EACCES"],
    ]);
  });

  test("the sample mod: the reachable part is the larger one, so one XML index is published", async () => {
    const { reach } = await expectSameAsFullBuild({ project: SAMPLE });
    expect([reach.report.reachedFiles, reach.first!.reachedOnly]).toEqual([null, false]);
    expect(reach.first!.linked).toBe(reach.xml!);
  });

  test("a generated corpus (scale 0.03, its own XSD set)", async () => {
    const dir = join(TMP.make("ra3-reach-gen-"), "Gen");
    generateCorpus({ out: dir, scale: 0.03, seed: 3, artMb: 1 });
    const { reach } = await expectSameAsFullBuild({ project: dir, schema: join(dir, "Schemas", "xsd") });
    expect(reach.final.files.size).toBeGreaterThan(200);
  }, 60_000);

  const upheaval = join(CORPORA, "upheaval");
  test.skipIf(!existsSync(upheaval))("Upheaval (project-only): 387 reachable files published first", async () => {
    const { reach } = await expectSameAsFullBuild({ project: upheaval });
    expect([reach.first!.reachedOnly, reach.report.reachedFiles]).toEqual([true, 387]);
    expect(projectFiles(reach.first!.linked)).toEqual(projectFiles(reach.final, ["compiled", "referenced"]));
  }, 60_000);

  const tw = join(CORPORA, "tw-sdk");
  test.skipIf(!existsSync(tw))("the TW SDK in SDK mode (vanilla streams, manifests)", async () => {
    await expectSameAsFullBuild({ project: join(tw, "Mods", "Commander"), sdk: tw });
  }, 60_000);
});

describe("a build that fails after publishing the reachable part", () => {
  test("keeps saying reachedOnly, and nothing waits for a rest that will not come", async () => {
    const dir = writeMod("Cancelled", {
      "Data/Mod.xml": decl("", inc("all", "Includes/Weapons.xml")),
      "Data/Includes/Weapons.xml": decl(weapon("ReachedWeapon")),
      ...Object.fromEntries(Array.from({ length: 6 }, (_, i) => [`Data/Drafts/Draft${i}.xml`, draft(i)])),
    });
    const cfg = resolveConfig({ project: dir, sdk: "", schema: null, home: TMP.make("ra3-reach-home-"), env: {} });
    if ("envError" in cfg) throw new Error(cfg.envError);
    const ac = new AbortController();
    let pending: Promise<boolean> | null = null;
    // Cancelled while the first draft is read, after the reachable index was published.
    const source: FileSource = {
      read(path) {
        if (ws.reachedOnly && !ac.signal.aborted) {
          pending = ws.waitForRest(60_000);
          ac.abort();
        }
        return readFileSync(path);
      },
    };
    const ws: Workspace = new Workspace(cfg, undefined, source);
    const build = ws.build(undefined, ac.signal);
    await expect(build).rejects.toThrow("the index build was cancelled");
    expect(await pending!).toBe(false);
    expect([ws.reachedOnly, ws.lifecycle.state, ws.linked!.findAssets("Draft1Weapon1").length]).toEqual([
      true,
      "error",
      0,
    ]);
    expect(await ws.waitForRest(60_000)).toBe(false); // at once: no build is parsing the rest
  });
});

describe("a rebuild", () => {
  test("of a workspace that has an index re-reads every file, every XML file first", async () => {
    const dir = writeMod("Rebuilt", {
      "Data/Mod.xml": decl("", inc("all", "Includes/Weapons.xml")),
      "Data/Includes/Weapons.xml": decl(weapon("ReachedWeapon")),
      ...Object.fromEntries(Array.from({ length: 6 }, (_, i) => [`Data/Drafts/Draft${i}.xml`, draft(i)])),
    });
    const reads: string[] = [];
    const counting: FileSource = {
      read(path) {
        reads.push(path);
        return readFileSync(path);
      },
    };
    const cfg = resolveConfig({ project: dir, sdk: "", schema: null, home: TMP.make("ra3-reach-home-"), env: {} });
    if ("envError" in cfg) throw new Error(cfg.envError);
    const ws = new Workspace(cfg, undefined, counting);
    const first = await ws.build();
    expect([first.reachedFiles, reads.length]).toEqual([2, 8]);
    reads.length = 0;
    const again = await ws.build();
    expect([again.reachedFiles, reads.length, ws.reachedOnly]).toEqual([null, 8, false]);
  });
});

describe("while the rest is pending", () => {
  test("waitForRest resolves when the rest is indexed; a copy of the sample mod with drafts", async () => {
    const dir = join(TMP.make("ra3-reach-wait-"), "Sample Mod");
    cpSync(SAMPLE, dir, { recursive: true });
    for (let i = 0; i < 16; i++) {
      mkdirSync(join(dir, "Data", "Drafts"), { recursive: true });
      writeFileSync(join(dir, "Data", "Drafts", `Draft${i}.xml`), draft(i));
    }
    const cfg = resolveConfig({ project: dir, sdk: "", schema: null, home: TMP.make("ra3-reach-home-"), env: {} });
    if ("envError" in cfg) throw new Error(cfg.envError);
    const ws = new Workspace(cfg);
    expect(await ws.waitForRest(1000)).toBe(true); // nothing pending before a build
    const seen: { reachedOnly: boolean; rest: Promise<boolean> | null }[] = [];
    let restDone = false;
    const build = ws.build(() => {
      if (ws.reachedOnly && seen.length === 0) {
        const rest = ws.waitForRest(60_000).then((v) => {
          restDone = true;
          return v;
        });
        seen.push({ reachedOnly: true, rest });
      }
    });
    await build;
    expect(seen.length).toBe(1);
    expect(restDone).toBe(true);
    expect(await seen[0].rest).toBe(true);
    expect(ws.reachedOnly).toBe(false);
    // A wait that times out says so (a source taking 5 ms per file: the rest takes longer than the wait).
    const slow: FileSource = {
      read(path) {
        const until = performance.now() + 5;
        while (performance.now() < until) { /* busy */ }
        return readFileSync(path);
      },
    };
    const ws2 = new Workspace(cfg, undefined, slow);
    const building = ws2.build();
    // Seen from timers, which run only while the build yields.
    while (!ws2.reachedOnly) await new Promise((r) => setTimeout(r, 1));
    const timedOut = !(await ws2.waitForRest(1));
    await building;
    expect(timedOut).toBe(true);
  });
});
