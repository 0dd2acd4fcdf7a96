import { describe, expect, test } from "bun:test";
import { entryOf, type ParsedFrontmatter, parseFrontmatter } from "../../src/skill/frontmatter.ts";

function parsed(text: string): ParsedFrontmatter {
  const fm = parseFrontmatter(text);
  if (typeof fm === "string") throw new Error(`no frontmatter: ${fm}`);
  return fm;
}

describe("parseFrontmatter", () => {
  test("reads plain, quoted and nested values and locates the body", () => {
    const fm = parsed(
      [
        "---",
        "name: ra3-mod-xml",
        'description: "Says \\"hi\\": to RA3"',
        "license: 'it''s MIT'",
        "metadata:",
        '  version: "0.1.0"',
        "  tool: ra3",
        "---",
        "# Body",
        "",
      ].join("\n"),
    );
    expect(fm.errors).toEqual([]);
    expect(fm.entries.map((e) => [e.key, e.line])).toEqual([["name", 2], ["description", 3], ["license", 4], [
      "metadata",
      5,
    ]]);
    expect(entryOf(fm.entries, "description")?.value).toEqual({
      kind: "scalar",
      value: 'Says "hi": to RA3',
      yamlType: "string",
    });
    expect(entryOf(fm.entries, "license")?.value).toEqual({ kind: "scalar", value: "it's MIT", yamlType: "string" });
    expect(entryOf(fm.entries, "metadata")?.value).toEqual({
      kind: "mapping",
      entries: [
        { key: "version", value: { kind: "scalar", value: "0.1.0", yamlType: "string" }, line: 6 },
        { key: "tool", value: { kind: "scalar", value: "ra3", yamlType: "string" }, line: 7 },
      ],
    });
    expect(fm.body).toBe("# Body\n");
    expect(fm.bodyStartLine).toBe(9);
  });

  test("tolerates a BOM and CRLF line ends", () => {
    const fm = parsed("\uFEFF---\r\nname: x\r\n---\r\nbody");
    expect(entryOf(fm.entries, "name")?.value).toEqual({ kind: "scalar", value: "x", yamlType: "string" });
    expect(fm.body).toBe("body");
  });

  test("reports missing and unclosed frontmatter", () => {
    expect(parseFrontmatter("# just markdown")).toBe("missing");
    expect(parseFrontmatter("---\nname: x\n")).toBe("unclosed");
  });

  test("types plain scalars the way YAML would", () => {
    const fm = parsed("---\na: 1.0\nb: true\nc: ~\nd: 0.1.0\ne: yes\nf:\n---\n");
    expect(fm.entries.map((e) => (e.value.kind === "scalar" ? e.value.yamlType : e.value.kind))).toEqual([
      "number",
      "boolean",
      "null",
      "string",
      "boolean",
      "null",
    ]);
  });

  test("flags an unquoted colon, a reserved first character and a bad escape", () => {
    const fm = parsed('---\ndescription: Use when: modding\nname: *x\nlicense: "a\\qb"\n---\n');
    expect(fm.errors).toEqual([
      { line: 2, message: 'unquoted value contains ": " (YAML reads it as a mapping); put the value in double quotes' },
      { line: 3, message: 'unquoted value starts with "*", which YAML reserves; put the value in double quotes' },
      { line: 4, message: 'invalid escape "\\q" in a double-quoted string' },
    ]);
  });

  test("flags duplicates, deep nesting, unterminated strings and stray lines", () => {
    const fm = parsed('---\nname: a\nname: b\nmetadata:\n  deep:\n    x: "1"\ndescription: "open\njust text\n---\n');
    expect(fm.errors).toEqual([
      { line: 3, message: 'duplicate key "name"' },
      {
        line: 5,
        message: '"metadata.deep" is a nested mapping; "metadata" may hold only one level of "key: value" pairs',
      },
      { line: 7, message: "unterminated double-quoted string" },
      { line: 8, message: 'expected "key: value", got "just text"' },
    ]);
  });

  test("reads block scalars and lists", () => {
    const fm = parsed(
      "---\ndescription: >\n  folded line\n  continues\n\n  new paragraph\nallowed-tools:\n  - Read\n  - \"Bash(ra3:*)\"\nother: [a, 'b c']\nlit: |-\n  one\n  two\n---\n",
    );
    expect(fm.errors).toEqual([]);
    expect(entryOf(fm.entries, "description")?.value).toEqual({
      kind: "scalar",
      value: "folded line continues\nnew paragraph\n",
      yamlType: "string",
    });
    expect(entryOf(fm.entries, "allowed-tools")?.value).toEqual({
      kind: "list",
      items: [{ kind: "scalar", value: "Read", yamlType: "string" }, {
        kind: "scalar",
        value: "Bash(ra3:*)",
        yamlType: "string",
      }],
    });
    expect(entryOf(fm.entries, "other")?.value).toEqual({
      kind: "list",
      items: [{ kind: "scalar", value: "a", yamlType: "string" }, { kind: "scalar", value: "b c", yamlType: "string" }],
    });
    expect(entryOf(fm.entries, "lit")?.value).toEqual({ kind: "scalar", value: "one\ntwo", yamlType: "string" });
  });

  test("folds a plain scalar continued on indented lines and ignores comments", () => {
    const fm = parsed("---\n# a comment\ndescription: first part\n  second part # trailing\n---\n");
    expect(fm.errors).toEqual([]);
    expect(entryOf(fm.entries, "description")?.value).toEqual({
      kind: "scalar",
      value: "first part second part",
      yamlType: "string",
    });
  });
});
