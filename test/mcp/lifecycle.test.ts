// Answers while the index is not there yet, consistency "strict", edits picked up, and the servers
// started on a folder holding several mods or on a folder with none.
import { afterAll, describe, expect, test } from "bun:test";
import { cpSync, existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { IndexEnvelope } from "../../src/query/envelope.ts";
import { makeStrict, progressText } from "../../src/mcp/respond.ts";
import type { ProjectHandle } from "../../src/mcp/projects.ts";
import { bodyOf, connect, CORPORA, type Harness, type Json, resultOf, SAMPLE, textOf } from "./harness.ts";
import { tempDirs } from "../temp-dirs.ts";

const TMP = tempDirs();

const opened: Harness[] = [];
async function open(...args: Parameters<typeof connect>): Promise<Harness> {
  const h = await connect(...args);
  opened.push(h);
  return h;
}
afterAll(async () => {
  for (const h of opened) await h.close();
});

function copyOfSample(): string {
  const dir = join(TMP.make("ra3-mcp-edit-"), "Edited Mod");
  cpSync(SAMPLE, dir, { recursive: true });
  return dir;
}

describe("before the first build has published an index", () => {
  test("a query is a clear 'still building' error, get_status answers with state building", async () => {
    const h = await open(SAMPLE, { start: false });
    const r = await h.call("find_asset", { id: "AthenaSplash" });
    expect([r.isError, textOf(r)]).toEqual([
      true,
      `the index is still building (starting); retry in a moment or pass consistency: "strict" to wait\nindex building (incomplete), build 0, ${SAMPLE}`,
    ]);
    expect(r.structuredContent).toEqual({
      index: { state: "building", complete: false, stale: false, buildId: 0, builtAt: null, projectDir: SAMPLE },
      error: {
        code: "building",
        message: 'the index is still building (starting); retry in a moment or pass consistency: "strict" to wait',
      },
    });
  });

  test("get_status on a fresh server reports building or a later state, never an error", async () => {
    const h = await open(SAMPLE, { start: false });
    const r = await h.call("get_status");
    expect(r.isError ?? false).toBe(false);
    expect(["building", "ready_xml", "ready"]).toContain((r.structuredContent as Json).index.state);
  });

  test("consistency strict waits for the build, then answers", async () => {
    const h = await open(SAMPLE, { start: false });
    const r = await h.call("find_asset", { id: "AthenaSplash", consistency: "strict" });
    expect(resultOf(r).definitions.map((d: Json) => d.at)).toEqual(["Data/Includes/Weapons.xml:13"]);
    expect((r.structuredContent as Json).index.state).toBe("ready");
  });

  test("progress text per build phase", () => {
    const svc = (progress: unknown) => ({ ws: { progress } }) as never;
    expect([
      progressText(svc(null)),
      progressText(svc({ phase: "scan", done: 0, total: 0 })),
      progressText(svc({ phase: "xml", done: 64, total: 444 })),
      progressText(svc({ phase: "link", done: 0, total: 1 })),
    ]).toEqual(["(starting)", "(listing the project's files)", "(64 files of 444)", "(linking)"]);
  });

  test("strict gives up after its timeout, and on cancellation", async () => {
    const view = {
      projectDir: "/m",
      sdkDir: null,
      game: null,
      lifecycle: { state: "building", hasIndex: false, complete: false, dirty: false },
      linked: null,
      buildId: 1,
      builtAt: null,
    };
    const handle = {
      entry: { name: "m", dir: "/m", marker: "mod" },
      service: {
        strict: () => new Promise(() => {}),
        view: () => view,
        ws: { progress: { phase: "xml", done: 3, total: 10 } },
        linked: null,
      },
    } as unknown as ProjectHandle;
    const late = await makeStrict(handle, 5, new AbortController().signal);
    expect(late?.error).toEqual({
      code: "timeout",
      message:
        "the index did not finish updating within 5 ms (3 files of 10); retry, or call get_status to watch the progress",
    });
    expect((late?.index as IndexEnvelope).state).toBe("building");
    const ac = new AbortController();
    ac.abort();
    expect((await makeStrict(handle, 60_000, ac.signal))?.error).toEqual({
      code: "cancelled",
      message: "the request was cancelled",
    });
  });
});

describe("edits while the server runs", () => {
  test("strict re-checks the files on disk: an edit is in the next answer", async () => {
    const dir = copyOfSample();
    const h = await open(dir, { watch: false });
    await h.call("get_status", { consistency: "strict" });
    expect(resultOf(await h.call("find_define", { name: "ATHENA_RANGE" })).definitions[0].value).toBe("350");
    const file = join(dir, "Data", "Includes", "Defines.xml");
    writeFileSync(file, readFileSync(file, "utf8").replace('value="350"', 'value="425"'));
    // Eventual (no watcher here): the old index answers; strict re-validates stamps first.
    const strict = await h.call("find_define", { name: "ATHENA_RANGE", consistency: "strict" });
    expect(resultOf(strict).definitions[0].value).toBe("425");
  });

  test("with the watcher, an eventual answer catches up by itself", async () => {
    const dir = copyOfSample();
    const h = await open(dir, { watch: true, debounceMs: 20 });
    await h.call("get_status", { consistency: "strict" });
    const file = join(dir, "Data", "Includes", "Weapons.xml");
    writeFileSync(file, readFileSync(file, "utf8").replace('id="UnusedTestWeapon"', 'id="RenamedTestWeapon"'));
    let found = false;
    for (let i = 0; i < 100 && !found; i++) {
      const r = await h.call("find_asset", { id: "RenamedTestWeapon" });
      found = !r.isError;
      if (!found) await new Promise((res) => setTimeout(res, 50));
    }
    expect(found).toBe(true);
  });
});

describe.skipIf(!existsSync(join(CORPORA, "upheaval")))("reindex on a real mod", () => {
  test("cancelled mid-build: the client gets its abort, the previous index stays served and recovers", async () => {
    const h = await open(join(CORPORA, "upheaval"));
    const before = (await h.call("get_status", { consistency: "strict" })).structuredContent as Json;
    const ac = new AbortController();
    const pending = h.client.callTool({ name: "reindex", arguments: {} }, { signal: ac.signal });
    setTimeout(() => ac.abort("enough"), 100);
    await expect(pending).rejects.toThrow();
    const during = await h.call("find_asset", { id: "SovietDesolatorInfantry" });
    expect(during.isError ?? false).toBe(false);
    const after = (await h.call("get_status", { consistency: "strict" })).structuredContent as Json;
    expect([after.index.state, after.index.counts.assets]).toEqual(["ready", before.index.counts.assets]);
    // Three builds of a real mod over stdio: well over 5 s on a loaded machine.
  }, 60_000);
});

describe("a server started on a folder holding several mods", () => {
  const container = TMP.make("ra3-mcp-container-");
  cpSync(SAMPLE, join(container, "ModA"), { recursive: true });
  cpSync(SAMPLE, join(container, "ModB"), { recursive: true });
  let h: Harness;

  test("list_projects lists them, none opened yet; instructions say to pass project", async () => {
    h = await open(container, { cwd: container });
    const r = await h.call("list_projects");
    expect(resultOf(r)).toEqual({
      mode: "container",
      root: container,
      projects: [
        { name: "ModA", dir: join(container, "ModA"), marker: "mod", opened: false },
        { name: "ModB", dir: join(container, "ModB"), marker: "mod", opened: false },
      ],
      note: `${container} holds 2 mods; pass one of them with --project`,
    });
    expect((r.structuredContent as Json).index).toBeNull();
    expect(h.client.getInstructions()).toContain(
      `This server answers for 2 mods below ${container}: ModA, ModB. Pass project (a name from list_projects) to every tool.`,
    );
  });

  test("without project: an error naming the projects", async () => {
    const r = await h.call("find_asset", { id: "AthenaSplash" });
    expect([r.isError, textOf(r), r.structuredContent]).toEqual([
      true,
      `this server answers for 2 mods below ${container}; pass project (one of: ModA, ModB); list_projects lists them`,
      undefined,
    ]);
    expect(textOf(await h.call("get_status"))).toBe(textOf(r));
  });

  test("by folder name, by path, and a path inside a project", async () => {
    const byName = await h.call("find_asset", { id: "AthenaSplash", project: "modb", consistency: "strict" });
    expect((byName.structuredContent as Json).index.projectDir).toBe(join(container, "ModB"));
    const byPath = await h.call("get_status", { project: join(container, "ModA"), consistency: "strict" });
    expect((byPath.structuredContent as Json).index.projectDir).toBe(join(container, "ModA"));
    const inside = await h.call("is_file_active", { project: "ModA/Data/Mod.xml", path: "Data/Mod.xml" });
    expect(bodyOf(inside).split("\n")[0]).toBe("Data/Mod.xml is compiled in static (it is the entry point of static)");
    const listed = resultOf(await h.call("list_projects")).projects.map((p: Json) =>
      `${p.name} ${p.opened ?? true} ${p.state}`
    );
    expect(listed).toEqual(["ModA true ready", "ModB true ready"]);
  });

  test("an unknown project", async () => {
    const r = await h.call("find_asset", { id: "X", project: "ModC" });
    expect(textOf(r)).toBe(`no project "ModC" below ${container}; pass one of: ModA, ModB (list_projects lists them)`);
  });

  test("resources need a single project", async () => {
    await expect(h.client.readResource({ uri: "ra3://asset/WeaponTemplate/AthenaSplash" })).rejects.toThrow(
      "this server serves several mods; resources need one: use the tools with project",
    );
  });
});

describe("a server started where there is no mod", () => {
  const empty = TMP.make("ra3-mcp-nomod-");
  const why =
    `no Red Alert 3 mod at ${empty}: expected Data/Mod.xml, a *.babproj file or Data/AdditionalMaps/MapMetaData_*.xml there or in a parent folder`;

  test("get_status answers no_index and says why; other tools refuse; list_projects is empty", async () => {
    const h = await open(empty, { cwd: empty });
    const status = await h.call("get_status");
    const sc = status.structuredContent as Json;
    expect(status.isError ?? false).toBe(false);
    expect([sc.index.state, sc.index.projectDir, sc.result.note]).toEqual([
      "no_index",
      empty,
      `${why}; this folder has no index: do not use the ra3 tools for it`,
    ]);
    const q = await h.call("find_asset", { id: "X" });
    expect([q.isError, textOf(q)]).toEqual([true, `this server has no mod to answer for: ${why}`]);
    expect(resultOf(await h.call("list_projects"))).toEqual({ mode: "none", root: empty, projects: [], note: why });
    expect(h.client.getInstructions()).toContain(
      `No mod found: ${why}. get_status answers with state no_index: do not use these tools for this folder.`,
    );
  });
});

describe("resources/read while the first build runs", () => {
  test("waits for the index, then answers", async () => {
    const h = await open(SAMPLE, { start: false });
    const r = await h.client.readResource({ uri: "ra3://asset/WeaponTemplate/AthenaSplash" });
    expect((r.contents[0] as Json).text.split("\n")[0]).toBe(
      "WeaponTemplate AthenaSplash  Data/Includes/Weapons.xml lines 13-17  [project, compiled in static]",
    );
  });

  test("still building when the wait is over: -32603 the client may retry, with retryAfterMs", async () => {
    const h = await open(SAMPLE, { start: false, resourceWaitMs: 0 });
    const e = await h.client.readResource({ uri: "ra3://asset/WeaponTemplate/AthenaSplash" }).then(
      () => null,
      (x: Json) => x,
    );
    expect([e?.code, e?.message, e?.data]).toEqual([
      -32603,
      "the index is still building (starting); read the resource again in a moment",
      { reason: "building", retryAfterMs: 2000 },
    ]);
  });
});

describe("a saved snapshot: what the first answers say", () => {
  /** A state folder holding a snapshot of `dir`, written by a server that built it and closed. */
  async function homeWithSnapshot(dir: string): Promise<string> {
    const home = TMP.make("ra3-mcp-snap-home-");
    const first = await connect(dir, { home });
    await first.call("get_status", { consistency: "strict" });
    await first.close();
    return home;
  }
  const metaOf = (home: string) => {
    const dir = join(home, "snapshots");
    const name = readdirSync(dir).find((f) => f.endsWith(".meta.json"))!;
    return JSON.parse(readFileSync(join(dir, name), "utf8"));
  };

  test("instructions name the snapshot instead of 'building'; the first call is served from it", async () => {
    const dir = copyOfSample();
    const home = await homeWithSnapshot(dir);
    const meta = metaOf(home);
    const h = await open(dir, { home });
    expect(h.client.getInstructions()).toContain(
      `Index: starting from the snapshot saved ${meta.generatedAt} (build ${meta.buildId}); files changed since are re-read. Call get_status first`,
    );
    const r = await h.call("find_asset", { id: "AthenaSplash" });
    expect([r.isError ?? false, (r.structuredContent as Json).index.buildId]).toEqual([false, meta.buildId]);
  });

  test("without a snapshot the instructions say building", async () => {
    const h = await open(copyOfSample(), { start: false });
    expect(h.client.getInstructions()).toContain("Index: building since startup (no snapshot saved yet).");
  });

  test("a multi-project server's first call for a project is served from that project's snapshot", async () => {
    const container = TMP.make("ra3-mcp-snap-container-");
    cpSync(SAMPLE, join(container, "ModA"), { recursive: true });
    cpSync(SAMPLE, join(container, "ModB"), { recursive: true });
    const home = await homeWithSnapshot(join(container, "ModA"));
    const meta = metaOf(home);
    const h = await open(container, { cwd: container, home });
    const a = await h.call("find_asset", { id: "AthenaSplash", project: "ModA" });
    expect([a.isError ?? false, (a.structuredContent as Json).index.buildId]).toEqual([false, meta.buildId]);
    // ModB has no snapshot: its first call says "building" at once, as before.
    const b = await h.call("find_asset", { id: "AthenaSplash", project: "ModB" });
    expect([b.isError, (b.structuredContent as Json).error.code]).toEqual([true, "building"]);
  });
});
