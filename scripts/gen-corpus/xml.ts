/**
 * A small XML text builder for the generator, and the tally of what each file contains. Every
 * reference, define use, module reference and asset goes through a method that counts it, so the
 * summary (and the test's expectations) come from the same calls that write the text.
 */
import type { DeclaredNames } from "./schema-table.ts";

export type RefKind = "attribute" | "content" | "inheritFrom";
export const REF_KINDS: readonly RefKind[] = ["attribute", "content", "inheritFrom"];

/** An asset a reference points at; `vanilla` ones are not defined by the mod. */
export interface Target {
  readonly type: string;
  readonly id: string;
  readonly vanilla: boolean;
}

/** Reference sites by kind, split into ones that name a mod asset and ones that name a vanilla asset. */
export type RefCounts = Record<RefKind, { internal: number; vanilla: number }>;

export function emptyRefCounts(): RefCounts {
  return {
    attribute: { internal: 0, vanilla: 0 },
    content: { internal: 0, vanilla: 0 },
    inheritFrom: { internal: 0, vanilla: 0 },
  };
}

export function addRefCounts(into: RefCounts, from: RefCounts, times = 1): void {
  for (const k of REF_KINDS) {
    into[k].internal += from[k].internal * times;
    into[k].vanilla += from[k].vanilla * times;
  }
}

/** What one file holds. */
export class Tally {
  readonly refs: RefCounts = emptyRefCounts();
  readonly assets = new Map<string, number>();
  poid = 0;
  defineUses = 0;
  /** Fragments this file splices with nested xi:include (name → count). */
  readonly splices = new Map<string, number>();
  readonly includes = { all: 0, instance: 0, reference: 0 };
}

export type Attr = readonly [string, string] | null | undefined | false;

/** Builds one XML document as text, checking names against the schema table. */
export class XmlDoc {
  private readonly parts: string[] = [];
  private depth = 0;
  readonly tally = new Tally();

  constructor(private readonly names: DeclaredNames) {}

  /** The reference value for `t` in an attribute, counted; `qualified` writes `Type:Id`. */
  a(t: Target, qualified = false): string {
    this.count("attribute", t);
    return qualified ? `${t.type}:${t.id}` : t.id;
  }

  /** The reference value for `t` as element text, counted. */
  c(t: Target, qualified = false): string {
    this.count("content", t);
    return qualified ? `${t.type}:${t.id}` : t.id;
  }

  /** The `inheritFrom` value for `t`, counted. */
  inherit(t: Target, qualified = false): string {
    this.count("inheritFrom", t);
    return qualified ? `${t.type}:${t.id}` : t.id;
  }

  /** A pipeline-local module id used as a reference (Poid), counted. */
  poid(moduleId: string): string {
    this.tally.poid++;
    return moduleId;
  }

  /** `$NAME`, counted as a define use. */
  def(name: string): string {
    this.tally.defineUses++;
    return `$${name}`;
  }

  /** `=$NAME <op>`, counted as a define use. @example doc.expr("CANNON_DAMAGE_T1", "* 2") // "=$CANNON_DAMAGE_T1 * 2" */
  expr(name: string, op: string): string {
    this.tally.defineUses++;
    return `=$${name} ${op}`;
  }

  private count(kind: RefKind, t: Target): void {
    if (t.vanilla) this.tally.refs[kind].vanilla++;
    else this.tally.refs[kind].internal++;
  }

  /** Counts a top-level asset of `type`. */
  asset(type: string): void {
    this.tally.assets.set(type, (this.tally.assets.get(type) ?? 0) + 1);
  }

  /** The first line written (the XML declaration). */
  firstLine(): string {
    return this.parts[0] ?? "";
  }

  /** Inserts text right after the first line (the XML declaration). */
  insertAfterDeclaration(text: string): void {
    this.parts.splice(1, 0, text);
  }

  raw(line: string): void {
    this.parts.push(line);
  }

  comment(text: string): void {
    this.parts.push(`${this.pad()}<!-- ${text} -->`);
  }

  blank(): void {
    this.parts.push("");
  }

  /** Opens an element; `multiline` puts each attribute on its own line, as modders write big tags. */
  open(name: string, attrs: readonly Attr[] = [], multiline = false): void {
    this.parts.push(`${this.pad()}<${name}${this.attrs(name, attrs, multiline)}>`);
    this.depth++;
  }

  close(name: string): void {
    this.depth--;
    this.parts.push(`${this.pad()}</${name}>`);
  }

  leaf(name: string, attrs: readonly Attr[] = [], multiline = false): void {
    this.parts.push(`${this.pad()}<${name}${this.attrs(name, attrs, multiline)}${multiline ? "" : " "}/>`);
  }

  text(name: string, value: string, attrs: readonly Attr[] = []): void {
    this.parts.push(`${this.pad()}<${name}${this.attrs(name, attrs, false)}>${escapeText(value)}</${name}>`);
  }

  /** The document text with `\n` line ends. */
  toString(): string {
    return this.parts.join("\n") + "\n";
  }

  private pad(): string {
    return "\t".repeat(this.depth);
  }

  private attrs(element: string, attrs: readonly Attr[], multiline: boolean): string {
    this.checkElement(element);
    let s = "";
    const sep = multiline ? `\n${"\t".repeat(this.depth + 1)}` : " ";
    for (const a of attrs) {
      if (!a) continue;
      this.checkAttribute(element, a[0]);
      s += `${sep}${a[0]}="${escapeAttr(a[1])}"`;
    }
    return s;
  }

  private checkElement(name: string): void {
    if (name.startsWith("xi:")) return;
    if (!this.names.elements.has(name)) throw new Error(`generator bug: <${name}> is not declared in the schema table`);
  }

  private checkAttribute(element: string, name: string): void {
    if (name.startsWith("xmlns") || name.includes(":") || element.startsWith("xi:")) return;
    if (!this.names.attributes.has(name)) {
      throw new Error(`generator bug: attribute ${name} of <${element}> is not declared in the schema table`);
    }
  }
}

const NEEDS_ESCAPE = /[&<"]/;

function escapeAttr(s: string): string {
  if (!NEEDS_ESCAPE.test(s)) return s;
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/"/g, "&quot;");
}

function escapeText(s: string): string {
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;");
}
