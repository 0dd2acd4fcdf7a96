import { describe, expect, test } from "bun:test";
import { ra3ServerEntry, writerFor } from "../../../src/setup/clients/index.ts";
import { scanToml } from "../../../src/setup/clients/toml-edit.ts";

const codex = writerFor("codex")!;
const entry = ra3ServerEntry({ binaryPath: "C:\\Tools\\ra3.exe", projectDir: "C:\\Mods\\X" });
const OURS = '[mcp_servers.ra3]\ncommand = "C:\\\\Tools\\\\ra3.exe"\nargs = ["mcp", "--project", "C:\\\\Mods\\\\X"]\n';
const enc = (s: string): Uint8Array => new TextEncoder().encode(s);

function merge(text: string | Uint8Array): { ok: boolean; text?: string; message?: string; line?: number | null } {
  const read = codex.read(typeof text === "string" ? enc(text) : text);
  if (!read.ok) return { ok: false, message: read.problem.message, line: read.problem.line };
  const merged = codex.merge(read.doc, entry);
  return merged.ok
    ? { ok: true, text: merged.text }
    : { ok: false, message: merged.problem.message, line: merged.problem.line };
}

function remove(text: string): string {
  const read = codex.read(enc(text));
  if (!read.ok) throw new Error(read.problem.message);
  const removed = codex.remove(read.doc, "ra3");
  if (!removed.ok) throw new Error(removed.problem.message);
  return removed.text;
}

describe("the statement scanner is not fooled by what looks like a header", () => {
  test("a multi-line string and a multi-line array with nested arrays", () => {
    const text =
      'notes = """\n[mcp_servers.ra3]\nnot a table\n"""\nmatrix = [\n  [1, 2],\n  [3, 4], # comment ]\n]\nwhen = 1979-05-27 07:32:00Z\n[real]\nx = 1\n';
    const headers = scanToml(text).filter((s) => s.kind === "header").map((s) => s.keys.join("."));
    expect(headers).toEqual(["real"]);
    expect(merge(text)).toEqual({ ok: true, text: text + "\n" + OURS.replace(/^/, "") });
  });

  test("quoted keys in headers are decoded", () => {
    const keys = scanToml("[mcp_servers.\"ra3\"]\n[ a . 'b.c' ]\n[[arr]]\n").map((s) => s.keys);
    expect(keys).toEqual([["mcp_servers", "ra3"], ["a", "b.c"], ["arr"]]);
  });
});

describe("merge", () => {
  test("an existing table written with a quoted key is updated in place, its other keys kept", () => {
    const before = '[mcp_servers."ra3"]\ncommand = "/old" # was here\nstartup_timeout_sec = 30\n';
    expect(merge(before)).toEqual({
      ok: true,
      text:
        '[mcp_servers."ra3"]\ncommand = "C:\\\\Tools\\\\ra3.exe" # was here\nstartup_timeout_sec = 30\nargs = ["mcp", "--project", "C:\\\\Mods\\\\X"]\n',
    });
  });

  test("a multi-line args array is replaced by one line", () => {
    const before = '[mcp_servers.ra3]\ncommand = "C:\\\\Tools\\\\ra3.exe"\nargs = [\n  "mcp",\n]\n\n[other]\n';
    expect(merge(before)).toEqual({
      ok: true,
      text:
        '[mcp_servers.ra3]\ncommand = "C:\\\\Tools\\\\ra3.exe"\nargs = ["mcp", "--project", "C:\\\\Mods\\\\X"]\n\n[other]\n',
    });
  });

  test("a file without a final newline is separated by a blank line", () => {
    expect(merge('model = "o3"')).toEqual({ ok: true, text: 'model = "o3"\n\n' + OURS });
  });

  test("a file ending in a blank line gets no second one", () => {
    expect(merge('model = "o3"\n\n')).toEqual({ ok: true, text: 'model = "o3"\n\n' + OURS });
  });

  test("CRLF and a BOM are kept", () => {
    const out = merge(new Uint8Array([0xef, 0xbb, 0xbf, ...enc('model = "o3"\r\n')]));
    expect(out).toEqual({ ok: true, text: '\uFEFFmodel = "o3"\r\n\r\n' + OURS.replace(/\n/g, "\r\n") });
  });

  test("ra3 as an inline table inside [mcp_servers] is refused, positioned", () => {
    expect(merge('[mcp_servers]\nra3 = { command = "x" }\n')).toEqual({
      ok: false,
      message:
        "mcp_servers.ra3 is written as an inline table or with dotted keys, which ra3 does not edit; replace it with a [mcp_servers.ra3] table (or delete it) and run setup again",
      line: 2,
    });
  });

  test("ra3 as dotted keys at the root is refused too", () => {
    expect(merge('mcp_servers.ra3.command = "x"\n').line).toBe(1);
  });

  test("mcp_servers as a root inline table cannot take a new table: refused, file untouched", () => {
    expect(merge('mcp_servers = { other = { command = "x" } }\n')).toEqual({
      ok: false,
      message:
        "adding [mcp_servers.ra3] would make the file invalid TOML (not valid TOML (trying to redefine an already defined table or value)); add the entry by hand",
      line: null,
    });
  });

  test("mcp_servers that is not a table is refused at read", () => {
    expect(merge("x = 1\nmcp_servers = [1, 2]\n")).toEqual({
      ok: false,
      message: '"mcp_servers" is an array, not a table',
      line: 2,
    });
  });
});

describe("remove", () => {
  test("our table and its sub-tables go; one blank line stays between neighbours", () => {
    const before =
      'a = 1\n\n[mcp_servers.other]\ncommand = "y"\n\n[mcp_servers.ra3]\ncommand = "x"\n\n[mcp_servers.ra3.env]\nK = "v"\n\n# next\n[profiles.z]\nm = 2\n';
    expect(remove(before)).toBe('a = 1\n\n[mcp_servers.other]\ncommand = "y"\n\n# next\n[profiles.z]\nm = 2\n');
  });

  test("at the end of the file the trailing blank lines go too", () => {
    expect(remove("a = 1\n\n" + OURS + "\n\n")).toBe("a = 1\n");
  });

  test("the only content: the file becomes empty", () => {
    expect(remove(OURS)).toBe("");
    expect(codex.isEmptyShell("")).toBe(true);
    expect(codex.isEmptyShell("a = 1\n")).toBe(false);
  });

  test("ra3 written in a form ra3 does not edit is refused rather than half-removed", () => {
    const read = codex.read(enc('[mcp_servers]\nra3 = { command = "x" }\n'));
    const removed = read.ok ? codex.remove(read.doc, "ra3") : null;
    expect(removed?.ok).toBe(false);
  });
});

test("invalid TOML: position and reason from smol-toml", () => {
  expect(merge('a = "unterminated\n')).toEqual({
    ok: false,
    message: "not valid TOML (control characters are not allowed in strings)",
    line: 1,
  });
});
