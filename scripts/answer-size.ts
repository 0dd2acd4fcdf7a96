// What a model sees per tool call: for a fixed set of calls on the sample mod and on Upheaval (with the
// RA3 schema set, project-only, as the corpus tests run it), the bytes of the text content and of the
// compact JSON of structuredContent, and their ratio; then the size of tools/list with and without the
// output schemas. Claude Code and Codex show their models only structuredContent, Gemini and opencode
// only the text, so both forms count. Raw JSON-RPC over the server's stdio: no client library between.
// Usage: bun scripts/answer-size.ts [--bin dist/ra3] [--json]   (default: the source, `bun src/main.ts`)
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const root = join(import.meta.dirname, "..");
const corpora = join(root, "..", "shared", "corpora");
const argv = process.argv.slice(2);
const binIndex = argv.indexOf("--bin");
const bin = binIndex >= 0 ? argv[binIndex + 1] : null;
const asJson = argv.includes("--json");

interface Call {
  readonly tool: string;
  readonly args: Record<string, unknown>;
}

interface Project {
  readonly name: string;
  readonly dir: string;
  readonly schema: string | null;
  readonly calls: readonly Call[];
}

/** The same questions on both mods, with ids that exist in each (and one that does not). */
function callsFor(p: {
  unit: string;
  weapon: string;
  define: string;
  include: string;
  file: string;
  text: string;
}): Call[] {
  return [
    { tool: "get_status", args: {} },
    { tool: "list_projects", args: {} },
    { tool: "find_asset", args: { id: p.unit } },
    { tool: "find_asset", args: { id: "NoSuchAssetAnywhere" } },
    { tool: "get_definition", args: { id: p.weapon } },
    { tool: "find_references", args: { id: p.weapon } },
    { tool: "get_asset_references", args: { id: p.unit } },
    { tool: "get_asset_references", args: { id: p.unit, depth: 2, targetTypes: ["WeaponTemplate"] } },
    { tool: "list_assets_by_type", args: { type: "WeaponTemplate", limit: 20 } },
    { tool: "resolve_include", args: { source: p.include } },
    { tool: "is_file_active", args: { path: p.file } },
    { tool: "list_files", args: { state: "not-included", limit: 20 } },
    { tool: "find_define", args: { name: p.define } },
    { tool: "find_unreferenced", args: { limit: 20 } },
    { tool: "check_files", args: { limit: 20 } },
    { tool: "search_strings", args: { text: p.text, limit: 10 } },
    { tool: "get_usage_guide", args: { topic: "find_asset" } },
    { tool: "reindex", args: {} },
  ];
}

const PROJECTS: Project[] = [
  {
    name: "sample-mod",
    dir: join(root, "examples", "sample-mod"),
    schema: null,
    calls: callsFor({
      unit: "AlliedAthenaCannon",
      weapon: "AthenaCannonBeam",
      define: "ATHENA_DAMAGE",
      include: "ART:AUAthena_SKN.w3x",
      file: "Data/Mod.xml",
      text: "Athena",
    }),
  },
  {
    name: "upheaval",
    dir: join(corpora, "upheaval"),
    schema: join(corpora, "ra3-xsd"),
    calls: callsFor({
      unit: "SovietDesolatorInfantry",
      weapon: "SovietDesolatorSpray",
      define: "NO_SUCH_DEFINE",
      include: "DATA:Mod/Units.xml",
      file: "Data/Mod.xml",
      text: "Desolator",
    }),
  },
];

interface Measured {
  readonly project: string;
  readonly call: string;
  readonly text: number;
  readonly json: number;
  readonly isError: boolean;
}

type Message = { id?: number; result?: Record<string, unknown>; error?: { message: string } };

/** One server process and a request function over its stdio. */
function startServer(project: Project, home: string) {
  const args = ["mcp", "--project", project.dir, "--sdk", "", "--home", home];
  if (project.schema) args.push("--schema", project.schema);
  const child = bin
    ? spawn(bin, args, { stdio: ["pipe", "pipe", "ignore"] })
    : spawn(process.execPath, [join(root, "src", "main.ts"), ...args], { stdio: ["pipe", "pipe", "ignore"] });
  const waiting = new Map<number, (m: Message) => void>();
  let buffer = "";
  child.stdout.setEncoding("utf8");
  child.stdout.on("data", (chunk: string) => {
    buffer += chunk;
    for (let nl = buffer.indexOf("\n"); nl >= 0; nl = buffer.indexOf("\n")) {
      const line = buffer.slice(0, nl);
      buffer = buffer.slice(nl + 1);
      if (!line.trim()) continue;
      const m = JSON.parse(line) as Message;
      if (m.id !== undefined) waiting.get(m.id)?.(m);
    }
  });
  let next = 1;
  const request = (method: string, params: unknown): Promise<Message> => {
    const id = next++;
    return new Promise((resolve) => {
      waiting.set(id, resolve);
      child.stdin.write(JSON.stringify({ jsonrpc: "2.0", id, method, params }) + "\n");
    });
  };
  const notify = (method: string) => child.stdin.write(JSON.stringify({ jsonrpc: "2.0", method }) + "\n");
  const stop = () =>
    new Promise<void>((resolve) => {
      child.on("exit", () => resolve());
      child.stdin.end();
    });
  return { request, notify, stop };
}

const bytes = (s: string) => Buffer.byteLength(s, "utf8");

async function measure(project: Project): Promise<{ rows: Measured[]; toolsList: number; withoutSchemas: number }> {
  const home = mkdtempSync(join(tmpdir(), "ra3-answer-size-"));
  const server = startServer(project, home);
  try {
    await server.request("initialize", {
      protocolVersion: "2025-11-25",
      capabilities: {},
      clientInfo: { name: "answer-size", version: "1" },
    });
    server.notify("notifications/initialized");
    // Wait for the complete index, so every answer is the steady-state one.
    await server.request("tools/call", { name: "get_status", arguments: { consistency: "strict" } });
    const list = await server.request("tools/list", {});
    const tools = (list.result?.tools ?? []) as Record<string, unknown>[];
    const toolsList = bytes(JSON.stringify(list.result));
    const withoutSchemas = bytes(
      JSON.stringify({ ...list.result, tools: tools.map(({ outputSchema: _, ...t }) => t) }),
    );
    const rows: Measured[] = [];
    for (const call of project.calls) {
      const r = await server.request("tools/call", { name: call.tool, arguments: call.args });
      if (!r.result) throw new Error(`${project.name} ${call.tool}: ${r.error?.message}`);
      const content = (r.result.content ?? []) as { type: string; text?: string }[];
      const text = content.filter((c) => c.type === "text").map((c) => c.text ?? "").join("\n");
      const structured = r.result.structuredContent;
      rows.push({
        project: project.name,
        call: `${call.tool} ${JSON.stringify(call.args)}`,
        text: bytes(text),
        json: structured === undefined ? 0 : bytes(JSON.stringify(structured)),
        isError: r.result.isError === true,
      });
    }
    return { rows, toolsList, withoutSchemas };
  } finally {
    await server.stop();
    rmSync(home, { recursive: true, force: true });
  }
}

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

const results: { project: string; rows: Measured[]; toolsList: number; withoutSchemas: number }[] = [];
for (const project of PROJECTS) {
  if (!existsSync(project.dir)) {
    console.error(`skipping ${project.name}: ${project.dir} is missing`);
    continue;
  }
  results.push({ project: project.name, ...(await measure(project)) });
}

if (asJson) {
  console.log(JSON.stringify(results, null, 2));
} else {
  const ratio = (r: Measured) => (r.text ? r.json / r.text : 0);
  console.log("| project | call | text B | JSON B | JSON/text |");
  console.log("|---|---|---:|---:|---:|");
  for (const { rows } of results) {
    for (const r of rows) {
      const call = r.call.length > 70 ? `${r.call.slice(0, 67)}...` : r.call;
      console.log(
        `| ${r.project} | \`${call}\`${r.isError ? " (error)" : ""} | ${r.text} | ${r.json} | ${ratio(r).toFixed(2)} |`,
      );
    }
  }
  console.log("");
  console.log(
    "| project | calls | text B total | JSON B total | median JSON/text | tools/list B | without outputSchema B |",
  );
  console.log("|---|---:|---:|---:|---:|---:|---:|");
  for (const { project, rows, toolsList, withoutSchemas } of results) {
    const t = rows.reduce((a, r) => a + r.text, 0);
    const j = rows.reduce((a, r) => a + r.json, 0);
    console.log(
      `| ${project} | ${rows.length} | ${t} | ${j} | ${
        median(rows.map(ratio)).toFixed(2)
      } | ${toolsList} | ${withoutSchemas} |`,
    );
  }
  const all = results.flatMap((r) => r.rows);
  console.log(`\nmedian JSON/text over all ${all.length} calls: ${median(all.map(ratio)).toFixed(2)}`);
}
