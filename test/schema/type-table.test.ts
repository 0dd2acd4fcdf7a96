/**
 * The per-type tables extraction reads ({@link Schema.typeTable}, {@link Schema.untypedChild}) against the
 * straightforward per-question lookups they replace (`attribute`, `runtimeName`, `isAssignable`,
 * `childElementType`, `defaultReferences`, `isAssetType`, `content`), on every type, attribute and child
 * of each schema set at hand: the RA3 and TW sets of the corpora folder (skipped when absent), the sample
 * mod's and the generated Corona-scale mod's.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CORPORA, REPO_ROOT } from "../../scripts/corpora.ts";
import { generateCorpus } from "../../scripts/gen-corpus/generate.ts";
import { loadSchema } from "../../src/schema/load.ts";
import type { AttributeReading, TextReference } from "../../src/schema/model.ts";
import { RUNTIME_NAMES } from "../../src/schema/runtime-names.ts";
import { Schema } from "../../src/schema/schema.ts";
import { tempDirs } from "../temp-dirs.ts";

const temp = tempDirs();

/** What an element's text refers to, computed the plain way (as extraction did before the tables). */
function plainText(schema: Schema, type: string | null, elementRefType: string | null): TextReference | null {
  if (elementRefType) {
    const info = type ? schema.content(type) : null;
    if (info?.isPoid) return null;
    return { refType: elementRefType, isList: info?.isList ?? false };
  }
  if (!type) return null;
  const info = schema.content(type);
  return !info || !info.refType || info.isPoid ? null : { refType: info.refType, isList: info.isList };
}

/** How an attribute is read, from the plain lookups. */
function plainReading(
  schema: Schema,
  type: string,
  name: string,
): { reading: AttributeReading; target: string | null } {
  const info = schema.attribute(type, name)!;
  if (info.refType !== null || info.isRef) return { reading: info.isPoid ? "poid" : "reference", target: null };
  const target = schema.runtimeName(type, name);
  return { reading: target === null ? "plain" : "runtime-name", target };
}

/** Every mismatch between the tables and the plain lookups (empty when they agree), and what was compared. */
function mismatches(schema: Schema): { problems: string[]; attributes: number; children: number } {
  const { model } = schema;
  const problems: string[] = [];
  let attributes = 0;
  let children = 0;
  const globalNames = Object.keys(model.globalElements);
  // Names no type declares, and names of the runtime-name table (declared on some types, not others).
  const extraAttributes = [
    "id",
    "inheritFrom",
    "NotDeclaredAnywhere",
    "constructor",
    ...RUNTIME_NAMES.map((r) => r.attribute),
  ];
  const types = [...Object.keys(model.complexTypes), ...Object.keys(model.simpleTypes), "xs:string", "NoSuchType"];
  for (const type of types) {
    const table = schema.typeTable(type);
    if (table.type !== type) problems.push(`${type}: table of ${table.type}`);
    if (table.isAsset !== schema.isAssetType(type)) problems.push(`${type}: isAsset`);
    if (!Bun.deepEquals(table.defaults, schema.defaultReferences(type))) problems.push(`${type}: defaults`);
    if (!Bun.deepEquals(table.text, plainText(schema, type, null))) problems.push(`${type}: text`);
    const declared = model.complexTypes[type] ? Object.keys(model.complexTypes[type].attributes) : [];
    for (const name of new Set([...declared, ...extraAttributes])) {
      attributes++;
      const facts = table.attributes.get(name);
      const info = schema.attribute(type, name);
      if (info === null) {
        if (facts !== undefined) problems.push(`${type}@${name}: in the table, not declared`);
        continue;
      }
      if (facts === undefined) {
        problems.push(`${type}@${name}: declared, missing from the table`);
        continue;
      }
      const plain = plainReading(schema, type, name);
      if (facts.info !== info) problems.push(`${type}@${name}: info`);
      if (facts.reading !== plain.reading) {
        problems.push(`${type}@${name}: reading ${facts.reading} ≠ ${plain.reading}`);
      }
      if (facts.runtimeTarget !== plain.target) problems.push(`${type}@${name}: runtime target ${facts.runtimeTarget}`);
      const own = info.refType === null || schema.isAssignable(type, info.refType);
      if (facts.ownTypeIsTarget !== own) problems.push(`${type}@${name}: ownTypeIsTarget`);
    }
    if (table.attributes.size !== declared.length) problems.push(`${type}: ${table.attributes.size} attributes`);
    const childNames = model.complexTypes[type] ? Object.keys(model.complexTypes[type].children) : [];
    // Every declared child, and every 37th global element name (the fallback map) and one unknown name.
    const asked = [...childNames, ...globalNames.filter((_, i) => i % 37 === 0), "NoSuchElement"];
    for (const local of asked) {
      children++;
      const facts = table.child(local);
      const info = schema.childElementType(type, local);
      if (info === null || facts === null) {
        if (info !== facts) problems.push(`${type}/${local}: child ${facts === null ? "missing" : "extra"}`);
        continue;
      }
      if (!Bun.deepEquals(facts.info, info)) problems.push(`${type}/${local}: child info`);
      if ((facts.table?.type ?? null) !== info.type) problems.push(`${type}/${local}: child table`);
      if (!Bun.deepEquals(facts.text, plainText(schema, info.type, info.refType))) {
        problems.push(`${type}/${local}: child text`);
      }
      // Asked again: the kept answer is the same.
      if (table.child(local) !== facts) problems.push(`${type}/${local}: not kept`);
    }
  }
  for (const local of [...globalNames, "NoSuchElement"]) {
    children++;
    const facts = schema.untypedChild(local);
    const info = schema.childElementType(null, local);
    if ((facts === null) !== (info === null)) problems.push(`(untyped)/${local}: presence`);
    else if (facts && info) {
      if (!Bun.deepEquals(facts.info, info)) problems.push(`(untyped)/${local}: info`);
      if (!Bun.deepEquals(facts.text, plainText(schema, info.type, info.refType))) {
        problems.push(`(untyped)/${local}: text`);
      }
    }
  }
  return { problems, attributes, children };
}

function check(dir: string, atLeast: { types: number; attributes: number }): void {
  const loaded = loadSchema(dir);
  expect(loaded.model).not.toBeNull();
  const schema = new Schema(loaded.model!);
  expect(Object.keys(loaded.model!.complexTypes).length).toBeGreaterThanOrEqual(atLeast.types);
  const result = mismatches(schema);
  expect(result.problems.slice(0, 20)).toEqual([]);
  expect(result.attributes).toBeGreaterThanOrEqual(atLeast.attributes);
}

/**
 * A small set with what the real ones lack: a type deriving from a runtime-name table type (it inherits
 * the entry), an `id` typed as a reference to another kind, a Poid reference, a reference default, an
 * element-level refType over a list type and over a Poid.
 */
const SMALL_SET = `<?xml version="1.0" encoding="utf-8"?>
<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns="uri:ea.com:eala:asset"
  xmlns:xas="uri:ea.com:eala:asset:schema" targetNamespace="uri:ea.com:eala:asset" elementFormDefault="qualified">
  <xs:complexType name="BaseAssetType"><xs:attribute name="id" type="xs:string" /></xs:complexType>
  <xs:simpleType name="Poid" xas:isWeakRef="true"><xs:restriction base="xs:string" /></xs:simpleType>
  <xs:simpleType name="ModulePoid" xas:isRef="true" xas:refType="Behavior"><xs:restriction base="Poid" /></xs:simpleType>
  <xs:simpleType name="GameObjectRef" xas:isRef="true" xas:refType="GameObject"><xs:restriction base="xs:string" /></xs:simpleType>
  <xs:simpleType name="TextureRef" xas:isRef="true" xas:refType="Texture"><xs:restriction base="xs:string" /></xs:simpleType>
  <xs:simpleType name="TextureRefList"><xs:list itemType="TextureRef" /></xs:simpleType>
  <xs:complexType name="Texture"><xs:complexContent><xs:extension base="BaseAssetType" /></xs:complexContent></xs:complexType>
  <xs:complexType name="PackedTextureImage"><xs:complexContent><xs:extension base="BaseAssetType" /></xs:complexContent></xs:complexType>
  <xs:complexType name="Behavior">
    <xs:attribute name="id" type="GameObjectRef" />
    <xs:attribute name="Next" type="ModulePoid" />
  </xs:complexType>
  <xs:complexType name="GameObject"><xs:complexContent><xs:extension base="BaseAssetType">
    <xs:sequence>
      <xs:element name="Behavior" type="Behavior" minOccurs="0" maxOccurs="unbounded" />
      <xs:element name="Icons" type="TextureRefList" minOccurs="0" />
      <xs:element name="Skin" type="xs:string" xas:refType="Texture" minOccurs="0" />
      <xs:element name="Slot" type="ModulePoid" xas:refType="Behavior" minOccurs="0" />
    </xs:sequence>
    <xs:attribute name="ButtonImage" type="xs:string" />
    <xs:attribute name="Parent" type="GameObjectRef" default="DefaultParent" />
  </xs:extension></xs:complexContent></xs:complexType>
  <xs:complexType name="HeroObject"><xs:complexContent><xs:extension base="GameObject">
    <xs:attribute name="Title" type="xs:string" />
  </xs:extension></xs:complexContent></xs:complexType>
  <xs:element name="AssetDeclaration"><xs:complexType><xs:sequence><xs:choice minOccurs="0" maxOccurs="unbounded">
    <xs:element name="GameObject" type="GameObject" />
    <xs:element name="HeroObject" type="HeroObject" />
    <xs:element name="Texture" type="Texture" />
    <xs:element name="PackedTextureImage" type="PackedTextureImage" />
  </xs:choice></xs:sequence></xs:complexType></xs:element>
</xs:schema>
`;

const RA3 = join(CORPORA, "ra3-xsd");
const TW = join(CORPORA, "tw-sdk", "Schemas", "xsd");

describe("type tables equal the plain schema lookups", () => {
  test("the sample mod's XSD set", () => {
    check(join(REPO_ROOT, "examples", "sample-mod", "Schemas", "xsd"), { types: 60, attributes: 1500 });
  });

  test("the generated Corona-scale mod's XSD set", () => {
    const dir = temp.make("ra3-type-table-");
    generateCorpus({ out: dir, scale: 0.003, seed: 1, artMb: 0.02 });
    check(join(dir, "Schemas", "xsd"), { types: 140, attributes: 3500 });
  }, 30_000);

  test.skipIf(!existsSync(RA3))("the RA3 SDK set", () => {
    check(RA3, { types: 1390, attributes: 40_000 });
  }, 60_000);

  test.skipIf(!existsSync(TW))("the Tiberium Wars set", () => {
    check(TW, { types: 1080, attributes: 30_000 });
  }, 60_000);

  test("a small set: inherited runtime names, an id naming another kind, Poids, defaults, element refTypes", () => {
    const dir = temp.make("ra3-type-table-");
    writeFileSync(join(dir, "CnC3Types.xsd"), SMALL_SET);
    check(dir, { types: 6, attributes: 40 });
    const schema = new Schema(loadSchema(dir).model!);
    const hero = schema.typeTable("HeroObject");
    expect(hero.attributes.get("ButtonImage")).toMatchObject({
      reading: "runtime-name",
      runtimeTarget: "PackedTextureImage",
    });
    expect(hero.attributes.get("Title")).toMatchObject({ reading: "plain", runtimeTarget: null });
    expect(hero.defaults.map((a) => [a.name, a.defaultValue])).toEqual([["Parent", "DefaultParent"]]);
    expect(hero.isAsset).toBe(true);
    const behavior = hero.child("Behavior")!;
    expect(behavior.table!.isAsset).toBe(false);
    expect(behavior.table!.attributes.get("id")).toMatchObject({ reading: "reference", ownTypeIsTarget: false });
    expect(behavior.table!.attributes.get("Next")).toMatchObject({ reading: "poid", ownTypeIsTarget: true });
    expect(hero.child("Icons")!.text).toEqual({ refType: "Texture", isList: true });
    expect(hero.child("Skin")!.text).toEqual({ refType: "Texture", isList: false });
    expect(hero.child("Slot")!.text).toBeNull();
  });

  test("a table's children are kept up to a bound, and answered alike past it", () => {
    const schema = new Schema(loadSchema(join(REPO_ROOT, "examples", "sample-mod", "Schemas", "xsd")).model!);
    const table = schema.typeTable("GameObject");
    for (let i = 0; i < 5000; i++) expect(table.child(`Unknown${i}`)).toBeNull();
    const known = Object.keys(schema.model.complexTypes.GameObject.children)[0];
    expect(table.child(known)?.info.name).toBe(known);
  });
});
