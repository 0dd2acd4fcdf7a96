// The get_definition query (src/query/definition.ts) on the sample mod with texts passed in, the
// source reader (src/workspace/source-text.ts), and the initialize instructions.
import { describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { type AssetDef, type LinkedIndex, plainAsset } from "../../src/index/linked.ts";
import { definitionOf, definitionTarget } from "../../src/query/definition.ts";
import { isQueryError } from "../../src/query/envelope.ts";
import { resolveConfig } from "../../src/workspace/config.ts";
import { readSourceText } from "../../src/workspace/source-text.ts";
import { Workspace } from "../../src/workspace/workspace.ts";
import { buildInstructions, MAX_INSTRUCTIONS } from "../../src/mcp/instructions.ts";
import { renderDefinition } from "../../src/mcp/render.ts";
import { definitionAnswer } from "../../src/query/answers.ts";
import { SAMPLE } from "./harness.ts";
import { tempDirs } from "../temp-dirs.ts";

const TMP = tempDirs();

const cfg = resolveConfig({
  project: SAMPLE,
  sdk: "",
  schema: null,
  home: TMP.make("ra3-def-home-"),
});
if ("envError" in cfg) throw new Error(cfg.envError);
const ws = new Workspace(cfg);
await ws.build();
const linked = ws.linked!;

function target(id: string, type?: string) {
  const t = definitionTarget(linked, id, type);
  if (isQueryError(t)) throw new Error(t.error.message);
  return t;
}

describe("definitionOf", () => {
  test("an XML asset: its recorded line range", () => {
    const t = target("AthenaSplash");
    const r = definitionOf(linked, t, readSourceText(t.def.file, linked));
    expect(r).toEqual({
      type: "WeaponTemplate",
      id: "AthenaSplash",
      file: "Data/Includes/Weapons.xml",
      origin: "project",
      state: "compiled",
      active: true,
      fileHasErrors: false,
      streams: ["static"],
      inheritFrom: null,
      manifestSource: null,
      otherDefinitions: [],
      startLine: 13,
      endLine: 17,
      shown: { from: 13, to: 17 },
      text:
        '\t<WeaponTemplate id="AthenaSplash" AttackRange="40">\n\t\t<Nuggets>\n\t\t\t<DamageNugget Damage="$ATHENA_DAMAGE" DamageType="EXPLOSION" />\n\t\t</Nuggets>\n\t</WeaponTemplate>',
      truncated: false,
      note: null,
    });
  });

  test('a definition in a file no entry point includes says so, as find_asset does (not "inactive")', () => {
    const t = target("ExperimentalTank");
    const r = definitionOf(linked, t, readSourceText(t.def.file, linked));
    expect([r.state, r.active, r.fileHasErrors]).toEqual(["not-included", false, false]);
    expect(renderDefinition(r).split("\n")[0]).toBe(
      "GameObject ExperimentalTank  Data/Standalone.xml lines 8-8  [project, not included: no entry point reaches it]",
    );
    const json = definitionAnswer(r) as Record<string, unknown>;
    expect([json.state, json.active, json.fileHasErrors]).toEqual(["not-included", false, undefined]);
    // A compiled definition leaves the usual state out of the JSON, and its text names the stream.
    const c = definitionOf(linked, target("AthenaSplash"), readSourceText(target("AthenaSplash").def.file, linked));
    expect((definitionAnswer(c) as Record<string, unknown>).state).toBeUndefined();
    expect(renderDefinition(c).split("\n")[0]).toBe(
      "WeaponTemplate AthenaSplash  Data/Includes/Weapons.xml lines 13-17  [project, compiled in static]",
    );
  });

  test("bounded by lines and by characters, cut at a line end", () => {
    const t = target("AlliedAthenaCannon");
    const src = readSourceText(t.def.file, linked);
    const byLines = definitionOf(linked, t, src, { maxLines: 3 });
    expect([byLines.shown, byLines.truncated, byLines.text?.split("\n").length]).toEqual([
      { from: 10, to: 12 },
      true,
      3,
    ]);
    const byChars = definitionOf(linked, t, src, { maxChars: 100 });
    expect([byChars.truncated, (byChars.text ?? "").length <= 100, byChars.shown]).toEqual([true, true, {
      from: 10,
      to: 12,
    }]);
  });

  test("one enormous line: its start, marked", () => {
    const t = target("AthenaSplash");
    const lines = Array(20).fill("");
    lines[12] = `\t<WeaponTemplate id="AthenaSplash" Payload="${"x".repeat(500)}" />`;
    const r = definitionOf(
      linked,
      { ...t, def: { ...plainAsset(t.def), startLine: 13, endLine: 13 } },
      { text: lines.join("\n") },
      { maxChars: 100 },
    );
    expect([r.text?.length, r.text?.endsWith("…"), r.truncated]).toEqual([100, true, true]);
  });

  test("an art asset whose end the index did not record: the end tag is looked for", () => {
    const t = target("AUAthena_SKN.HULL");
    const r = definitionOf(linked, t, readSourceText(t.def.file, linked), { maxLines: 12 });
    expect([r.startLine, r.shown, r.truncated, r.note]).toEqual([
      7,
      { from: 7, to: 18 },
      true,
      "the end of the element was not found within 12 lines of line 7",
    ]);
    const hier = target("AUAthena_SKL");
    expect(definitionOf(linked, hier, readSourceText(hier.def.file, linked)).shown).toEqual({ from: 3, to: 6 });
  });

  test("a self-closing element found from its id line", () => {
    const t = target("UnusedTestWeapon");
    const r = definitionOf(
      linked,
      { ...t, def: { ...plainAsset(t.def), endLine: t.def.startLine } },
      readSourceText(t.def.file, linked),
    );
    expect([r.shown, r.text]).toEqual([
      { from: 32, to: 32 },
      '\t<WeaponTemplate id="UnusedTestWeapon" AttackRange="10" />',
    ]);
  });

  test("a manifest asset has no text and says where it comes from", () => {
    const t = target("AthenaSplash");
    const def: AssetDef = {
      ...plainAsset(t.def),
      origin: "manifest",
      file: join(SAMPLE, "static.manifest"),
      manifestSource: "DATA:globaldata/weapon.xml",
      line: 0,
    };
    const r = definitionOf(linked as LinkedIndex, { ...t, def }, null);
    expect([r.text, r.shown, r.note]).toEqual([
      null,
      null,
      "WeaponTemplate AthenaSplash is known only from the compiled manifest static.manifest; the compiler built it from DATA:globaldata/weapon.xml, whose XML is not in this index",
    ]);
  });

  test("an unreadable file: no text, and why", () => {
    const t = target("AthenaSplash");
    const r = definitionOf(linked, t, readSourceText(join(SAMPLE, "Data", "Gone.xml"), linked));
    expect([r.text, r.note]).toEqual([
      null,
      `could not read ${
        join(SAMPLE, "Data", "Gone.xml")
      }: it no longer exists, or it leads outside the folders ra3 reads; retry with consistency "strict" if the file changed`,
    ]);
  });

  test("ambiguous and unknown ids are errors from the shared resolver", () => {
    expect(definitionTarget(linked, "SharedThing")).toEqual({
      error: {
        code: "ambiguous",
        message: '"SharedThing" names assets of 2 types (GameObject, WeaponTemplate); pass type to choose one',
        details: { types: ["GameObject", "WeaponTemplate"] },
      },
    });
    expect(isQueryError(definitionTarget(linked, "SharedThing", "WeaponTemplate"))).toBe(false);
  });
});

describe("readSourceText", () => {
  test("decodes like the indexer: BOM and UTF-16 are handled", () => {
    const dir = TMP.make("ra3-src-");
    writeFileSync(join(dir, "bom.xml"), Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from("<a/>\r\n")]));
    writeFileSync(join(dir, "u16.xml"), Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from("<b/>", "utf16le")]));
    const roots = { projectDir: dir, sdkDir: null };
    expect([readSourceText(join(dir, "bom.xml"), roots), readSourceText(join(dir, "u16.xml"), roots)]).toEqual([
      { text: "<a/>\r\n" },
      { text: "<b/>" },
    ]);
    expect(readSourceText(dir, roots)).toEqual({ error: `${dir} is not a file` });
  });
});

describe("instructions", () => {
  test("single project: lead, facts, the skill's rules; under the budget", () => {
    // A fixed short root: with the checkout's own path the text would depend on where it was cloned
    // (a longer one cuts the rules at a whole item).
    const root = "/mods/sample-mod";
    const text = buildInstructions({ mode: "single", root, config: { ...cfg, projectDir: root } });
    expect(text.length).toBeLessThanOrEqual(MAX_INSTRUCTIONS);
    expect(text.split("\n\n").slice(0, 2)).toEqual([
      "ra3 indexes a Red Alert 3 / SAGE mod's XML asset graph (assets, references, includes, inheritFrom, $DEFINEs, string tables) and answers from memory: ask these tools instead of grepping XML.",
      `Project: ${root}.\nNo SDK: project-only mode. Vanilla assets and defines are not indexed; an id the project uses but does not define is probably vanilla, once find_asset names no project file with an XML error.\nIndex: building since startup (no snapshot saved yet). Call get_status first; if index.state is no_index or index.projectDir is not the folder you work in, do not use these tools for it.`,
    ]);
    expect(text).toContain("## Rules\n\n1. **Prefer the index over full-text search.**");
    expect(text.endsWith("More: get_usage_guide (topics: workflows, a tool name, includes, inheritFrom, …).")).toBe(
      true,
    );
  });

  test("a typical Windows mod path keeps the usage-guide pointer: the rules give way, at a whole item", () => {
    const root = "C:\\Users\\Some Modder\\Documents\\Red Alert 3\\Mods\\Upheaval Reborn";
    const text = buildInstructions({ mode: "single", root, config: { ...cfg, projectDir: root } });
    expect(text.length).toBeLessThanOrEqual(MAX_INSTRUCTIONS);
    const parts = text.split("\n\n");
    expect(parts.at(-1)).toBe("More: get_usage_guide (topics: workflows, a tool name, includes, inheritFrom, …).");
    expect(parts[3].split("\n").filter((l) => /^\d\. /.test(l)).length).toBe(6);
    expect(parts[3].endsWith("then run `check_files`.")).toBe(true);
  });

  test("a very long project path still fits: rules are cut at a whole item", () => {
    const root = "/" + "deep/".repeat(200) + "Mod";
    const text = buildInstructions({ mode: "single", root, config: { ...cfg, projectDir: root } });
    expect(text.length).toBeLessThanOrEqual(MAX_INSTRUCTIONS);
    expect(text).toContain(`Project: ${root}.`);
    const rules = text.split("\n\n")[3];
    expect(rules.split("\n").filter((l) => /^\d\. /.test(l)).length).toBe(3);
    expect(rules.endsWith("around a reported line.")).toBe(true);
    expect(text.endsWith("More: get_usage_guide (topics: workflows, a tool name, includes, inheritFrom, …).")).toBe(
      true,
    );
  });
});
