import { describe, expect, test } from "bun:test";
import { runSetup } from "../../src/setup/setup.ts";
import { runUninstall } from "../../src/setup/uninstall.ts";
import { request, setupDeps, treeOf, uninstallDeps, world } from "./setup-harness.ts";

const yes = { yes: true, interactive: false, all: false };

/** The tree without the receipt (the one file uninstall keeps) and without backups setup made. */
function withoutReceipt(tree: Record<string, string | null>, home: string): Record<string, string | null> {
  return Object.fromEntries(
    Object.entries(tree).filter(([p]) => p !== `${home}/install.json` && p !== home && !p.includes(".ra3-backup-")),
  );
}

const CURSOR_BEFORE = `{
  // my servers
  "mcpServers": {
    "github": { "command": "gh-mcp", "args": ["--stdio"] }, // keep me
  },
  "theme": "dark"
}
`;
const CODEX_BEFORE = `# Codex settings
model = "o4"

[mcp_servers.docs]
command = "docs-mcp" # local docs

[profiles.fast]
model = "o4-mini"
`;
const CLAUDE_BEFORE = `{
  "numStartups": 12,
  "mcpServers": {
    "memory": {
      "command": "memory-mcp"
    }
  },
  "projects": {}
}
`;

describe("uninstall after setup", () => {
  test("a fresh home comes back exactly as it was, apart from the receipt", async () => {
    const w = world("linux");
    const before = treeOf(w.fs);
    await runSetup(setupDeps(w), request(w));
    w.out.length = 0;
    const r = await runUninstall(uninstallDeps(w), yes);
    expect(r.ok).toBe(true);
    expect(r.mode).toBe("applied");
    const after = treeOf(w.fs);
    expect(withoutReceipt(after, w.home)).toEqual(before);
    expect(Object.keys(after).filter((p) => !(p in before))).toEqual([
      "/home/ann/.ra3modxml",
      "/home/ann/.ra3modxml/install.json",
    ]);
    expect(w.out.join("")).toBe(
      [
        "ra3 uninstall 0.1.0: home /home/ann/.ra3modxml",
        "  deleted      /home/ann/.claude.json: Claude Code; ra3 had created it",
        "  deleted      /home/ann/.codex/config.toml: Codex; ra3 had created it",
        "  deleted      /home/ann/.cursor/mcp.json: Cursor; ra3 had created it",
        "  removed      /home/ann/.agents/skills/ra3-mod-xml",
        "  removed      /home/ann/.claude/skills/ra3-mod-xml",
        "  deleted      /home/ann/.ra3modxml/skills.json: the skill ledger, now empty",
        "  deleted      /home/ann/.ra3modxml/snapshots/corona-0123456789ab.meta.json",
        "  deleted      /home/ann/.ra3modxml/snapshots/corona-0123456789ab.msgpack",
        "  deleted      /home/ann/.ra3modxml/cache/schema/schema-1.msgpack",
        "  deleted      /home/ann/.ra3modxml/bin/ra3",
        "  deleted      8 folders setup had created",
        "kept the receipt's log in /home/ann/.ra3modxml/install.json",
        "",
      ].join("\n"),
    );
    const receipt = JSON.parse(w.fs.text("/home/ann/.ra3modxml/install.json")!);
    expect({ binary: receipt.binary, configs: receipt.configs, skills: receipt.skills }).toEqual({
      binary: null,
      configs: [],
      skills: [],
    });
    expect(receipt.log.at(-1)).toEqual({
      at: "2026-11-23T14:15:02.000Z",
      action: "uninstall",
      detail: "18 removed, 0 failed",
    });
  });

  test("other servers, settings and comments are restored byte for byte; backups are kept and named", async () => {
    const w = world("linux", {
      "/home/ann/.cursor/mcp.json": CURSOR_BEFORE,
      "/home/ann/.codex/config.toml": CODEX_BEFORE,
      "/home/ann/.claude.json": CLAUDE_BEFORE,
    });
    const before = treeOf(w.fs);
    await runSetup(setupDeps(w), request(w));
    expect(w.fs.text("/home/ann/.codex/config.toml")).not.toBe(CODEX_BEFORE);
    w.out.length = 0;
    const r = await runUninstall(uninstallDeps(w), yes);
    expect(r.ok).toBe(true);
    expect(w.fs.text("/home/ann/.cursor/mcp.json")).toBe(CURSOR_BEFORE);
    expect(w.fs.text("/home/ann/.codex/config.toml")).toBe(CODEX_BEFORE);
    expect(w.fs.text("/home/ann/.claude.json")).toBe(CLAUDE_BEFORE);
    expect(withoutReceipt(treeOf(w.fs), w.home)).toEqual(before);
    expect(r.backups).toEqual([
      "/home/ann/.claude.json.ra3-backup-20261123T141502Z",
      "/home/ann/.codex/config.toml.ra3-backup-20261123T141502Z",
      "/home/ann/.cursor/mcp.json.ra3-backup-20261123T141502Z",
    ]);
    expect(w.out.join("")).toContain(
      "  removed      /home/ann/.cursor/mcp.json: the ra3 entry for Cursor; backup /home/ann/.cursor/mcp.json.ra3-backup-20261123T141502Z-2\n",
    );
    expect(w.out.join("").endsWith(`backups setup made of your files are kept: ${r.backups.join(", ")}\n`)).toBe(true);
  });

  test("a folder setup created but the user has since put files in stays", async () => {
    const w = world("linux");
    await runSetup(setupDeps(w), request(w));
    // ~/.agents was created by setup (for the skill); the user has put a file there since.
    await w.fs.writeFile("/home/ann/.agents/notes.md", new TextEncoder().encode("mine"));
    await runUninstall(uninstallDeps(w), yes);
    expect(w.fs.listAll().filter((p) => p.startsWith("/home/ann/.agents"))).toEqual(["/home/ann/.agents/notes.md"]);
  });

  test("setup, uninstall, setup, uninstall: the second uninstall uses only what the second setup logged", async () => {
    const w = world("linux");
    const before = treeOf(w.fs);
    await runSetup(setupDeps(w), request(w));
    await runUninstall(uninstallDeps(w), yes);
    await runSetup(setupDeps(w), request(w, { clients: ["cursor"] }));
    const r = await runUninstall(uninstallDeps(w), yes);
    expect(r.ok).toBe(true);
    expect(withoutReceipt(treeOf(w.fs), w.home)).toEqual(before);
  });
});

describe("asking first", () => {
  test("no terminal and no --yes: shows what it would do, changes nothing", async () => {
    const w = world("linux", { "/home/ann/.cursor/mcp.json": CURSOR_BEFORE });
    await runSetup(setupDeps(w), request(w, { clients: ["cursor"] }));
    const before = treeOf(w.fs);
    w.out.length = 0;
    const r = await runUninstall(uninstallDeps(w), { ...yes, yes: false });
    expect(r.mode).toBe("dry-run");
    expect(treeOf(w.fs)).toEqual(before);
    const out = w.out.join("");
    expect(out).toContain(
      "not a terminal and no --yes: showing what uninstall would do without changing anything (run again with --yes to apply)\n",
    );
    expect(out).toContain("  would remove /home/ann/.cursor/mcp.json: the ra3 entry for Cursor\n");
    expect(out).toContain("  would delete /home/ann/.ra3modxml/bin/ra3: the stable binary\n");
    expect(out).toContain('-    "ra3": {\n');
  });

  test("on a terminal, answering no changes nothing", async () => {
    const w = world("linux");
    await runSetup(setupDeps(w), request(w));
    const before = treeOf(w.fs);
    w.confirmAnswer = false;
    const r = await runUninstall(uninstallDeps(w), { ...yes, yes: false, interactive: true });
    expect(r.mode).toBe("cancelled");
    expect(w.calls.confirm).toEqual(["go ahead (9 changes)? [y/N] "]);
    expect(treeOf(w.fs)).toEqual(before);
  });
});

describe("problems", () => {
  test("a config file broken since setup: that entry fails with the exact error and stays recorded; the rest is removed", async () => {
    const w = world("linux");
    await runSetup(setupDeps(w), request(w));
    const broken = '{ "mcpServers": { "ra3": { "command": "x" } }';
    await w.fs.writeFile("/home/ann/.cursor/mcp.json", new TextEncoder().encode(broken));
    w.out.length = 0;
    const r = await runUninstall(uninstallDeps(w), yes);
    expect(r.ok).toBe(false);
    expect(r.items.find((i) => i.result === "failed")).toEqual({
      kind: "config",
      path: "/home/ann/.cursor/mcp.json",
      result: "failed",
      detail:
        "Cursor: /home/ann/.cursor/mcp.json:1:46: not valid JSON (closing brace '}' expected). ra3 left the file unchanged; fix it (or move it aside) and run ra3 uninstall again.",
    });
    expect(w.fs.text("/home/ann/.cursor/mcp.json")).toBe(broken);
    expect(w.out.join("")).toContain(
      "  ✗ failed     /home/ann/.cursor/mcp.json: Cursor: /home/ann/.cursor/mcp.json:1:46:",
    );
    expect(w.fs.text("/home/ann/.codex/config.toml")).toBeNull();
    const receipt = JSON.parse(w.fs.text("/home/ann/.ra3modxml/install.json")!);
    expect(receipt.configs.map((c: { client: string }) => c.client)).toEqual(["cursor"]);
    expect(receipt.log.at(-1).detail).toBe("17 removed, 1 failed");
  });

  test("Windows: a running binary is moved aside", async () => {
    const w = world("windows");
    await runSetup(setupDeps(w), request(w));
    w.fs.lock(w.binary);
    w.out.length = 0;
    const r = await runUninstall(uninstallDeps(w), yes);
    expect(r.items.find((i) => i.kind === "binary")).toEqual({
      kind: "binary",
      path: "C:\\Users\\Ann Lee\\.ra3modxml\\bin\\ra3.exe",
      result: "moved aside",
      detail:
        "it is running (the file is in use by another program (EBUSY)); moved to C:\\Users\\Ann Lee\\.ra3modxml\\bin\\ra3.exe.old-1: delete it after closing your MCP clients",
    });
    expect(w.fs.text(w.binary)).toBeNull();
    expect(w.fs.text("C:\\Users\\Ann Lee\\.cursor\\mcp.json")).toBeNull();
  });

  test("nothing recorded: nothing to do", async () => {
    const w = world("linux");
    const r = await runUninstall(uninstallDeps(w), yes);
    expect(r.mode).toBe("nothing");
    expect(w.out.join("")).toBe(
      "ra3 uninstall 0.1.0: home /home/ann/.ra3modxml\nnothing to uninstall: there is no install receipt at /home/ann/.ra3modxml/install.json\n",
    );
  });

  test("an unreadable receipt: refused", async () => {
    const w = world("linux", { "/home/ann/.ra3modxml/install.json": "[]" });
    const r = await runUninstall(uninstallDeps(w), yes);
    expect(r.mode).toBe("refused");
    expect(r.error).toBe(
      "/home/ann/.ra3modxml/install.json is not a valid ra3 install receipt (the top level is not an object). ra3 left it unchanged; move it aside (setup then starts a new receipt, and uninstall can no longer revert what the old one recorded) and run the command again.",
    );
  });

  test("--all also deletes snapshots setup did not write", async () => {
    const w = world("linux", { "/home/ann/.ra3modxml/snapshots/other-mod-aaaaaaaaaaaa.msgpack": "OTHER" });
    await runSetup(setupDeps(w), request(w));
    await runUninstall(uninstallDeps(w), yes);
    expect(w.fs.text("/home/ann/.ra3modxml/snapshots/other-mod-aaaaaaaaaaaa.msgpack")).toBe("OTHER");
    await runSetup(setupDeps(w), request(w));
    await runUninstall(uninstallDeps(w), { ...yes, all: true });
    expect(w.fs.listAll().filter((p) => p.startsWith("/home/ann/.ra3modxml"))).toEqual([
      "/home/ann/.ra3modxml/install.json",
    ]);
  });
});
