// install.ps1 without PowerShell (pwsh is not packaged for Debian): what can be checked here is checked
// on its parse tree (tree-sitter's PowerShell grammar, run as WebAssembly): no syntax error (and planted
// errors are found), no `exit` (it would close the user's window under iex), errors thrown with a clear
// "install.ps1:" message, nothing written before the checksum is compared, the same asset, variables,
// default path and release URLs as install.sh and setup. Not checked here: running it (downloads,
// Get-FileHash, Move-Item on a running exe, argument passing); the hosted Windows CI job runs it
// (scripts/install-smoke.ts), which has never run from this machine.
import { beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Language, type Node, Parser } from "web-tree-sitter";
import { RELEASE_TARGETS } from "../../scripts/build.ts";
import { DEFAULT_HOME_NAME } from "../../src/project/home.ts";

const ROOT = join(import.meta.dirname, "..", "..");
const PS1 = readFileSync(join(ROOT, "install.ps1"), "utf8");
const SH = readFileSync(join(ROOT, "install.sh"), "utf8");
const RELEASE_YML = readFileSync(join(ROOT, ".github", "workflows", "release.yml"), "utf8");

let parser: Parser;
beforeAll(async () => {
  await Parser.init();
  const grammar = join(ROOT, "node_modules", "tree-sitter-powershell", "tree-sitter-powershell.wasm");
  parser = new Parser();
  parser.setLanguage(await Language.load(grammar));
});

function nodes(root: Node, pred: (n: Node) => boolean, out: Node[] = []): Node[] {
  if (pred(root)) out.push(root);
  for (const c of root.children) if (c) nodes(c, pred, out);
  return out;
}

/** Syntax errors as `line:column text`. */
function syntaxErrors(text: string): string[] {
  const tree = parser.parse(text)!;
  return nodes(tree.rootNode, (n) => n.isError || n.isMissing).map((n) =>
    `${n.startPosition.row + 1}:${n.startPosition.column + 1} ${
      n.isMissing ? `missing ${n.type}` : n.text.slice(0, 30)
    }`
  );
}

describe("install.ps1 syntax (tree-sitter PowerShell grammar)", () => {
  test("parses without an error", () => {
    expect(syntaxErrors(PS1)).toEqual([]);
  });

  test("planted mistakes are found: a missing brace, an unclosed string, a broken if", () => {
    expect(syntaxErrors(PS1.replace("if ($actual -ne $expected) {", "if ($actual -ne $expected)  "))).not.toEqual([]);
    expect(syntaxErrors(PS1.replace("$asset = 'ra3-windows-x64.exe'", "$asset = 'ra3-windows-x64.exe"))).not.toEqual(
      [],
    );
    expect(syntaxErrors(PS1.replace("if (-not $expected) {", "if -not $expected) {"))).not.toEqual([]);
  });
});

describe("install.ps1 logic (read from the parse tree)", () => {
  const root = () => parser.parse(PS1)!.rootNode;
  const commands = (name: string) =>
    nodes(root(), (n) => n.type === "command" && n.children[0]?.text.toLowerCase() === name.toLowerCase());
  const flow = () => nodes(root(), (n) => n.type === "flow_control_statement");

  test("never `exit`: errors are thrown, each starting install.ps1: and saying what was (not) installed", () => {
    const words = flow().map((n) => n.text.split(/\s/)[0]);
    expect(words.filter((w) => w === "exit" || w === "return")).toEqual([]);
    const throws = flow().filter((n) => n.text.startsWith("throw"));
    expect(throws.length).toBe(5);
    for (const t of throws) expect(t.text).toMatch(/^throw ["']install\.ps1: /);
    const afterDownload = throws.filter((t) => t.startIndex > PS1.indexOf("Invoke-WebRequest"));
    for (const t of afterDownload) expect(t.text).toContain("nothing was installed");
  });

  test("nothing is created or moved into the install folder before the checksum comparison", () => {
    const check = PS1.indexOf("if ($actual -ne $expected)");
    expect(check).toBeGreaterThan(0);
    const writes = [...commands("New-Item"), ...commands("Move-Item")].filter((n) => !n.text.includes("$tmp"));
    expect(writes.length).toBe(3);
    for (const w of writes) expect(w.startIndex).toBeGreaterThan(check);
    // Get-FileHash of the download is what is compared.
    expect(commands("Get-FileHash").map((n) => n.text)).toEqual([
      "Get-FileHash -Algorithm SHA256 -LiteralPath $download",
    ]);
  });

  test("the same asset as the release, the same RA3_ variables and release URLs as install.sh", () => {
    const windows = RELEASE_TARGETS.find((t) => t.os === "windows")!;
    expect(PS1).toContain(`$asset = '${windows.asset}'`);
    const psVars = new Set(
      nodes(root(), (n) => n.type === "variable" && /^\$env:RA3_/i.test(n.text)).map((n) => n.text.slice(5)),
    );
    const shVars = new Set([...SH.matchAll(/\$\{?(RA3_[A-Z_]+)/g)].map((m) => m[1]));
    expect([...psVars].sort()).toEqual([
      "RA3_DOWNLOAD_BASE",
      "RA3_HOME",
      "RA3_INSTALL_DIR",
      "RA3_NO_SETUP",
      "RA3_VERSION",
    ]);
    expect([...shVars].sort()).toEqual([...psVars].sort());
    for (
      const url of [
        "https://github.com/$repository/releases/latest/download",
        "https://github.com/$repository/releases/download/",
      ]
    ) {
      expect(PS1).toContain(url);
      expect(SH).toContain(url);
    }
  });

  test("the default install path is setup's stable path: <RA3_HOME or %USERPROFILE%\\.ra3modxml>\\bin\\ra3.exe", () => {
    expect(commands("Join-Path").map((n) => n.text).slice(0, 3)).toEqual([
      `Join-Path $env:USERPROFILE '${DEFAULT_HOME_NAME}'`,
      "Join-Path $stateDir 'bin'",
      "Join-Path $installDir 'ra3.exe'",
    ]);
  });

  test("the repository placeholder is stamped by the release workflow in both scripts", () => {
    expect(PS1.match(/__RA3_REPOSITORY__/g)?.length).toBe(2);
    expect(RELEASE_YML).toContain(
      'sed "s#__RA3_REPOSITORY__#$GITHUB_REPOSITORY#" install.ps1 > dist/release/install.ps1',
    );
    expect(RELEASE_YML).toContain(
      'sed "s#__RA3_REPOSITORY__#$GITHUB_REPOSITORY#" install.sh > dist/release/install.sh',
    );
  });
});
