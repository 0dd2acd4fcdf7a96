/**
 * What every `Data/` writer shares: opening and closing a document (declaration, BOM, line ends), the
 * spelling variants modders use in include sources, include blocks, nested xi:includes and art sources.
 */
import { posix } from "node:path";
import { AssetWriter, XAI_NS } from "./assets.ts";
import type { GenContext, WriteOptions } from "./context.ts";
import { type ArtFile, type Fragment, type ModPlan, type VanillaTargets, vanillaTargets } from "./plan.ts";
import type { Target, XmlDoc } from "./xml.ts";

export const ASSET_NS = "uri:ea.com:eala:asset";
export const XI_NS = "http://www.w3.org/2001/XInclude";

/** Base of the `Data/` writers: the context, the plan, the asset writer and the vanilla targets. */
export class DataDocuments {
  protected readonly w: AssetWriter;
  protected readonly v: VanillaTargets;

  constructor(
    protected readonly ctx: GenContext,
    protected readonly plan: ModPlan,
  ) {
    this.w = new AssetWriter(ctx, plan);
    this.v = vanillaTargets(ctx);
  }

  protected get rng() {
    return this.ctx.rng;
  }

  /** A document with its XML declaration (in one of the spellings modders use) and an open root. */
  protected begin(opts: { xi?: boolean; xai?: boolean } = {}): XmlDoc {
    const doc = this.ctx.doc();
    const r = this.rng.next();
    doc.raw(`<?xml version="1.0" encoding="${r < 0.7 ? "utf-8" : r < 0.9 ? "UTF-8" : "us-ascii"}"?>`);
    doc.open("AssetDeclaration", [
      ["xmlns", ASSET_NS],
      opts.xi && ["xmlns:xi", XI_NS],
      opts.xai && ["xmlns:xai", XAI_NS],
    ]);
    return doc;
  }

  /** Closes the root and writes the file, sometimes with a BOM and/or CRLF line ends. */
  protected finish(doc: XmlDoc, rel: string, opts: Partial<WriteOptions> = {}): void {
    doc.close("AssetDeclaration");
    const r = this.rng.next();
    // A UTF-8 BOM before a us-ascii declaration would contradict it; real files never combine them.
    const ascii = doc.firstLine().includes("us-ascii");
    this.ctx.writeXml(rel, doc, {
      active: opts.active ?? true,
      bom: !ascii && (opts.bom ?? r < 0.12),
      crlf: opts.crlf ?? (r > 0.1 && r < 0.45),
      fragment: opts.fragment,
    });
  }

  /** An include source as modders write it: sometimes lower-cased, sometimes with `\`. */
  protected variant(source: string): string {
    const r = this.rng.next();
    if (r < 0.15) return source.toLowerCase();
    if (r < 0.35) return source.replace(/\//g, "\\");
    return source;
  }

  /** A path from the folder of `from` to `to` (both relative to the mod root, with `/`). */
  protected relative(from: string, to: string): string {
    return posix.relative(posix.dirname(from), to);
  }

  /** An `<Includes>` block (counted by include type in the document's tally). */
  protected includes(
    doc: XmlDoc,
    list: readonly (readonly [type: "all" | "instance" | "reference", source: string])[],
  ): void {
    if (list.length === 0) return;
    doc.open("Includes");
    for (const [type, source] of list) {
      doc.tally.includes[type]++;
      doc.leaf("Include", [["type", type], ["source", source]]);
    }
    doc.close("Includes");
    doc.blank();
  }

  /** An include of a base file from `from`: relative, or through `DATA:`. */
  protected baseInclude(from: string, baseFile: string): string {
    return this.rng.chance(0.3)
      ? `DATA:BaseObjects/${baseFile}`
      : this.variant(this.relative(from, `Data/BaseObjects/${baseFile}`));
  }

  /** A nested xi:include splicing `f`'s modules into the current element. */
  protected xinclude(doc: XmlDoc, from: string, f: Fragment): void {
    const href = this.rng.chance(0.4) ? `DATA:Includes/${f.root}.xml` : this.variant(this.relative(from, f.file));
    doc.leaf(
      "xi:include",
      [["href", href], ["xpointer", `xmlns(n=${ASSET_NS}) xpointer(/n:${f.container}/child::*)`]],
      true,
    );
    doc.tally.splices.set(f.root, (doc.tally.splices.get(f.root) ?? 0) + 1);
  }

  /** A particle texture: mostly a shared one (a few are very popular), now and then a vanilla one. */
  protected texture(): Target {
    return this.rng.chance(0.04) ? this.rng.pick(this.v.textures) : this.rng.skewed(this.plan.common.textures);
  }

  /** How an art hub names `a`: `ART:` with the two-letter rule, `ART:` with its folder, or a relative path. */
  protected artSource(from: string, a: ArtFile): string {
    switch (a.form) {
      case "two-letter":
        return `ART:${a.name}.w3x`;
      case "direct":
        return this.variant(`ART:${a.dir}/${a.name}.w3x`);
      case "relative":
        return this.variant(this.relative(from, `Art/${a.dir}/${a.name}.w3x`));
    }
  }
}
