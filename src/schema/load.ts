/**
 * Loads an SDK (or mod) XSD set from disk: finds `CnC3Types.xsd`, follows `xs:include` / `xs:import`
 * recursively and case-insensitively (SDK includes say `includes/Ref.xsd` for the folder `Includes`),
 * and builds the {@link SchemaModel}. Bad input never throws: every problem is a diagnostic naming the
 * file (and line), and loading continues with whatever else can be read.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { CaseResolver } from "../project/case-resolver.ts";
import { type DirectoryLister, NodeDirectoryLister } from "../project/fs-port.ts";
import { native, pathKey, relativePosix, toAbsolute } from "../project/paths.ts";
import { decodeXml } from "../xml/decode.ts";
import { LineMap } from "../xml/line-map.ts";
import { buildSchemaModelSteps, type SchemaBuildStats, type XsdInput } from "./build.ts";
import type { SchemaDiagnostic, SchemaModel } from "./model.ts";
import { parseXsdTree } from "./xsd-tree.ts";
import { runSteps } from "../steps.ts";

/** The entry file of every SAGE schema set. */
const SCHEMA_ENTRY_FILE = "CnC3Types.xsd";

export interface LoadSchemaOptions {
  /** Entry file name inside the folder (default {@link SCHEMA_ENTRY_FILE}), matched ignoring case. */
  readonly entry?: string;
  /** Folder listings (default: the real file system). */
  readonly lister?: DirectoryLister;
  /** Reads a file's bytes; may throw (default: `readFileSync`). */
  readonly readFile?: (path: string) => Uint8Array;
}

export interface SchemaLoadResult {
  /** Null only when the folder or its entry file is missing. */
  readonly model: SchemaModel | null;
  readonly diagnostics: SchemaDiagnostic[];
  /**
   * Absolute paths of the XSD files read, entry first, then a depth-first walk of the includes (the
   * declarations themselves are taken in include-expanded order: an included file before its includer).
   */
  readonly files: string[];
  /** Counts from the build, or null without a model. */
  readonly stats: SchemaBuildStats | null;
  /**
   * A digest of what the model was built from (each file's path in the set and its bytes, in load order,
   * and the include targets that were missing), or null without a model: equal keys, equal models. It
   * names the schema a snapshot's records were extracted with, without hashing the model itself.
   */
  readonly contentKey: string | null;
  /**
   * Include targets that did not exist, as absolute paths spelled as written; a cache must treat the
   * schema as changed when one of them appears.
   */
  readonly missing: string[];
}

const INCLUDE_KINDS = new Set(["include", "import", "redefine"]);

/**
 * Loads the XSD set in `dir` (entry `CnC3Types.xsd`).
 * @example loadSchema("C:/Apps/RA3-MODSDK-X/Schemas/xsd").model?.assetElements.length // 292
 */
export function loadSchema(dir: string, options: LoadSchemaOptions = {}): SchemaLoadResult {
  return runSteps(loadSchemaSteps(dir, options));
}

/**
 * {@link loadSchema} in steps: one after each XSD file is read and parsed, one before the model is built
 * (a server loads the RA3 set, 815 files, between its answers).
 */
export function* loadSchemaSteps(
  dir: string,
  options: LoadSchemaOptions = {},
): Generator<void, SchemaLoadResult, void> {
  const root = toAbsolute(dir);
  const lister = options.lister ?? new NodeDirectoryLister();
  const resolver = new CaseResolver(lister);
  const readFile = options.readFile ?? ((p: string) => readFileSync(p));
  const entryName = options.entry ?? SCHEMA_ENTRY_FILE;
  const diagnostics: SchemaDiagnostic[] = [];
  const fail = (message: string): SchemaLoadResult => {
    diagnostics.push({ file: root, line: 0, column: 0, message });
    return { model: null, diagnostics, files: [], stats: null, missing: [], contentKey: null };
  };

  const realRoot = resolver.resolvePath(root, "directory");
  if (realRoot === null) return fail(`XSD folder not found: ${root}`);
  const entry = resolver.childNamed(realRoot, entryName, "file");
  if (entry === null) return fail(`${entryName} not found in ${realRoot}`);

  const inputs: XsdInput[] = [];
  const files: string[] = [];
  const missing: string[] = [];
  const seen = new Set<string>();
  const display = (p: string) => relativePosix(realRoot, p) ?? p;
  const digest = createHash("sha1");

  function* visit(path: string): Generator<void, void, void> {
    const key = pathKey(path);
    if (seen.has(key)) return; // also what makes include cycles harmless
    seen.add(key);
    files.push(path);
    const shown = display(path);
    let bytes: Uint8Array;
    try {
      bytes = readFile(path);
    } catch (e) {
      diagnostics.push({ file: path, line: 0, column: 0, message: `cannot read ${shown}: ${(e as Error).message}` });
      return;
    }
    digest.update(`${shown}\u0000${bytes.length}\u0000`).update(bytes);
    const decoded = decodeXml(bytes);
    for (const w of decoded.warnings) {
      diagnostics.push({ file: path, line: w.line, column: w.column, message: `${shown}: ${w.message}` });
    }
    const tree = parseXsdTree(decoded.text);
    if (tree.error) {
      const { line, column, message } = tree.error;
      diagnostics.push({
        file: path,
        line,
        column,
        message:
          `malformed XSD ${shown} (line ${line}, column ${column}): ${message}; declarations after this point are ignored`,
      });
    }
    if (tree.root === null) {
      if (!tree.error) {
        diagnostics.push({
          file: path,
          line: 1,
          column: 1,
          message: `${shown} is not an XML Schema (no xs:schema root element); skipped`,
        });
      }
      return;
    }
    const lines = new LineMap(decoded.text);
    for (const n of tree.root.children) {
      if (!INCLUDE_KINDS.has(n.kind)) continue;
      const location = n.attrs.schemaLocation?.trim();
      if (!location) continue;
      const base = native.dirname(path);
      const target = resolver.resolve(base, location, "file");
      if (target === null) {
        const p = lines.position(n.offset);
        missing.push(toAbsolute(location, base));
        diagnostics.push({
          file: path,
          line: p.line,
          column: p.column,
          message: `${shown} line ${p.line}: included XSD not found: ${location}`,
        });
        continue;
      }
      yield* visit(target);
    }
    // XSD puts includes before declarations, so "includes expanded in place" order is this post-order;
    // it decides which declaration is first seen (duplicate types, the element fallback map).
    inputs.push({ path, display: shown, root: tree.root, lines });
    yield;
  }
  yield* visit(entry);

  const built = yield* buildSchemaModelSteps(inputs, realRoot);
  diagnostics.push(...built.diagnostics);
  for (const m of missing) digest.update(`missing\u0000${display(m)}\u0000`);
  return {
    model: { ...built.model, fileCount: files.length },
    diagnostics,
    files,
    stats: built.stats,
    missing,
    contentKey: digest.digest("hex").slice(0, 16),
  };
}
