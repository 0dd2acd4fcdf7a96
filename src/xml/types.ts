/**
 * Shapes produced by the XML layer. Offsets are UTF-16 code-unit indexes into the decoded text (the
 * text after the BOM is removed); {@link LineMap} turns them into 1-based line/column and byte offsets.
 */

/** A well-formedness or encoding problem, positioned. Never thrown: returned. */
export interface XmlError {
  readonly message: string;
  /** Offset into the decoded text. */
  readonly offset: number;
  /** 1-based. */
  readonly line: number;
  /** 1-based, in UTF-16 code units from the start of the line. */
  readonly column: number;
}

/** {@link XmlAttribute.marks}: the raw value holds a `$`. */
export const VALUE_HAS_DOLLAR = 1;
/** {@link XmlAttribute.marks}: the raw value holds a `:` after its first character. */
export const VALUE_HAS_INNER_COLON = 2;
/** {@link XmlAttribute.marks}: the raw value holds a space (or a control character recovery kept). */
export const VALUE_HAS_SPACE = 4;
/** {@link XmlAttribute.marks}: the raw value holds a character outside ASCII. */
export const VALUE_HAS_NON_ASCII = 8;

export interface XmlAttribute {
  /** As written, e.g. `xai:joinAction`. */
  readonly qname: string;
  readonly prefix: string;
  readonly local: string;
  /** Namespace URI ("" for unprefixed attributes, as XML Namespaces specifies). */
  readonly uri: string;
  /** Entity-decoded value (attribute-value normalisation applied: tab/CR/LF become spaces). */
  readonly value: string;
  /**
   * True when {@link value} is exactly the document's text from {@link valueStart} to {@link valueEnd}
   * (no entity reference, tab or line break in it): a reader may then scan the document in place, at
   * the same offsets, instead of asking for the value (which is made on first use).
   */
  readonly verbatim: boolean;
  /**
   * What the value's raw text (between the quotes, before references are decoded) holds, read while it
   * was scanned: {@link VALUE_HAS_DOLLAR}, {@link VALUE_HAS_INNER_COLON}, {@link VALUE_HAS_SPACE},
   * {@link VALUE_HAS_NON_ASCII}. A reader of a verbatim value tests these bits instead of scanning it
   * again (one with neither a space nor a character outside ASCII is a single whitespace-free token).
   */
  readonly marks: number;
  /** Offset of the first character of the attribute name. */
  readonly nameStart: number;
  /** Offset of the first character inside the quotes. */
  readonly valueStart: number;
  /** Offset of the closing quote. */
  readonly valueEnd: number;
}

export interface XmlStartTag {
  readonly qname: string;
  readonly prefix: string;
  readonly local: string;
  readonly uri: string;
  readonly attributes: readonly XmlAttribute[];
  /** Offset of `<`. */
  readonly start: number;
  /** Offset just after `>`. */
  readonly end: number;
  readonly selfClosing: boolean;
  /** 0 for the root element. */
  readonly depth: number;
}

export interface XmlEndTag {
  readonly qname: string;
  readonly local: string;
  readonly uri: string;
  /** Offset of `<` of the end tag (for a self-closing element: of its start tag). */
  readonly start: number;
  /** Offset just after `>`. */
  readonly end: number;
  readonly depth: number;
}

/** Callbacks of {@link parseXml}. Only `startElement` is required. */
export interface XmlVisitor {
  /**
   * Called for every start tag. The tag's attribute objects are filled in again for later tags: read
   * what you need of them here and keep copies, not the objects (the tag and its array stay as they are).
   */
  startElement(tag: XmlStartTag): void;
  /** Called for every element, also self-closing ones (right after `startElement`). */
  endElement?(tag: XmlEndTag): void;
  /** Character data (entity-decoded; CDATA sections delivered the same way). Whitespace included. */
  text?(value: string, start: number, end: number): void;
  comment?(value: string, start: number, end: number): void;
  processingInstruction?(target: string, body: string, start: number, end: number): void;
  /** With `recover: true`: each well-formedness error, in document order (parsing resumes after it). */
  error?(error: XmlError): void;
}

/** Result of decoding a file's bytes to text. */
export interface DecodedText {
  readonly text: string;
  readonly encoding: "utf-8" | "utf-16le" | "utf-16be" | "windows-1252" | "us-ascii" | "iso-8859-1";
  /** Number of BOM bytes removed (0, 2 or 3). */
  readonly bomBytes: number;
  /** Problems found while decoding (e.g. invalid UTF-8 retried as windows-1252); empty when clean. */
  readonly warnings: readonly XmlError[];
}

/** One top-level element with a non-empty id, found by the shallow scanner. */
export interface ShallowAsset {
  /** Local name of the element (prefix stripped, case kept). */
  readonly type: string;
  readonly id: string;
  /** Position of the id attribute value. */
  readonly line: number;
  readonly column: number;
  readonly offset: number;
  /** Offset of the element's `<`. */
  readonly start: number;
}

export interface ShallowInclude {
  /** `all` | `instance` | `reference`, or null when the attribute is missing or not one of them. */
  readonly type: "all" | "instance" | "reference" | null;
  readonly rawType: string | null;
  readonly source: string;
  readonly line: number;
  readonly column: number;
  readonly offset: number;
}

export interface ShallowDefine {
  readonly name: string;
  readonly value: string;
  readonly line: number;
  readonly column: number;
  readonly offset: number;
}

export interface ShallowXInclude {
  readonly href: string;
  readonly xpointer: string | null;
  /** True when the xi:include is a direct child of the root element. */
  readonly rootLevel: boolean;
  readonly line: number;
  readonly column: number;
  readonly offset: number;
}

/** What the shallow scanner reads from a document without building nodes. */
export interface ShallowScan {
  /** Local name of the root element, or null when none was found. */
  readonly rootName: string | null;
  readonly assets: readonly ShallowAsset[];
  readonly includes: readonly ShallowInclude[];
  readonly defines: readonly ShallowDefine[];
  readonly xincludes: readonly ShallowXInclude[];
  /** The first recoverable error; scanning stopped there and kept what it had found. */
  readonly error: XmlError | null;
}
