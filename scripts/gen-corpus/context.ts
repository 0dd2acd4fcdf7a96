/**
 * The state of one generation run: the output folder, the random source, the asset registry (every id
 * the mod defines, so references can only name assets that exist) and the running totals that become
 * the summary.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { Rng } from "./random.ts";
import { type DeclaredNames, declaredNames } from "./schema-table.ts";
import { addRefCounts, emptyRefCounts, type RefCounts, type Tally, type Target, XmlDoc } from "./xml.ts";

export interface WriteOptions {
  /** Reachable from an entry point (else an inactive draft). */
  readonly active: boolean;
  /** An xi:include fragment: its references count once per splice, not once per file. */
  readonly fragment?: string;
  readonly bom?: boolean;
  readonly crlf?: boolean;
}

export interface FileTotals {
  count: number;
  bytes: number;
  inactive: number;
}

export class GenContext {
  readonly rng: Rng;
  readonly names: DeclaredNames = declaredNames();
  readonly xml: FileTotals = { count: 0, bytes: 0, inactive: 0 };
  readonly w3x: FileTotals = { count: 0, bytes: 0, inactive: 0 };
  readonly other: FileTotals = { count: 0, bytes: 0, inactive: 0 };
  readonly assets = new Map<string, number>();
  inactiveAssets = 0;
  /** Reference sites as the indexer will count them: once per file, fragments once per splice. */
  readonly refs: RefCounts = emptyRefCounts();
  poid = 0;
  defineUses = 0;
  readonly includes = { all: 0, instance: 0, reference: 0 };
  xi = 0;
  /** Of `refs`, those inside .w3x files (container and animation → hierarchy, sub-object → mesh). */
  readonly artRefs: RefCounts = emptyRefCounts();
  /** Per-splice reference counts of each fragment (own references plus those of fragments it splices). */
  private readonly fragmentRefs = new Map<string, RefCounts>();
  private readonly fragmentSplices = new Map<string, number>();
  private readonly ids = new Map<string, string>(); // type + lower id → id
  private readonly dirs = new Set<string>();

  constructor(
    readonly outDir: string,
    seed: number,
  ) {
    this.rng = new Rng(seed);
  }

  /** A new document whose names are checked against the schema table. */
  doc(): XmlDoc {
    return new XmlDoc(this.names);
  }

  /** Registers an asset the mod defines and returns it as a reference target. Throws on a duplicate (a bug). */
  define(type: string, id: string): Target {
    const key = `${type}\u0000${id.toLowerCase()}`;
    if (this.ids.has(key)) throw new Error(`generator bug: ${type} ${id} defined twice`);
    this.ids.set(key, id);
    return { type, id, vanilla: false };
  }

  /** A vanilla asset (not defined by the mod). Throws when the mod defines that id after all (a bug). */
  vanilla(type: string, id: string): Target {
    if (this.ids.has(`${type}\u0000${id.toLowerCase()}`)) {
      throw new Error(`generator bug: vanilla id ${id} is also a mod ${type}`);
    }
    return { type, id, vanilla: true };
  }

  /** Writes an XML document (relative path with `/`) and adds its tally to the totals. */
  writeXml(rel: string, doc: XmlDoc, opts: WriteOptions): void {
    let text = doc.toString();
    if (opts.crlf) text = text.replace(/\n/g, "\r\n");
    if (opts.bom) text = "\uFEFF" + text;
    const bytes = Buffer.from(text, "utf8");
    this.writeBytes(rel, bytes);
    this.xml.count++;
    this.xml.bytes += bytes.length;
    if (!opts.active) this.xml.inactive++;
    this.account(doc.tally, opts);
  }

  /** Writes any other file (babproj, XSD). */
  writeOther(rel: string, text: string): void {
    const bytes = Buffer.from(text, "utf8");
    this.writeBytes(rel, bytes);
    this.other.count++;
    this.other.bytes += bytes.length;
  }

  /** Records a written .w3x file. */
  addArt(bytes: number, assets: readonly string[], active: boolean, refs: RefCounts): void {
    this.w3x.count++;
    this.w3x.bytes += bytes;
    if (!active) this.w3x.inactive++;
    for (const t of assets) this.assets.set(t, (this.assets.get(t) ?? 0) + 1);
    if (!active) this.inactiveAssets += assets.length;
    addRefCounts(this.refs, refs);
    addRefCounts(this.artRefs, refs);
  }

  /** Absolute path of `rel` (creating its folder). */
  path(rel: string): string {
    const p = join(this.outDir, ...rel.split("/"));
    const dir = dirname(p);
    if (!this.dirs.has(dir)) {
      mkdirSync(dir, { recursive: true });
      this.dirs.add(dir);
    }
    return p;
  }

  private writeBytes(rel: string, bytes: Uint8Array): void {
    writeFileSync(this.path(rel), bytes);
  }

  private account(t: Tally, opts: WriteOptions): void {
    for (const [type, n] of t.assets) {
      this.assets.set(type, (this.assets.get(type) ?? 0) + n);
      if (!opts.active) this.inactiveAssets += n;
    }
    this.poid += t.poid;
    if (opts.active) this.defineUses += t.defineUses;
    this.includes.all += t.includes.all;
    this.includes.instance += t.includes.instance;
    this.includes.reference += t.includes.reference;
    for (const n of t.splices.values()) this.xi += n;
    if (opts.fragment) {
      const own = emptyRefCounts();
      addRefCounts(own, t.refs);
      // A fragment that splices another carries that one's references into every splice of its own.
      for (const [inner, n] of t.splices) addRefCounts(own, this.fragmentPerSplice(inner), n);
      this.fragmentRefs.set(opts.fragment, own);
      return;
    }
    addRefCounts(this.refs, t.refs);
    for (const [name, n] of t.splices) {
      addRefCounts(this.refs, this.fragmentPerSplice(name), n);
      this.fragmentSplices.set(name, (this.fragmentSplices.get(name) ?? 0) + n);
    }
  }

  private fragmentPerSplice(name: string): RefCounts {
    const r = this.fragmentRefs.get(name);
    if (!r) throw new Error(`generator bug: fragment ${name} spliced before it was written`);
    return r;
  }

  /** Fragments no document splices (their references then count once, owned by no asset). */
  unsplicedFragments(): string[] {
    return [...this.fragmentRefs.keys()].filter((f) => !this.fragmentSplices.has(f));
  }

  /** Splices per fragment. */
  splicesOf(name: string): number {
    return this.fragmentSplices.get(name) ?? 0;
  }
}
