/**
 * The sample mod's own schema declares everything its XML uses: every element is declared by its
 * parent's type (no fallback), every unprefixed attribute by the element's type, so unknown-element and
 * unknown-attribute checks stay quiet on the sample mod.
 */
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { loadSchema } from "../../src/schema/load.ts";
import { isSchemaAttributeName, isSchemaElementNamespace, Schema } from "../../src/schema/schema.ts";
import { decodeXml } from "../../src/xml/decode.ts";
import { parseXml } from "../../src/xml/tokenizer.ts";

const MOD = join(import.meta.dirname, "..", "..", "examples", "sample-mod");
const schema = new Schema(loadSchema(join(MOD, "Schemas", "xsd")).model!);

function filesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...filesUnder(p));
    else if (/\.(xml|w3x)$/i.test(e.name)) out.push(p);
  }
  return out.sort();
}

/** Problems found typing one document: `path: message`. */
function undeclared(file: string): string[] {
  const problems: string[] = [];
  const stack: (string | null)[] = [];
  const path: string[] = [];
  const error = parseXml(
    decodeXml(readFileSync(file)).text,
    {
      startElement(tag) {
        path.push(tag.local);
        const where = path.join("/");
        if (!isSchemaElementNamespace(tag.uri)) {
          stack.push(null); // xi:include and other foreign elements are not typed
          return;
        }
        let type: string | null;
        if (stack.length === 0) {
          type = schema.rootElementType(tag.local);
          if (type === null) problems.push(`${where}: unknown root element`);
        } else {
          const parentType = stack[stack.length - 1];
          const child = parentType === null ? null : schema.childElementType(parentType, tag.local);
          if (parentType !== null && (child === null || child.fallback)) {
            problems.push(`${where}: not declared in ${parentType}`);
          }
          type = child?.type ?? null;
        }
        if (type !== null) {
          for (const a of tag.attributes) {
            if (isSchemaAttributeName(a.qname) && schema.attribute(type, a.local) === null) {
              problems.push(`${where}@${a.local}: not an attribute of ${type}`);
            }
          }
        }
        stack.push(type);
      },
      endElement() {
        stack.pop();
        path.pop();
      },
    },
    { namespaces: true },
  );
  if (error) problems.push(`parse error ${error.line}:${error.column}: ${error.message}`);
  return problems;
}

describe("the sample mod's XML against its own schema", () => {
  const files = [...filesUnder(join(MOD, "Data")), ...filesUnder(join(MOD, "Art"))];

  test("there are files to check", () => {
    expect(files.map((f) => relative(MOD, f).replaceAll("\\", "/"))).toEqual([
      "Data/AdditionalMaps/MapMetaData_Global.xml",
      "Data/Includes/Allied Units/AthenaCannon.xml",
      "Data/Includes/Art.xml",
      "Data/Includes/Audio.xml",
      "Data/Includes/BaseObjects.xml",
      "Data/Includes/CommandSets.xml",
      "Data/Includes/Defines.xml",
      "Data/Includes/Fragments/Headlights.xml",
      "Data/Includes/Loop/LoopA.xml",
      "Data/Includes/Loop/LoopB.xml",
      "Data/Includes/Weapons.xml",
      "Data/Mod.xml",
      "Data/Standalone.xml",
      "Art/AU/AUAthena_SKN.w3x",
      "Art/AU/AUUnusedProp.w3x",
    ]);
  });

  for (const file of files) {
    test(relative(MOD, file).replaceAll("\\", "/"), () => expect(undeclared(file)).toEqual([]));
  }

  test("the checker does flag what is not declared", () => {
    expect(schema.childElementType("GameObject", "Weapon")?.fallback).toBe(true);
    expect(schema.attribute("GameObject", "Damage")).toBeNull();
  });
});
