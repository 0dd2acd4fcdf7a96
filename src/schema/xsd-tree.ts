/**
 * One XSD file as a tiny element tree: only elements of the XML Schema namespace are kept (annotation
 * payloads in other namespaces are dropped), with their plain attributes, the `xas:` annotations
 * (matched by namespace URI, never by prefix) and the in-scope prefixes needed to read QName values
 * such as `type="xs:string"`. XSD files are small, so a tree is simpler than streaming.
 */
import { parseXml } from "../xml/tokenizer.ts";
import type { XmlError, XmlStartTag } from "../xml/types.ts";

const XSD_NAMESPACE = "http://www.w3.org/2001/XMLSchema";
/** The annotation namespace of `xas:refType`, `xas:isRef`, … (its prefix is free). */
const XAS_NAMESPACE = "uri:ea.com:eala:asset:schema";
const XMLNS_URI = "http://www.w3.org/2000/xmlns/";

/** Prefix → namespace URI, chained to the enclosing scope. */
export interface PrefixScope {
  readonly parent: PrefixScope | null;
  readonly bindings: ReadonlyMap<string, string>;
}

/** An element of the XML Schema namespace. */
export interface XsdNode {
  /** Local name (`complexType`, `element`, …). */
  readonly kind: string;
  /** Unprefixed attributes by name. */
  readonly attrs: Readonly<Record<string, string>>;
  /** Attributes in the `xas` namespace, by local name. */
  readonly xas: Readonly<Record<string, string>>;
  /** Value of an `XmlEdit:Default` editor hint, when present. */
  readonly editDefault: string | null;
  readonly children: XsdNode[];
  /** Offset of `<` in the decoded text of {@link XsdFile.text}. */
  readonly offset: number;
  readonly scope: PrefixScope;
}

/** The result of reading one XSD file's text. */
export interface XsdTree {
  /** The `xs:schema` root, or null when the document has none (or is not a schema). */
  readonly root: XsdNode | null;
  /** The well-formedness error, if any; the tree then holds what was read before it. */
  readonly error: XmlError | null;
}

const EMPTY: Readonly<Record<string, string>> = Object.freeze({});

/**
 * Parses the decoded text of an XSD into a tree of its schema elements.
 * @example parseXsdTree('<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema"/>').root?.kind // "schema"
 */
export function parseXsdTree(text: string): XsdTree {
  let root: XsdNode | null = null;
  // One stack entry per open element; null marks a foreign element whose subtree is dropped.
  const stack: (XsdNode | null)[] = [];
  const scopes: PrefixScope[] = [];
  let scope: PrefixScope = { parent: null, bindings: new Map() };

  const error = parseXml(
    text,
    {
      startElement(tag: XmlStartTag) {
        const bindings = declaredPrefixes(tag);
        scopes.push(scope);
        if (bindings) scope = { parent: scope, bindings };
        const parent = stack.length > 0 ? stack[stack.length - 1] : undefined;
        const inside = stack.length === 0 || parent !== null;
        if (!inside || tag.uri !== XSD_NAMESPACE) {
          stack.push(null);
          return;
        }
        const node = toNode(tag, scope);
        if (parent) parent.children.push(node);
        else if (root === null && node.kind === "schema") root = node;
        stack.push(node);
      },
      endElement() {
        stack.pop();
        scope = scopes.pop() ?? scope;
      },
    },
    { namespaces: true },
  );
  return { root, error };
}

function declaredPrefixes(tag: XmlStartTag): Map<string, string> | null {
  let out: Map<string, string> | null = null;
  for (const a of tag.attributes) {
    if (a.uri !== XMLNS_URI && a.qname !== "xmlns" && !a.qname.startsWith("xmlns:")) continue;
    out ??= new Map();
    out.set(a.qname === "xmlns" ? "" : a.local, a.value);
  }
  return out;
}

function toNode(tag: XmlStartTag, scope: PrefixScope): XsdNode {
  let attrs: Record<string, string> | null = null;
  let xas: Record<string, string> | null = null;
  let editDefault: string | null = null;
  for (const a of tag.attributes) {
    if (a.prefix === "" && a.qname !== "xmlns") (attrs ??= {})[a.local] = a.value;
    else if (a.uri === XAS_NAMESPACE) (xas ??= {})[a.local] = a.value;
    // Two URIs occur for the editor-hint namespace; the prefix is conventional but not fixed.
    else if (a.local === "Default" && /xmledit/i.test(a.uri)) editDefault = a.value;
  }
  return {
    kind: tag.local,
    attrs: attrs ?? EMPTY,
    xas: xas ?? EMPTY,
    editDefault,
    children: [],
    offset: tag.start,
    scope,
  };
}

/** The URI bound to `prefix` in `scope` ("" for the default namespace), or null when undeclared. */
function lookupPrefix(scope: PrefixScope | null, prefix: string): string | null {
  for (let s = scope; s; s = s.parent) {
    const uri = s.bindings.get(prefix);
    if (uri !== undefined) return uri;
  }
  return null;
}

/**
 * Reads a QName attribute value (`type`, `base`, `itemType`) as a model type name: names in the XML
 * Schema namespace become `xs:<local>` whatever their prefix; everything else is the local name (the
 * schema set has one target namespace).
 * @example typeRef("xsd:int", scopeBindingXsdToXs) // "xs:int"
 */
export function typeRef(value: string, scope: PrefixScope): string {
  const v = value.trim();
  const colon = v.indexOf(":");
  if (colon < 0) return lookupPrefix(scope, "") === XSD_NAMESPACE ? `xs:${v}` : v;
  const local = v.slice(colon + 1);
  return lookupPrefix(scope, v.slice(0, colon)) === XSD_NAMESPACE ? `xs:${local}` : local;
}
