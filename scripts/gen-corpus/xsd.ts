/**
 * Renders the schema table (`schema-table.ts`) as a `Schemas/xsd/` folder in the RA3 SDK's dialect:
 * `CnC3Types.xsd` includes every other file and declares `AssetDeclaration` and the fragment roots.
 */
import {
  ASSET_ELEMENTS,
  type ComplexSpec,
  ENUMS,
  FRAGMENT_ROOTS,
  parseAttr,
  parseChild,
  type SimpleSpec,
  XSD_FILES,
} from "./schema-table.ts";

const HEADER = `<?xml version="1.0" encoding="utf-8"?>`;
const SCHEMA_OPEN = `<xs:schema
  xmlns:xs="http://www.w3.org/2001/XMLSchema"
  xmlns="uri:ea.com:eala:asset"
  xmlns:xas="uri:ea.com:eala:asset:schema"
  targetNamespace="uri:ea.com:eala:asset"
  elementFormDefault="qualified">`;

/** Every XSD file of the synthetic mod: path below `Schemas/xsd/` → text. */
export function renderXsdFiles(): Map<string, string> {
  const out = new Map<string, string>();
  for (const f of XSD_FILES) {
    const body = f.types.map((t) => (t.kind === "complex" ? complexType(t) : simpleType(t))).join("\n\n");
    out.set(f.path, `${HEADER}\n<!-- ${escapeComment(f.doc)} -->\n${SCHEMA_OPEN}\n\n${body}\n</xs:schema>\n`);
  }
  out.set("CnC3Types.xsd", rootFile());
  return out;
}

function rootFile(): string {
  const includes = XSD_FILES.map((f) => `  <xs:include schemaLocation="${f.path}" />`).join("\n");
  const assets = ASSET_ELEMENTS.map((n) => `          <xs:element name="${n}" type="${n}" />`).join("\n");
  const roots = FRAGMENT_ROOTS.map(([n, t]) => `  <xs:element name="${n}" type="${t}" />`).join("\n");
  return `${HEADER}
<!--
  Schema of the synthetic benchmark mod written by scripts/gen-corpus.ts. Generated from the table in
  scripts/gen-corpus/schema-table.ts: it declares every element and attribute the generator writes.
-->
${SCHEMA_OPEN}

${includes}

  <xs:element name="AssetDeclaration">
    <xs:complexType>
      <xs:sequence>
        <xs:element name="Tags" minOccurs="0">
          <xs:complexType>
            <xs:sequence>
              <xs:element name="Tag" type="Tag" minOccurs="0" maxOccurs="unbounded" />
            </xs:sequence>
          </xs:complexType>
        </xs:element>
        <xs:element name="Includes" minOccurs="0">
          <xs:complexType>
            <xs:sequence>
              <xs:element name="Include" type="Include" minOccurs="0" maxOccurs="unbounded" />
            </xs:sequence>
          </xs:complexType>
        </xs:element>
        <xs:element name="Defines" minOccurs="0">
          <xs:complexType>
            <xs:sequence>
              <xs:element name="Define" type="Define" minOccurs="0" maxOccurs="unbounded" />
            </xs:sequence>
          </xs:complexType>
        </xs:element>
        <xs:choice minOccurs="0" maxOccurs="unbounded">
${assets}
        </xs:choice>
      </xs:sequence>
    </xs:complexType>
  </xs:element>

  <!-- Roots of the xi:include fragments under Data/Includes/: lists of modules. -->
${roots}
</xs:schema>
`;
}

function complexType(t: ComplexSpec): string {
  const ann = [
    t.isRef ? ` xas:isRef="true"` : "",
    t.refType ? ` xas:refType="${t.refType}"` : "",
    t.polymorphic ? ` xas:isPolymorphic="true"` : "",
  ].join("");
  const abs = t.abstract ? ` abstract="true"` : "";
  const lines: string[] = [];
  if (t.doc) lines.push(`  <!-- ${escapeComment(t.doc)} -->`);
  lines.push(`  <xs:complexType name="${t.name}"${abs}${ann}>`);
  const attrs = (t.attrs ?? []).map((a) => attribute(a));
  const group = particles(t);
  if (t.simpleContent) {
    lines.push(
      `    <xs:simpleContent>`,
      `      <xs:extension base="${t.base}">`,
      ...attrs.map((a) => `        ${a}`),
      `      </xs:extension>`,
      `    </xs:simpleContent>`,
    );
  } else if (t.base) {
    const inner = [...group, ...attrs];
    if (inner.length === 0) {
      lines.push(`    <xs:complexContent>`, `      <xs:extension base="${t.base}" />`, `    </xs:complexContent>`);
    } else {
      lines.push(
        `    <xs:complexContent>`,
        `      <xs:extension base="${t.base}">`,
        ...inner.map((a) => `        ${a}`),
        `      </xs:extension>`,
        `    </xs:complexContent>`,
      );
    }
  } else {
    lines.push(...group.map((g) => `    ${g}`), ...attrs.map((a) => `    ${a}`));
  }
  lines.push(`  </xs:complexType>`);
  return lines.join("\n");
}

function particles(t: ComplexSpec): string[] {
  const children = (t.children ?? []).map(parseChild);
  if (children.length === 0) return [];
  const el = children.map((c) => {
    const occurs = t.choice
      ? ""
      : `${c.min !== 1 ? ` minOccurs="${c.min}"` : ""}${
        c.max !== 1 ? ` maxOccurs="${c.max < 0 ? "unbounded" : c.max}"` : ""
      }`;
    const refType = c.refType ? ` xas:refType="${c.refType}"` : "";
    return `  <xs:element name="${c.name}" type="${c.type}"${occurs}${refType} />`;
  });
  return t.choice
    ? [`<xs:choice minOccurs="0" maxOccurs="unbounded">`, ...el, `</xs:choice>`]
    : [`<xs:sequence>`, ...el, `</xs:sequence>`];
}

function attribute(spec: string): string {
  const a = parseAttr(spec);
  const use = a.required ? ` use="required"` : "";
  const def = a.defaultValue !== null ? ` default="${a.defaultValue}"` : "";
  const refType = a.refType ? ` xas:refType="${a.refType}"` : "";
  return `<xs:attribute name="${a.name}" type="${a.type}"${refType}${use}${def} />`;
}

function simpleType(t: SimpleSpec): string {
  const ann = [
    t.isRef ? ` xas:isRef="true"` : "",
    t.isWeakRef ? ` xas:isWeakRef="true"` : "",
    t.refType ? ` xas:refType="${t.refType}"` : "",
  ].join("");
  const lines: string[] = [];
  if (t.doc) lines.push(`  <!-- ${escapeComment(t.doc)} -->`);
  lines.push(`  <xs:simpleType name="${t.name}"${ann}>`);
  if (t.list) {
    lines.push(`    <xs:list itemType="${t.list}" />`);
  } else {
    const facets: string[] = [];
    if (t.pattern) facets.push(`<xs:pattern value="${escapeAttr(t.pattern)}" />`);
    for (const v of t.enumOf ? ENUMS[t.enumOf] : []) facets.push(`<xs:enumeration value="${v}" />`);
    const base = t.base ?? "xs:string";
    if (facets.length === 0) lines.push(`    <xs:restriction base="${base}" />`);
    else lines.push(`    <xs:restriction base="${base}">`, ...facets.map((f) => `      ${f}`), `    </xs:restriction>`);
  }
  lines.push(`  </xs:simpleType>`);
  return lines.join("\n");
}

function escapeAttr(s: string): string {
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/"/g, "&quot;");
}

function escapeComment(s: string): string {
  return s.replace(/--/g, "- -");
}
