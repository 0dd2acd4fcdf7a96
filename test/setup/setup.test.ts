import { describe, expect, test } from "bun:test";
import { fsError } from "../../src/disk/port.ts";
import { homeArgs, serverEntryFor } from "../../src/setup/clients/index.ts";
import { runSetup, type SetupReport } from "../../src/setup/setup.ts";
import { isCompiledRa3 } from "../../src/setup/setup-plan.ts";
import { renderStep, stepReport } from "../../src/setup/steps.ts";
import { HEALTHY, request, setupDeps, treeOf, type World, world } from "./setup-harness.ts";

const statuses = (r: SetupReport) => r.steps.map((s) => `${s.id}:${s.status}`);
const output = (w: World) => w.out.join("").replace(/setup finished in \d+\.\d s/, "setup finished in N s");
const line = (w: World, prefix: string) => output(w).split("\n").find((l) => l.startsWith(prefix));

describe("a first run on Linux", () => {
  test("every step is done, each reported by number and title", async () => {
    const w = world("linux");
    const r = await runSetup(setupDeps(w), request(w));
    expect(r.ok).toBe(true);
    expect(r.mode).toBe("applied");
    expect(statuses(r)).toEqual([
      "binary:done",
      "project:done",
      "clients:done",
      "skill:done",
      "index:done",
      "verify:done",
    ]);
    expect(output(w)).toBe(
      [
        "ra3 setup 0.1.0: home /home/ann/.ra3modxml, stable binary /home/ann/.ra3modxml/bin/ra3",
        "[1/6] install the stable binary: done: installed: /home/ann/.ra3modxml/bin/ra3",
        "[2/6] detect the project and the SDK: done: /home/ann/mods/corona (no SDK: project-only mode)",
        "[3/6] configure the MCP clients: done: 3 files written for 3 named clients",
        "      ✓ Claude Code: /home/ann/.claude.json: created; serves the mod /home/ann/mods/corona",
        "      ✓ Codex: /home/ann/.codex/config.toml: created; serves the mod /home/ann/mods/corona",
        "      ✓ Cursor: /home/ann/.cursor/mcp.json: created; serves the mod /home/ann/mods/corona",
        "[4/6] install the Agent Skill: done: ra3-mod-xml 0.1.0 in 2 folders (ledger /home/ann/.ra3modxml/skills.json)",
        "      ✓ /home/ann/.agents/skills/ra3-mod-xml: installed",
        "      ✓ /home/ann/.claude/skills/ra3-mod-xml: installed",
        "[5/6] build the index and the snapshot: done: 15 files, 28 assets, built in 16 ms; snapshot /home/ann/.ra3modxml/snapshots/corona-0123456789ab.msgpack (8 B)",
        "[6/6] verify: start the installed server as a client would: done: initialize → tools/list (15 tools) → get_status in 42 ms (index ready)",
        "setup finished in N s: 6 done",
        "",
      ].join("\n"),
    );
  });

  test("the entries run the stable binary with the project, and the live check spawns exactly that", async () => {
    const w = world("linux");
    await runSetup(setupDeps(w), request(w));
    expect(w.fs.text("/home/ann/.ra3modxml/bin/ra3")).toBe("RA3 BINARY v1");
    expect(w.fs.text("/home/ann/.codex/config.toml")).toBe(
      '[mcp_servers.ra3]\ncommand = "/home/ann/.ra3modxml/bin/ra3"\nargs = ["mcp", "--project", "/home/ann/mods/corona"]\n',
    );
    expect(JSON.parse(w.fs.text("/home/ann/.cursor/mcp.json")!)).toEqual({
      mcpServers: {
        ra3: { command: "/home/ann/.ra3modxml/bin/ra3", args: ["mcp", "--project", "/home/ann/mods/corona"] },
      },
    });
    expect(w.calls.live).toEqual([{
      command: "/home/ann/.ra3modxml/bin/ra3",
      args: ["mcp", "--project", "/home/ann/mods/corona"],
      cwd: "/home/ann",
      timeoutMs: 20_000,
    }]);
  });

  test("the receipt records the binary, every config, the skill copies, created folders and cache files", async () => {
    const w = world("linux");
    const r = await runSetup(setupDeps(w), request(w));
    expect(r.receiptFile).toBe("/home/ann/.ra3modxml/install.json");
    const receipt = JSON.parse(w.fs.text(r.receiptFile!)!);
    expect(receipt.binary.path).toBe("/home/ann/.ra3modxml/bin/ra3");
    expect(receipt.configs.map((c: { client: string; createdFile: boolean }) => `${c.client}:${c.createdFile}`))
      .toEqual(["claude-code:true", "codex:true", "cursor:true"]);
    expect(receipt.skills.map((s: { target: string }) => s.target)).toEqual(["agents", "claude"]);
    expect(receipt.log.map((l: { action: string; detail: string }) => `${l.action} ${l.detail}`)).toEqual([
      "dir.create /home/ann/.ra3modxml/bin",
      "dir.create /home/ann/.ra3modxml",
      "binary.install /home/ann/.ra3modxml/bin/ra3",
      "project /home/ann/mods/corona",
      "config.create claude-code /home/ann/.claude.json",
      "config.create codex /home/ann/.codex/config.toml",
      "config.create cursor /home/ann/.cursor/mcp.json",
      "dir.create /home/ann/.agents/skills/ra3-mod-xml",
      "dir.create /home/ann/.agents/skills",
      "dir.create /home/ann/.agents",
      "dir.create /home/ann/.claude/skills/ra3-mod-xml",
      "dir.create /home/ann/.claude/skills",
      "dir.create /home/ann/.claude",
      "skill.install /home/ann/.agents/skills/ra3-mod-xml",
      "skill.install /home/ann/.claude/skills/ra3-mod-xml",
      "cache.write /home/ann/.ra3modxml/snapshots/corona-0123456789ab.meta.json",
      "cache.write /home/ann/.ra3modxml/snapshots/corona-0123456789ab.msgpack",
      "cache.write /home/ann/.ra3modxml/cache/schema/schema-1.msgpack",
      "dir.create /home/ann/.ra3modxml/snapshots",
      "dir.create /home/ann/.ra3modxml/cache",
      "dir.create /home/ann/.ra3modxml/cache/schema",
      "setup binary:done project:done clients:done skill:done index:done verify:done",
    ]);
  });

  test("a second run reports unchanged everywhere and writes nothing, not even the receipt", async () => {
    const w = world("linux");
    await runSetup(setupDeps(w), request(w));
    const before = treeOf(w.fs);
    w.out.length = 0;
    const r = await runSetup(setupDeps(w), request(w));
    expect(r.ok).toBe(true);
    expect(r.receiptFile).toBeNull();
    expect(treeOf(w.fs)).toEqual(before);
    expect(r.clients.map((c) => c.result)).toEqual(["unchanged", "unchanged", "unchanged"]);
    expect(line(w, "[1/6]")).toBe("[1/6] install the stable binary: done: unchanged: /home/ann/.ra3modxml/bin/ra3");
    expect(line(w, "[3/6]")).toBe(
      "[3/6] configure the MCP clients: done: unchanged: 3 named clients already point at /home/ann/.ra3modxml/bin/ra3",
    );
    expect(line(w, "[4/6]")).toBe("[4/6] install the Agent Skill: done: unchanged: ra3-mod-xml 0.1.0 in 2 folders");
    expect(line(w, "[5/6]")).toBe(
      "[5/6] build the index and the snapshot: done: 15 files, 28 assets, warm start in 16 ms; snapshot /home/ann/.ra3modxml/snapshots/corona-0123456789ab.msgpack unchanged",
    );
  });
});

describe("dry run", () => {
  test("--dry-run writes nothing (no binary, receipt, skill, index) and prints the diff of every config file", async () => {
    const w = world("linux", {
      "/home/ann/.cursor/mcp.json": '{\n  "mcpServers": {\n    "other": { "command": "x" }\n  }\n}\n',
    });
    const before = treeOf(w.fs);
    const r = await runSetup(setupDeps(w), request(w, { dryRun: true }));
    expect(treeOf(w.fs)).toEqual(before);
    expect(w.calls).toEqual({ skills: 0, index: 0, live: [], confirm: [] });
    expect(r.mode).toBe("dry-run");
    expect(r.dryRunReason).toBe("flag");
    expect(statuses(r)).toEqual([
      "binary:skipped",
      "project:done",
      "clients:skipped",
      "skill:skipped",
      "index:skipped",
      "verify:skipped",
    ]);
    const out = output(w);
    expect(out).toContain("dry run: nothing will be written\n");
    expect(out).toContain(
      "[1/6] install the stable binary: skipped (dry run: would install /home/ann/.ra3modxml/bin/ra3 from /home/ann/Downloads/ra3)\n",
    );
    expect(out).toContain("[3/6] configure the MCP clients: skipped (dry run: would write 3 files (diffs below))\n");
    expect(out).toContain(
      "      ✓ Cursor: /home/ann/.cursor/mcp.json: would update; serves the mod /home/ann/mods/corona\n",
    );
    expect(out).toContain(
      [
        "      --- /home/ann/.cursor/mcp.json",
        "      +++ /home/ann/.cursor/mcp.json",
        "      @@ -1,5 +1,9 @@",
        "       {",
        '         "mcpServers": {',
        '      -    "other": { "command": "x" }',
        '      +    "other": { "command": "x" },',
        '      +    "ra3": {',
        '      +      "command": "/home/ann/.ra3modxml/bin/ra3",',
        '      +      "args": ["mcp", "--project", "/home/ann/mods/corona"]',
        "      +    }",
        "         }",
        "       }",
      ].join("\n"),
    );
    expect(out).toContain("      --- /dev/null\n      +++ /home/ann/.codex/config.toml\n");
    expect(out.slice(out.indexOf("\nwould write ") + 1)).toBe(
      [
        "would write 8 files:",
        "  /home/ann/.ra3modxml/bin/ra3  (install the stable binary)",
        "  /home/ann/.claude.json  (create: the ra3 server for Claude Code)",
        "  /home/ann/.codex/config.toml  (create: the ra3 server for Codex)",
        "  /home/ann/.cursor/mcp.json  (update: the ra3 server for Cursor)",
        "  /home/ann/.agents/skills/ra3-mod-xml/  (install the ra3-mod-xml skill)",
        "  /home/ann/.claude/skills/ra3-mod-xml/  (install the ra3-mod-xml skill)",
        "  /home/ann/.ra3modxml/snapshots/mods-corona-266bf44a8be1.msgpack  (the index snapshot, if the index changed)",
        "  /home/ann/.ra3modxml/install.json  (the install receipt, when anything above changes)",
        "",
      ].join("\n"),
    );
  });

  test("no terminal and no --yes behaves like --dry-run and says so", async () => {
    const w = world("linux");
    const before = treeOf(w.fs);
    const r = await runSetup(setupDeps(w), request(w, { yes: false, interactive: false }));
    expect(r.mode).toBe("dry-run");
    expect(r.dryRunReason).toBe("no-terminal");
    expect(treeOf(w.fs)).toEqual(before);
    expect(w.out[1]).toBe(
      "not a terminal and no --yes: showing what setup would do without writing anything (run again with --yes to apply)\n",
    );
  });

  test("a dry run after setup reports the steps with nothing to do as done", async () => {
    const w = world("linux");
    await runSetup(setupDeps(w), request(w));
    w.out.length = 0;
    const r = await runSetup(setupDeps(w), request(w, { dryRun: true }));
    expect(statuses(r)).toEqual([
      "binary:done",
      "project:done",
      "clients:done",
      "skill:done",
      "index:skipped",
      "verify:skipped",
    ]);
  });

  test("a skill file the user changed: the dry run says unchanged, as the installer then does (it keeps the file)", async () => {
    const w = world("linux");
    await runSetup(setupDeps(w), request(w));
    const skillMd = "/home/ann/.agents/skills/ra3-mod-xml/SKILL.md";
    w.fs.writeFile(skillMd, new TextEncoder().encode("my own notes\n"));
    // The first install after the edit: nothing to write (the marker already records what ra3 wrote).
    w.out.length = 0;
    const dry = await runSetup(setupDeps(w), request(w, { dryRun: true }));
    expect(dry.steps.find((s) => s.id === "skill")?.status).toBe("done");
    expect(line(w, "      /home/ann/.agents/skills/ra3-mod-xml:")).toBe(
      "      /home/ann/.agents/skills/ra3-mod-xml: unchanged; keeps your changes to SKILL.md",
    );
    expect(output(w)).not.toContain("ra3-mod-xml/  (update the ra3-mod-xml skill)");
    w.out.length = 0;
    const applied = await runSetup(setupDeps(w), request(w));
    expect(line(w, "      ✓ /home/ann/.agents/skills/ra3-mod-xml:")).toBe(
      "      ✓ /home/ann/.agents/skills/ra3-mod-xml: unchanged; kept your changes to SKILL.md",
    );
    expect(applied.receiptFile).toBeNull();
    expect(w.fs.text(skillMd)).toBe("my own notes\n");
  });

  test("a skill file the user deleted: the dry run says update, and the installer restores it", async () => {
    const w = world("linux");
    await runSetup(setupDeps(w), request(w));
    w.fs.remove("/home/ann/.claude/skills/ra3-mod-xml/references/query-guide.md");
    w.out.length = 0;
    await runSetup(setupDeps(w), request(w, { dryRun: true }));
    expect(line(w, "      /home/ann/.claude/skills/ra3-mod-xml:")).toBe(
      "      /home/ann/.claude/skills/ra3-mod-xml: would update",
    );
    w.out.length = 0;
    await runSetup(setupDeps(w), request(w));
    expect(line(w, "      ✓ /home/ann/.claude/skills/ra3-mod-xml:")).toBe(
      "      ✓ /home/ann/.claude/skills/ra3-mod-xml: upgraded",
    );
    expect(w.fs.text("/home/ann/.claude/skills/ra3-mod-xml/references/query-guide.md")).not.toBeNull();
  });
});

describe("the terminal question", () => {
  test("answering no writes nothing", async () => {
    const w = world("linux");
    w.confirmAnswer = false;
    const before = treeOf(w.fs);
    const r = await runSetup(setupDeps(w), request(w, { yes: false, interactive: true }));
    expect(r.mode).toBe("cancelled");
    expect(r.ok).toBe(false);
    expect(w.calls.confirm).toEqual(["write these 8 files? [y/N] "]);
    expect(treeOf(w.fs)).toEqual(before);
    expect(output(w)).toContain(
      "setup will write:\n  /home/ann/.ra3modxml/bin/ra3  (install the stable binary)\n  /home/ann/.claude.json  (create: the ra3 server for Claude Code)\n",
    );
    expect(output(w).endsWith("nothing was written\n")).toBe(true);
  });

  test("answering yes applies, and --yes asks nothing", async () => {
    const w = world("linux");
    const r = await runSetup(setupDeps(w), request(w, { yes: false, interactive: true }));
    expect(r.mode).toBe("applied");
    expect(w.calls.confirm.length).toBe(1);
    const w2 = world("linux");
    await runSetup(setupDeps(w2), request(w2, { yes: true, interactive: true }));
    expect(w2.calls.confirm).toEqual([]);
  });
});

describe("failures are reported and the run goes on", () => {
  test("an invalid client file: that client fails with the writer's exact error, untouched; the others and later steps proceed", async () => {
    const broken = '{\n  "mcpServers": {\n    "other": { "command": "x" }\n    "oops": 1\n  }\n}\n';
    const w = world("linux", { "/home/ann/.cursor/mcp.json": broken });
    const r = await runSetup(setupDeps(w), request(w));
    expect(r.ok).toBe(false);
    expect(statuses(r)).toEqual([
      "binary:done",
      "project:done",
      "clients:failed",
      "skill:done",
      "index:done",
      "verify:done",
    ]);
    const cursor = r.clients.find((c) => c.client === "cursor")!;
    expect(cursor.result).toBe("failed");
    expect(cursor.error).toBe(
      "/home/ann/.cursor/mcp.json:4:5: not valid JSON (comma expected). ra3 left the file unchanged; fix it (or move it aside) and run setup again.",
    );
    expect(w.fs.text("/home/ann/.cursor/mcp.json")).toBe(broken);
    expect(r.clients.map((c) => `${c.client}:${c.result}`)).toEqual([
      "claude-code:created",
      "codex:created",
      "cursor:failed",
    ]);
    const out = output(w);
    expect(out).toContain(
      [
        "[3/6] configure the MCP clients: failed: Cursor: see below; 2 other clients were handled",
        "      ✓ Claude Code: /home/ann/.claude.json: created; serves the mod /home/ann/mods/corona",
        "      ✓ Codex: /home/ann/.codex/config.toml: created; serves the mod /home/ann/mods/corona",
        "      ✗ Cursor: /home/ann/.cursor/mcp.json:4:5: not valid JSON (comma expected). ra3 left the file unchanged; fix it (or move it aside) and run setup again.",
        "      what to do: fix the file named above as the message says, then run ra3 setup again",
        "      continuing with step 4: install the Agent Skill",
        "[4/6] install the Agent Skill: done",
      ].join("\n"),
    );
    expect(out).toContain("setup finished in N s: 5 done, 1 failed (clients)\n");
  });

  test("a failed binary copy: step 1 fails with what to do, the configs are skipped, the skill and index still run", async () => {
    const w = world("linux");
    w.fs.failOn("copyFile", w.download, fsError("ENOSPC", "full"));
    const r = await runSetup(setupDeps(w), request(w));
    expect(statuses(r)).toEqual([
      "binary:failed",
      "project:done",
      "clients:skipped",
      "skill:done",
      "index:done",
      "verify:skipped",
    ]);
    expect(output(w)).toContain(
      [
        "[1/6] install the stable binary: failed: could not copy ra3 to /home/ann/.ra3modxml/bin: the disk is full (ENOSPC). Nothing was changed.",
        "      what to do: make /home/ann/.ra3modxml/bin writable (or free disk space) and run ra3 setup again; the client configs cannot be written without it",
        "      continuing with step 2: detect the project and the SDK",
      ].join("\n"),
    );
    expect(line(w, "[3/6]")).toBe(
      "[3/6] configure the MCP clients: skipped (step 1 failed, so there is no binary at /home/ann/.ra3modxml/bin/ra3 for the configs to point at)",
    );
    expect(line(w, "[6/6]")).toBe(
      "[6/6] verify: start the installed server as a client would: skipped (there is no installed binary at /home/ann/.ra3modxml/bin/ra3 (step 1))",
    );
    expect(w.fs.text("/home/ann/.cursor/mcp.json")).toBeNull();
  });

  test("no project: step 2 fails; clients, index and verify are skipped; the skill is installed", async () => {
    const w = world("linux");
    w.project_ = {
      ok: false,
      error:
        "no Red Alert 3 mod found from /home/ann: run ra3 inside a mod folder (one with Data/Mod.xml) or pass --project DIR",
    };
    const r = await runSetup(setupDeps(w), request(w, { project: null }));
    expect(statuses(r)).toEqual([
      "binary:done",
      "project:failed",
      "clients:skipped",
      "skill:done",
      "index:skipped",
      "verify:skipped",
    ]);
    expect(output(w)).toContain(
      [
        "[2/6] detect the project and the SDK: failed: no Red Alert 3 mod found from /home/ann: run ra3 inside a mod folder (one with Data/Mod.xml) or pass --project DIR",
        "      what to do: run ra3 setup inside the mod folder, or pass --project DIR (and --sdk DIR for the SDK)",
        "      continuing with step 3: configure the MCP clients",
        "[3/6] configure the MCP clients: skipped (no project was found (step 2), and every entry passes the project to the server)",
      ].join("\n"),
    );
  });

  test("a failed live check: step 6 fails with the command to run by hand", async () => {
    const w = world("linux");
    w.live = () => ({ ok: false, ms: 20_000, stage: "initialize", error: "no answer within 20 s" });
    const r = await runSetup(setupDeps(w), request(w));
    expect(r.steps[5].status).toBe("failed");
    expect(output(w)).toContain(
      "[6/6] verify: start the installed server as a client would: failed: failed at initialize after 20000 ms: no answer within 20 s\n" +
        "      what to do: run the entry by hand to see what a client sees: /home/ann/.ra3modxml/bin/ra3 mcp --project /home/ann/mods/corona\n",
    );
  });

  test("an unreadable receipt: setup refuses before writing anything", async () => {
    const w = world("linux", { "/home/ann/.ra3modxml/install.json": "{ nope" });
    const before = treeOf(w.fs);
    const r = await runSetup(setupDeps(w), request(w));
    expect(r.mode).toBe("refused");
    expect(r.error).toBe(
      "/home/ann/.ra3modxml/install.json:1:3: not a valid ra3 install receipt (not valid JSON). ra3 left it unchanged; move it aside (setup then starts a new receipt, and uninstall can no longer revert what the old one recorded) and run the command again.",
    );
    expect(treeOf(w.fs)).toEqual(before);
  });
});

describe("running from source", () => {
  test("detects a JavaScript runtime by the executable's name", () => {
    expect(isCompiledRa3("/usr/local/bin/bun")).toBe(false);
    expect(isCompiledRa3("C:\\Program Files\\nodejs\\node.exe")).toBe(false);
    expect(isCompiledRa3("/home/ann/.deno/bin/deno")).toBe(false);
    expect(isCompiledRa3("/home/ann/Downloads/ra3")).toBe(true);
    expect(isCompiledRa3("C:\\Users\\Ann Lee\\.ra3modxml\\bin\\ra3.exe")).toBe(true);
  });

  test("with no installed binary: step 1 skipped, the clients step fails saying to build and run dist/ra3", async () => {
    const w = world("linux");
    const r = await runSetup(setupDeps(w, { execPath: "/usr/local/bin/bun" }), request(w));
    expect(statuses(r)).toEqual([
      "binary:skipped",
      "project:done",
      "clients:failed",
      "skill:done",
      "index:done",
      "verify:skipped",
    ]);
    expect(line(w, "[1/6]")).toBe(
      "[1/6] install the stable binary: skipped (running from source: bun is a JavaScript runtime, not a compiled ra3, so there is nothing to copy; build ra3 (npm run build) and run dist/ra3 setup to install it)",
    );
    expect(output(w)).toContain(
      "[3/6] configure the MCP clients: failed: ra3 is running from source (/usr/local/bin/bun), not as a compiled binary, and there is no installed binary at /home/ann/.ra3modxml/bin/ra3 for the configs to point at\n" +
        "      what to do: build ra3 with npm run build and run dist/ra3 setup (the compiled binary installs itself first)\n",
    );
  });

  test("with a binary installed earlier: the configs point at it", async () => {
    const w = world("linux", { "/home/ann/.ra3modxml/bin/ra3": "RA3 BINARY v0" });
    const r = await runSetup(setupDeps(w, { execPath: "/usr/local/bin/bun" }), request(w, { clients: ["cursor"] }));
    expect(statuses(r)).toEqual([
      "binary:skipped",
      "project:done",
      "clients:done",
      "skill:done",
      "index:done",
      "verify:done",
    ]);
    expect(
      r.steps[0].summary.endsWith(
        "; client configs point at the binary already installed at /home/ann/.ra3modxml/bin/ra3",
      ),
    ).toBe(true);
    expect(w.fs.text("/home/ann/.ra3modxml/bin/ra3")).toBe("RA3 BINARY v0");
    expect(JSON.parse(w.fs.text("/home/ann/.cursor/mcp.json")!).mcpServers.ra3.command).toBe(
      "/home/ann/.ra3modxml/bin/ra3",
    );
  });
});

describe("which clients", () => {
  test("without --client, the clients found installed (and only those)", async () => {
    const w = world("linux", { "/home/ann/.codex/config.toml": "# mine\n" });
    w.fs.removeTree("/home/ann/.cursor");
    const r = await runSetup(setupDeps(w), request(w, { clients: [] }));
    expect(r.clients.map((c) => `${c.client}:${c.result}`)).toEqual(["codex:updated"]);
    expect(line(w, "[3/6]")).toBe("[3/6] configure the MCP clients: done: 1 file written for 1 detected client");
    expect(w.fs.text("/home/ann/.codex/config.toml")).toBe(
      '# mine\n\n[mcp_servers.ra3]\ncommand = "/home/ann/.ra3modxml/bin/ra3"\nargs = ["mcp", "--project", "/home/ann/mods/corona"]\n',
    );
    const backups = w.fs.listAll().filter((p) => p.includes(".ra3-backup-"));
    expect(backups).toEqual(["/home/ann/.codex/config.toml.ra3-backup-20261123T141502Z"]);
  });

  test("no client found and none named: skipped, naming the ids and --print", async () => {
    const w = world("linux");
    w.fs.removeTree("/home/ann/.cursor");
    w.fs.removeTree("/home/ann/.codex");
    const r = await runSetup(setupDeps(w), request(w, { clients: [] }));
    expect(r.steps[2].status).toBe("skipped");
    expect(r.steps[2].summary).toBe(
      "no MCP client was found on this machine; name one with --client (claude-code, claude-desktop, cursor, vscode, codex, copilot, gemini, qwen, windsurf, cline, cline-vscode, zed, opencode), or use --print for the generic entry",
    );
  });

  test("--print prints the generic entry", async () => {
    const w = world("linux");
    const r = await runSetup(setupDeps(w), request(w, { clients: [], print: true }));
    expect(r.steps[2].status).toBe("done");
    expect(output(w)).toContain(
      [
        "[3/6] configure the MCP clients: done: printed the generic entry (no client was named with --client)",
        "      entry for other clients (add it under their servers key):",
        "      {",
        '        "mcpServers": {',
        '          "ra3": {',
        '            "command": "/home/ann/.ra3modxml/bin/ra3",',
        '            "args": [',
        '              "mcp",',
        '              "--project",',
        '              "/home/ann/mods/corona"',
        "            ]",
        "          }",
        "        }",
        "      }",
      ].join("\n"),
    );
  });
});

describe("Windows", () => {
  test("installs ra3.exe and writes entries with Windows paths", async () => {
    const w = world("windows", { "C:\\Users\\Ann Lee\\AppData\\Roaming\\Claude\\config.json": "{}" });
    const r = await runSetup(setupDeps(w), request(w, { clients: ["cursor", "claude-desktop"] }));
    expect(statuses(r)).toEqual([
      "binary:done",
      "project:done",
      "clients:done",
      "skill:done",
      "index:done",
      "verify:done",
    ]);
    expect(w.fs.text("C:\\Users\\Ann Lee\\.ra3modxml\\bin\\ra3.exe")).toBe("RA3 BINARY v1");
    expect(JSON.parse(w.fs.text("C:\\Users\\Ann Lee\\.cursor\\mcp.json")!).mcpServers.ra3).toEqual({
      command: "C:\\Users\\Ann Lee\\.ra3modxml\\bin\\ra3.exe",
      args: ["mcp", "--project", "D:\\Mods\\Corona Mod"],
    });
    expect(r.clients.map((c) => c.file)).toEqual([
      "C:\\Users\\Ann Lee\\.cursor\\mcp.json",
      "C:\\Users\\Ann Lee\\AppData\\Roaming\\Claude\\claude_desktop_config.json",
    ]);
  });

  test("a new version replaces the running binary by moving it aside", async () => {
    const w = world("windows");
    await runSetup(setupDeps(w), request(w));
    w.fs.lock(w.binary);
    await w.fs.writeFile(w.download, new TextEncoder().encode("RA3 BINARY v2"));
    w.out.length = 0;
    const r = await runSetup(setupDeps(w), request(w));
    expect(r.steps[0].summary).toBe(
      "updated: C:\\Users\\Ann Lee\\.ra3modxml\\bin\\ra3.exe (the previous one was moved aside to C:\\Users\\Ann Lee\\.ra3modxml\\bin\\ra3.exe.old-1)",
    );
    expect(w.fs.text(w.binary)).toBe("RA3 BINARY v2");
    expect(w.fs.text("C:\\Users\\Ann Lee\\.ra3modxml\\bin\\ra3.exe.old-1")).toBe("RA3 BINARY v1");
    expect(r.clients.map((c) => c.result)).toEqual(["unchanged", "unchanged", "unchanged"]);
  });
});

describe("entries", () => {
  test("--home is passed only when the home is not the default one", () => {
    const w = world("linux");
    const project = { projectDir: "/mods/x", sdkDir: "/opt/sdk", description: "" };
    expect(homeArgs(w.platform, "/home/ann/.ra3modxml")).toEqual([]);
    expect(serverEntryFor(w.platform, "/srv/ra3", "/srv/ra3/bin/ra3", project).args).toEqual([
      "mcp",
      "--project",
      "/mods/x",
      "--sdk",
      "/opt/sdk",
      "--home",
      "/srv/ra3",
    ]);
  });

  test("--entry files are written into every entry as absolute paths, and the live check starts exactly that", async () => {
    const w = world("linux", { "/home/ann/mods/corona/Data/Static.xml": "<AssetDeclaration/>" });
    const r = await runSetup(setupDeps(w), request(w, { clients: ["codex", "cursor"], entries: ["Data/Static.xml"] }));
    const args = ["mcp", "--project", "/home/ann/mods/corona", "--entry", "/home/ann/mods/corona/Data/Static.xml"];
    expect(r.ok).toBe(true);
    expect(JSON.parse(w.fs.text("/home/ann/.cursor/mcp.json")!).mcpServers.ra3.args).toEqual(args);
    expect(w.fs.text("/home/ann/.codex/config.toml")).toBe(
      `[mcp_servers.ra3]\ncommand = "/home/ann/.ra3modxml/bin/ra3"\nargs = ${
        JSON.stringify(args).replaceAll(",", ", ")
      }\n`,
    );
    expect(w.calls.live.map((c) => c.args)).toEqual([args]);
  });

  test("--entry on Windows: a backslash path relative to the mod, kept with its spaces", async () => {
    const w = world("windows", { "D:\\Mods\\Corona Mod\\Data\\Static.xml": "<AssetDeclaration/>" });
    const r = await runSetup(setupDeps(w), request(w, { clients: ["cursor"], entries: ["Data\\Static.xml"] }));
    expect(r.entry?.args).toEqual([
      "mcp",
      "--project",
      "D:\\Mods\\Corona Mod",
      "--entry",
      "D:\\Mods\\Corona Mod\\Data\\Static.xml",
    ]);
  });

  test("an --entry that is not a file: no config is written, the clients step says which and why", async () => {
    const w = world("linux");
    const r = await runSetup(
      setupDeps(w),
      request(w, { clients: ["cursor"], entries: ["Data/Mod.xml", "Data/Nope.xml"] }),
    );
    expect(r.steps.find((s) => s.id === "clients")?.status).toBe("failed");
    expect(output(w)).toContain(
      "--entry Data/Nope.xml is not a file in the mod (/home/ann/mods/corona/Data/Nope.xml); every entry would start the server on it",
    );
    expect(w.fs.text("/home/ann/.cursor/mcp.json")).toBe(null);
  });

  test("the live check of a setup with another home passes it to the server", async () => {
    const w = world("linux");
    const r = await runSetup(setupDeps(w, { home: "/data/ra3home" }), request(w, { clients: ["cursor"] }));
    expect(r.entry?.args).toEqual(["mcp", "--project", "/home/ann/mods/corona", "--home", "/data/ra3home"]);
    expect(w.calls.live[0].args).toEqual(["mcp", "--project", "/home/ann/mods/corona", "--home", "/data/ra3home"]);
  });
});

describe("step rendering", () => {
  test("skipped shows the reason in parentheses; failed shows what to do and names the next step", () => {
    expect(renderStep(stepReport("index", "skipped", "dry run"))).toBe(
      "[5/6] build the index and the snapshot: skipped (dry run)\n",
    );
    expect(renderStep(stepReport("verify", "failed", "boom", { todo: "fix it" }))).toBe(
      "[6/6] verify: start the installed server as a client would: failed: boom\n      what to do: fix it\n",
    );
    expect(renderStep(stepReport("binary", "failed", "boom", { todo: "fix it" }))).toBe(
      "[1/6] install the stable binary: failed: boom\n      what to do: fix it\n      continuing with step 2: detect the project and the SDK\n",
    );
  });

  test("the healthy fake is what the report carries", async () => {
    const w = world("linux");
    const r = await runSetup(setupDeps(w), request(w));
    expect(r.liveCheck).toEqual(HEALTHY);
  });
});
