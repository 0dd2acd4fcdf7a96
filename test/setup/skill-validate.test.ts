import { describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { formatSkillProblem, type SkillBundle, validateSkill } from "../../src/setup/skill-validate.ts";
import { TOOL_NAMES } from "../../src/skill/tool-names.ts";
import { SKILL_FILES, SKILL_NAME } from "../../src/skill/embedded.ts";

const skillDir = join(import.meta.dirname, "..", "..", "skills", SKILL_NAME);
const skillMd = SKILL_FILES[0].text;

/** The real skill with SKILL.md (or another file) changed. */
function variant(
  edit: (text: string) => string,
  opts: { folderName?: string; path?: string; extra?: { path: string; text: string }[] } = {},
): SkillBundle {
  const path = opts.path ?? "SKILL.md";
  const files = SKILL_FILES.map((f) => (f.path === path ? { path, text: edit(f.text) } : f));
  return { folderName: opts.folderName ?? SKILL_NAME, files: [...files, ...(opts.extra ?? [])] };
}

function problems(b: SkillBundle, toolNames?: readonly string[]): string[] {
  return validateSkill(b, toolNames ? { toolNames } : {}).map(formatSkillProblem);
}

function lineOf(text: string, needle: string): number {
  return text.split("\n").findIndex((l) => l.includes(needle)) + 1;
}

describe("validateSkill on the real skill", () => {
  test("the folder in the repository is clean", () => {
    expect(validateSkill(skillDir)).toEqual([]);
  });

  test("the embedded files are clean", () => {
    expect(validateSkill({ folderName: SKILL_NAME, files: SKILL_FILES })).toEqual([]);
  });

  test("the description stays within the spec with room to spare", () => {
    const m = /^description: "(.*)"$/m.exec(skillMd);
    expect(m).not.toBeNull();
    expect(m![1].length).toBeLessThan(1024);
    expect(m![1].startsWith("Red Alert 3 (RA3)")).toBe(true);
  });
});

describe("validateSkill on broken copies", () => {
  test("a name with capitals and underscores, not equal to the folder", () => {
    expect(problems(variant((t) => t.replace("name: ra3-mod-xml", "name: RA3_Mod")))).toEqual([
      'SKILL.md:2: name "RA3_Mod" may contain only lowercase letters, digits and hyphens',
      'SKILL.md:2: name "RA3_Mod" must equal the folder name "ra3-mod-xml"',
    ]);
  });

  test("hyphen rules and length", () => {
    expect(problems(variant((t) => t.replace("name: ra3-mod-xml", "name: -ra3"), { folderName: "-ra3" }))).toEqual([
      'SKILL.md:2: name "-ra3" must not start or end with a hyphen',
    ]);
    expect(problems(variant((t) => t.replace("name: ra3-mod-xml", "name: ra3--mod"), { folderName: "ra3--mod" })))
      .toEqual([
        'SKILL.md:2: name "ra3--mod" must not contain two hyphens in a row',
      ]);
    const long = "a".repeat(65);
    expect(problems(variant((t) => t.replace("name: ra3-mod-xml", `name: ${long}`), { folderName: long }))).toEqual([
      "SKILL.md:2: name must be 1-64 characters (got 65)",
    ]);
  });

  test("a name that is fine but differs from the folder", () => {
    expect(problems(variant((t) => t, { folderName: "ra3" }))).toEqual([
      'SKILL.md:2: name "ra3-mod-xml" must equal the folder name "ra3"',
    ]);
  });

  test("an unknown frontmatter key", () => {
    expect(problems(variant((t) => t.replace("license: MIT\n", "license: MIT\nuser-invocable: true\n")))).toEqual([
      'SKILL.md:5: unknown frontmatter key "user-invocable"; allowed keys: name, description, license, compatibility, metadata, allowed-tools',
    ]);
  });

  test("a description over 1,024 characters", () => {
    const long = "Red Alert 3 RA3 SAGE mod XML GameObject weapon inheritFrom " + "x".repeat(1000);
    expect(problems(variant((t) => t.replace(/^description: .*$/m, `description: "${long}"`)))).toEqual([
      "SKILL.md:3: description must be 1-1024 characters (got 1059)",
    ]);
  });

  test("a description without trigger words, or with the game named late", () => {
    expect(problems(variant((t) => t.replace(/^description: .*$/m, 'description: "Finds XML things."')))).toEqual([
      'SKILL.md:3: description does not mention "Red Alert 3" (a word modders use when this skill should apply)',
      'SKILL.md:3: description does not mention "RA3" (a word modders use when this skill should apply)',
      'SKILL.md:3: description does not mention "SAGE" (a word modders use when this skill should apply)',
      'SKILL.md:3: description does not mention "mod" (a word modders use when this skill should apply)',
      'SKILL.md:3: description does not mention "GameObject" (a word modders use when this skill should apply)',
      'SKILL.md:3: description does not mention "weapon" (a word modders use when this skill should apply)',
      'SKILL.md:3: description does not mention "inheritFrom" (a word modders use when this skill should apply)',
    ]);
    const late = `${"Navigates XML. ".repeat(10)}Red Alert 3 (RA3) SAGE mod GameObject weapon inheritFrom.`;
    expect(problems(variant((t) => t.replace(/^description: .*$/m, `description: "${late}"`)))).toEqual([
      'SKILL.md:3: description should name "Red Alert 3" and "RA3" within its first 120 characters (clients shorten long descriptions)',
    ]);
  });

  test("an unquoted colon, a compatibility over 500 characters and a numeric metadata value", () => {
    const b = variant((t) =>
      t
        .replace(/^compatibility: .*$/m, `compatibility: "${"c".repeat(501)}"`)
        .replace('  version: "0.1.0"', "  version: 0.1")
        .replace("license: MIT", "license: MIT: really")
    );
    expect(problems(b)).toEqual([
      'SKILL.md:4: unquoted value contains ": " (YAML reads it as a mapping); put the value in double quotes',
      "SKILL.md:5: compatibility must be at most 500 characters (got 501)",
      "SKILL.md:7: metadata.version is read by YAML as a number, not a string; put it in double quotes",
    ]);
  });

  test("missing required keys and metadata without a version", () => {
    const b = variant((t) =>
      t.replace(/^name: .*\n/m, "").replace(/^description: .*\n/m, "").replace('  version: "0.1.0"\n', "")
    );
    expect(problems(b)).toEqual([
      'SKILL.md: missing required key "name"',
      'SKILL.md: missing required key "description"',
      'SKILL.md:4: metadata has no "version"',
    ]);
  });

  test("no frontmatter at all, and frontmatter that never closes", () => {
    expect(problems(variant((t) => t.replace(/^---\n[\s\S]*?\n---\n/, "")))).toEqual([
      'SKILL.md:1: no YAML frontmatter: SKILL.md must start with a line "---"',
    ]);
    expect(problems(variant((t) => t.replace(/\n---\n/, "\n")))).toEqual([
      'SKILL.md:1: the frontmatter is never closed: end it with a line "---"',
    ]);
  });

  test("a broken link, and the reference it no longer reaches", () => {
    const b = variant((t) =>
      t.replace("[references/query-guide.md](references/query-guide.md)", "[the guide](references/query-guid.md)")
    );
    const line = lineOf(b.files[0].text, "query-guid.md");
    expect(problems(b)).toEqual([
      `SKILL.md:${line}: link "references/query-guid.md" does not resolve to a file in the skill`,
      "references/query-guide.md: references/query-guide.md is not linked from SKILL.md; agents only find reference files through links in SKILL.md",
    ]);
  });

  test("links that escape the folder, are absolute, or go two levels deep", () => {
    const extra = [{ path: "references/deep/more.md", text: "# More\n" }];
    const b = variant(
      (t) =>
        `${t}\n[up](../other/SKILL.md) [abs](/etc/passwd) [deep](references/deep/more.md) [web](https://example.com) [here](#rules)\n`,
      { extra },
    );
    const line = b.files[0].text.split("\n").length - 1;
    expect(problems(b)).toEqual([
      `SKILL.md:${line}: link "../other/SKILL.md" points outside the skill folder`,
      `SKILL.md:${line}: link "/etc/passwd" is absolute; use a path relative to the skill folder`,
      `SKILL.md:${line}: link "references/deep/more.md" is more than one level deep; keep reference files directly in a folder next to SKILL.md`,
    ]);
  });

  test("a tool of the server that SKILL.md does not document", () => {
    expect(problems(variant((t) => t), [...TOOL_NAMES, "list_streams"])).toEqual([
      'SKILL.md: tool "list_streams" is not documented in SKILL.md',
    ]);
    const b = variant((t) => t.replace(/^- `get_usage_guide`.*\n/m, ""));
    expect(problems(b)).toEqual(['SKILL.md: tool "get_usage_guide" is not documented in SKILL.md']);
  });

  test("a tool name that the server does not have, inline or in a code block", () => {
    const b = variant((t) =>
      t.replace("## Rules\n", "## Rules\n\nAlso `get_weapons {id}` helps.\n\n```\nfind_weapons MyTank\n```\n")
    );
    const line = lineOf(b.files[0].text, "get_weapons");
    expect(problems(b)).toEqual([
      `SKILL.md:${line}: unknown tool "get_weapons" (the server has no tool of that name)`,
      `SKILL.md:${line + 3}: unknown tool "find_weapons" (the server has no tool of that name)`,
    ]);
    const ref = variant((t) => t.replace("## Tools\n", "## Tools\n\nSee `search_everything`.\n"), {
      path: "references/query-guide.md",
    });
    const refLine = lineOf(ref.files[1].text, "search_everything");
    expect(problems(ref)).toEqual([
      `references/query-guide.md:${refLine}: unknown tool "search_everything" (the server has no tool of that name)`,
    ]);
  });

  test("snake_case words that are not tool-shaped are not tool mentions", () => {
    const b = variant((t) =>
      t.replace("## Rules\n", "## Rules\n\nStates `no_index`, `ready_xml`; files `mapmetadata_*.xml`; `MY_DEFINE`.\n")
    );
    expect(problems(b)).toEqual([]);
  });

  test("a body of 500 lines or more", () => {
    const b = variant((t) => t + "filler\n".repeat(400));
    const bodyLines = b.files[0].text.split("\n---\n")[1].trimEnd().split("\n").length;
    // The skill's own body plus the 400 lines added: the count follows the skill's text.
    expect(bodyLines).toBeGreaterThan(500);
    expect(problems(b)).toEqual([
      `SKILL.md:10: the body has ${bodyLines} lines; keep it under 500 (move detail into references/)`,
    ]);
  });

  test("a folder without SKILL.md, and a folder that does not exist", () => {
    const tmp = mkdtempSync(join(tmpdir(), "ra3-skill-validate-"));
    try {
      mkdirSync(join(tmp, "ra3-mod-xml"));
      writeFileSync(join(tmp, "ra3-mod-xml", "README.md"), "# x\n");
      expect(validateSkill(join(tmp, "ra3-mod-xml")).map(formatSkillProblem)).toEqual([
        "SKILL.md: SKILL.md is missing",
      ]);
      const missing = join(tmp, "nope");
      expect(validateSkill(missing).map(formatSkillProblem)).toEqual([
        `${missing}: cannot read the skill folder ${missing}: ENOENT: no such file or directory, stat '${missing}'`,
      ]);
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  });
});
