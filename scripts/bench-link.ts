// The linker benchmark: builds each project once (sample mod, Upheaval with the RA3 schema, the TW SDK
// with its Commander mod, and the generated Corona-scale mod, generated once into /tmp with 10 MB of art), then times `link()`
// alone, several runs, and prints a markdown table (median and best). It also prints a fingerprint of
// the linked index (a hash of every published list, without timings) so a refactor of the linker can
// show that its output did not change.
// Usage: bun scripts/bench-link.ts [--runs 7] [--only sample,upheaval,tw-sdk,corona]
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { walkStreams } from "../src/index/include-walk.ts";
import { link } from "../src/index/link.ts";
import type { LinkedIndex } from "../src/index/linked.ts";
import { presentMessage } from "../src/query/diagnostic-codes.ts";
import { resolveConfig } from "../src/workspace/config.ts";
import { Workspace } from "../src/workspace/workspace.ts";
import { CORPORA } from "./corpora.ts";

const root = join(import.meta.dirname, "..");
const corpora = CORPORA;
const { values } = parseArgs({ options: { runs: { type: "string", default: "7" }, only: { type: "string" } } });
const runs = Number(values.runs);
const only = values.only ? new Set(values.only.split(",")) : null;

interface Target {
  readonly name: string;
  readonly project: string;
  readonly sdk: string;
  readonly schema: string | null;
}

const targets: Target[] = [
  { name: "sample", project: join(root, "examples", "sample-mod"), sdk: "", schema: null },
  { name: "upheaval", project: join(corpora, "upheaval"), sdk: "", schema: join(corpora, "ra3-xsd") },
  { name: "tw-sdk", project: join(corpora, "tw-sdk", "Mods", "Commander"), sdk: join(corpora, "tw-sdk"), schema: null },
  { name: "corona", project: join(tmpdir(), "ra3-bench-link-corona"), sdk: "", schema: null },
];

/** A hash of everything the linker publishes except its own timing. */
export function fingerprint(linked: LinkedIndex): string {
  const h = createHash("sha1");
  const feed = (label: string, v: unknown) => h.update(`${label}\u0000${JSON.stringify(v)}\u0000`);
  feed("files", [...linked.files]);
  feed("assets", linked.assets);
  feed("sites", linked.sites);
  feed("includes", linked.includes);
  feed("defines", [...linked.defines]);
  // As the front ends show them (the remedy of index-wide notes is worded by the query layer).
  feed("diagnostics", linked.diagnostics.map((d) => ({ ...d, message: presentMessage(d) })));
  feed("streams", linked.streams);
  feed("stats", { ...linked.stats, linkMs: 0 });
  feed("wanted", linked.wanted);
  feed("defineUses", [...linked.defineUses]);
  feed("strings", linked.strings);
  feed("poidSites", linked.poidSites);
  feed("stringUses", [...linked.stringUses]);
  feed("byId", [...linked.byId]);
  feed("byType", [...linked.byType]);
  return h.digest("hex").slice(0, 16);
}

const corona = targets[3].project;
if ((!only || only.has("corona")) && !existsSync(join(corona, "Data", "Mod.xml"))) {
  console.error(`generating the Corona-scale mod into ${corona}`);
  const g = spawnSync(process.execPath, [join(root, "scripts", "gen-corpus.ts"), "--out", corona, "--art-mb", "10"], {
    stdio: ["ignore", "ignore", "inherit"],
  });
  if (g.status !== 0) throw new Error("corpus generation failed");
}

const rows: string[] = [];
for (const t of targets) {
  if (only && !only.has(t.name)) continue;
  if (!existsSync(t.project)) {
    console.error(`${t.name}: ${t.project} is absent, skipped`);
    continue;
  }
  const home = mkdtempSync(join(tmpdir(), "ra3-bench-link-"));
  try {
    const cfg = resolveConfig({ project: t.project, sdk: t.sdk, schema: t.schema, home, env: {} });
    if ("envError" in cfg) throw new Error(cfg.envError);
    const ws = new Workspace(cfg);
    await ws.build();
    ws.close();
    const first = ws.linked!;
    const times: number[] = [];
    let last = first;
    // A full link from no earlier state (the core's own link would patch the last one: nothing changed).
    const walk = walkStreams(ws.core, ws.ports.inputs);
    for (let i = 0; i < runs; i++) {
      const t0 = performance.now();
      last = link(ws.core, ws.ports.inputs, walk);
      times.push(performance.now() - t0);
    }
    times.sort((a, b) => a - b);
    const median = times[Math.floor(times.length / 2)];
    const fp = fingerprint(last);
    rows.push(
      `| ${t.name} | ${first.stats.files} | ${first.assets.length} | ${first.sites.length} | ${median.toFixed(1)} | ${
        times[0].toFixed(1)
      } | ${fp} |`,
    );
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}
console.log(`link() timed alone, a full link, ${runs} runs each (the include walk made once before, as in an edit)\n`);
console.log("| project | files | assets | sites | median ms | best ms | fingerprint |");
console.log("|---|---:|---:|---:|---:|---:|---|");
for (const r of rows) console.log(r);
