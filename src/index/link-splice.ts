/**
 * Link phase, splicing: what each xi:include brings into the asset it sits in. The selected elements of
 * the target (its root, or the children of the xpointer's container) are typed as children of the
 * element the xi:include sits in — so one fragment spliced into two contexts is typed twice — and their
 * reference sites and module ids belong to the splicing asset. An xi:include with an xpointer and no
 * href selects from its own document (XInclude 1.0). Loops are cut as XInclude 1.0 §4.2.7 says: an
 * include whose (document, xpointer) is already being processed in the same inclusion chain is skipped,
 * with a diagnostic.
 *
 * Each splice's extraction is {@link extractSplice} of (the target record's text, its splice context):
 * pure, and cached per record and context ({@link SpliceCache}), so a fragment spliced into a hundred
 * GameObjects' `Behaviors` is typed once.
 */
import { displayPath, pathKey } from "../project/paths.ts";
import type { SchemaQueries } from "../schema/model.ts";
import { extractSplice, type SpliceContext, type SpliceExtraction } from "./extract-xml.ts";
import type { KeyedFile, LinkContext, LoadedFile } from "./link-context.ts";
import { xpointerContainer } from "./link-context.ts";
import { type Diagnostic, type FileState, push } from "./linked.ts";
import type { FileRecord, RecordDiagnostic, RefRecord, XIncludeDecl } from "./records.ts";

/** A module id an asset gets from a fragment it splices (Poid references may name it). */
export interface SplicedModule {
  readonly id: string;
  readonly element: string;
  readonly file: string;
  readonly line: number;
}

/** Where the splicer puts the sites it finds (the references phase numbers and resolves them). */
export interface SiteAdder {
  add(r: RefRecord, from: number, file: string, state: FileState, via: string | null): void;
}

/** The splice extractions of records, per context: pure results, so they stay valid while the record does. */
export class SpliceCache {
  private readonly byRecord = new WeakMap<FileRecord, Map<string, SpliceExtraction>>();

  /** The extraction of `record` spliced in `context` (computed once per record and context). */
  get(record: FileRecord, schema: SchemaQueries | null, context: SpliceContext): SpliceExtraction {
    let perContext = this.byRecord.get(record);
    if (!perContext) {
      perContext = new Map();
      this.byRecord.set(record, perContext);
    }
    const key = `${context.rootLevel ? 1 : 0}\u0000${context.parentType ?? ""}\u0000${context.parent ?? ""}\u0000${
      context.container ?? ""
    }`;
    let hit = perContext.get(key);
    if (!hit) {
      hit = extractSplice(record.spliceText ?? "", schema, context);
      perContext.set(key, hit);
    }
    return hit;
  }
}

/** Diagnostic codes that depend on how elements are typed (a spliced fragment's come from its splices). */
export const TYPED_CODES: ReadonlySet<string> = new Set(["unknown-element", "unknown-attribute"]);

/** One step of an inclusion chain: the (document, xpointer) being processed and where it was included. */
interface ChainStep {
  readonly key: string;
  readonly at: string;
}

/** How deep splices nest before the splicer stops (a chain this long is a loop the keys did not catch). */
const MAX_SPLICE_DEPTH = 16;

/**
 * A fragment's schema warnings, each kept once by its place and message (the splices of one fragment in
 * several contexts report many alike): a key set per fragment, so that a fragment with 10^5 warnings costs
 * 10^5 steps, not the 5 · 10^9 of comparing each with every one kept before (16 s for 5 · 10^4 of them).
 */
export class FragmentDiagnostics {
  readonly byFile = new Map<string, RecordDiagnostic[]>();
  private readonly seen = new Map<string, Set<string>>();

  /** Adds the ones of `diagnostics` not yet kept for the fragment `key`, in order. */
  add(key: string, diagnostics: readonly RecordDiagnostic[]): void {
    let list = this.byFile.get(key);
    let seen = this.seen.get(key);
    if (!list || !seen) {
      this.byFile.set(key, list = []);
      this.seen.set(key, seen = new Set());
    }
    for (const d of diagnostics) {
      const k = `${d.line}\u0000${d.column}\u0000${d.message}`;
      if (seen.has(k)) continue;
      seen.add(k);
      list.push(d);
    }
  }
}

/** The splices of one link: what they found, and what went wrong. */
export class Splicer {
  /** Fragment file key → typed in at least one splice context. */
  readonly splicedFragments = new Set<string>();
  /** Asset index → the module ids spliced into it. */
  readonly splicedModules = new Map<number, SplicedModule[]>();
  /** Fragment file key → its schema warnings as typed by its splices (each once). */
  private readonly fragmentTable = new FragmentDiagnostics();
  readonly fragmentDiagnostics: ReadonlyMap<string, readonly RecordDiagnostic[]> = this.fragmentTable.byFile;
  /** Loops, unsupported or unmatched xpointers (each once). */
  readonly diagnostics: Diagnostic[] = [];
  private readonly seenDiagnostics = new Set<string>();

  constructor(
    private readonly ctx: LinkContext,
    private readonly sink: SiteAdder,
    private readonly cache: SpliceCache,
  ) {}

  /**
   * Splices `xi` (written in `includer`, inside the asset `owner`) and, recursively, the xi:includes in
   * what it selects.
   */
  splice(
    owner: number,
    includer: KeyedFile["loaded"],
    xi: XIncludeDecl,
    layer: "project" | "sdk",
    state: FileState,
    chain: readonly ChainStep[] = [{ key: `${pathKey(includer.path)}\u0000`, at: "" }],
  ): void {
    const selection = this.select(includer, xi, layer, chain);
    if (!selection) return;
    const { target, extraction, step } = selection;
    const via = xi.href || xi.xpointer;
    for (const r of extraction.refs) this.sink.add(r, owner, target.path, state, via);
    for (const m of extraction.localIds) {
      push(this.splicedModules, owner, { id: m.id, element: m.element, file: target.path, line: m.line });
    }
    for (const inner of extraction.xincludes) this.splice(owner, target, inner, layer, state, [...chain, step]);
  }

  /**
   * The root-level children a root-level xi:include made assets of: the sites in each child belong to
   * it (`ownerAt`: the asset whose element holds an offset, or -1), and so do the splices inside it.
   */
  spliceRootLevel(
    fragment: LoadedFile,
    container: string,
    state: FileState,
    ownerAt: (offset: number) => number,
  ): void {
    const key = pathKey(fragment.path);
    const context: SpliceContext = { parentType: null, parent: fragment.record.rootName, container, rootLevel: true };
    const extraction = this.extract(key, fragment.record, context);
    const layer = this.ctx.originOf(fragment.path) === "sdk" ? "sdk" : "project";
    for (const r of extraction.refs) {
      const owner = ownerAt(r.offset);
      if (owner >= 0) this.sink.add(r, owner, fragment.path, state, null);
    }
    const chain = [{ key: `${key}\u0000`, at: "" }];
    for (const inner of extraction.xincludes) {
      const owner = ownerAt(inner.offset);
      if (owner >= 0) this.splice(owner, fragment, inner, layer, state, chain);
    }
  }

  /** The target, its extraction in this xi:include's context, and the chain step it adds; null when nothing is spliced. */
  private select(
    includer: LoadedFile,
    xi: XIncludeDecl,
    layer: "project" | "sdk",
    chain: readonly ChainStep[],
  ): { target: LoadedFile; extraction: SpliceExtraction; step: ChainStep } | null {
    if (chain.length > MAX_SPLICE_DEPTH) return null;
    const target = this.target(includer, xi, layer);
    if (!target || target.record.spliceText === null) return null;
    const key = pathKey(target.path);
    const here = `${displayPath(this.ctx.inputs, includer.path)}:${xi.line}`;
    const step = { key: `${key}\u0000${xi.xpointer ?? ""}`, at: here };
    const again = chain.findIndex((c) => c.key === step.key);
    if (again >= 0) {
      // Loops through other files are include cycles the walk reports; only a document's own are new here.
      if (xi.href === "") {
        const path = [...chain.slice(again).map((c) => c.at).filter((a) => a !== ""), here];
        this.report(
          includer.path,
          xi,
          "xinclude-loop",
          "error",
          `xi:include loop: ${
            path.join(" → ")
          } selects ${xi.xpointer} of this document again, while it is being included (XInclude 1.0 forbids it); this include is skipped`,
        );
      }
      return null;
    }
    const container = xpointerContainer(xi.xpointer);
    if (xi.xpointer !== null && container === null) {
      this.report(
        includer.path,
        xi,
        "xpointer-unsupported",
        "warning",
        `the xpointer "${xi.xpointer}" is not of the form xmlns(n=uri:ea.com:eala:asset) xpointer(/n:Name/child::*); ra3 does not follow it`,
      );
      return null;
    }
    const context = { parentType: xi.parentType, parent: xi.parent, container, rootLevel: false };
    const extraction = this.extract(key, target.record, context);
    if (!extraction.found) {
      this.report(
        includer.path,
        xi,
        "xpointer-not-found",
        "warning",
        `xi:include selects the children of <${container}>, which ${
          displayPath(this.ctx.inputs, target.path)
        } does not have`,
      );
      return null;
    }
    return { target, extraction, step };
  }

  /** The file an xi:include names: its `href` resolved, or (no href) its own document. */
  private target(includer: LoadedFile, xi: XIncludeDecl, layer: "project" | "sdk"): LoadedFile | null {
    if (xi.href === "") return includer;
    const res = this.ctx.inputs.resolve(xi.href, includer.path, layer);
    if (!res.path) return null;
    const target = this.ctx.records.get(pathKey(res.path));
    // An xi:include of a whole AssetDeclaration document splices nothing into an asset.
    return target && target.record.fragment ? target : null;
  }

  /** The cached extraction, its schema warnings kept (once each) for the fragment's file. */
  private extract(key: string, record: FileRecord, context: SpliceContext): SpliceExtraction {
    const extraction = this.cache.get(record, this.ctx.schema, context);
    if (record.fragment) {
      this.splicedFragments.add(key);
      this.fragmentTable.add(key, extraction.diagnostics);
    }
    return extraction;
  }

  /** A diagnostic at an xi:include of a project file (each once: many assets and streams splice the same include). */
  private report(
    file: string,
    xi: XIncludeDecl,
    code: string,
    severity: Diagnostic["severity"],
    message: string,
  ): void {
    if (!this.ctx.insideProject(file)) return;
    const k = `${pathKey(file)}\u0000${xi.line}\u0000${xi.column}\u0000${code}`;
    if (this.seenDiagnostics.has(k)) return;
    this.seenDiagnostics.add(k);
    this.diagnostics.push({ code, severity, message, file, line: xi.line, column: xi.column });
  }
}
