/**
 * The architecture checker behind `test/architecture.test.ts`: reads the layer order from the fenced
 * `layers` block of `docs/architecture.md`, builds the module graph of `src/` from the TypeScript parser
 * (every `import`/`export … from`, type-only and dynamic imports included), and lists what breaks the
 * rules: imports against the layer order, import cycles, I/O in the pure layers, and two doc blocks
 * stacked on one declaration. Works on an in-memory graph too, so the checker itself is tested.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative, resolve, sep } from "node:path";
import ts from "typescript";

/** The layer order: `ranks[0]` is the top; a module may import its own layer's folder or any lower rank. */
export interface Layers {
  /** Layer (a folder under `src/`, or a file at its root) → rank; 0 is the top. */
  readonly rank: ReadonlyMap<string, number>;
  /** Layers that do no I/O. */
  readonly pure: ReadonlySet<string>;
  /** Layer → the most lines one function in it may have. */
  readonly functionLines: ReadonlyMap<string, number>;
}

/** One source module: its path relative to `src/` with `/`, its imports and what the parser found in it. */
export interface ModuleFacts {
  readonly path: string;
  /** Imports of other modules under `src/` (paths relative to `src/`). */
  readonly imports: readonly string[];
  /** Bare specifiers (packages, `node:` modules). */
  readonly externals: readonly string[];
  /** 1-based lines where `process.env` is read. */
  readonly envReads: readonly number[];
  /** 1-based lines of declarations with two or more doc blocks stacked on them. */
  readonly stackedDocs: readonly number[];
  /** Every function with a body: its first line and its length in lines. */
  readonly functions: readonly { readonly line: number; readonly lines: number; readonly name: string }[];
}

const IO_MODULES = new Set(["fs", "node:fs", "fs/promises", "node:fs/promises", "child_process", "node:child_process"]);

/**
 * Parses the fenced ```layers block: one line per rank, top first, layers separated by spaces; a line
 * `pure: a b` names the layers that do no I/O, `function-lines: a 150` caps a layer's function length.
 * `#` starts a comment.
 * @example parseLayers("```layers\ncli\nquery\npure: query\n```").rank.get("cli") // 0
 */
export function parseLayers(markdown: string): Layers {
  const m = /^```layers\n([\s\S]*?)^```/m.exec(markdown);
  if (!m) throw new Error("docs/architecture.md has no ```layers block");
  const rank = new Map<string, number>();
  const pure = new Set<string>();
  const functionLines = new Map<string, number>();
  let r = 0;
  for (const raw of m[1].split("\n")) {
    const line = raw.replace(/#.*/, "").trim();
    if (!line) continue;
    if (line.startsWith("pure:")) {
      for (const l of line.slice(5).trim().split(/\s+/)) pure.add(l);
      continue;
    }
    if (line.startsWith("function-lines:")) {
      const [layer, n] = line.slice(15).trim().split(/\s+/);
      functionLines.set(layer, Number(n));
      continue;
    }
    for (const l of line.split(/\s+/)) {
      if (rank.has(l)) throw new Error(`layer ${l} is listed twice`);
      rank.set(l, r);
    }
    r++;
  }
  for (const p of pure) if (!rank.has(p)) throw new Error(`pure layer ${p} is not in the layer order`);
  return { rank, pure, functionLines };
}

/** The layer a module belongs to: its first folder under `src/`, or its own name at the root. */
export function layerOf(path: string): string {
  const i = path.indexOf("/");
  return i < 0 ? path : path.slice(0, i);
}

/**
 * What the parser finds in one module: its imports (resolved relative to `src/`), externals,
 * `process.env` reads and stacked doc blocks.
 */
export function moduleFacts(path: string, text: string): ModuleFacts {
  const info = ts.preProcessFile(text, true, true);
  const imports: string[] = [];
  const externals: string[] = [];
  for (const f of info.importedFiles) {
    const spec = f.fileName;
    if (spec.startsWith(".")) {
      const target = posix(join(path, "..", spec));
      // Imports leaving src/ (the embedded skill text, package.json) are assets, not layers.
      if (!target.startsWith("../")) imports.push(target);
    } else {
      externals.push(spec);
    }
  }
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
  const envReads: number[] = [];
  const docCounted = new Set<number>();
  const stackedDocs: number[] = [];
  const lineOf = (pos: number) => source.getLineAndCharacterOfPosition(pos).line + 1;
  const functions: { line: number; lines: number; name: string }[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && "body" in node && node.body) {
      const line = lineOf(node.getStart(source));
      const name = "name" in node && node.name ? node.name.getText(source) : "(anonymous)";
      functions.push({ line, lines: lineOf(node.end) - line + 1, name });
    }
    if (
      (ts.isPropertyAccessExpression(node) && node.name.text === "env" ||
        ts.isElementAccessExpression(node) && ts.isStringLiteral(node.argumentExpression) &&
          node.argumentExpression.text === "env") &&
      ts.isIdentifier(node.expression) && node.expression.text === "process"
    ) {
      envReads.push(lineOf(node.getStart(source)));
    }
    if (!docCounted.has(node.pos)) {
      docCounted.add(node.pos);
      const docs = (ts.getLeadingCommentRanges(text, node.pos) ?? []).filter((c) =>
        c.kind === ts.SyntaxKind.MultiLineCommentTrivia && text.startsWith("/**", c.pos) &&
        !text.startsWith("/**/", c.pos)
      );
      // The file header (the file's first comment) is not the first declaration's doc.
      if (node.pos === 0 && docs.length > 0 && docs[0].pos === (ts.getLeadingCommentRanges(text, 0) ?? [])[0]?.pos) {
        docs.shift();
      }
      if (docs.length >= 2 && node.kind !== ts.SyntaxKind.EndOfFileToken) {
        stackedDocs.push(lineOf(node.getStart(source)));
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return { path, imports, externals, envReads, stackedDocs, functions };
}

/** Every `.ts` module under `dir` (declaration files excepted), as {@link ModuleFacts}. */
export function readModules(dir: string): ModuleFacts[] {
  const root = resolve(dir);
  return tsFiles(root)
    .map((p) => moduleFacts(posix(relative(root, p)), readFileSync(p, "utf8")))
    .sort((a, b) => (a.path < b.path ? -1 : 1));
}

/** The `.ts` files under `dir`, declaration files excepted. */
function tsFiles(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...tsFiles(p));
    else if (e.name.endsWith(".ts") && !e.name.endsWith(".d.ts")) out.push(p);
  }
  return out;
}

/** Every rule the modules break, one sentence each (empty when the architecture holds). */
export function checkArchitecture(modules: readonly ModuleFacts[], layers: Layers): string[] {
  const problems: string[] = [];
  const known = new Set(modules.map((m) => m.path));
  for (const m of modules) {
    const from = layerOf(m.path);
    const fromRank = layers.rank.get(from);
    if (fromRank === undefined) {
      problems.push(`${m.path}: its layer "${from}" is not in the layer order of docs/architecture.md`);
      continue;
    }
    for (const imp of m.imports) {
      if (!known.has(imp)) {
        problems.push(`${m.path} imports ${imp}, which does not exist`);
        continue;
      }
      const to = layerOf(imp);
      if (to === from) continue;
      const toRank = layers.rank.get(to);
      if (toRank === undefined) continue; // reported for the imported module itself
      if (toRank <= fromRank) {
        problems.push(
          `${m.path} imports ${imp}: ${from} may not import ${to} (${
            toRank === fromRank ? "same rank" : "a higher layer"
          } in docs/architecture.md)`,
        );
      }
    }
    if (layers.pure.has(from)) {
      for (const e of m.externals) {
        if (IO_MODULES.has(e)) problems.push(`${m.path} imports ${e}: the ${from} layer does no I/O`);
      }
      for (const line of m.envReads) {
        problems.push(`${m.path}:${line} reads process.env: the ${from} layer does no I/O`);
      }
    }
    const maxLines = layers.functionLines.get(from);
    if (maxLines !== undefined) {
      for (const f of m.functions) {
        if (f.lines > maxLines) {
          problems.push(
            `${m.path}:${f.line}: ${f.name} is ${f.lines} lines long; the ${from} layer's limit is ${maxLines}`,
          );
        }
      }
    }
    for (const line of m.stackedDocs) {
      problems.push(`${m.path}:${line}: two doc blocks stacked on one declaration (only the last one is its doc)`);
    }
  }
  for (const cycle of importCycles(modules)) problems.push(`import cycle: ${cycle.join(" → ")}`);
  return problems;
}

/** The import cycles among `modules` (one per strongly connected component, as a closed path). */
export function importCycles(modules: readonly ModuleFacts[]): string[][] {
  const edges = new Map(modules.map((m) => [m.path, m.imports.filter((i) => i !== m.path)]));
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const cycles: string[][] = [];
  let next = 0;
  const strong = (v: string): void => {
    index.set(v, next);
    low.set(v, next);
    next++;
    stack.push(v);
    onStack.add(v);
    for (const w of edges.get(v) ?? []) {
      if (!edges.has(w)) continue;
      if (!index.has(w)) {
        strong(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v)!, index.get(w)!));
      }
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    const self = (edges.get(v) ?? []).includes(v);
    if (component.length > 1 || self) cycles.push(closedPath(component, edges));
  };
  for (const m of modules) if (!index.has(m.path)) strong(m.path);
  return cycles;
}

/** A closed path through a strongly connected component, from its first member (sorted) back to it. */
function closedPath(component: readonly string[], edges: ReadonlyMap<string, readonly string[]>): string[] {
  const members = new Set(component);
  const start = [...component].sort()[0];
  // Breadth-first from start to any member with an edge back to start: the shortest cycle through start.
  const prev = new Map<string, string>();
  const queue = [start];
  const seen = new Set([start]);
  while (queue.length) {
    const v = queue.shift()!;
    for (const w of edges.get(v) ?? []) {
      if (w === start) {
        const path = [v];
        while (path[0] !== start) path.unshift(prev.get(path[0])!);
        return [...path, start];
      }
      if (!members.has(w) || seen.has(w)) continue;
      seen.add(w);
      prev.set(w, v);
      queue.push(w);
    }
  }
  return [start, start];
}

function posix(p: string): string {
  return sep === "\\" ? p.replace(/\\/g, "/") : p;
}

/**
 * The modules under `src/` that `text` (module `path`, relative to `src/`) loads when it is evaluated:
 * its `import … from` and `export … from` with at least one value binding (or none, for a side effect).
 * Type-only imports and dynamic `import()` load nothing at that moment.
 * @example eagerImports("cli/run.ts", 'import type { A } from "./a.ts";\nimport { b } from "./b.ts";') // ["cli/b.ts"]
 */
export function eagerImports(path: string, text: string): string[] {
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
  const out: string[] = [];
  for (const st of source.statements) {
    let spec: ts.Expression | undefined;
    if (ts.isImportDeclaration(st)) {
      const clause = st.importClause;
      const bindings = clause?.namedBindings;
      const typeOnly = clause !== undefined && (clause.isTypeOnly ||
        (!clause.name && bindings !== undefined && ts.isNamedImports(bindings) && bindings.elements.length > 0 &&
          bindings.elements.every((e) => e.isTypeOnly)));
      if (!typeOnly) spec = st.moduleSpecifier;
    } else if (ts.isExportDeclaration(st) && !st.isTypeOnly) {
      spec = st.moduleSpecifier;
    }
    if (spec && ts.isStringLiteral(spec) && spec.text.startsWith(".")) {
      const target = posix(join(path, "..", spec.text));
      if (!target.startsWith("../")) out.push(target);
    }
  }
  return out;
}

/** Every module `entry` loads when evaluated, itself included (see {@link eagerImports}), sorted. */
export function eagerClosure(entry: string, importsOf: (path: string) => readonly string[]): string[] {
  const seen = new Set<string>([entry]);
  const stack = [entry];
  while (stack.length > 0) {
    for (const next of importsOf(stack.pop()!)) {
      if (seen.has(next)) continue;
      seen.add(next);
      stack.push(next);
    }
  }
  return [...seen].sort();
}

/** What one module exports (values only: functions, classes, variables) and imports by name. */
export interface ExportFacts {
  /** Path relative to the repository root, with `/`. */
  readonly path: string;
  readonly exportedValues: readonly string[];
  /** Imported module (relative to the repository root) → the names imported from it (`*`: all). */
  readonly imports: ReadonlyMap<string, readonly string[]>;
}

/** The value exports and named imports of one module (`path` relative to the repository root). */
export function exportFacts(path: string, text: string): ExportFacts {
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
  const exportedValues: string[] = [];
  const imports = new Map<string, string[]>();
  const use = (spec: string, names: string[]) => {
    if (!spec.startsWith(".")) return;
    const target = posix(join(path, "..", spec));
    imports.set(target, [...(imports.get(target) ?? []), ...names]);
  };
  for (const st of source.statements) {
    const exported = ts.canHaveModifiers(st) &&
      (ts.getModifiers(st) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
    if (exported && (ts.isFunctionDeclaration(st) || ts.isClassDeclaration(st)) && st.name) {
      exportedValues.push(st.name.text);
    }
    if (exported && ts.isVariableStatement(st)) {
      for (const d of st.declarationList.declarations) if (ts.isIdentifier(d.name)) exportedValues.push(d.name.text);
    }
    if (ts.isImportDeclaration(st) && ts.isStringLiteral(st.moduleSpecifier)) {
      const clause = st.importClause;
      const named = clause?.namedBindings;
      use(st.moduleSpecifier.text, [
        ...(clause?.name ? ["default"] : []),
        ...(named && ts.isNamedImports(named) ? named.elements.map((e) => (e.propertyName ?? e.name).text) : []),
        ...(named && ts.isNamespaceImport(named) ? ["*"] : []),
      ]);
    }
    if (ts.isExportDeclaration(st) && st.moduleSpecifier && ts.isStringLiteral(st.moduleSpecifier)) {
      const clause = st.exportClause;
      use(
        st.moduleSpecifier.text,
        clause && ts.isNamedExports(clause) ? clause.elements.map((e) => (e.propertyName ?? e.name).text) : ["*"],
      );
    }
  }
  const visit = (node: ts.Node): void => {
    if (
      ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments.length > 0 && ts.isStringLiteral(node.arguments[0])
    ) {
      use(node.arguments[0].text, dynamicallyImportedNames(node));
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return { path, exportedValues, imports };
}

/**
 * The names a dynamic `import("…")` uses: destructured from its awaited value
 * (`const { a } = await import(…)`), or read in its `.then((m) => m.a)`; else all (`*`).
 */
function dynamicallyImportedNames(call: ts.CallExpression): string[] {
  const awaited = ts.isAwaitExpression(call.parent) ? call.parent : null;
  const declaration = awaited && ts.isVariableDeclaration(awaited.parent) ? awaited.parent : null;
  if (declaration && ts.isObjectBindingPattern(declaration.name)) {
    return declaration.name.elements.map((e) => ((e.propertyName ?? e.name) as ts.Identifier).text);
  }
  const access = ts.isPropertyAccessExpression(call.parent) && call.parent.name.text === "then" ? call.parent : null;
  const then = access && ts.isCallExpression(access.parent) ? access.parent : null;
  const fn = then?.arguments[0];
  if (fn && ts.isArrowFunction(fn) && fn.parameters.length === 1 && ts.isIdentifier(fn.parameters[0].name)) {
    const param = fn.parameters[0].name.text;
    const body = fn.body;
    if (ts.isPropertyAccessExpression(body) && ts.isIdentifier(body.expression) && body.expression.text === param) {
      return [body.name.text];
    }
  }
  return ["*"];
}

/** `module name` for every value exported from a module under `src/` that no module imports. */
export function unusedExports(modules: readonly ExportFacts[]): string[] {
  const used = new Map<string, Set<string>>();
  for (const m of modules) {
    for (const [target, names] of m.imports) {
      const set = used.get(target) ?? new Set();
      for (const n of names) set.add(n);
      used.set(target, set);
    }
  }
  const out: string[] = [];
  for (const m of modules) {
    if (!m.path.startsWith("src/")) continue;
    const names = used.get(m.path);
    if (names?.has("*")) continue;
    for (const v of m.exportedValues) if (!names?.has(v)) out.push(`${m.path} ${v}`);
  }
  return out;
}

/** {@link exportFacts} of every `.ts` module under the given folders of `root`. */
export function readExportFacts(root: string, dirs: readonly string[]): ExportFacts[] {
  return dirs.flatMap((d) => tsFiles(join(root, d))).map((p) =>
    exportFacts(posix(relative(root, p)), readFileSync(p, "utf8"))
  );
}
