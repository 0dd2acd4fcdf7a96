import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { TOOL_NAMES } from "../../src/skill/tool-names.ts";
import { SKILL_FILES, SKILL_NAME, SKILL_VERSION, skillSection, usageGuide } from "../../src/skill/embedded.ts";
import { parseFrontmatter } from "../../src/skill/frontmatter.ts";
import { TOOL_VERSION } from "../../src/version.ts";

const skillDir = join(import.meta.dirname, "..", "..", "skills", SKILL_NAME);

describe("embedded skill", () => {
  test("embeds exactly the files of skills/ra3-mod-xml, byte for byte", () => {
    expect(SKILL_FILES.map((f) => f.path)).toEqual([
      "SKILL.md",
      "references/query-guide.md",
      "references/mod-xml-primer.md",
    ]);
    for (const f of SKILL_FILES) expect(f.text).toBe(readFileSync(join(skillDir, f.path), "utf8"));
  });

  test("the skill version is metadata.version and matches the tool's version", () => {
    expect(SKILL_VERSION).toBe("0.1.0");
    // A release bumps package.json; bump metadata.version in SKILL.md with it.
    expect(SKILL_VERSION).toBe(TOOL_VERSION);
  });

  test("SKILL.md has the headings the MCP server extracts, and a body of the intended size", () => {
    for (
      const h of [
        "When this skill applies",
        "Which tool answers which question",
        "Workflows",
        "Rules",
        "Without MCP: the command line",
      ]
    ) {
      expect(skillSection(h)?.startsWith(`## ${h}`)).toBe(true);
    }
    const fm = parseFrontmatter(SKILL_FILES[0].text);
    if (typeof fm === "string") throw new Error(fm);
    const lines = fm.body.trimEnd().split("\n").length;
    expect(lines).toBeGreaterThanOrEqual(150);
    expect(lines).toBeLessThanOrEqual(250);
  });

  test("skillSection matches case-insensitively, stops at the next ## heading, and returns null for none", () => {
    const rules = skillSection("  RULES ");
    expect(rules?.split("\n")[0]).toBe("## Rules");
    expect(rules).toContain("Prefer the index over full-text search");
    expect(rules).not.toContain("## Without MCP");
    const when = skillSection("when this skill applies") ?? "";
    expect(when).toContain("`get_status`");
    expect(when).toContain("`no_index`");
    expect(skillSection("Nonexistent")).toBeNull();
  });

  test("the 'Which tool' section names every tool once per line, in the server's order", () => {
    const lines = (skillSection("Which tool answers which question") ?? "").split("\n").filter((l) =>
      l.startsWith("- `")
    );
    expect(lines.map((l) => /^- `([a-z_]+)`/.exec(l)?.[1])).toEqual([...TOOL_NAMES]);
  });

  test("the skill names no particular mod", () => {
    for (const f of SKILL_FILES) {
      for (const word of ["Corona", "Upheaval", "GenEvo", "AttachTest", "Commander"]) {
        expect(f.text).not.toContain(word);
      }
    }
  });
});

describe("usageGuide", () => {
  test("without a topic it returns the topic index", () => {
    const g = usageGuide();
    expect(g.topic).toBeNull();
    expect(g.sections).toEqual([]);
    expect(g.text.split("\n")[0]).toBe("Topics (pass one as `topic`):");
    const ids = g.topics.map((t) => t.id);
    for (const id of ["workflows", "rules", "query-guide", "mod-xml-primer", "includes", ...TOOL_NAMES]) {
      expect(ids).toContain(id);
    }
    expect(g.text).toContain("- find_asset: find_asset (references/query-guide.md)");
  });

  test("a tool name returns that tool's section of the query guide", () => {
    const g = usageGuide("find_asset");
    expect(g.sections.map((s) => [s.id, s.source])).toEqual([["find_asset", "references/query-guide.md"]]);
    expect(g.text.split("\n").slice(0, 2)).toEqual(["<!-- references/query-guide.md -->", "### `find_asset`"]);
  });

  test("an exact heading wins; otherwise headings containing the words match", () => {
    expect(usageGuide("Workflows").sections.map((s) => s.id)).toEqual(["workflows"]);
    expect(usageGuide("weapons").sections.map((s) => s.id)).toEqual(["a-units-weapons-with-provenance"]);
    expect(usageGuide("inheritFrom").sections.map((s) => s.id)).toEqual(["inheritfrom-and-xai-joinaction"]);
    expect(usageGuide("mod-xml-primer").sections[0].text).toBe(SKILL_FILES[2].text.trim());
  });

  test("a topic that matches nothing says so and lists the topics", () => {
    const g = usageGuide("zeppelins");
    expect(g.sections).toEqual([]);
    expect(g.text.split("\n")[0]).toBe('No guide section matches "zeppelins".');
    expect(g.text).toContain("Topics (pass one as `topic`):");
  });
});
