// Calls every tool once with good and once with bad arguments on the sample mod, with the expected
// answer; shared by the end-to-end suites (compiled binary, Deno) so both speak exactly alike.
import { expect } from "bun:test";
import type { CallToolResult } from "@modelcontextprotocol/client";
import { bodyOf, type Json, resultOf, SAMPLE, textOf } from "./harness.ts";
import { outsideMessage } from "../query/sample.ts";

export interface ToolCase {
  readonly tool: string;
  readonly args: Record<string, unknown>;
  /** Checks a successful answer's result; or, for a bad call, the exact error sentence. */
  readonly expect: ((result: Json, text: string, index: Json) => void) | { readonly error: string };
}

/** A bad argument: the handler's sentence, as it is (the tool's name is not repeated). */
const v = (_tool: string, msg: string) => msg;

/** Cases for a server on `project` (a copy of the sample mod, or the sample itself). */
export function sampleCases(project: string = SAMPLE): ToolCase[] {
  return [
    {
      tool: "get_status",
      args: {},
      expect: (r, _t, index) =>
        expect([index.projectDir, r.mode, index.state, r.streams.length]).toEqual([
          project,
          "project-only",
          "ready",
          2,
        ]),
    },
    {
      tool: "get_status",
      args: { project: "/elsewhere/Other" },
      expect: {
        error: `this server answers only for ${
          project.split("/").pop()
        } (${project}); "/elsewhere/Other" is another folder: start a server for it with ra3 mcp --project "/elsewhere/Other"`,
      },
    },
    {
      tool: "list_projects",
      args: {},
      expect: (r) => expect([r.mode, r.projects.map((p: Json) => p.dir)]).toEqual(["single", [project]]),
    },
    {
      tool: "list_projects",
      args: { all: true },
      expect: { error: v("list_projects", 'unknown argument "all"; list_projects takes project, consistency') },
    },
    {
      tool: "find_asset",
      args: { id: "AlliedAthenaCannon" },
      expect: (r) =>
        expect(r.definitions.map((d: Json) => d.at)).toEqual(["Data/Includes/Allied Units/AthenaCannon.xml:11"]),
    },
    {
      tool: "find_asset",
      args: {},
      expect: { error: v("find_asset", 'id is required: the asset id, e.g. "AlliedAthenaCannon"') },
    },
    {
      tool: "get_definition",
      args: { id: "AthenaSplash" },
      expect: (r) =>
        expect([r.at, r.endLine, r.text.split("\n").length]).toEqual(["Data/Includes/Weapons.xml:13", 17, 5]),
    },
    {
      tool: "get_definition",
      args: { id: "SharedThing" },
      expect: { error: '"SharedThing" names assets of 2 types (GameObject, WeaponTemplate); pass type to choose one' },
    },
    {
      tool: "find_references",
      args: { id: "AthenaCannonBeam", type: "WeaponTemplate" },
      expect: (r) =>
        expect(r.references.map((s: Json) => `${s.from} ${s.via}`)).toEqual([
          "GameObject:AlliedAthenaCannon Weapon@Template",
        ]),
    },
    {
      tool: "find_references",
      args: { id: "Zeppelin" },
      expect: {
        error:
          'no asset has the id "Zeppelin"; check the spelling or search display names with search_strings (project-only mode: vanilla assets are not indexed)',
      },
    },
    {
      tool: "get_asset_references",
      args: { id: "AlliedAthenaCannon", depth: 3, targetTypes: ["WeaponTemplate"] },
      expect: (r) =>
        expect(r.edges.filter((e: Json) => e.to.startsWith("WeaponTemplate:")).map((e: Json) => e.to)).toEqual([
          "WeaponTemplate:AthenaCannonBeam",
          "WeaponTemplate:VehicleDeathExplosion",
          "WeaponTemplate:AthenaSplash",
          "WeaponTemplate:AthenaWreckBurn",
        ]),
    },
    {
      tool: "get_asset_references",
      args: { id: "AlliedAthenaCannon", depth: 9 },
      expect: { error: v("get_asset_references", "depth must be a whole number from 1 to 3, got 9") },
    },
    {
      tool: "list_assets_by_type",
      args: { type: "WeaponTemplate", prefix: "Athena" },
      expect: (r) =>
        expect([r.total, r.items.map((i: Json) => i.id)]).toEqual([3, [
          "AthenaCannonBeam",
          "AthenaSplash",
          "AthenaWreckBurn",
        ]]),
    },
    {
      tool: "list_assets_by_type",
      args: { type: "Tank" },
      expect: { error: 'no asset of type "Tank" is indexed; check the type name (e.g. GameObject, WeaponTemplate)' },
    },
    {
      tool: "resolve_include",
      args: { source: "ART:AUAthena_SKN.w3x" },
      expect: (r) => expect([r.resolved, r.twoLetterRule]).toEqual(["Art/AU/AUAthena_SKN.w3x", true]),
    },
    {
      tool: "resolve_include",
      args: { source: "x.xml", from: "/etc/passwd" },
      expect: { error: outsideMessage("--from /etc/passwd", project, "a file") },
    },
    {
      tool: "is_file_active",
      args: { path: "Data/Standalone.xml" },
      expect: (r, t) =>
        expect([r.state, r.active, t.split("\n")[0]]).toEqual([
          "not-included",
          false,
          "Data/Standalone.xml is not included: no entry point reaches it",
        ]),
    },
    {
      tool: "is_file_active",
      args: { path: "/etc/passwd" },
      expect: { error: outsideMessage("/etc/passwd", project, "a path") },
    },
    {
      tool: "list_files",
      args: { state: "not-included" },
      expect: (r, t) =>
        expect([r.total, r.items.map((i: Json) => i.file), t.split("\n")[0]]).toEqual([
          2,
          ["Art/AU/AUUnusedProp.w3x", "Data/Standalone.xml"],
          "2 of 2 not included files (13 compiled, 0 referenced, 2 not included):",
        ]),
    },
    {
      tool: "list_files",
      args: { state: "unused" },
      expect: { error: v("list_files", 'state must be one of compiled, referenced, not-included, got "unused"') },
    },
    {
      tool: "find_define",
      args: { name: "ATHENA_RANGE" },
      expect: (r) =>
        expect(r.definitions.map((d: Json) => `${d.value} ${d.at}`)).toEqual(["350 Data/Includes/Defines.xml:4"]),
    },
    {
      tool: "find_define",
      args: { name: "bad name" },
      expect: { error: '"bad name" is not a define name; names look like ATHENA_RANGE (letters, digits, _)' },
    },
    {
      tool: "find_unreferenced",
      args: { type: "WeaponTemplate" },
      expect: (r) => expect(r.items.WeaponTemplate.map((i: Json) => i.id)).toEqual(["SharedThing", "UnusedTestWeapon"]),
    },
    {
      tool: "find_unreferenced",
      args: { type: "Tank" },
      expect: { error: '"Tank" is not an asset type of this index' },
    },
    {
      tool: "check_files",
      args: {},
      expect: (r) =>
        expect([r.errors, r.warnings, r.diagnostics.filter((d: Json) => d.at).map((d: Json) => d.code)]).toEqual([
          0,
          2,
          ["include-cycle", "include-not-found"],
        ]),
    },
    {
      tool: "check_files",
      args: { paths: ["/etc/passwd"] },
      expect: { error: outsideMessage("/etc/passwd", project, "paths") },
    },
    {
      tool: "search_strings",
      args: { text: "Athena Cannon" },
      expect: (r) => expect(r.matches.map((m: Json) => m.key)).toEqual(["Name:AlliedAthenaCannon"]),
    },
    {
      tool: "search_strings",
      args: { text: "" },
      expect: { error: v("search_strings", 'text is empty: part of an in-game text, e.g. "Heavy Tank"') },
    },
    {
      tool: "get_usage_guide",
      args: { topic: "rules" },
      expect: (r, t) => expect([r.sections, t.split("\n")[1]]).toEqual([["rules"], "## Rules"]),
    },
    {
      tool: "get_usage_guide",
      args: { topic: 5 },
      expect: {
        error: v("get_usage_guide", 'topic must be a topic such as "workflows" or a tool name, got 5'),
      },
    },
    {
      tool: "reindex",
      args: {},
      expect: (r, t) => expect([r.files.total, t.startsWith(`rebuilt ${project} in `)]).toEqual([15, true]),
    },
    {
      tool: "reindex",
      args: { project: "Other" },
      expect: {
        error: `this server answers only for ${
          project.split("/").pop()
        } (${project}); "Other" is another folder: start a server for it with ra3 mcp --project "${
          project.replace(/[^/]+$/, "")
        }Other"`,
      },
    },
  ];
}

/** Runs one case against a tool result. */
export function checkCase(c: ToolCase, r: CallToolResult): void {
  if (typeof c.expect === "function") {
    expect(`${c.tool} ok: ${r.isError ? textOf(r) : "yes"}`).toBe(`${c.tool} ok: yes`);
    c.expect(resultOf(r), bodyOf(r), (r.structuredContent as Json).index);
  } else {
    expect([c.tool, r.isError, bodyOf(r)]).toEqual([c.tool, true, c.expect.error]);
  }
}
