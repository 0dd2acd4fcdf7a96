/**
 * The architecture is a test: the layer order written in `docs/architecture.md` (its ```layers block)
 * is this test's data. It fails on an import against that order, on any import cycle (type-only imports
 * included), on `node:fs` / `child_process` / `process.env` in the pure layers, and on two doc blocks
 * stacked on one declaration. The checker is tested on in-memory module graphs first.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import {
  checkArchitecture,
  eagerClosure,
  eagerImports,
  exportFacts,
  importCycles,
  type Layers,
  type ModuleFacts,
  moduleFacts,
  parseLayers,
  readExportFacts,
  readModules,
  unusedExports,
} from "./architecture.ts";

const ROOT = join(import.meta.dirname, "..");
const DOC = readFileSync(join(ROOT, "docs", "architecture.md"), "utf8");

/** A small graph that keeps the rules: cli → query → index, nothing pure doing I/O. */
const LAYERS: Layers = parseLayers(
  "```layers\ncli\nquery store\nindex\npure: index query\nfunction-lines: index 5\n```\n",
);
const mod = (path: string, imports: string[] = [], extra: Partial<ModuleFacts> = {}): ModuleFacts => ({
  path,
  imports,
  externals: [],
  envReads: [],
  stackedDocs: [],
  functions: [],
  ...extra,
});
const GOOD: ModuleFacts[] = [
  mod("cli/run.ts", ["query/find.ts", "index/link.ts"], { externals: ["node:fs"] }),
  mod("query/find.ts", ["index/link.ts", "query/present.ts"]),
  mod("query/present.ts", ["index/link.ts"]),
  mod("index/link.ts"),
  mod("store/codec.ts", ["index/link.ts"]),
];

describe("the checker (a test of the test)", () => {
  test("a graph that keeps the rules passes", () => {
    expect(checkArchitecture(GOOD, LAYERS)).toEqual([]);
  });

  test("an upward import fails, naming the module and both layers", () => {
    const planted = [...GOOD.filter((m) => m.path !== "index/link.ts"), mod("index/link.ts", ["query/present.ts"])];
    expect(checkArchitecture(planted, LAYERS)).toEqual([
      "index/link.ts imports query/present.ts: index may not import query (a higher layer in docs/architecture.md)",
      "import cycle: index/link.ts → query/present.ts → index/link.ts",
    ]);
  });

  test("an import between two layers of the same rank fails", () => {
    const planted = [...GOOD.filter((m) => m.path !== "store/codec.ts"), mod("store/codec.ts", ["query/present.ts"])];
    expect(checkArchitecture(planted, LAYERS)).toEqual([
      "store/codec.ts imports query/present.ts: store may not import query (same rank in docs/architecture.md)",
    ]);
  });

  test("a cycle inside one layer fails, type-only imports counting as imports", () => {
    const text = 'import type { A } from "./b.ts";\nexport type B = A;\n';
    const a = moduleFacts("query/a.ts", text);
    expect(a.imports).toEqual(["query/b.ts"]);
    const planted = [...GOOD, a, mod("query/b.ts", ["query/c.ts"]), mod("query/c.ts", ["query/a.ts"])];
    expect(checkArchitecture(planted, LAYERS)).toEqual([
      "import cycle: query/a.ts → query/b.ts → query/c.ts → query/a.ts",
    ]);
    expect(importCycles([mod("index/x.ts", ["index/x.ts"])])).toEqual([]);
  });

  test("I/O in a pure layer fails: node:fs, child_process, process.env", () => {
    const facts = moduleFacts(
      "index/bad.ts",
      'import { readFileSync } from "node:fs";\nimport { spawn } from "child_process";\nconst home = process.env.HOME;\n',
    );
    expect([facts.externals, facts.envReads]).toEqual([["node:fs", "child_process"], [3]]);
    expect(checkArchitecture([facts], LAYERS)).toEqual([
      "index/bad.ts imports node:fs: the index layer does no I/O",
      "index/bad.ts imports child_process: the index layer does no I/O",
      "index/bad.ts:3 reads process.env: the index layer does no I/O",
    ]);
    // The same module in an impure layer is fine.
    expect(checkArchitecture([{ ...facts, path: "cli/bad.ts" }], LAYERS)).toEqual([]);
  });

  test("two doc blocks stacked on one declaration fail; a header before imports does not", () => {
    const stacked = moduleFacts(
      "index/s.ts",
      "/** Header. */\nimport { x } from './x.ts';\n/** One. */\n/** Two. */\nexport function f() {}\n",
    );
    expect(stacked.stackedDocs).toEqual([5]);
    const fine = moduleFacts(
      "index/f.ts",
      "/** Header. */\nimport { x } from './x.ts';\n/** One. */\nexport function f() {}\n",
    );
    expect(fine.stackedDocs).toEqual([]);
    const header = moduleFacts("index/h.ts", "/** Header. */\n\n/** One. */\nexport interface I {}\n");
    expect(header.stackedDocs).toEqual([]);
    const member = moduleFacts("index/m.ts", "export class C {\n  /** a */\n  /** b */\n  m(): void {}\n}\n");
    expect(checkArchitecture([member], LAYERS)).toEqual([
      "index/m.ts:4: two doc blocks stacked on one declaration (only the last one is its doc)",
    ]);
  });

  test("a function longer than its layer allows fails", () => {
    const long = moduleFacts(
      "index/long.ts",
      "export function f(): number {\n  let a = 1;\n  a++;\n  a++;\n  return a;\n}\n",
    );
    expect(long.functions).toEqual([{ line: 1, lines: 6, name: "f" }]);
    expect(checkArchitecture([long], LAYERS)).toEqual([
      "index/long.ts:1: f is 6 lines long; the index layer's limit is 5",
    ]);
    expect(checkArchitecture([{ ...long, path: "query/long.ts" }], LAYERS)).toEqual([]);
  });

  test("a module outside every layer, and an import of a missing module, fail", () => {
    expect(checkArchitecture([mod("lonely.ts"), mod("cli/x.ts", ["query/gone.ts"])], LAYERS)).toEqual([
      'lonely.ts: its layer "lonely.ts" is not in the layer order of docs/architecture.md',
      "cli/x.ts imports query/gone.ts, which does not exist",
    ]);
  });

  test("the layers block is parsed: ranks top first, the pure list", () => {
    expect([...LAYERS.rank]).toEqual([["cli", 0], ["query", 1], ["store", 1], ["index", 2]]);
    expect([...LAYERS.pure]).toEqual(["index", "query"]);
    expect([...LAYERS.functionLines]).toEqual([["index", 5]]);
    expect(() => parseLayers("no block")).toThrow("no ```layers block");
  });
});

describe("unused exports (the checker)", () => {
  test("a value nothing imports is reported; types, imported names, namespace imports and re-exports are not", () => {
    const modules = [
      exportFacts("src/a.ts", "export function used() {}\nexport const unused = 1;\nexport interface T {}\n"),
      exportFacts("src/b.ts", "export class Everything {}\n"),
      exportFacts("src/c.ts", "export function reexported() {}\n"),
      exportFacts("src/d.ts", 'export { reexported } from "./c.ts";\n'),
      exportFacts("test/x.test.ts", 'import { used } from "../src/a.ts";\nimport * as B from "../src/b.ts";\n'),
    ];
    expect(unusedExports(modules)).toEqual(["src/a.ts unused"]);
  });

  test("dynamic imports count by the names they read (then, destructuring), or as all", () => {
    const modules = [
      exportFacts(
        "src/e.ts",
        "export function viaThen() {}\nexport function viaAwait() {}\nexport function never() {}\n",
      ),
      exportFacts("src/f.ts", "export function anything() {}\n"),
      exportFacts(
        "src/run.ts",
        'const a = () => import("./e.ts").then((m) => m.viaThen);\n' +
          'async function b() { const { viaAwait } = await import("./e.ts"); return viaAwait; }\n' +
          'async function c() { return await import("./f.ts"); }\n',
      ),
    ];
    expect(unusedExports(modules)).toEqual(["src/e.ts never"]);
  });
});

describe("src/ keeps the architecture of docs/architecture.md", () => {
  const layers = parseLayers(DOC);
  const modules = readModules(join(ROOT, "src"));

  test("the doc's layer order names every folder of src/ and the pure layers", () => {
    expect([...layers.pure].sort()).toEqual(["formats", "index", "query", "xml"]);
    expect([...layers.functionLines]).toEqual([["index", 150]]);
    const present = new Set(modules.map((m) => m.path.split("/")[0]));
    expect([...layers.rank.keys()].filter((l) => !present.has(l))).toEqual([]);
    expect(modules.length).toBeGreaterThan(100);
  });

  test("no import against the layer order, no cycle, no I/O in pure layers, no stacked doc blocks, no long index function", () => {
    expect(checkArchitecture(modules, layers)).toEqual([]);
  });
});

describe("the linker's modules are the ones docs/architecture.md lists", () => {
  test("every link phase module has its row, and every row a module", () => {
    const rows = [...DOC.matchAll(/^\| `((?:link|include-walk|linked)[\w-]*\.ts)` \|/gm)].map((m) => m[1]).sort();
    const modules = readModules(join(ROOT, "src"))
      .map((m) => m.path)
      .filter((p) => /^index\/(link|include-walk)/.test(p))
      .map((p) => p.slice("index/".length))
      .sort();
    expect(rows).toEqual(modules);
    expect(rows.length).toBe(16);
  });
});

describe("the front ends", () => {
  const modules = readModules(join(ROOT, "src"));
  test("only main.ts reads process.argv or calls process.exit", () => {
    const offenders: string[] = [];
    for (const m of modules.filter((m) => m.path !== "main.ts")) {
      const text = readFileSync(join(ROOT, "src", m.path), "utf8").replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, "");
      if (/process\.(argv|exit)\b/.test(text)) offenders.push(m.path);
    }
    expect(offenders).toEqual([]);
  });
  test("CLI commands call query functions, never index internals", () => {
    expect(modules.filter((m) => m.path.startsWith("cli/") && m.imports.some((i) => i.startsWith("index/"))))
      .toEqual([]);
  });
});

describe("commands load lazily", () => {
  test("the checker: type-only and dynamic imports load nothing, value and side-effect imports do", () => {
    const files: Record<string, string> = {
      "main.ts": 'import { run } from "./run.ts";\nimport type { T } from "./heavy.ts";\nimport "./side.ts";\n',
      "run.ts": 'import { type T, x } from "./mixed.ts";\nconst h = () => import("./heavy.ts");\n',
      "mixed.ts": 'import { type A } from "./heavy.ts";\nexport * from "./again.ts";\n',
      "again.ts": "",
      "side.ts": "",
      "heavy.ts": "",
    };
    const closure = eagerClosure("main.ts", (p) => eagerImports(p, files[p] ?? ""));
    expect(closure).toEqual(["again.ts", "main.ts", "mixed.ts", "run.ts", "side.ts"]);
  });

  test("starting the binary loads no command module, no workspace, no MCP server and no setup", () => {
    const src = join(ROOT, "src");
    const closure = eagerClosure("main.ts", (p) => eagerImports(p, readFileSync(join(src, p), "utf8")));
    // What any command needs to parse its flags and dispatch (the MCP module only for captureMcpStdin).
    expect(closure.filter((p) => /^(cli\/commands|workspace|mcp|setup|store|index|query)\//.test(p))).toEqual([
      "cli/commands/mcp.ts",
      "mcp/stdin.ts",
    ]);
  });
});

describe("dead code stays out", () => {
  const EXEMPT: string[] = [];
  test("every function, class and constant exported from src/ is imported somewhere (src, test or scripts)", () => {
    const facts = readExportFacts(ROOT, ["src", "test", "scripts"]);
    expect(unusedExports(facts).filter((u) => !EXEMPT.some((e) => u.startsWith(e)))).toEqual([]);
  });
});

describe("the MCP handlers hold no logic the CLI does not share", () => {
  test("src/mcp/ reads no index internals and pushes no lifecycle events (the query and service layers do)", () => {
    const offenders: string[] = [];
    for (const m of readModules(join(ROOT, "src")).filter((m) => m.path.startsWith("mcp/"))) {
      const text = readFileSync(join(ROOT, "src", m.path), "utf8");
      text.split("\n").forEach((line, i) => {
        if (/\blinked\.(sites|byType|byId|referencedBy|referencesFrom|defineUses)\b|\.ws\.event\(/.test(line)) {
          offenders.push(`${m.path}:${i + 1}: ${line.trim()}`);
        }
      });
    }
    expect(offenders).toEqual([]);
  });
});
