// Evidence for the runtime-name table (src/schema/runtime-names.ts): for every attribute the schema types
// as a plain string (no xas:refType, not a Poid, no enumeration, not a boolean or number), how many of its
// written values are the id of an existing asset, and of which types. A context whose values nearly all
// name assets of one kind is a candidate; each entry of the table cites its row of this survey.
// Usage: bun scripts/survey-runtime-names.ts [--min 3] [--only upheaval,tw-sdk]
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import type { LinkedIndex } from "../src/index/linked.ts";
import { resolveConfig } from "../src/workspace/config.ts";
import { Workspace } from "../src/workspace/workspace.ts";
import { decodeXml } from "../src/xml/decode.ts";
import { parseXml } from "../src/xml/tokenizer.ts";
import { CORPORA } from "./corpora.ts";

const { values } = parseArgs({ options: { min: { type: "string", default: "3" }, only: { type: "string" } } });
const min = Number(values.min);
const only = values.only ? new Set(values.only.split(",")) : null;

const targets = [
  { name: "upheaval", project: join(CORPORA, "upheaval"), sdk: "", schema: join(CORPORA, "ra3-xsd") },
  { name: "tw-sdk", project: join(CORPORA, "tw-sdk", "Mods", "Commander"), sdk: join(CORPORA, "tw-sdk"), schema: null },
];

interface Row {
  values: number;
  named: number;
  distinct: Set<string>;
  types: Map<string, number>;
  examples: string[];
}

const NUMBER = /^[-+]?[\d.]+[a-z%]*$/i;

/** Surveys every XML file of the index (project and SDK). */
function survey(linked: LinkedIndex): Map<string, Row> {
  const schema = linked.schema!;
  const rows = new Map<string, Row>();
  for (const f of linked.files.values()) {
    if (f.kind !== "xml" || f.foreign) continue;
    const text = decodeXml(readFileSync(f.path)).text;
    const types: (string | null)[] = [];
    const texts: string[] = [];
    const record = (key: string, v: string) => {
      if (!v || v.startsWith("$") || v.startsWith("=") || NUMBER.test(v)) return;
      let row = rows.get(key);
      if (!row) rows.set(key, row = { values: 0, named: 0, distinct: new Set(), types: new Map(), examples: [] });
      row.values++;
      row.distinct.add(v.toLowerCase());
      const hits = new Set((linked.byId.get(v.toLowerCase()) ?? []).map((i) => linked.assets[i].type));
      if (hits.size) {
        row.named++;
        for (const h of hits) row.types.set(h, (row.types.get(h) ?? 0) + 1);
      } else if (row.examples.length < 3) row.examples.push(v);
    };
    const parents: (string | null)[] = [];
    parseXml(text, {
      startElement(t) {
        const parent = types.length ? types[types.length - 1] : null;
        let type: string | null;
        if (t.depth === 0) type = t.local === "AssetDeclaration" ? null : schema.rootElementType(t.local);
        else if (t.depth === 1 && !f.fragment) type = schema.rootElementType(t.local);
        else type = schema.childElementType(parent, t.local)?.type ?? null;
        types.push(type);
        texts.push("");
        parents.push(parent);
        if (!type) return;
        for (const a of t.attributes) {
          if (a.prefix || a.local === "id" || a.local.toLowerCase() === "inheritfrom") continue;
          const info = schema.attribute(type, a.local);
          if (!info || info.refType || info.isRef || info.isPoid || info.enumValues.length || info.isBoolean) continue;
          for (const v of info.isList ? a.value.trim().split(/\s+/) : [a.value.trim()]) {
            record(`${type}@${a.local} (${info.typeName})`, v);
          }
        }
      },
      text(v) {
        if (texts.length) texts[texts.length - 1] += v;
      },
      endElement(t) {
        const type = types.pop() ?? null;
        const parent = parents.pop() ?? null;
        const body = texts.pop()?.trim() ?? "";
        if (!type || !body || t.depth < 2) return;
        const info = schema.content(type);
        if (!info || info.refType || info.isRef || info.isPoid || info.enumValues.length || info.isBoolean) return;
        if (!info.typeName || !/string|AssetId/i.test(info.typeName)) return;
        for (const v of info.isList ? body.split(/\s+/) : [body]) record(`${parent}/${t.local} (${info.typeName})`, v);
      },
    }, { namespaces: true, recover: true });
  }
  return rows;
}

for (const t of targets) {
  if (only && !only.has(t.name)) continue;
  const cfg = resolveConfig({
    project: t.project,
    sdk: t.sdk,
    schema: t.schema,
    home: "/tmp/ra3-survey-home",
    env: {},
  });
  if ("envError" in cfg) throw new Error(cfg.envError);
  const ws = new Workspace(cfg);
  await ws.build();
  const rows = [...survey(ws.linked!)].filter(([, r]) => r.named >= min).sort((a, b) =>
    b[1].named / b[1].values - a[1].named / a[1].values || b[1].named - a[1].named
  );
  console.log(`\n## ${t.name}: plain-string attributes whose values name assets (at least ${min})\n`);
  console.log(
    "| element type @ attribute (value type) | values | naming an asset | distinct | asset types named | not naming one, e.g. |",
  );
  console.log("|---|---:|---:|---:|---|---|");
  for (const [k, r] of rows) {
    const types = [...r.types].sort((a, b) => b[1] - a[1]).map(([n, c]) => `${n} ${c}`).join(", ");
    console.log(`| ${k} | ${r.values} | ${r.named} | ${r.distinct.size} | ${types} | ${r.examples.join(", ")} |`);
  }
}
