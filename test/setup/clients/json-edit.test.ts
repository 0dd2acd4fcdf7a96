import { describe, expect, test } from "bun:test";
import {
  type ClientConfigWriter,
  ra3ServerEntry,
  type ServerEntry,
  writerFor,
} from "../../../src/setup/clients/index.ts";

const entry: ServerEntry = ra3ServerEntry({ binaryPath: "/opt/ra3/bin/ra3", projectDir: "/mods/x" });
const ENTRY_JSON = `{
      "command": "/opt/ra3/bin/ra3",
      "args": ["mcp", "--project", "/mods/x"]
    }`;
const enc = (s: string): Uint8Array => new TextEncoder().encode(s);

function mergeText(w: ClientConfigWriter, text: string | Uint8Array, e: ServerEntry = entry): string {
  const read = w.read(typeof text === "string" ? enc(text) : text);
  if (!read.ok) throw new Error(`read failed: ${read.problem.message}`);
  const merged = w.merge(read.doc, e);
  if (!merged.ok) throw new Error(`merge failed: ${merged.problem.message}`);
  return merged.text;
}

function removeText(w: ClientConfigWriter, text: string, name = "ra3", dropEmptyContainer = true): string {
  const read = w.read(enc(text));
  if (!read.ok) throw new Error(`read failed: ${read.problem.message}`);
  const removed = w.remove(read.doc, name, { dropEmptyContainer });
  if (!removed.ok) throw new Error(`remove failed: ${removed.problem.message}`);
  return removed.text;
}

const desktop = writerFor("claude-desktop")!;
const code = writerFor("claude-code")!;
const vscode = writerFor("vscode")!;

describe("encodings and line endings", () => {
  test("a UTF-8 BOM is kept", () => {
    const out = mergeText(desktop, new Uint8Array([0xef, 0xbb, 0xbf, ...enc('{\r\n  "mcpServers": {}\r\n}\r\n')]));
    expect(out).toBe(`\uFEFF{\r\n  "mcpServers": {\r\n    "ra3": ${ENTRY_JSON.replace(/\n/g, "\r\n")}\r\n  }\r\n}\r\n`);
    expect([...enc(out).slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  });

  test("UTF-16 files are refused with how to fix them", () => {
    const read = desktop.read(new Uint8Array([0xff, 0xfe, 0x7b, 0x00, 0x7d, 0x00]));
    expect(read.ok).toBe(false);
    if (!read.ok) {
      expect(read.problem.message).toBe(
        "the file is saved as UTF-16; save it as UTF-8 (in Notepad: File → Save as → Encoding: UTF-8)",
      );
    }
  });

  test("bytes that are not UTF-8 are refused", () => {
    const read = desktop.read(new Uint8Array([0x7b, 0xc3, 0x28, 0x7d]));
    expect(!read.ok && read.problem.message).toBe("the file is not UTF-8 text; save it as UTF-8");
  });

  test("a file without a final newline does not gain one", () => {
    expect(mergeText(code, '{\n  "a": 1\n}')).toBe(
      `{\n  "a": 1,\n  "mcpServers": {\n    "ra3": {\n      "type": "stdio",\n      "command": "/opt/ra3/bin/ra3",\n      "args": ["mcp", "--project", "/mods/x"]\n    }\n  }\n}`,
    );
  });
});

describe("insertion keeps the neighbours as they are", () => {
  test("single-line documents stay single-line, and removal restores them", () => {
    const before = '{"mcpServers": {"a": {"command": "x"}}, "numStartups": 3}';
    const after = mergeText(code, before);
    expect(after).toBe(
      '{"mcpServers": {"a": {"command": "x"}, "ra3": {"type": "stdio", "command": "/opt/ra3/bin/ra3", "args": ["mcp", "--project", "/mods/x"]}}, "numStartups": 3}',
    );
    expect(removeText(code, after)).toBe(before);
  });

  test("a trailing line comment stays on its line; the comma goes before it", () => {
    const before = '{\n  "mcpServers": {\n    "a": {"command": "x"} // mine\n  }\n}\n';
    expect(mergeText(desktop, before)).toBe(
      `{\n  "mcpServers": {\n    "a": {"command": "x"}, // mine\n    "ra3": ${ENTRY_JSON}\n  }\n}\n`,
    );
  });

  test("a servers object holding only a comment gets our entry before the comment", () => {
    const before = '{\n  "mcpServers": {\n    // none yet\n  }\n}\n';
    expect(mergeText(desktop, before)).toBe(
      `{\n  "mcpServers": {\n    "ra3": ${ENTRY_JSON}\n    // none yet\n  }\n}\n`,
    );
  });

  test("an empty file, or one with only whitespace, becomes a fresh document", () => {
    expect(mergeText(desktop, "  \n\n")).toBe(`{\n  "mcpServers": {\n    "ra3": ${ENTRY_JSON}\n  }\n}\n`);
  });

  test("a file holding only comments keeps them above the new document", () => {
    expect(mergeText(vscode, "// my MCP servers\n")).toBe(
      `// my MCP servers\n{\n  "servers": {\n    "ra3": {\n      "type": "stdio",\n      "command": "/opt/ra3/bin/ra3",\n      "args": ["mcp", "--project", "/mods/x"]\n    }\n  }\n}\n`,
    );
  });

  test("four-space files get four-space indentation", () => {
    expect(mergeText(desktop, '{\n    "mcpServers": {\n        "a": {}\n    }\n}\n')).toBe(
      '{\n    "mcpServers": {\n        "a": {},\n        "ra3": {\n            "command": "/opt/ra3/bin/ra3",\n            "args": ["mcp", "--project", "/mods/x"]\n        }\n    }\n}\n',
    );
  });

  test("with duplicate servers keys the last one (the one JSON.parse keeps) is edited", () => {
    const before = '{\n  "mcpServers": {"old": {}},\n  "mcpServers": {}\n}\n';
    expect(mergeText(desktop, before)).toBe(
      `{\n  "mcpServers": {"old": {}},\n  "mcpServers": {\n    "ra3": ${ENTRY_JSON}\n  }\n}\n`,
    );
  });
});

describe("updating an existing ra3 entry", () => {
  test("command and args are updated in place; fields the user added survive", () => {
    const before =
      '{\n  "mcpServers": {\n    "ra3": {\n      "command": "/old/ra3",\n      "env": {"RA3_SDK": "/sdk"},\n      "args": ["mcp"]\n    }\n  }\n}\n';
    expect(mergeText(desktop, before)).toBe(
      '{\n  "mcpServers": {\n    "ra3": {\n      "command": "/opt/ra3/bin/ra3",\n      "env": {"RA3_SDK": "/sdk"},\n      "args": ["mcp", "--project", "/mods/x"]\n    }\n  }\n}\n',
    );
  });

  test("a missing field is added at the end of the entry", () => {
    const before =
      '{\n  "mcpServers": {\n    "ra3": {\n      "command": "/opt/ra3/bin/ra3",\n      "args": ["mcp", "--project", "/mods/x"]\n    }\n  }\n}\n';
    expect(mergeText(code, before)).toBe(
      '{\n  "mcpServers": {\n    "ra3": {\n      "command": "/opt/ra3/bin/ra3",\n      "args": ["mcp", "--project", "/mods/x"],\n      "type": "stdio"\n    }\n  }\n}\n',
    );
  });

  test("an entry that is not an object is replaced", () => {
    expect(mergeText(desktop, '{\n  "mcpServers": {\n    "ra3": "todo"\n  }\n}\n')).toBe(
      `{\n  "mcpServers": {\n    "ra3": ${ENTRY_JSON}\n  }\n}\n`,
    );
  });

  test("a changed project path is one changed line", () => {
    const first = mergeText(desktop, "");
    const moved = mergeText(desktop, first, ra3ServerEntry({ binaryPath: "/opt/ra3/bin/ra3", projectDir: "/mods/y" }));
    expect(moved).toBe(first.replace('"/mods/x"', '"/mods/y"'));
  });
});

describe("removal", () => {
  test("the middle entry goes with its line", () => {
    const before = '{\n  "mcpServers": {\n    "a": {},\n    "ra3": {"command": "x"},\n    "b": {}\n  }\n}\n';
    expect(removeText(desktop, before)).toBe('{\n  "mcpServers": {\n    "a": {},\n    "b": {}\n  }\n}\n');
  });

  test("the last entry goes with the comma before it", () => {
    const before = '{\n  "mcpServers": {\n    "a": {}, // keep\n    "ra3": {\n      "command": "x"\n    }\n  }\n}\n';
    expect(removeText(desktop, before)).toBe('{\n  "mcpServers": {\n    "a": {} // keep\n  }\n}\n');
  });

  test("the only entry: the emptied servers key goes too when ra3 added it", () => {
    expect(removeText(desktop, '{\n  "theme": 1,\n  "mcpServers": {\n    "ra3": {}\n  }\n}\n')).toBe(
      '{\n  "theme": 1\n}\n',
    );
  });

  test("the only entry of a servers key the user already had: the empty key stays", () => {
    expect(removeText(desktop, '{\n  "theme": 1,\n  "mcpServers": {\n    "ra3": {}\n  }\n}\n', "ra3", false)).toBe(
      '{\n  "theme": 1,\n  "mcpServers": {}\n}\n',
    );
  });

  test("a servers object that keeps a comment stays", () => {
    expect(removeText(desktop, '{\n  "mcpServers": {\n    // later\n    "ra3": {}\n  }\n}\n')).toBe(
      '{\n  "mcpServers": {\n    // later\n  }\n}\n',
    );
  });

  test("nothing to remove: the text is returned unchanged", () => {
    const before = '{ "mcpServers": { "a": {} } }';
    expect(removeText(desktop, before)).toBe(before);
    expect(removeText(desktop, "")).toBe("");
  });
});

describe("reading", () => {
  test("strict-JSON clients warn about comments; JSONC clients do not", () => {
    const text = '{\n  // hi\n  "mcpServers": {},\n}\n';
    const strict = desktop.read(enc(text));
    const lenient = vscode.read(enc(text.replace("mcpServers", "servers")));
    expect(strict.ok && strict.doc.warnings).toEqual([
      "the file has comments or trailing commas, which Claude Desktop may reject as invalid JSON; ra3 kept them as they are",
    ]);
    expect(lenient.ok && lenient.doc.warnings).toEqual([]);
  });

  test("a null servers value is refused, positioned at the value", () => {
    const read = desktop.read(enc('{\n  "mcpServers": null\n}'));
    expect(read.ok).toBe(false);
    if (!read.ok) expect(read.problem).toEqual({ message: '"mcpServers" is null, not an object', line: 2, column: 17 });
  });
});

describe("verify", () => {
  const merged = mergeText(desktop, "");
  test("true for our entry, also with extra user fields", () => {
    expect(desktop.verify(merged, entry)).toBe(true);
    expect(desktop.verify(merged.replace('"args"', '"env": {},\n      "args"'), entry)).toBe(true);
  });
  test("false when args differ, the entry is missing, or the text is broken", () => {
    expect(desktop.verify(merged.replace("/mods/x", "/mods/y"), entry)).toBe(false);
    expect(desktop.verify('{"mcpServers": {}}', entry)).toBe(false);
    expect(desktop.verify(merged.slice(0, 20), entry)).toBe(false);
    expect(desktop.verify('{"mcpServers": {"ra3": []}}', entry)).toBe(false);
  });
});
