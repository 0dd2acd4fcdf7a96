/**
 * XSD element trees → the plain-data {@link SchemaModel}. No I/O: the loader hands in parsed files.
 *
 * Order matters in two places and is the order of `files` (includes expanded in place: an included
 * file before the file including it) then document order: the first declaration of a type name wins,
 * and the global element fallback map keeps the first element declaration seen for each name.
 */
import type { LineMap } from "../xml/line-map.ts";
import type {
  AttributeInfo,
  ChildInfo,
  ComplexTypeInfo,
  SchemaDiagnostic,
  SchemaModel,
  SimpleTypeInfo,
  ValueInfo,
} from "./model.ts";
import { detectGameFromAssetKinds } from "./game.ts";
import { typeRef, type XsdNode } from "./xsd-tree.ts";

/** One parsed XSD file as the builder needs it. */
export interface XsdInput {
  /** Absolute path (used in diagnostics). */
  readonly path: string;
  /** Path shown in messages (relative to the schema folder, `/`-separated). */
  readonly display: string;
  readonly root: XsdNode;
  readonly lines: LineMap;
}

/** Counts measured while building (for tests, reports and benchmarks). */
export interface SchemaBuildStats {
  readonly namedComplexTypes: number;
  readonly namedSimpleTypes: number;
  readonly inlineComplexTypes: number;
  readonly inlineSimpleTypes: number;
  readonly globalElements: number;
  readonly listTypes: number;
  readonly enumerationValues: number;
  /** Where `xas:refType` is written, by the kind of declaration carrying it. */
  readonly refTypeOn: {
    readonly simpleType: number;
    readonly attribute: number;
    readonly element: number;
    readonly complexType: number;
  };
  /** Designed targets under the exact-name rule of domain-spec §9.1 (before subtype expansion). */
  readonly directTargets: number;
}

export interface SchemaBuildResult {
  readonly model: SchemaModel;
  readonly diagnostics: SchemaDiagnostic[];
  readonly stats: SchemaBuildStats;
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

interface Decl {
  readonly name: string;
  readonly node: XsdNode;
  readonly file: XsdInput;
}

const STRUCTURAL_CHILDREN = new Set(["tags", "includes", "defines"]);
/** Refs to these say "any asset", which is no evidence that a type is meant to be referenced. */
const ROOT_ASSET_TYPES = new Set(["baseassettype", "baseinheritableasset"]);
const LIST_BUILTINS = new Set(["xs:NMTOKENS", "xs:IDREFS", "xs:ENTITIES"]);
const NO_ENUMS: readonly string[] = Object.freeze([]);

/** A record without a prototype, so names like `constructor` or `__proto__` are plain keys. */
function record<T>(): Record<string, T> {
  return Object.create(null) as Record<string, T>;
}

/** A pattern admits `$DEFINE`s / `=expr` (domain-spec §5). */
function patternAllowsDefine(pattern: string): boolean {
  return pattern.includes("(=[_a-zA-Z") || pattern.includes("=$");
}

function parseOccurs(v: string | undefined, dflt: number): number {
  if (v === undefined) return dflt;
  if (v.trim() === "unbounded") return -1;
  const n = Number.parseInt(v, 10);
  return Number.isFinite(n) && n >= 0 ? n : dflt;
}

function mulMax(a: number, b: number): number {
  return a === -1 || b === -1 ? (a === 0 || b === 0 ? 0 : -1) : a * b;
}

/**
 * Builds the schema model from the parsed files (included files before their includers), in steps: a
 * yield every {@link ITEMS_PER_STEP} files or declarations and between its passes (the RA3 set's build is
 * 130–190 ms in one block). Nothing outside the builder is read, so the steps change nothing in the result.
 */
export function buildSchemaModelSteps(
  files: readonly XsdInput[],
  sourceDir: string,
): Generator<void, SchemaBuildResult, void> {
  return new ModelBuilder(files, sourceDir).build();
}

/** Files registered or declarations resolved between two steps of the model build. */
const ITEMS_PER_STEP = 64;

class ModelBuilder {
  readonly diagnostics: SchemaDiagnostic[] = [];
  private readonly complexDecls = new Map<string, Decl>();
  private readonly simpleDecls = new Map<string, Decl>();
  private readonly globalElementDecls = new Map<string, Decl>();
  /** Element/attribute/simpleType node → key of its inline type. */
  private readonly inlineKeys = new Map<XsdNode, string>();
  /** Element declarations in document order: name and its type (raw QName or inline key). */
  private readonly elementOrder: { name: string; type: string | null; inline: boolean }[] = [];
  private readonly complexOut = new Map<string, ComplexTypeInfo>();
  private readonly simpleOut = new Map<string, SimpleTypeInfo>();
  private readonly inProgress = new Set<string>();
  private readonly unknownReported = new Set<string>();
  private readonly pendingContent: { info: Mutable<ChildInfo>; type: string; el: XsdNode }[] = [];
  private counts = { namedComplex: 0, namedSimple: 0, inlineComplex: 0, inlineSimple: 0, lists: 0, enums: 0 };
  private refTypeOn = { simpleType: 0, attribute: 0, element: 0, complexType: 0 };

  constructor(
    private readonly files: readonly XsdInput[],
    private readonly sourceDir: string,
  ) {}

  *build(): Generator<void, SchemaBuildResult, void> {
    let n = 0;
    for (const f of this.files) {
      this.registerFile(f);
      if (++n % ITEMS_PER_STEP === 0) yield;
    }
    yield;
    for (const key of this.complexDecls.keys()) {
      this.complex(key);
      if (++n % ITEMS_PER_STEP === 0) yield;
    }
    for (const key of this.simpleDecls.keys()) {
      this.simple(key);
      if (++n % ITEMS_PER_STEP === 0) yield;
    }
    yield;
    this.fillPendingContent();
    yield;

    const complexTypes = record<ComplexTypeInfo>();
    for (const [, decl] of this.complexDecls) complexTypes[decl.name] = this.complexOut.get(decl.name.toLowerCase())!;
    const simpleTypes = record<SimpleTypeInfo>();
    for (const [, decl] of this.simpleDecls) simpleTypes[decl.name] = this.simpleOut.get(decl.name.toLowerCase())!;

    const { assetElements, assetElementTypes } = this.assetKinds();
    const globalElements = this.globalElementMap();
    const { targets, direct } = this.designedTargets(complexTypes, simpleTypes);
    const model: SchemaModel = {
      game: detectGameFromAssetKinds(assetElements),
      sourceDir: this.sourceDir,
      fileCount: this.files.length,
      assetElements,
      assetElementTypes,
      complexTypes,
      simpleTypes,
      globalElements,
      designedTargets: targets,
    };
    const stats: SchemaBuildStats = {
      namedComplexTypes: this.counts.namedComplex,
      namedSimpleTypes: this.counts.namedSimple,
      inlineComplexTypes: this.counts.inlineComplex,
      inlineSimpleTypes: this.counts.inlineSimple,
      globalElements: this.globalElementDecls.size,
      listTypes: this.counts.lists,
      enumerationValues: this.counts.enums,
      refTypeOn: this.refTypeOn,
      directTargets: direct,
    };
    return { model, diagnostics: this.diagnostics, stats };
  }

  // ---- registration -------------------------------------------------------------------------

  private report(file: XsdInput, offset: number, message: string): void {
    const p = file.lines.position(offset);
    this.diagnostics.push({ file: file.path, line: p.line, column: p.column, message });
  }

  private registerType(map: Map<string, Decl>, name: string, node: XsdNode, file: XsdInput, what: string): boolean {
    const lower = name.toLowerCase();
    const other = map.get(lower) ?? (map === this.complexDecls ? this.simpleDecls : this.complexDecls).get(lower);
    if (other) {
      const p = other.file.lines.position(other.node.offset);
      this.report(
        file,
        node.offset,
        `duplicate ${what} '${name}' ignored (first declared in ${other.file.display}:${p.line})`,
      );
      return false;
    }
    map.set(lower, { name, node, file });
    return true;
  }

  private registerFile(file: XsdInput): void {
    for (const n of file.root.children) {
      const name = n.attrs.name;
      if (n.kind === "complexType" && name) {
        if (this.registerType(this.complexDecls, name, n, file, "type")) {
          this.counts.namedComplex++;
          this.walkType(n, name, file);
        }
      } else if (n.kind === "simpleType" && name) {
        if (this.registerType(this.simpleDecls, name, n, file, "type")) {
          this.counts.namedSimple++;
          this.walkSimple(n, name, file);
        }
      } else if (n.kind === "element" && name) {
        if (this.globalElementDecls.has(name.toLowerCase())) {
          this.report(file, n.offset, `duplicate global element '${name}' ignored`);
          continue;
        }
        this.globalElementDecls.set(name.toLowerCase(), { name, node: n, file });
        this.walkElement(n, `@global:${name}`, file, true);
      }
    }
  }

  private countRefType(node: XsdNode, where: keyof ModelBuilder["refTypeOn"]): void {
    if (node.xas.refType !== undefined) this.refTypeOn[where]++;
  }

  /** Registers the inline type of an element (keyed `key`) and records the declaration's order. */
  private walkElement(el: XsdNode, key: string, file: XsdInput, global: boolean): void {
    const name = el.attrs.name;
    if (!name) return;
    this.countRefType(el, "element");
    let inlineComplex: XsdNode | undefined;
    let inlineSimple: XsdNode | undefined;
    for (const c of el.children) {
      if (c.kind === "complexType") inlineComplex ??= c;
      else if (c.kind === "simpleType") inlineSimple ??= c;
    }
    let type: string | null = el.attrs.type !== undefined ? typeRef(el.attrs.type, el.scope) : null;
    let inline = false;
    if (type === null && (inlineComplex || inlineSimple)) {
      key = this.uniqueKey(key);
      this.inlineKeys.set(el, key);
      type = key;
      inline = true;
      if (inlineComplex) {
        this.complexDecls.set(key.toLowerCase(), { name: key, node: inlineComplex, file });
        this.counts.inlineComplex++;
        this.walkType(inlineComplex, key, file);
      } else if (inlineSimple) {
        this.simpleDecls.set(key.toLowerCase(), { name: key, node: inlineSimple, file });
        this.counts.inlineSimple++;
        this.walkSimple(inlineSimple, key, file);
      }
    }
    if (!global) this.elementOrder.push({ name, type, inline });
  }

  private uniqueKey(key: string): string {
    const taken = (k: string) => this.complexDecls.has(k.toLowerCase()) || this.simpleDecls.has(k.toLowerCase());
    if (!taken(key)) return key;
    for (let i = 2;; i++) if (!taken(`${key}#${i}`)) return `${key}#${i}`;
  }

  /** Registers inline types inside a complex type whose key (or name) is `owner`. */
  private walkType(node: XsdNode, owner: string, file: XsdInput): void {
    if (node.kind === "complexType") this.countRefType(node, "complexType");
    const prefix = owner.startsWith("@") ? owner : `@inline:${owner}`;
    for (const c of node.children) {
      if (c.kind === "element") {
        if (c.attrs.name) this.walkElement(c, `${prefix}/${c.attrs.name}`, file, false);
      } else if (c.kind === "attribute") {
        this.countRefType(c, "attribute");
        const inline = c.children.find((x) => x.kind === "simpleType");
        if (inline && c.attrs.type === undefined && c.attrs.name) {
          const key = this.uniqueKey(`${prefix}@${c.attrs.name}`);
          this.inlineKeys.set(c, key);
          this.simpleDecls.set(key.toLowerCase(), { name: key, node: inline, file });
          this.counts.inlineSimple++;
          this.walkSimple(inline, key, file);
        }
      } else if (c.kind !== "complexType" && c.kind !== "simpleType") {
        this.walkType(c, owner, file);
      }
    }
  }

  /** Registers the anonymous simple types nested in a simple type (restriction base, list item, union members). */
  private walkSimple(node: XsdNode, key: string, file: XsdInput): void {
    this.countRefType(node, "simpleType");
    for (const c of node.children) {
      const nested = c.children.filter((x) => x.kind === "simpleType");
      if (c.kind === "list") this.counts.lists++;
      if (c.kind === "restriction") this.counts.enums += c.children.filter((x) => x.kind === "enumeration").length;
      nested.forEach((inline, i) => {
        const suffix = c.kind === "list" ? "#item" : c.kind === "union" ? `#member${i + 1}` : "#base";
        const k = this.uniqueKey(`${key}${suffix}`);
        this.inlineKeys.set(inline, k);
        this.simpleDecls.set(k.toLowerCase(), { name: k, node: inline, file });
        this.counts.inlineSimple++;
        this.walkSimple(inline, k, file);
      });
    }
  }

  // ---- type references ------------------------------------------------------------------------

  /** Canonical name of a referenced type (`xs:*` builtins kept), or null with a diagnostic when undeclared. */
  private resolveRef(raw: string, file: XsdInput, node: XsdNode): string | null {
    if (raw.startsWith("xs:")) return raw;
    const lower = raw.toLowerCase();
    const d = this.complexDecls.get(lower) ?? this.simpleDecls.get(lower);
    if (d) return d.name;
    const key = `${file.path}\0${node.offset}`;
    if (!this.unknownReported.has(key)) {
      this.unknownReported.add(key);
      this.report(file, node.offset, `unknown type '${raw}' (not declared in any loaded XSD)`);
    }
    return null;
  }

  /** Canonical spelling of a `xas:refType` target when it names a declared type, else as written. */
  private refTarget(raw: string | undefined): string | null {
    if (raw === undefined) return null;
    const v = raw.trim();
    if (v === "") return null;
    return this.complexDecls.get(v.toLowerCase())?.name ?? this.simpleDecls.get(v.toLowerCase())?.name ?? v;
  }

  private isComplex(name: string): boolean {
    return this.complexDecls.has(name.toLowerCase());
  }

  // ---- simple types ---------------------------------------------------------------------------

  private plainValue(typeName: string | null): ValueInfo {
    return {
      typeName,
      refType: null,
      isRef: false,
      isWeakRef: false,
      isPoid: false,
      isList: typeName !== null && LIST_BUILTINS.has(typeName),
      enumValues: NO_ENUMS,
      allowsDefine: false,
      isBoolean: typeName === "xs:boolean",
    };
  }

  /** What a value of simple type `name` (canonical, builtin or null) is. */
  private valueOf(name: string | null): ValueInfo {
    if (name === null || name.startsWith("xs:")) return this.plainValue(name);
    const s = this.simple(name.toLowerCase());
    if (s) return s;
    // A complex type used where a simple one is expected: only its simple content makes sense.
    const c = this.complex(name.toLowerCase());
    return c?.content ?? this.plainValue(null);
  }

  private simple(lower: string): SimpleTypeInfo | null {
    const done = this.simpleOut.get(lower);
    if (done) return done;
    const decl = this.simpleDecls.get(lower);
    if (!decl) return null;
    if (this.inProgress.has(lower)) {
      this.report(decl.file, decl.node.offset, `type '${decl.name}' derives from itself; the cycle is cut here`);
      return null;
    }
    this.inProgress.add(lower);
    const info = this.buildSimple(decl);
    this.inProgress.delete(lower);
    this.simpleOut.set(lower, info);
    return info;
  }

  private buildSimple(decl: Decl): SimpleTypeInfo {
    const { node, file, name } = decl;
    let base: string | null = null;
    let from: ValueInfo[] = [];
    let isList = false;
    let enums: string[] = [];
    let ownDefine = false;
    let union = false;
    const inlineOf = (n: XsdNode) =>
      n.children.filter((x) => x.kind === "simpleType").map((x) => this.inlineKeys.get(x)!);
    for (const c of node.children) {
      if (c.kind === "restriction") {
        const inl = inlineOf(c)[0];
        base = c.attrs.base !== undefined ? this.resolveRef(typeRef(c.attrs.base, c.scope), file, c) : inl ?? null;
        from = [this.valueOf(base)];
        for (const f of c.children) {
          if (f.kind === "enumeration" && f.attrs.value !== undefined) enums.push(f.attrs.value);
          else if (f.kind === "pattern" && f.attrs.value !== undefined && patternAllowsDefine(f.attrs.value)) {
            ownDefine = true;
          }
        }
      } else if (c.kind === "list") {
        isList = true;
        const item = c.attrs.itemType !== undefined
          ? this.resolveRef(typeRef(c.attrs.itemType, c.scope), file, c)
          : inlineOf(c)[0] ?? null;
        from = [this.valueOf(item)];
      } else if (c.kind === "union") {
        union = true;
        const members = (c.attrs.memberTypes ?? "").split(/\s+/).filter((m) => m !== "");
        const names = members.map((m) => this.resolveRef(typeRef(m, c.scope), file, c)).concat(inlineOf(c));
        from = names.map((m) => this.valueOf(m));
      }
    }
    const pick = <T>(f: (v: ValueInfo) => T | null): T | null => {
      for (const v of from) {
        const x = f(v);
        if (x !== null) return x;
      }
      return null;
    };
    if (enums.length === 0) {
      if (union) enums = [...new Set(from.flatMap((v) => v.enumValues))];
      else enums = [...(pick((v) => (v.enumValues.length > 0 ? v.enumValues : null)) ?? [])];
    }
    const lower = name.toLowerCase();
    return {
      name,
      base,
      typeName: name,
      refType: this.refTarget(node.xas.refType) ?? pick((v) => v.refType),
      // model.ts: isRef covers weak references too; isWeakRef tells them apart.
      isRef: node.xas.isRef === "true" || node.xas.isWeakRef === "true" || from.some((v) => v.isRef),
      isWeakRef: node.xas.isWeakRef === "true" || from.some((v) => v.isWeakRef),
      isPoid: lower === "poid" || from.some((v) => v.isPoid),
      isList: isList || from.some((v) => v.isList),
      enumValues: enums,
      allowsDefine: ownDefine || from.some((v) => v.allowsDefine),
      isBoolean: lower === "sagebool" || (!isList && from.length > 0 && from.every((v) => v.isBoolean)),
    };
  }

  // ---- complex types --------------------------------------------------------------------------

  private complex(lower: string): ComplexTypeInfo | null {
    const done = this.complexOut.get(lower);
    if (done) return done;
    const decl = this.complexDecls.get(lower);
    if (!decl) return null;
    if (this.inProgress.has(lower)) {
      this.report(decl.file, decl.node.offset, `type '${decl.name}' derives from itself; the cycle is cut here`);
      return null;
    }
    this.inProgress.add(lower);
    const info = this.buildComplex(decl);
    this.inProgress.delete(lower);
    this.complexOut.set(lower, info);
    return info;
  }

  private buildComplex(decl: Decl): ComplexTypeInfo {
    const { node, file, name } = decl;
    let base: string | null = null;
    let inheritedAttrs: Readonly<Record<string, AttributeInfo>> = record();
    let inheritedChildren: Readonly<Record<string, ChildInfo>> = record();
    let content: ValueInfo | null = null;
    const attrs = record<AttributeInfo>();
    const prohibited = new Set<string>();
    const children = record<ChildInfo>();

    const ownPart = (n: XsdNode) => {
      if (n.kind === "attribute") this.addAttribute(n, file, attrs, prohibited);
      else if (n.kind === "sequence" || n.kind === "choice" || n.kind === "all") {
        this.collectParticles(n, file, children, 1, 1);
      }
    };
    for (const c of node.children) {
      if (c.kind === "complexContent" || c.kind === "simpleContent") {
        const deriv = c.children.find((x) => x.kind === "extension" || x.kind === "restriction");
        if (!deriv) continue;
        base = deriv.attrs.base !== undefined
          ? this.resolveRef(typeRef(deriv.attrs.base, deriv.scope), file, deriv)
          : null;
        const baseComplex = base !== null && this.isComplex(base) ? this.complex(base.toLowerCase()) : null;
        if (baseComplex) {
          inheritedAttrs = baseComplex.attributes;
          // A complexContent restriction restates its content model; an extension appends to the base's.
          if (deriv.kind === "extension" || c.kind === "simpleContent") inheritedChildren = baseComplex.children;
        }
        if (c.kind === "simpleContent") {
          const v = baseComplex ? baseComplex.content ?? this.plainValue(null) : this.valueOf(base);
          content = this.withRef(v, node);
        }
        for (const p of deriv.children) ownPart(p);
      } else {
        ownPart(c);
      }
    }
    const attributes = record<AttributeInfo>();
    let declaresInheritFrom = false;
    // for…in over prototype-less records: no entry arrays (this runs for every type of the set).
    for (const k in inheritedAttrs) {
      if (prohibited.has(k)) continue;
      attributes[k] = inheritedAttrs[k];
      if (k.length === 11 && k.toLowerCase() === "inheritfrom") declaresInheritFrom = true;
    }
    for (const k in attrs) {
      attributes[k] = attrs[k];
      if (k.length === 11 && k.toLowerCase() === "inheritfrom") declaresInheritFrom = true;
    }
    const allChildren = record<ChildInfo>();
    for (const k in inheritedChildren) allChildren[k] = inheritedChildren[k];
    for (const k in children) allChildren[k] = children[k];
    return { name, base, attributes, children: allChildren, content, declaresInheritFrom };
  }

  /**
   * The plain {@link ValueInfo} of `v` (a simple type's own `name`/`base` dropped) with a declaration's
   * own `xas:refType` / `xas:isRef` / `xas:isWeakRef` applied: the declaration wins (BAB's order).
   */
  private withRef(v: ValueInfo, decl: XsdNode): ValueInfo {
    const refType = this.refTarget(decl.xas.refType);
    return {
      typeName: v.typeName,
      refType: refType ?? v.refType,
      isRef: v.isRef || decl.xas.isRef === "true" || decl.xas.isWeakRef === "true",
      isWeakRef: v.isWeakRef || decl.xas.isWeakRef === "true",
      isPoid: v.isPoid,
      isList: v.isList,
      enumValues: v.enumValues,
      allowsDefine: v.allowsDefine,
      isBoolean: v.isBoolean,
    };
  }

  private addAttribute(n: XsdNode, file: XsdInput, out: Record<string, AttributeInfo>, prohibited: Set<string>): void {
    const name = n.attrs.name;
    if (!name) return;
    if (n.attrs.use === "prohibited") {
      prohibited.add(name);
      return;
    }
    const typeName = n.attrs.type !== undefined
      ? this.resolveRef(typeRef(n.attrs.type, n.scope), file, n)
      : this.inlineKeys.get(n) ?? "xs:anySimpleType";
    const v = this.valueOf(typeName);
    const refType = this.refTarget(n.xas.refType);
    // withRef's fields written out once (one object per attribute, not a copy of a copy).
    out[name] = {
      typeName,
      refType: refType ?? v.refType,
      isRef: v.isRef || n.xas.isRef === "true" || n.xas.isWeakRef === "true",
      isWeakRef: v.isWeakRef || n.xas.isWeakRef === "true",
      isPoid: v.isPoid,
      isList: v.isList,
      enumValues: v.enumValues,
      allowsDefine: v.allowsDefine,
      isBoolean: v.isBoolean,
      name,
      required: n.attrs.use === "required",
      defaultValue: n.attrs.default ?? n.attrs.fixed ?? n.editDefault ?? null,
    };
  }

  private collectParticles(
    n: XsdNode,
    file: XsdInput,
    out: Record<string, ChildInfo>,
    minMul: number,
    maxMul: number,
  ): void {
    const min = minMul * parseOccurs(n.attrs.minOccurs, 1);
    const max = mulMax(maxMul, parseOccurs(n.attrs.maxOccurs, 1));
    // In a choice of several alternatives, none of them is required on its own.
    const alternatives = n.kind === "choice" ? n.children.filter((c) => c.kind !== "annotation").length : 1;
    const childMin = alternatives > 1 ? 0 : min;
    for (const c of n.children) {
      if (c.kind === "sequence" || c.kind === "choice" || c.kind === "all") {
        this.collectParticles(c, file, out, childMin, max);
        continue;
      }
      if (c.kind !== "element") continue;
      const decl = this.particleElement(c, file);
      if (decl === null || Object.hasOwn(out, decl.name)) continue;
      const { name, type } = decl;
      const info: Mutable<ChildInfo> = {
        name,
        type,
        minOccurs: childMin * parseOccurs(c.attrs.minOccurs, 1),
        maxOccurs: mulMax(max, parseOccurs(c.attrs.maxOccurs, 1)),
        refType: this.refTarget(c.xas.refType),
        content: null,
      };
      out[name] = info;
      // Complex types may nest themselves through children, so their content is filled in after all are built.
      if (type !== null && this.isComplex(type)) this.pendingContent.push({ info, type, el: c });
      else if (type !== null) info.content = this.withRef(this.valueOf(type), c);
    }
  }

  /** Name and type of a local element declaration, or of an `<xs:element ref="Global"/>` use. */
  private particleElement(c: XsdNode, file: XsdInput): { name: string; type: string | null } | null {
    if (c.attrs.name) {
      const type = c.attrs.type !== undefined
        ? this.resolveRef(typeRef(c.attrs.type, c.scope), file, c)
        : this.inlineKeys.get(c) ?? null;
      return { name: c.attrs.name, type };
    }
    if (c.attrs.ref === undefined) return null;
    const name = typeRef(c.attrs.ref, c.scope).replace(/^xs:/, "");
    const global = this.globalElementDecls.get(name.toLowerCase());
    if (!global) {
      this.report(file, c.offset, `unknown element '${name}' (no global element declaration)`);
      return null;
    }
    return { name: global.name, type: this.globalElementType(global) };
  }

  /** Fills the text content of complex-typed (simpleContent) child declarations; element-level refType wins. */
  private fillPendingContent(): void {
    for (const p of this.pendingContent) {
      const content = this.complexOut.get(p.type.toLowerCase())?.content ?? null;
      p.info.content = content && this.withRef(content, p.el);
    }
  }

  // ---- model-level tables -----------------------------------------------------------------------

  private assetKinds(): { assetElements: string[]; assetElementTypes: Record<string, string> } {
    const assetElements: string[] = [];
    const assetElementTypes = record<string>();
    const decl = this.globalElementDecls.get("assetdeclaration");
    if (!decl) return { assetElements, assetElementTypes };
    const typeName = this.globalElementType(decl);
    const t = typeName !== null ? this.complex(typeName.toLowerCase()) : null;
    if (!t) return { assetElements, assetElementTypes };
    for (const [name, child] of Object.entries(t.children)) {
      if (STRUCTURAL_CHILDREN.has(name.toLowerCase())) continue;
      assetElements.push(name);
      if (child.type !== null) assetElementTypes[name] = child.type;
    }
    return { assetElements, assetElementTypes };
  }

  private globalElementType(decl: Decl): string | null {
    const t = decl.node.attrs.type;
    if (t !== undefined) return this.resolveRef(typeRef(t, decl.node.scope), decl.file, decl.node);
    return this.inlineKeys.get(decl.node) ?? null;
  }

  private globalElementMap(): Record<string, string> {
    const map = record<string>();
    for (const e of this.elementOrder) {
      if (Object.hasOwn(map, e.name) || e.type === null) continue;
      const t = e.inline ? e.type : this.resolveRefQuiet(e.type);
      if (t !== null) map[e.name] = t;
    }
    for (const [, decl] of this.globalElementDecls) {
      const t = this.globalElementType(decl);
      if (t !== null) map[decl.name] = t;
    }
    return map;
  }

  private resolveRefQuiet(raw: string): string | null {
    if (raw.startsWith("xs:")) return raw;
    const lower = raw.toLowerCase();
    return this.complexDecls.get(lower)?.name ?? this.simpleDecls.get(lower)?.name ?? null;
  }

  /**
   * domain-spec §9.1. Direct targets follow the peer's exact-name rule; then every type deriving from a
   * referenced type is added too (a `W3DContainer` is what a `BaseRenderAssetType` reference names),
   * except through the two root asset types, whose references mean "any asset".
   */
  private designedTargets(
    complexTypes: Readonly<Record<string, ComplexTypeInfo>>,
    simpleTypes: Readonly<Record<string, SimpleTypeInfo>>,
  ): { targets: string[]; direct: number } {
    const referenced = new Set<string>();
    const inheritable = new Set<string>();
    const baseOf = (t: string): string | null => complexTypes[t]?.base ?? simpleTypes[t]?.base ?? null;
    const chainHas = (type: string, wanted: string): boolean => {
      const w = wanted.toLowerCase();
      const seen = new Set<string>();
      for (let t: string | null = type; t !== null && !seen.has(t.toLowerCase()); t = baseOf(t)) {
        if (t.toLowerCase() === w) return true;
        seen.add(t.toLowerCase());
      }
      return false;
    };
    for (const t of Object.values(complexTypes)) {
      if (t.declaresInheritFrom) inheritable.add(t.name);
      for (const a of Object.values(t.attributes)) {
        if (a.refType === null || a.isPoid) continue;
        // An id whose refType the owner itself satisfies is a definition site (domain-spec §6.7).
        if (a.name === "id" && chainHas(t.name, a.refType)) continue;
        referenced.add(a.refType);
      }
      if (t.content?.refType && !t.content.isPoid) referenced.add(t.content.refType);
      for (const c of Object.values(t.children)) {
        if (c.content?.refType && !c.content.isPoid) referenced.add(c.content.refType);
      }
    }
    for (const s of Object.values(simpleTypes)) if (s.refType !== null && !s.isPoid) referenced.add(s.refType);

    const direct = new Set([...referenced, ...inheritable]);
    const out = new Set(direct);
    const refLower = new Set([...referenced].map((r) => r.toLowerCase()).filter((r) => !ROOT_ASSET_TYPES.has(r)));
    for (const t of Object.values(complexTypes)) {
      if (out.has(t.name)) continue;
      const seen = new Set<string>([t.name.toLowerCase()]);
      for (let b = t.base; b !== null && !seen.has(b.toLowerCase()); b = complexTypes[b]?.base ?? null) {
        seen.add(b.toLowerCase());
        if (refLower.has(b.toLowerCase())) {
          out.add(t.name);
          break;
        }
      }
    }
    return { targets: [...out].sort(), direct: direct.size };
  }
}
