/**
 * How the compact JSON answers (`query/answers.ts`, shared by `ra3 --json` and MCP
 * `structuredContent.result`) spell issue 11's facts: a state only when it is not the usual `compiled`
 * (then with `active: false`), `fileHasErrors` only when true, the include chain with its hops as
 * `"path:line"`, an XML error as `{at, message}`, `foreign`, an include's `resolution` when something
 * other than the file answers it and a missing or invalid `type` written `null`, `asReference` only
 * when a manifest or an SDK stream answers a reference include, `list_files` items without what equals
 * the filter. In-memory mods through the real core, linker and queries.
 */
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { loadSchema } from "../../src/schema/load.ts";
import { Schema } from "../../src/schema/schema.ts";
import {
  fileAnswer,
  findAssetAnswer,
  findReferencesAnswer,
  listAssetsAnswer,
  listFilesAnswer,
  resolveIncludeAnswer,
  statusAnswer,
} from "../../src/query/answers.ts";
import type { StatusResult } from "../../src/query/status.ts";
import { findAsset, listAssets } from "../../src/query/assets.ts";
import { listFiles } from "../../src/query/file-list.ts";
import { fileQuery } from "../../src/query/files.ts";
import { findReferences } from "../../src/query/references.ts";
import { ok, SAMPLE } from "./sample.ts";
import {
  doc,
  includes,
  type MemFixture,
  memIndex,
  referenceIncludeMod,
  resolveSharedInclude,
} from "../index/fixture.ts";

const sample = new Schema(loadSchema(join(SAMPLE, "Schemas", "xsd")).model!);

describe("states: left out when compiled, written with active: false otherwise", () => {
  const { linked } = memIndex({
    "Data/Mod.xml": doc(includes(["all", "Units.xml"], ["reference", "Shared.xml"])),
    "Data/Units.xml": doc(`<GameObject id="Tank" inheritFrom="SharedBase" />`),
    "Data/Shared.xml": doc(includes(["all", "SharedMore.xml"]) + `\n<GameObject id="SharedBase" />`),
    "Data/SharedMore.xml": doc(`<GameObject id="Deep" inheritFrom="SharedBase" />`),
    "Data/Draft.xml": doc(`<GameObject id="Draft" inheritFrom="SharedBase" />`),
  }, sample);

  test("find_asset: a compiled definition has neither; a referenced one has both", () => {
    expect(findAssetAnswer(ok(findAsset(linked, "Tank")))).toEqual({
      id: "Tank",
      definitions: [{
        type: "GameObject",
        at: "Data/Units.xml:3",
        endLine: 3,
        streams: ["static"],
        inheritFrom: "SharedBase",
      }],
    });
    expect(findAssetAnswer(ok(findAsset(linked, "SharedBase"))).definitions).toEqual([{
      type: "GameObject",
      at: "Data/Shared.xml:6",
      endLine: 6,
      streams: ["static"],
      state: "referenced",
      active: false,
    }]);
  });

  test("find_references and list_assets_by_type: per site and per item", () => {
    expect(findReferencesAnswer(ok(findReferences(linked, "SharedBase"))).references).toEqual([
      { from: "GameObject:Tank", at: "Data/Units.xml:3", via: "inheritFrom" },
      { from: "GameObject:Deep", at: "Data/SharedMore.xml:3", via: "inheritFrom", state: "referenced", active: false },
      { from: "GameObject:Draft", at: "Data/Draft.xml:3", via: "inheritFrom", state: "not-included", active: false },
    ]);
    expect(listAssetsAnswer(ok(listAssets(linked, "GameObject", { limit: 10 }))).items).toEqual([
      { id: "Deep", at: "Data/SharedMore.xml:3", state: "referenced", active: false },
      { id: "Draft", at: "Data/Draft.xml:3", state: "not-included", active: false },
      { id: "SharedBase", at: "Data/Shared.xml:6", state: "referenced", active: false },
      { id: "Tank", at: "Data/Units.xml:3" },
    ]);
  });

  test("is_file_active: the chain's hops as path:line, type left out when all", () => {
    const r = fileAnswer(ok(fileQuery(linked, "Data/SharedMore.xml")));
    expect([r.state, r.active, r.chain]).toEqual(["referenced", false, {
      entry: "Data/Mod.xml",
      stream: "static",
      reason: "Data/Mod.xml: the static stream EA's DefaultScript.cs builds",
      hops: [
        { at: "Data/Mod.xml:5", source: "Shared.xml", type: "reference" },
        { at: "Data/Shared.xml:4", source: "SharedMore.xml" },
      ],
    }]);
    const compiled = fileAnswer(ok(fileQuery(linked, "Data/Units.xml")));
    expect(["state" in compiled, "active" in compiled, compiled.chain]).toEqual([false, false, {
      entry: "Data/Mod.xml",
      stream: "static",
      reason: "Data/Mod.xml: the static stream EA's DefaultScript.cs builds",
      hops: [{ at: "Data/Mod.xml:4", source: "Units.xml" }],
    }]);
    const draft = fileAnswer(ok(fileQuery(linked, "Data/Draft.xml")));
    expect([draft.state, draft.active, "chain" in draft]).toEqual(["not-included", false, false]);
  });

  test("list_files: an item's state left out when it is the filter's, or compiled without a filter", () => {
    expect(listFilesAnswer(ok(listFiles(linked, {})))).toEqual({
      total: 5,
      byState: { compiled: 2, referenced: 2, "not-included": 1 },
      items: [
        { file: "Data/Draft.xml", state: "not-included", assets: 1 },
        { file: "Data/Mod.xml", streams: ["static"], assets: 0 },
        { file: "Data/Shared.xml", state: "referenced", streams: ["static"], assets: 1 },
        { file: "Data/SharedMore.xml", state: "referenced", streams: ["static"], assets: 1 },
        { file: "Data/Units.xml", streams: ["static"], assets: 1 },
      ],
    });
    expect(listFilesAnswer(ok(listFiles(linked, { state: "referenced", limit: 1 })))).toEqual({
      state: "referenced",
      total: 2,
      byState: { compiled: 2, referenced: 2, "not-included": 1 },
      items: [{ file: "Data/Shared.xml", streams: ["static"], assets: 1 }],
      nextCursor: ok(listFiles(linked, { state: "referenced", limit: 1 })).nextCursor,
    });
  });
});

describe("a reference include: asReference only when a manifest answers it", () => {
  const files = referenceIncludeMod;
  const resolve = (f: MemFixture) => resolveIncludeAnswer(resolveSharedInclude(f));

  test("with the manifest: answeredBy, the manifest and where it was named; the edge's resolution", () => {
    const f = memIndex(files(true), sample);
    const r = resolve(f);
    expect([r.state, r.active, r.asReference]).toEqual(["not-included", false, {
      answeredBy: "manifest",
      manifest: "BuiltMods/Mods/Shared.manifest",
      manifestFrom: "babproj",
    }]);
    expect(fileAnswer(ok(fileQuery(f.linked, "Data/Mod.xml"))).includes).toEqual([
      { line: 4, source: "Shared.xml", type: "reference", resolution: "manifest", target: "Data/Shared.xml" },
    ]);
  });

  test("without it: the XML answers (the usual case), so no asReference; the file is referenced", () => {
    const r = resolve(memIndex(files(false), sample));
    expect([r.state, r.active, "asReference" in r]).toEqual(["referenced", false, false]);
  });
});

describe("broken, foreign and ignored", () => {
  const { linked } = memIndex({
    "Data/Mod.xml": doc(
      `\t<Includes>\n\t\t<Include type="everything" source="Units.xml" />\n\t\t<Include type="all" source="Broken.xml" />\n\t\t<Include type="all" source="Events.xml" />\n\t</Includes>`,
    ),
    "Data/Units.xml": doc(`<GameObject id="Tank" />`),
    "Data/Broken.xml": doc(`<WeaponTemplate id="Gun" Damage="1" Damage="2" />`),
    "Data/Events.xml":
      `<?xml version="1.0"?>\n<SageLuaScriptSection xmlns="http://tempuri.org/ScriptEvents.xsd"><Events /></SageLuaScriptSection>\n`,
  }, sample);

  test("a definition in a broken file: fileHasErrors and its note; the file's xmlError at path:line:column", () => {
    const r = findAssetAnswer(ok(findAsset(linked, "Gun")));
    expect([r.definitions, r.notes]).toEqual([
      [{ type: "WeaponTemplate", at: "Data/Broken.xml:3", endLine: 3, streams: ["static"], fileHasErrors: true }],
      [
        "WeaponTemplate Gun is defined at Data/Broken.xml:3, but Data/Broken.xml has an XML error at Data/Broken.xml:3 (duplicate attribute 'Damage' in start tag <WeaponTemplate>): the builder will reject this file until it is fixed",
      ],
    ]);
    expect(fileAnswer(ok(fileQuery(linked, "Data/Broken.xml"))).xmlError).toEqual({
      at: "Data/Broken.xml:3:37",
      message: "duplicate attribute 'Damage' in start tag <WeaponTemplate>",
    });
  });

  test("an include with an invalid type: type null, resolution ignored; foreign XML flagged", () => {
    expect(fileAnswer(ok(fileQuery(linked, "Data/Mod.xml"))).includes).toEqual([
      { line: 4, source: "Units.xml", resolution: "ignored", target: "Data/Units.xml", type: null },
      { line: 5, source: "Broken.xml", target: "Data/Broken.xml" },
      { line: 6, source: "Events.xml", target: "Data/Events.xml" },
    ]);
    const events = fileAnswer(ok(fileQuery(linked, "Data/Events.xml")));
    expect([events.foreign, "state" in events]).toEqual([true, false]);
    expect(fileAnswer(ok(fileQuery(linked, "Data/Units.xml"))).state).toBe("not-included");
  });
});

describe("get_status: each stream's origin and reason; context only when referenced; entryNotes when any", () => {
  // A status as statusOf gives it for a mod whose build script names Data/Static.xml, beside the
  // SDK's vanilla stream a reference include pulls in (the facts only; statusOf is tested elsewhere).
  const status: StatusResult = {
    project: "/mods/KW Mod",
    marker: "static",
    game: "kw",
    mode: "sdk",
    sdk: { dir: "/sdk", status: "ok", source: "flag", missing: [] },
    sdkCandidates: [],
    schema: { dir: null, source: null, files: 0, heuristic: true },
    state: "ready",
    buildId: 1,
    builtAt: null,
    complete: true,
    stale: false,
    streams: [
      {
        name: "static",
        entry: "Data/Static.xml",
        context: "compiled",
        origin: "build-script",
        reason: "named by BuildMod.bat:5",
        files: 3,
      },
      {
        name: "sdk:static",
        entry: "CnC3Xml/static.xml",
        context: "referenced",
        origin: "sdk-stream",
        reason: "the SDK stream a reference include of Data/Static.xml:4 names",
        files: 900,
      },
    ],
    entryNotes: ["Data/Mod.xml looks like an entry point, but the build script BuildMod.bat builds Data/Static.xml"],
    types: ["GameObject"],
  };

  test("the compiled stream has no context, the SDK's has context referenced", () => {
    const r = statusAnswer(status);
    expect([r.streams, r.entryNotes]).toEqual([
      [
        {
          name: "static",
          entry: "Data/Static.xml",
          origin: "build-script",
          reason: "named by BuildMod.bat:5",
          files: 3,
        },
        {
          name: "sdk:static",
          entry: "CnC3Xml/static.xml",
          context: "referenced",
          origin: "sdk-stream",
          reason: "the SDK stream a reference include of Data/Static.xml:4 names",
          files: 900,
        },
      ],
      status.entryNotes,
    ]);
    expect("entryNotes" in statusAnswer({ ...status, entryNotes: [] })).toBe(false);
  });
});
