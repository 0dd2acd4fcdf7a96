// MCP round-trip latency of the compiled binary over stdio: 1,000 calls mixing find_asset,
// find_references and get_asset_references on the Upheaval corpus, measured from an SDK client (what an
// agent's host sees: JSON-RPC, pipes, the client's output-schema validation) and from raw pipes (no
// client library). Also the cold start: spawn → initialize answered, and → index ready.
// Usage: bun scripts/bench-mcp.ts [--calls N] [--project DIR]   (build first: bun scripts/build.ts)
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { rawMcp } from "./raw-mcp.ts";
import { CORPORA } from "./corpora.ts";

const root = join(import.meta.dirname, "..");
const bin = join(root, "dist", "ra3");
const argv = process.argv.slice(2);
const opt = (name: string, def: string) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 && argv[i + 1] ? argv[i + 1] : def;
};
const CALLS = Number(opt("calls", "1000"));
const WARMUP = 100;
const project = opt("project", join(CORPORA, "upheaval"));
if (!existsSync(bin)) throw new Error(`${bin} is missing: run bun scripts/build.ts first`);
if (!existsSync(project)) throw new Error(`${project} is missing (pass --project DIR)`);
const home = mkdtempSync(join(tmpdir(), "ra3-bench-mcp-"));

type Call = { name: string; arguments: Record<string, unknown> };

function pct(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

function row(label: string, ms: number[]): string {
  const s = [...ms].sort((a, b) => a - b);
  const f = (x: number) => x.toFixed(2).padStart(8);
  return `${label.padEnd(24)} ${String(s.length).padStart(6)} ${f(pct(s, 50))} ${f(pct(s, 90))} ${f(pct(s, 99))} ${
    f(s[s.length - 1])
  }`;
}

const header = `${"".padEnd(24)} ${"calls".padStart(6)} ${"p50 ms".padStart(8)} ${"p90 ms".padStart(8)} ${
  "p99 ms".padStart(8)
} ${"max ms".padStart(8)}`;

// ---- cold start ----
const t0 = performance.now();
const transport = new StdioClientTransport({
  command: bin,
  args: ["mcp", "--project", project, "--home", home],
  stderr: "ignore",
});
const client = new Client({ name: "bench", version: "1" });
await client.connect(transport);
const initMs = performance.now() - t0;
await client.callTool({ name: "get_status", arguments: { consistency: "strict" } });
const readyMs = performance.now() - t0;

// ---- the workload: ids of real assets ----
async function ids(type: string): Promise<string[]> {
  const out: string[] = [];
  let cursor: string | null = null;
  do {
    const r = (await client.callTool({
      name: "list_assets_by_type",
      arguments: { type, limit: 200, ...(cursor ? { cursor } : {}) },
    })) as CallToolResult;
    const page = (r.structuredContent as { result: { items: { id: string }[]; nextCursor: string | null } }).result;
    out.push(...page.items.map((i) => i.id));
    cursor = page.nextCursor;
  } while (cursor);
  return out;
}
const targets = [
  ...(await ids("GameObject")).map((id) => ({ id, type: "GameObject" })),
  ...(await ids("WeaponTemplate")).map((id) => ({ id, type: "WeaponTemplate" })),
];
const TOOLS = ["find_asset", "find_references", "get_asset_references"] as const;
const workload: Call[] = [];
for (let i = 0; i < CALLS + WARMUP; i++) {
  const t = targets[(i * 7) % targets.length];
  workload.push({ name: TOOLS[i % TOOLS.length], arguments: { id: t.id, type: t.type } });
}

// ---- SDK client ----
const sdk: Record<string, number[]> = {};
let errors = 0;
for (let i = 0; i < workload.length; i++) {
  const c = workload[i];
  const s = performance.now();
  const r = (await client.callTool(c)) as CallToolResult;
  const ms = performance.now() - s;
  if (r.isError) errors++;
  if (i >= WARMUP) (sdk[c.name] ??= []).push(ms);
}
await client.close();

// ---- raw pipes: one request in flight at a time ----
const raw: Record<string, number[]> = {};
{
  const mcp = rawMcp(bin, ["mcp", "--project", project, "--home", home]);
  const request = mcp.request;
  await request("initialize", {
    protocolVersion: "2025-06-18",
    capabilities: {},
    clientInfo: { name: "raw", version: "1" },
  });
  mcp.notify("notifications/initialized");
  await request("tools/call", { name: "get_status", arguments: { consistency: "strict" } });
  for (let i = 0; i < workload.length; i++) {
    const c = workload[i];
    const s = performance.now();
    await request("tools/call", c);
    if (i >= WARMUP) (raw[c.name] ??= []).push(performance.now() - s);
  }
  await mcp.close();
}

const all = (m: Record<string, number[]>) => Object.values(m).flat();
console.log(
  `ra3 MCP round trips: ${CALLS} calls (after ${WARMUP} warm-up) on ${project}, ${targets.length} assets, ${errors} error results`,
);
console.log(
  `cold start: initialize answered ${initMs.toFixed(0)} ms after spawn; index ready (get_status strict) at ${
    readyMs.toFixed(0)
  } ms\n`,
);
console.log(`SDK client (StdioClientTransport, validates outputSchema)\n${header}`);
for (const t of TOOLS) console.log(row(t, sdk[t]));
console.log(row("all", all(sdk)));
console.log(`\nraw pipes (one request in flight)\n${header}`);
for (const t of TOOLS) console.log(row(t, raw[t]));
console.log(row("all", all(raw)));
