// What npm run release:assets ships: SHA256SUMS in sha256sum's own format (sha256sum -c accepts it and
// catches a changed file), the MCP Bundle manifest (valid for @anthropic-ai/mcpb, its tools equal to
// what the compiled server lists), the packed ra3.mcpb when it has been built, and release notes from
// CHANGELOG.md.
import { describe, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { unzipSync } from "fflate";
import { RELEASE_TARGETS } from "../../scripts/build.ts";
import { MCPB_BINARIES, mcpbManifest, serverTools, sha256sums } from "../../scripts/release-assets.ts";
import { installSection, releaseNotes } from "../../scripts/release-notes.ts";
import { MCP_SESSION } from "../../scripts/smoke.ts";
import { TOOL_NAMES } from "../../src/skill/tool-names.ts";
import pkg from "../../package.json" with { type: "json" };
import { tempDirs } from "../temp-dirs.ts";

const TMP = tempDirs();

// deno-lint-ignore no-explicit-any -- a parsed JSON manifest
type Json = any;

const ROOT = join(import.meta.dirname, "..", "..");
const BIN = join(ROOT, "dist", "ra3");
const BUNDLE = join(ROOT, "dist", "release", "ra3.mcpb");
const MCPB = join(ROOT, "node_modules", "@anthropic-ai", "mcpb", "dist", "cli", "cli.js");

/** The tools `dist/ra3 mcp` lists (names and descriptions), asked over stdin. */
function binaryTools(): { name: string; description: string }[] {
  const home = TMP.make("ra3-assets-");
  const r = spawnSync(BIN, ["mcp", "--home", home], {
    input: MCP_SESSION,
    cwd: home,
    encoding: "utf8",
    timeout: 30_000,
  });
  const list = r.stdout.split("\n").filter(Boolean).map((l) => JSON.parse(l)).find((m) => m.id === 2);
  return list.result.tools.map((t: { name: string; description: string }) => ({
    name: t.name,
    description: t.description,
  }));
}

function validate(manifest: unknown): { ok: boolean; output: string } {
  const file = join(TMP.make("ra3-manifest-"), "manifest.json");
  writeFileSync(file, JSON.stringify(manifest));
  const r = spawnSync("node", [MCPB, "validate", file], { encoding: "utf8" });
  return { ok: r.status === 0, output: r.stdout + r.stderr };
}

// sha256sum (coreutils) is the format's own checker; Windows has none.
describe.skipIf(process.platform === "win32")("SHA256SUMS", () => {
  test("sha256sum -c accepts it, and reports a file changed after it was written", async () => {
    const dir = TMP.make("ra3-sums-");
    writeFileSync(join(dir, "ra3-linux-x64"), "binary bytes");
    writeFileSync(join(dir, "ra3.mcpb"), "bundle bytes");
    const sums = await sha256sums(dir, ["ra3.mcpb", "ra3-linux-x64"]);
    // Sorted by name, two spaces between hash and name (sha256sum's text mode).
    expect(sums).toBe(
      "4f463802bc436efdd9a0c4e8c999ec3d37450657bd50b579d796b58bc9d3f1ef  ra3-linux-x64\n" +
        "f40a912044d47ea7c32f37340db4fd5eb853ffb8fcd983f605d9eb4f8b02fbc2  ra3.mcpb\n",
    );
    writeFileSync(join(dir, "SHA256SUMS"), sums);
    const ok = spawnSync("sha256sum", ["-c", "SHA256SUMS"], { cwd: dir, encoding: "utf8" });
    expect([ok.status, ok.stdout]).toEqual([0, "ra3-linux-x64: OK\nra3.mcpb: OK\n"]);
    writeFileSync(join(dir, "ra3.mcpb"), "bundle bytes, changed");
    const bad = spawnSync("sha256sum", ["-c", "SHA256SUMS"], { cwd: dir, encoding: "utf8" });
    expect([bad.status, bad.stdout]).toEqual([1, "ra3-linux-x64: OK\nra3.mcpb: FAILED\n"]);
  });
});

describe("the MCP Bundle manifest", () => {
  test("tools: the same names and descriptions, in the same order, as the compiled server lists", async () => {
    const manifest = mcpbManifest(await serverTools());
    expect((manifest.tools as { name: string }[]).map((t) => t.name)).toEqual([...TOOL_NAMES]);
    if (existsSync(BIN)) expect(manifest.tools).toEqual(binaryTools());
  }, 30_000);

  test("is valid for @anthropic-ai/mcpb: the binary as server, the mod folder a required directory field", async () => {
    const manifest = mcpbManifest(await serverTools()) as Json;
    expect(validate(manifest)).toEqual({
      ok: true,
      output: expect.stringContaining("Manifest schema validation passes"),
    });
    expect(manifest.version).toBe(pkg.version);
    expect(manifest.description).toBe(pkg.description);
    expect(manifest.display_name).toBe("ra3: Red Alert 3 mod index");
    expect(manifest.server.type).toBe("binary");
    expect(manifest.server.mcp_config.args).toEqual(["mcp", "--project", "${user_config.mod_folder}"]);
    expect(manifest.server.mcp_config.command).toBe("${__dirname}/server/ra3-windows-x64.exe");
    expect(manifest.server.mcp_config.platform_overrides.darwin.args.slice(1)).toEqual(manifest.server.mcp_config.args);
    expect(manifest.user_config.mod_folder).toMatchObject({ type: "directory", required: true });
    expect(manifest.user_config.sdk_folder).toMatchObject({ type: "directory", required: false, default: "" });
    // The bundle's binaries are release binaries.
    for (const b of MCPB_BINARIES) expect(RELEASE_TARGETS.map((t) => t.asset)).toContain(b);
  }, 30_000);

  test("mcpb validate rejects a broken copy (a user_config field without its description)", async () => {
    const manifest = mcpbManifest(await serverTools()) as Json;
    delete manifest.user_config.mod_folder.description;
    const r = validate(manifest);
    expect(r.ok).toBe(false);
    expect(r.output).toContain("user_config");
  }, 30_000);

  test.skipIf(!existsSync(BUNDLE))(
    "dist/release/ra3.mcpb holds this manifest and the three binaries (stale after a tool changed: npm run release:assets)",
    async () => {
      const files = unzipSync(readFileSync(BUNDLE), { filter: (f) => f.name === "manifest.json" });
      const shipped = JSON.parse(new TextDecoder().decode(files["manifest.json"]));
      expect(shipped).toEqual(mcpbManifest(await serverTools()));
      if (existsSync(BIN)) expect(shipped.tools).toEqual(binaryTools());
      const names: string[] = [];
      unzipSync(readFileSync(BUNDLE), { filter: (f) => (names.push(f.name), false) });
      expect(names.sort()).toEqual(
        ["manifest.json", ...MCPB_BINARIES.map((b) => `server/${b}`), "server/ra3-macos.sh"].sort(),
      );
    },
    60_000,
  );
});

describe("release notes from CHANGELOG.md", () => {
  const changelog =
    "# Changelog\n\n## [Unreleased]\n\n- next\n\n## [1.2.0] - 2027-01-02\n\n### Added\n\n- a thing\n\n" +
    "## [1.1.0] - 2026-12-24\n\n- older\n\n[1.2.0]: https://example.invalid/1.2.0\n";

  test("the tagged version's section, without its heading or the next one", () => {
    expect(releaseNotes(changelog, "v1.2.0")).toBe("### Added\n\n- a thing");
    expect(releaseNotes(changelog, "1.1.0")).toBe("- older");
    expect(releaseNotes(changelog.replace(/\n/g, "\r\n"), "v1.2.0")).toBe("### Added\n\n- a thing");
  });

  test("a version without a section, or with an empty one, gives null (the workflow stops)", () => {
    expect(releaseNotes(changelog, "v9.9.9")).toBeNull();
    expect(releaseNotes("## [2.0.0] - 2027-02-02\n\n## [1.0.0]\n- x\n", "v2.0.0")).toBeNull();
  });

  test("the install section names this release's own installers", () => {
    const text = installSection("modders/ra3", "v1.2.0");
    expect(text).toContain("`irm https://github.com/modders/ra3/releases/download/v1.2.0/install.ps1 | iex`");
    expect(text).toContain("`curl -fsSL https://github.com/modders/ra3/releases/download/v1.2.0/install.sh | sh`");
  });

  test("CHANGELOG.md has a section for package.json's version", () => {
    const text = readFileSync(join(ROOT, "CHANGELOG.md"), "utf8");
    expect(releaseNotes(text, `v${pkg.version}`)).not.toBeNull();
  });
});
