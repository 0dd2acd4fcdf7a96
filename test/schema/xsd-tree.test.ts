import { describe, expect, test } from "bun:test";
import { parseXsdTree, typeRef } from "../../src/schema/xsd-tree.ts";

describe("parseXsdTree", () => {
  const text = [
    `<?xml version="1.0"?>`,
    `<xsd:schema xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:x="uri:ea.com:eala:asset:schema" xmlns:XmlEdit="uri:ea.com:eala:XmlEdit" xmlns="uri:ea.com:eala:asset">`,
    `  <xsd:annotation><xsd:appinfo><foo:bar xmlns:foo="urn:foo"><xsd:element name="Hidden"/></foo:bar></xsd:appinfo></xsd:annotation>`,
    `  <xsd:attribute name="a" type="xsd:int" x:refType="T" XmlEdit:Default="7" balance="1" />`,
    `</xsd:schema>`,
  ].join("\n");
  const tree = parseXsdTree(text);

  test("keeps schema elements with plain attributes, xas annotations by URI, and the editor default", () => {
    expect(tree.error).toBeNull();
    const attr = tree.root!.children[1];
    expect([attr.kind, attr.attrs, attr.xas, attr.editDefault, attr.offset]).toEqual([
      "attribute",
      { name: "a", type: "xsd:int", balance: "1" },
      { refType: "T" },
      "7",
      text.indexOf(`<xsd:attribute`),
    ]);
  });

  test("drops foreign elements and everything inside them", () => {
    const appinfo = tree.root!.children[0].children[0];
    expect(appinfo.kind).toBe("appinfo");
    expect(appinfo.children).toEqual([]);
  });

  test("QName values resolve through the in-scope prefixes", () => {
    const scope = tree.root!.children[1].scope;
    expect(typeRef("xsd:int", scope)).toBe("xs:int");
    expect(typeRef(" GameObject ", scope)).toBe("GameObject");
    expect(typeRef("x:Whatever", scope)).toBe("Whatever");
    expect(typeRef("undeclared:Thing", scope)).toBe("Thing");
  });

  test("a schema in the default namespace reads unprefixed builtins as xs:", () => {
    const t = parseXsdTree(
      `<schema xmlns="http://www.w3.org/2001/XMLSchema" xmlns:a="uri:ea.com:eala:asset"><element name="e" type="string"/></schema>`,
    );
    const el = t.root!.children[0];
    expect(typeRef(el.attrs.type, el.scope)).toBe("xs:string");
    expect(typeRef("a:GameObject", el.scope)).toBe("GameObject");
  });

  test("a document that is not a schema has no root", () => {
    expect(parseXsdTree(`<AssetDeclaration xmlns="uri:ea.com:eala:asset"/>`)).toEqual({ root: null, error: null });
  });
});
