// Builds everything a release ships into dist/release/: the four binaries of RELEASE_TARGETS (Bun cross-
// compiles them here; each target's runtime comes from Bun's cache or the npm registry), the Claude
// Desktop bundle ra3.mcpb (validated and packed with @anthropic-ai/mcpb) and SHA256SUMS (sha256sum
// format). The release workflow runs this same script. A target that cannot be built is reported by name
// with bun's reason and the script exits 1: no asset is ever faked or left over from an earlier run.
// Usage: bun scripts/release-assets.ts [--out DIR]     (npm run release:assets)
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  createReadStream,
  existsSync,
  linkSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { copyFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { ProjectRegistry } from "../src/mcp/projects.ts";
import { createMcpServer } from "../src/mcp/server.ts";
import { TOOL_VERSION } from "../src/version.ts";
import pkg from "../package.json" with { type: "json" };
import { buildInfo, compile, RELEASE_TARGETS } from "./build.ts";

const root = join(import.meta.dirname, "..");

/** A tool as the server lists it and as an MCP Bundle manifest names it. */
export interface ListedTool {
  readonly name: string;
  readonly description: string;
}

/** The server's `tools/list` and `serverInfo.title`, asked of the real server in process (no project). */
export async function serverTools(): Promise<{ title: string; tools: ListedTool[] }> {
  const home = mkdtempSync(join(tmpdir(), "ra3-mcpb-"));
  const registry = new ProjectRegistry({
    request: { project: null, sdk: "", schema: null, home, cwd: home, env: {} },
    log: () => {},
    watch: false,
  });
  const server = createMcpServer(registry);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: "ra3-release", version: TOOL_VERSION });
  await client.connect(clientSide);
  try {
    const listed = await client.listTools();
    return {
      title: client.getServerVersion()?.title ?? "ra3",
      tools: listed.tools.map((t) => ({ name: t.name, description: t.description ?? "" })),
    };
  } finally {
    await client.close();
    await server.close();
    await registry.dispose();
    rmSync(home, { recursive: true, force: true });
  }
}

/** The files of the bundle's server/ folder: the Windows and macOS binaries and the macOS launcher. */
export const MCPB_BINARIES = ["ra3-windows-x64.exe", "ra3-darwin-arm64", "ra3-darwin-x64"] as const;
const MACOS_LAUNCHER = "ra3-macos.sh";
/**
 * An MCP Bundle picks a command per OS, not per CPU: on macOS a two-line shell launcher picks the arm64
 * or x64 binary (`uname -m` says x86_64 under Rosetta too, where the x64 binary runs).
 */
const MACOS_LAUNCHER_TEXT = `#!/bin/sh
# ra3's macOS launcher in the Claude Desktop bundle: runs the binary built for this Mac's CPU.
case "$(uname -m)" in arm64) cpu=arm64 ;; *) cpu=x64 ;; esac
exec "$(dirname "$0")/ra3-darwin-$cpu" "$@"
`;

/**
 * The bundle manifest: the binary as the server with the mod folder (required) and the SDK folder
 * (optional; empty means ra3's usual detection) from `user_config`; tools, title and description from the
 * same source the server and package.json use.
 */
export function mcpbManifest(server: { title: string; tools: readonly ListedTool[] }): Record<string, unknown> {
  const args = ["mcp", "--project", "${user_config.mod_folder}"];
  const env = { RA3_SDK: "${user_config.sdk_folder}" };
  return {
    manifest_version: "0.3",
    name: "ra3",
    display_name: server.title,
    version: pkg.version,
    description: pkg.description,
    long_description:
      "Ask your agent about your mod instead of letting it grep thousands of XML files: where an asset is defined, " +
      "who references it, what it uses, whether a file is even included, and what is broken. " +
      "Point it at your mod folder (and, if you have it, the mod SDK folder for the vanilla assets and schema).",
    author: { name: "ra3 contributors" },
    license: pkg.license,
    keywords: ["red alert 3", "sage", "modding", "xml", "command and conquer"],
    server: {
      type: "binary",
      entry_point: `server/${MCPB_BINARIES[0]}`,
      mcp_config: {
        command: `\${__dirname}/server/${MCPB_BINARIES[0]}`,
        args,
        env,
        platform_overrides: {
          darwin: { command: "/bin/sh", args: [`\${__dirname}/server/${MACOS_LAUNCHER}`, ...args], env },
        },
      },
    },
    tools: server.tools.map((t) => ({ name: t.name, description: t.description })),
    tools_generated: false,
    compatibility: { platforms: ["win32", "darwin"] },
    user_config: {
      mod_folder: {
        type: "directory",
        title: "Mod folder",
        description: "Your mod's folder (the one with Data\\Mod.xml), e.g. C:\\Mods\\MyMod.",
        required: true,
      },
      sdk_folder: {
        type: "directory",
        title: "Mod SDK folder (optional)",
        description:
          "The RA3 (or C&C3) mod SDK, for the vanilla assets and the schema. Leave empty to let ra3 look for it.",
        required: false,
        default: "",
      },
    },
  };
}

/** The lower-case hex SHA-256 of a file. */
export async function sha256File(path: string): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest("hex");
}

/** SHA256SUMS text in `sha256sum` format (`<hex>  <name>`), one line per file of `dir`, sorted by name. */
export async function sha256sums(dir: string, names: readonly string[]): Promise<string> {
  const lines: string[] = [];
  for (const name of [...names].sort()) lines.push(`${await sha256File(join(dir, name))}  ${name}`);
  return lines.join("\n") + "\n";
}

function mcpbCli(args: string[]): { ok: boolean; output: string } {
  const bin = join(root, "node_modules", "@anthropic-ai", "mcpb", "dist", "cli", "cli.js");
  const r = spawnSync("node", [bin, ...args], { cwd: root, encoding: "utf8" });
  return { ok: r.status === 0, output: (r.stdout + r.stderr).trim() };
}

function hardlinkOrCopy(from: string, to: string): void {
  try {
    linkSync(from, to);
  } catch {
    copyFileSync(from, to);
  }
}

/** Stages, validates and packs ra3.mcpb from the binaries in `out`; returns null or why it failed. */
async function buildBundle(out: string): Promise<string | null> {
  const stage = join(out, ".mcpb-stage");
  rmSync(stage, { recursive: true, force: true });
  mkdirSync(join(stage, "server"), { recursive: true });
  for (const name of MCPB_BINARIES) hardlinkOrCopy(join(out, name), join(stage, "server", name));
  writeFileSync(join(stage, "server", MACOS_LAUNCHER), MACOS_LAUNCHER_TEXT, { mode: 0o755 });
  const manifest = mcpbManifest(await serverTools());
  writeFileSync(join(stage, "manifest.json"), JSON.stringify(manifest, null, 2) + "\n");
  const validated = mcpbCli(["validate", join(stage, "manifest.json")]);
  console.error(`mcpb validate: ${validated.output}`);
  if (!validated.ok) return `mcpb validate rejected the manifest: ${validated.output}`;
  const packed = mcpbCli(["pack", stage, join(out, "ra3.mcpb")]);
  if (!packed.ok) return `mcpb pack failed: ${packed.output}`;
  console.error(packed.output.split("\n").filter((l) => /size|total files|^name|^version/.test(l)).join("\n"));
  // What shipped is what was validated: unpack the bundle and compare its manifest.
  const check = mkdtempSync(join(tmpdir(), "ra3-mcpb-check-"));
  try {
    const unpacked = mcpbCli(["unpack", join(out, "ra3.mcpb"), check]);
    if (!unpacked.ok) return `mcpb unpack failed: ${unpacked.output}`;
    const shipped = JSON.parse(readFileSync(join(check, "manifest.json"), "utf8"));
    if (JSON.stringify(shipped) !== JSON.stringify(manifest)) return "the packed manifest differs from the staged one";
    for (const name of [...MCPB_BINARIES, MACOS_LAUNCHER]) {
      if (!existsSync(join(check, "server", name))) return `the bundle lacks server/${name}`;
    }
  } finally {
    rmSync(check, { recursive: true, force: true });
    rmSync(stage, { recursive: true, force: true });
  }
  return null;
}

if (import.meta.main) {
  const { values } = parseArgs({ options: { out: { type: "string" } } });
  const out = values.out ?? join(root, "dist", "release");
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  const info = buildInfo();
  const rows: { asset: string; detail: string; ok: boolean; ms: number }[] = [];
  for (const t of RELEASE_TARGETS) {
    const started = performance.now();
    const failed = compile(t.bunTarget, join(out, t.asset), info);
    rows.push({ asset: t.asset, detail: failed ?? t.bunTarget, ok: !failed, ms: performance.now() - started });
  }
  const missing = MCPB_BINARIES.filter((b) => !rows.find((r) => r.asset === b)?.ok);
  const started = performance.now();
  const bundleFailed = missing.length ? `not built: needs ${missing.join(", ")}` : await buildBundle(out);
  rows.push({
    asset: "ra3.mcpb",
    detail: bundleFailed ?? "validated and packed with @anthropic-ai/mcpb",
    ok: !bundleFailed,
    ms: performance.now() - started,
  });
  const built = rows.filter((r) => r.ok).map((r) => r.asset);
  const failures = rows.filter((r) => !r.ok);
  if (failures.length === 0) writeFileSync(join(out, "SHA256SUMS"), await sha256sums(out, built));
  console.log(`release assets in ${out} (ra3 ${TOOL_VERSION}, ${info.commit}, ${info.date})`);
  console.log("| asset | size | time | |");
  console.log("|---|---:|---:|---|");
  for (const r of rows) {
    const size = r.ok ? `${(statSync(join(out, r.asset)).size / 1e6).toFixed(1)} MB` : "-";
    console.log(`| ${r.asset} | ${size} | ${(r.ms / 1000).toFixed(1)} s | ${r.ok ? "" : "FAILED: "}${r.detail} |`);
  }
  if (failures.length) {
    console.error(`release:assets failed: ${failures.map((f) => f.asset).join(", ")}; SHA256SUMS not written`);
    process.exit(1);
  }
  console.log(`| SHA256SUMS | ${built.length} files | | sha256sum format |`);
}
