// Reachable-first cold builds (issue 16 item 4): how soon a server's cold build publishes its first index
// and its complete one, parsing what the include graph reaches first or, as before, every XML file first.
// Each run is a fresh process (a server's cold start: cold JIT, a fresh home, so the schema is parsed
// too) that builds a Workspace as the server does (two phases) and notes when each index is published:
// the first one (reachable-only when the build publishes one), the one holding every XML file, and the
// final one with the art. The two modes are interleaved run by run; the table gives medians (ms from the
// start of the build; the schema load before it is its own column) and the load average before and after.
//
// With --binary (and --before-binary, e.g. main's build), the same through `ra3 mcp` as an agent sees it:
// from the spawn, when the first find_asset of a compiled asset answers (not "building"), when a
// list_files of the not-included files answers, and when get_status says ready.
//
// Usage: bun scripts/bench-reach.ts [--runs 3] [--only upheaval,upheaval-schema,tw-sdk,corona]
//                                   [--corona /tmp/ra3-perf-corona]
//                                   [--binary dist/ra3 --before-binary OTHER --id AssetId]
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { CORPORA } from "./corpora.ts";
import { rawMcp } from "./raw-mcp.ts";
import { resolveConfig } from "../src/workspace/config.ts";
import { Workspace } from "../src/workspace/workspace.ts";

const root = join(import.meta.dirname, "..");
const { values } = parseArgs({
  options: {
    runs: { type: "string", default: "3" },
    only: { type: "string" },
    corona: { type: "string", default: join(tmpdir(), "ra3-perf-corona") },
    child: { type: "string" },
    mode: { type: "string" },
    binary: { type: "string" },
    "before-binary": { type: "string" },
    id: { type: "string" },
  },
});

interface Target {
  readonly name: string;
  readonly project: string;
  readonly sdk: string;
  readonly schema: string | null;
  /** An asset the mod defines: the `find_asset` hit of `--binary` mode (`--id` overrides it). */
  readonly id: string;
}

const TARGETS: Record<string, Target> = {
  upheaval: {
    name: "Upheaval, project-only",
    project: join(CORPORA, "upheaval"),
    sdk: "",
    schema: null,
    id: "SovietDesolatorInfantry",
  },
  "upheaval-schema": {
    name: "Upheaval, RA3 schema",
    project: join(CORPORA, "upheaval"),
    sdk: "",
    schema: join(CORPORA, "ra3-xsd"),
    id: "SovietDesolatorInfantry",
  },
  "tw-sdk": {
    name: "TW SDK + Commander (SDK mode)",
    project: join(CORPORA, "tw-sdk", "Mods", "Commander"),
    sdk: join(CORPORA, "tw-sdk"),
    schema: null,
    id: "NODCommando",
  },
  corona: {
    name: "Corona scale (generated, scale 1)",
    project: values.corona!,
    sdk: "",
    schema: null,
    id: "AlliedHammerRangerOld",
  },
};

/** What one run measured (ms; `firstMs` is the first published index, reachable-only or not; files: records). */
interface Run {
  readonly schemaMs: number;
  readonly firstMs: number;
  readonly firstFiles: number;
  readonly firstReachedOnly: boolean;
  readonly xmlMs: number;
  readonly xmlFiles: number;
  readonly doneMs: number;
  readonly reachedFiles: number | null;
}

/** One run in this process: a fresh home, a two-phase build, the publish times. */
async function child(target: Target, reachableFirst: boolean): Promise<Run> {
  const home = mkdtempSync(join(tmpdir(), "ra3-bench-reach-"));
  try {
    const cfg = resolveConfig({ project: target.project, sdk: target.sdk, schema: target.schema, home, env: {} });
    if ("envError" in cfg) throw new Error(cfg.envError);
    const t0 = performance.now();
    const ws = new Workspace(cfg);
    const schemaMs = performance.now() - t0;
    const published: { ms: number; files: number; reachedOnly: boolean }[] = [];
    // Every publish of a build ends in a lifecycle event: xml_done (reachable-only, then every XML file), build_done.
    const event = ws.event.bind(ws);
    let start = 0;
    ws.event = (e) => {
      event(e);
      if ((e === "xml_done" || e === "build_done") && ws.linked) {
        published.push({ ms: performance.now() - start, files: ws.core.size, reachedOnly: ws.reachedOnly });
      }
    };
    start = performance.now();
    const report = await ws.build(undefined, undefined, { reachableFirst });
    const first = published[0];
    const xml = published.find((p) => !p.reachedOnly)!;
    return {
      schemaMs,
      firstMs: first.ms,
      firstFiles: first.files,
      firstReachedOnly: first.reachedOnly,
      xmlMs: xml.ms,
      xmlFiles: xml.files,
      doneMs: published[published.length - 1].ms,
      reachedFiles: report.reachedFiles,
    };
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

if (values.child) {
  const run = await child(TARGETS[values.child], values.mode === "reach");
  console.log(JSON.stringify(run));
  process.exit(0);
}

const runs = Number(values.runs);
const only = values.only ? new Set(values.only.split(",")) : null;

/** The refusals that mean the index is not there yet (the build goes on): polled again. */
const NOT_YET = new Set(["building", "no_index", "timeout"]);

/** Through `ra3 mcp`: ms from the spawn to a find_asset hit, to a list_files answer, to get_status ready. */
async function mcpRun(binary: string, t: Target): Promise<{ hitMs: number; listMs: number; readyMs: number }> {
  const home = mkdtempSync(join(tmpdir(), "ra3-bench-reach-mcp-"));
  const args = ["mcp", "--project", t.project, "--home", home, ...(t.sdk ? ["--sdk", t.sdk] : [])];
  const mcp = rawMcp(binary, [...args, ...(t.schema ? ["--schema", t.schema] : [])]);
  const t0 = performance.now();
  try {
    await mcp.request("initialize", {
      protocolVersion: "2025-06-18",
      capabilities: {},
      clientInfo: { name: "b", version: "1" },
    });
    mcp.notify("notifications/initialized");
    const call = async (name: string, args: unknown) =>
      JSON.parse(await mcp.request("tools/call", { name, arguments: args })).result as {
        isError?: boolean;
        structuredContent?: { index?: { state: string }; error?: { code: string } };
      };
    const until = async (name: string, a: unknown, ok: (r: Awaited<ReturnType<typeof call>>) => boolean) => {
      for (;;) {
        const r = await call(name, a);
        if (ok(r)) return performance.now() - t0;
        // Only "not yet" is polled again; any other refusal (an id the mod does not define) is the answer.
        const code = r.structuredContent?.error?.code;
        if (code !== undefined && !NOT_YET.has(code)) {
          throw new Error(
            `${name} ${JSON.stringify(a)} on ${t.name} answered ${code} (pass --id with an asset it defines)`,
          );
        }
        if (performance.now() - t0 > 120_000) throw new Error(`${name} never answered`);
        await new Promise((res) => setTimeout(res, 2));
      }
    };
    const hitMs = await until("find_asset", { id: values.id ?? t.id }, (r) => !r.isError);
    const listMs = await until("list_files", { state: "not-included", limit: 1 }, (r) => !r.isError);
    const readyMs = await until("get_status", {}, (r) => r.structuredContent?.index?.state === "ready");
    return { hitMs, listMs, readyMs };
  } finally {
    await mcp.close();
    rmSync(home, { recursive: true, force: true });
  }
}

const names = Object.keys(TARGETS).filter((n) => !only || only.has(n));
const corona = TARGETS.corona.project;
if (names.includes("corona") && !existsSync(join(corona, "Data", "Mod.xml"))) {
  console.error(`bench-reach: generating the Corona-scale mod into ${corona}`);
  const g = spawnSync(process.execPath, [join(root, "scripts", "gen-corpus.ts"), "--out", corona], {
    stdio: ["ignore", "ignore", "inherit"],
  });
  if (g.status !== 0) throw new Error("corpus generation failed");
}

if (values.binary) {
  const bins: [string, string][] = [["before", values["before-binary"] ?? ""], ["after", values.binary]];
  console.log(`load average before: ${loadavg().map((l) => l.toFixed(2)).join(" ")}`);
  const lines: string[] = [];
  for (const name of names) {
    const got: Record<string, { hitMs: number; listMs: number; readyMs: number }[]> = { before: [], after: [] };
    for (let i = 0; i < runs; i++) {
      for (const [label, bin] of i % 2 === 0 ? bins : [...bins].reverse()) {
        if (bin) got[label].push(await mcpRun(bin, TARGETS[name]));
      }
    }
    for (const [label] of bins) {
      const rs = got[label];
      if (rs.length === 0) continue;
      const med = (f: (r: (typeof rs)[number]) => number) => {
        const xs = rs.map(f).sort((a, b) => a - b);
        return Math.round(xs[Math.floor(xs.length / 2)]);
      };
      lines.push(
        `| ${TARGETS[name].name} | ${label} | ${med((r) => r.hitMs)} ms | ${med((r) => r.listMs)} ms | ${
          med((r) => r.readyMs)
        } ms |`,
      );
    }
  }
  console.log(`load average after: ${loadavg().map((l) => l.toFixed(2)).join(" ")}`);
  console.log(`\n${runs} runs per binary, interleaved; medians, ms from the spawn of ra3 mcp (fresh home)\n`);
  console.log("| mod | binary | find_asset hit answers | list_files answers | get_status ready |");
  console.log("|---|---|---:|---:|---:|");
  for (const l of lines) console.log(l);
  process.exit(0);
}

function spawnRun(name: string, mode: "reach" | "full"): Run {
  const r = spawnSync(process.execPath, [import.meta.filename, "--child", name, "--mode", mode, "--corona", corona], {
    encoding: "utf8",
    maxBuffer: 1 << 24,
  });
  if (r.status !== 0) throw new Error(`run ${name} ${mode} failed: ${r.stderr}`);
  return JSON.parse(r.stdout.trim().split("\n").pop()!) as Run;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
};
const fmt = (ms: number) => (ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${Math.round(ms)} ms`);
const load = () => loadavg().map((l) => l.toFixed(2)).join(" ");

console.log(`load average before: ${load()}`);
const rows: string[] = [];
for (const name of names) {
  const t = TARGETS[name];
  const got: Record<"full" | "reach", Run[]> = { full: [], reach: [] };
  for (let i = 0; i < runs; i++) {
    // Interleaved, the order alternating, so a change of load hits both modes alike.
    const order: ("full" | "reach")[] = i % 2 === 0 ? ["full", "reach"] : ["reach", "full"];
    for (const mode of order) got[mode].push(spawnRun(name, mode));
  }
  for (const mode of ["full", "reach"] as const) {
    const rs = got[mode];
    const r0 = rs[0];
    const first = r0.firstReachedOnly
      ? `${r0.firstFiles} files (reachable only)`
      : `${r0.firstFiles} files (every XML file)`;
    rows.push(
      `| ${t.name} | ${mode === "full" ? "every XML file first (before)" : "reachable first (after)"} | ${
        fmt(median(rs.map((r) => r.schemaMs)))
      } | ${fmt(median(rs.map((r) => r.firstMs)))} | ${first} | ${fmt(median(rs.map((r) => r.xmlMs)))} | ${
        fmt(median(rs.map((r) => r.doneMs)))
      } |`,
    );
  }
}
console.log(`load average after: ${load()}`);
console.log(`\n${runs} runs per mode, interleaved; medians, ms from the start of the build (schema load before it)\n`);
console.log("| mod | build | schema load | first index | first index holds | every XML file | complete (art) |");
console.log("|---|---|---:|---:|---|---:|---:|");
for (const r of rows) console.log(r);
