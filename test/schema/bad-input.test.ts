/**
 * Loading XSD sets that are broken in the ways real folders are: missing folder or entry file,
 * malformed or unreadable files, missing includes, cycles, unknown or duplicate types.
 * Every case yields exact diagnostics and keeps whatever else could be loaded.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { loadSchema } from "../../src/schema/load.ts";
import { Schema } from "../../src/schema/schema.ts";

const roots: string[] = [];
afterAll(() => {
  for (const r of roots) rmSync(r, { recursive: true, force: true });
});

/** A temp folder holding `files` (relative path → text). */
function folder(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), "ra3-schema-"));
  roots.push(root);
  for (const [rel, text] of Object.entries(files)) {
    const p = join(root, rel);
    mkdirSync(dirname(p), { recursive: true });
    writeFileSync(p, text);
  }
  return root;
}

const HEAD =
  `<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns="uri:ea.com:eala:asset" xmlns:xas="uri:ea.com:eala:asset:schema" targetNamespace="uri:ea.com:eala:asset">`;
const schemaText = (...lines: string[]) => [HEAD, ...lines, "</xs:schema>", ""].join("\n");
const include = (loc: string) => `  <xs:include schemaLocation="${loc}" />`;
const complex = (name: string, body = "") => `  <xs:complexType name="${name}">${body}</xs:complexType>`;

describe("missing folder or entry file", () => {
  test("a folder that does not exist", () => {
    const dir = join(folder({}), "Schemas", "xsd");
    expect(loadSchema(dir)).toEqual({
      model: null,
      diagnostics: [{ file: dir, line: 0, column: 0, message: `XSD folder not found: ${dir}` }],
      files: [],
      stats: null,
      missing: [],
      contentKey: null,
    });
  });

  test("a folder without CnC3Types.xsd", () => {
    const dir = folder({ "Other.xsd": schemaText() });
    const r = loadSchema(dir);
    expect(r.model).toBeNull();
    expect(r.diagnostics).toEqual([{ file: dir, line: 0, column: 0, message: `CnC3Types.xsd not found in ${dir}` }]);
  });

  test("the entry file is found whatever its case", () => {
    const dir = folder({ "cnc3types.XSD": schemaText(complex("A")) });
    const r = loadSchema(dir);
    expect(r.diagnostics).toEqual([]);
    expect(r.files).toEqual([join(dir, "cnc3types.XSD")]);
    expect(Object.keys(r.model!.complexTypes)).toEqual(["A"]);
  });
});

describe("broken files", () => {
  test("a malformed XSD is reported with its position; the rest of the set still loads", () => {
    const dir = folder({
      "CnC3Types.xsd": schemaText(include("Good.xsd"), include("Bad.xsd"), complex("Entry")),
      "Good.xsd": schemaText(complex("Good")),
      "Bad.xsd": [
        HEAD,
        complex("Early"),
        `  <xs:complexType name="Broken">`,
        `    <xs:attribute name="x">`,
        `  </xs:complexType>`,
        complex("Late"),
        "</xs:schema>",
      ].join("\n"),
    });
    const r = loadSchema(dir);
    expect(r.diagnostics).toEqual([
      {
        file: join(dir, "Bad.xsd"),
        line: 5,
        column: 3,
        message:
          "malformed XSD Bad.xsd (line 5, column 3): end tag </xs:complexType> does not match start tag <xs:attribute> (line 4, column 5); declarations after this point are ignored",
      },
    ]);
    expect(Object.keys(r.model!.complexTypes).sort()).toEqual(["Broken", "Early", "Entry", "Good"]);
    expect(r.files).toHaveLength(3);
  });

  test("an included file that is missing names the including file and line", () => {
    const dir = folder({
      "CnC3Types.xsd": schemaText(include("Base.xsd"), include("includes/Missing.xsd"), complex("Entry")),
      "Base.xsd": schemaText(complex("Base")),
    });
    const r = loadSchema(dir);
    expect(r.diagnostics).toEqual([
      {
        file: join(dir, "CnC3Types.xsd"),
        line: 3,
        column: 3,
        message: "CnC3Types.xsd line 3: included XSD not found: includes/Missing.xsd",
      },
    ]);
    expect(r.missing).toEqual([join(dir, "includes", "Missing.xsd")]);
    expect(Object.keys(r.model!.complexTypes)).toEqual(["Base", "Entry"]);
  });

  test("an unreadable file", () => {
    const dir = folder({
      "CnC3Types.xsd": schemaText(include("Locked.xsd"), complex("Entry")),
      "Locked.xsd": schemaText(),
    });
    const r = loadSchema(dir, {
      readFile: (p) => {
        if (p.endsWith("Locked.xsd")) throw new Error("EACCES: permission denied");
        return new TextEncoder().encode(schemaText(include("Locked.xsd"), complex("Entry")));
      },
    });
    expect(r.diagnostics).toEqual([
      {
        file: join(dir, "Locked.xsd"),
        line: 0,
        column: 0,
        message: "cannot read Locked.xsd: EACCES: permission denied",
      },
    ]);
    expect(Object.keys(r.model!.complexTypes)).toEqual(["Entry"]);
  });

  test("a file that is not a schema", () => {
    const dir = folder({
      "CnC3Types.xsd": schemaText(include("Data.xsd")),
      "Data.xsd": `<AssetDeclaration xmlns="uri:ea.com:eala:asset"/>`,
    });
    expect(loadSchema(dir).diagnostics).toEqual([
      {
        file: join(dir, "Data.xsd"),
        line: 1,
        column: 1,
        message: "Data.xsd is not an XML Schema (no xs:schema root element); skipped",
      },
    ]);
  });
});

describe("include walking", () => {
  test("cycles are harmless; includes resolve relative to the including file, ignoring case and separators", () => {
    const dir = folder({
      "CnC3Types.xsd": schemaText(include("sub/a.XSD")),
      "Sub/A.xsd": schemaText(include("..\\Sub\\B.xsd"), complex("A")),
      "Sub/B.xsd": schemaText(include("A.xsd"), include("../cnc3types.xsd"), complex("B")),
    });
    const r = loadSchema(dir);
    expect(r.diagnostics).toEqual([]);
    expect(r.files).toEqual([join(dir, "CnC3Types.xsd"), join(dir, "Sub", "A.xsd"), join(dir, "Sub", "B.xsd")]);
    // declarations in include-expanded order: B (included by A) before A
    expect(Object.keys(r.model!.complexTypes)).toEqual(["B", "A"]);
  });
});

describe("declarations", () => {
  test("an unknown type reference", () => {
    const dir = folder({
      "CnC3Types.xsd": schemaText(complex("T", `\n    <xs:attribute name="x" type="Nope" />\n  `)),
    });
    const r = loadSchema(dir);
    expect(r.diagnostics).toEqual([
      {
        file: join(dir, "CnC3Types.xsd"),
        line: 3,
        column: 5,
        message: "unknown type 'Nope' (not declared in any loaded XSD)",
      },
    ]);
    expect(r.model!.complexTypes.T.attributes.x.typeName).toBeNull();
  });

  test("a duplicate type: the first declaration wins", () => {
    const dir = folder({
      "CnC3Types.xsd": schemaText(include("A.xsd"), include("B.xsd")),
      "A.xsd": schemaText(complex("T", `<xs:attribute name="fromA" type="xs:string" />`)),
      "B.xsd": schemaText(complex("t", `<xs:attribute name="fromB" type="xs:string" />`)),
    });
    const r = loadSchema(dir);
    expect(r.diagnostics).toEqual([
      {
        file: join(dir, "B.xsd"),
        line: 2,
        column: 3,
        message: "duplicate type 't' ignored (first declared in A.xsd:2)",
      },
    ]);
    expect(Object.keys(r.model!.complexTypes.T.attributes)).toEqual(["fromA"]);
  });

  test("a derivation cycle is cut and reported", () => {
    const ext = (base: string) => `<xs:complexContent><xs:extension base="${base}" /></xs:complexContent>`;
    const dir = folder({ "CnC3Types.xsd": schemaText(complex("X", ext("Y")), complex("Y", ext("X"))) });
    const r = loadSchema(dir);
    expect(r.diagnostics).toEqual([
      {
        file: join(dir, "CnC3Types.xsd"),
        line: 2,
        column: 3,
        message: "type 'X' derives from itself; the cycle is cut here",
      },
    ]);
    expect(new Schema(r.model!).typeChain("X")).toEqual(["X", "Y"]);
  });

  test("xas annotations are matched by namespace URI, not by prefix", () => {
    const dir = folder({
      "CnC3Types.xsd": [
        `<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:a="uri:ea.com:eala:asset:schema" xmlns:xas="urn:not-the-annotations">`,
        `  <xs:simpleType name="Real" a:isRef="true" a:refType="Target"><xs:restriction base="xs:string" /></xs:simpleType>`,
        `  <xs:simpleType name="Fake" xas:isRef="true" xas:refType="Target"><xs:restriction base="xs:string" /></xs:simpleType>`,
        `  <xs:simpleType name="OnlyIsRef" a:isRef="true"><xs:restriction base="xs:string" /></xs:simpleType>`,
        `  <xs:simpleType name="Weak" a:isWeakRef="true"><xs:restriction base="xs:string" /></xs:simpleType>`,
        `</xs:schema>`,
      ].join("\n"),
    });
    const st = loadSchema(dir).model!.simpleTypes;
    expect([st.Real.isRef, st.Real.refType]).toEqual([true, "Target"]);
    expect([st.Fake.isRef, st.Fake.refType]).toEqual([false, null]);
    // isRef="true" is a flag, never a target type name
    expect([st.OnlyIsRef.isRef, st.OnlyIsRef.refType]).toEqual([true, null]);
    expect([st.Weak.isRef, st.Weak.isWeakRef, st.Weak.refType]).toEqual([true, true, null]);
  });
});

describe("less common XSD constructs", () => {
  const dir = folder({
    "CnC3Types.xsd": schemaText(
      `  <xs:simpleType name="Color"><xs:restriction base="xs:string"><xs:enumeration value="Red" /><xs:enumeration value="Blue" /></xs:restriction></xs:simpleType>`,
      `  <xs:simpleType name="Size"><xs:restriction base="xs:string"><xs:enumeration value="Big" /></xs:restriction></xs:simpleType>`,
      `  <xs:simpleType name="ColorOrSize"><xs:union memberTypes="Color Size" /></xs:simpleType>`,
      `  <xs:simpleType name="Letters"><xs:list><xs:simpleType><xs:restriction base="xs:string"><xs:enumeration value="A" /></xs:restriction></xs:simpleType></xs:list></xs:simpleType>`,
      `  <xs:complexType name="Base"><xs:sequence><xs:element name="Kid" type="xs:string" /></xs:sequence><xs:attribute name="keep" /><xs:attribute name="drop" type="xs:string" /></xs:complexType>`,
      `  <xs:complexType name="Narrow"><xs:complexContent><xs:restriction base="Base"><xs:sequence /><xs:attribute name="drop" use="prohibited" /></xs:restriction></xs:complexContent></xs:complexType>`,
      `  <xs:element name="Shared" type="Base" />`,
      `  <xs:complexType name="UsesRef"><xs:sequence><xs:element ref="Shared" maxOccurs="unbounded" /><xs:element name="constructor" type="xs:int" /></xs:sequence><xs:attribute name="toString" type="xs:int" /></xs:complexType>`,
    ),
  });
  const r = loadSchema(dir);
  const schema = new Schema(r.model!);

  test("loads without diagnostics", () => expect(r.diagnostics).toEqual([]));

  test("a union takes the enumerations of its members", () => {
    expect([r.model!.simpleTypes.ColorOrSize.enumValues, r.model!.simpleTypes.ColorOrSize.isList]).toEqual([[
      "Red",
      "Blue",
      "Big",
    ], false]);
  });

  test("a list over an anonymous item type", () => {
    expect([r.model!.simpleTypes.Letters.isList, r.model!.simpleTypes.Letters.enumValues]).toEqual([true, ["A"]]);
    expect(r.model!.simpleTypes["Letters#item"].enumValues).toEqual(["A"]);
  });

  test("a complexContent restriction restates the content and can prohibit attributes", () => {
    const narrow = r.model!.complexTypes.Narrow;
    expect([narrow.base, Object.keys(narrow.attributes), Object.keys(narrow.children)]).toEqual(["Base", ["keep"], []]);
    expect(schema.attribute("Narrow", "keep")?.typeName).toBe("xs:anySimpleType");
  });

  test("an element reference to a global element", () => {
    expect(schema.childElementType("UsesRef", "Shared")).toMatchObject({
      name: "Shared",
      type: "Base",
      minOccurs: 1,
      maxOccurs: -1,
    });
  });

  test("names that are also Object.prototype members are ordinary names", () => {
    expect(schema.childElementType("UsesRef", "constructor")?.type).toBe("xs:int");
    expect(schema.attribute("UsesRef", "toString")?.typeName).toBe("xs:int");
    expect(schema.attribute("Base", "constructor")).toBeNull();
    expect(schema.childElementType("Base", "hasOwnProperty")).toBeNull();
    expect(schema.rootElementType("valueOf")).toBeNull();
  });
});
