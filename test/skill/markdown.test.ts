import { describe, expect, test } from "bun:test";
import { headingSlug, markdownCode, markdownLinks, markdownSections } from "../../src/skill/markdown.ts";

const doc = [
  "# Title",
  "intro",
  "## One",
  "text with `find_asset {id}` and [a link](references/a.md#part)",
  "```",
  "## not a heading",
  "[not](a-link.md)",
  "```",
  "### Sub",
  'sub text ![img](img/x.png "title")',
  "## Two",
  "[ref]: <references/b c.md>",
].join("\n");

describe("markdown helpers", () => {
  test("sections ignore headings inside fenced code and end at the next heading of the same level", () => {
    const s = markdownSections(doc);
    expect(s.map((x) => [x.heading, x.level, x.line])).toEqual([["Title", 1, 1], ["One", 2, 3], ["Sub", 3, 9], [
      "Two",
      2,
      11,
    ]]);
    expect(s[1].text.split("\n").at(-1)).toBe('sub text ![img](img/x.png "title")');
    expect(s[2].text).toBe('### Sub\nsub text ![img](img/x.png "title")');
  });

  test("links come from inline links, images and reference definitions, not from code", () => {
    expect(markdownLinks(doc)).toEqual([
      { target: "references/a.md#part", line: 4 },
      { target: "img/x.png", line: 10 },
      { target: "references/b c.md", line: 12 },
    ]);
    expect(markdownLinks("`[x](y.md)` outside")).toEqual([]);
  });

  test("code spans and fenced lines are returned with their lines", () => {
    expect(markdownCode(doc)).toEqual([
      { text: "find_asset {id}", line: 4, fenced: false },
      { text: "## not a heading", line: 6, fenced: true },
      { text: "[not](a-link.md)", line: 7, fenced: true },
    ]);
  });

  test("headingSlug keeps underscores and drops punctuation", () => {
    expect(headingSlug("A unit's weapons, with provenance")).toBe("a-units-weapons-with-provenance");
    expect(headingSlug("`find_asset`")).toBe("find_asset");
    expect(headingSlug("`$DEFINE`s")).toBe("defines");
  });
});
