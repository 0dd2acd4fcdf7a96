// The client traps of issue 13, each on an in-memory home: folder trust, trailing commas, Cline's
// environment variables, the skill folder that must not look like Claude Code, a user's own `ra3` entry,
// an empty servers container the user already had, paths a client would rewrite, a second mod, and
// config paths that loop or cannot be read.
import { describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { nodeFileSystem } from "../../src/disk/port.ts";
import { allWriters, planConfigChange, ra3ServerEntry, writerFor } from "../../src/setup/clients/index.ts";
import { planTrust, planTrustRemoval, trustOf } from "../../src/setup/clients/trust.ts";
import { renderDoctor, runDoctor } from "../../src/setup/doctor.ts";
import { platformFor } from "../../src/setup/platform.ts";
import { emptyReceipt } from "../../src/setup/receipt.ts";
import { runSetup, type SetupReport } from "../../src/setup/setup.ts";
import { runUninstall } from "../../src/setup/uninstall.ts";
import { MemoryFileSystem } from "../disk/memory-fs.ts";
import { doctorDeps, request, setupDeps, treeOf, uninstallDeps, type World, world } from "./setup-harness.ts";

const enc = (s: string) => new TextEncoder().encode(s);
const yes = { yes: true, interactive: false, all: false };
const clientLines = (r: SetupReport) => r.steps.find((s) => s.id === "clients")!.details.join("\n");
const outcome = (r: SetupReport, id: string) => r.clients.find((c) => c.client === id);

/** A world where Gemini CLI (and Qwen Code) are installed, with the user's settings. */
function geminiWorld(files: Record<string, string> = {}): World {
  return world("linux", {
    "/home/ann/.gemini/settings.json": '{\n  // mine\n  "ui": { "theme": "GitHub" }\n}\n',
    ...files,
  });
}

describe("Gemini CLI folder trust", () => {
  test("setup trusts the served mod (with the same consent), doctor checks it, uninstall takes it back byte for byte", async () => {
    const trusted = '{\n  "/home/ann/work": "TRUST_FOLDER"\n}\n';
    const w = geminiWorld({ "/home/ann/.gemini/trustedFolders.json": trusted });
    const r = await runSetup(setupDeps(w), request(w, { clients: ["gemini"] }));
    expect(r.ok).toBe(true);
    expect(w.fs.text("/home/ann/.gemini/trustedFolders.json")).toBe(
      '{\n  "/home/ann/work": "TRUST_FOLDER",\n  "/home/ann/mods/corona": "TRUST_FOLDER"\n}\n',
    );
    expect(clientLines(r)).toContain(
      "  trusted /home/ann/mods/corona in /home/ann/.gemini/trustedFolders.json (Gemini CLI disables MCP servers in folders you have not trusted)",
    );
    const receipt = JSON.parse(w.fs.text("/home/ann/.ra3modxml/install.json")!);
    expect(receipt.trust).toEqual([{
      client: "gemini",
      file: "/home/ann/.gemini/trustedFolders.json",
      folder: "/home/ann/mods/corona",
      createdFile: false,
    }]);
    const doc = await runDoctor(doctorDeps(w), { project: null });
    expect(renderDoctor(doc)).toContain(
      "  ✓ folder trust: /home/ann/mods/corona is trusted (/home/ann/.gemini/trustedFolders.json)\n",
    );
    await runUninstall(uninstallDeps(w), yes);
    expect(w.fs.text("/home/ann/.gemini/trustedFolders.json")).toBe(trusted);
    expect(w.fs.text("/home/ann/.gemini/settings.json")).toBe('{\n  // mine\n  "ui": { "theme": "GitHub" }\n}\n');
  });

  test("the dry run shows the trust change as a diff and writes nothing", async () => {
    const w = geminiWorld();
    const before = treeOf(w.fs);
    await runSetup(setupDeps(w), request(w, { clients: ["gemini"], dryRun: true }));
    expect(treeOf(w.fs)).toEqual(before);
    const out = w.out.join("");
    expect(out).toContain(
      "  /home/ann/.gemini/trustedFolders.json  (create: trust /home/ann/mods/corona in Gemini CLI)\n",
    );
    expect(out).toContain("would trust /home/ann/mods/corona in /home/ann/.gemini/trustedFolders.json");
  });

  test("a trust file ra3 created goes on uninstall", async () => {
    const w = geminiWorld();
    await runSetup(setupDeps(w), request(w, { clients: ["gemini"] }));
    expect(w.fs.text("/home/ann/.gemini/trustedFolders.json")).toBe(
      '{\n  "/home/ann/mods/corona": "TRUST_FOLDER"\n}\n',
    );
    await runUninstall(uninstallDeps(w), yes);
    expect(w.fs.text("/home/ann/.gemini/trustedFolders.json")).toBeNull();
  });

  test("doctor flags an entry Gemini keeps disabled because the folder is not trusted", async () => {
    const w = geminiWorld();
    await runSetup(setupDeps(w), request(w, { clients: ["gemini"] }));
    w.fs.remove("/home/ann/.gemini/trustedFolders.json");
    const doc = await runDoctor(doctorDeps(w), { project: null });
    expect(doc.ok).toBe(false);
    expect(renderDoctor(doc)).toContain(
      "  ✗ folder trust: Gemini CLI disables every MCP server, ra3 included, in folders you have not trusted, and /home/ann/mods/corona is not in /home/ann/.gemini/trustedFolders.json\n      what to do: trust it in Gemini CLI (/permissions), or run ra3 setup --client gemini\n",
    );
  });

  test("an explicit DO_NOT_TRUST is the user's decision: left alone, and said", async () => {
    const w = geminiWorld({ "/home/ann/.gemini/trustedFolders.json": '{ "/home/ann/mods": "DO_NOT_TRUST" }\n' });
    const r = await runSetup(setupDeps(w), request(w, { clients: ["gemini"] }));
    expect(w.fs.text("/home/ann/.gemini/trustedFolders.json")).toBe('{ "/home/ann/mods": "DO_NOT_TRUST" }\n');
    expect(r.steps.find((s) => s.id === "clients")?.status).toBe("done");
    expect(clientLines(r)).toContain(
      "note: /home/ann/.gemini/trustedFolders.json marks /home/ann/mods as DO_NOT_TRUST, so Gemini CLI keeps ra3 (and every MCP server) disabled in /home/ann/mods/corona; ra3 left that decision alone.",
    );
  });

  test("folder trust switched off in settings: nothing to trust", async () => {
    const w = geminiWorld({
      "/home/ann/.gemini/settings.json": '{ "security": { "folderTrust": { "enabled": false } } }\n',
    });
    await runSetup(setupDeps(w), request(w, { clients: ["gemini"] }));
    expect(w.fs.text("/home/ann/.gemini/trustedFolders.json")).toBeNull();
  });

  test("the longest matching rule decides; TRUST_PARENT covers the parent", () => {
    const flavour = platformFor("linux", "/h").pathFlavour;
    expect(trustOf("/m/a/Data", { "/m": "DO_NOT_TRUST", "/m/a": "TRUST_FOLDER" }, flavour)).toEqual({
      kind: "trusted",
      rule: "/m/a",
    });
    expect(trustOf("/m/b", { "/m/a": "TRUST_PARENT" }, flavour)).toEqual({ kind: "trusted", rule: "/m/a" });
    expect(trustOf("/x", { "/m": "TRUST_FOLDER" }, flavour)).toEqual({ kind: "unknown" });
  });

  test("an unreadable trust file fails the clients step with one line; the entry itself is written", async () => {
    const w = geminiWorld({ "/home/ann/.gemini/trustedFolders.json": "{ nope" });
    const r = await runSetup(setupDeps(w), request(w, { clients: ["gemini"] }));
    expect(r.steps.find((s) => s.id === "clients")?.status).toBe("failed");
    expect(clientLines(r)).toContain("  ✗ /home/ann/.gemini/trustedFolders.json:1:3: not valid JSON");
    expect(w.fs.text("/home/ann/.gemini/trustedFolders.json")).toBe("{ nope");
  });

  test("an invalid trust file is an error naming it; a removal keeps the other rules byte for byte", () => {
    const p = platformFor("linux", "/home/ann");
    const gemini = writerFor("gemini")!;
    const spec = { id: "gemini", displayName: "Gemini CLI", trust: gemini.trust! };
    const bad = new MemoryFileSystem(p.pathFlavour, { "/home/ann/.gemini/trustedFolders.json": "{ nope" });
    expect(planTrust(spec, p, bad, "/m").change).toBe("error");
    const text = '{\n  // keep\n  "/a": "TRUST_FOLDER",\n  "/m": "TRUST_FOLDER"\n}\n';
    const fs = new MemoryFileSystem(p.pathFlavour, { "/home/ann/.gemini/trustedFolders.json": text });
    const removal = planTrustRemoval(
      { client: "gemini", file: "/home/ann/.gemini/trustedFolders.json", folder: "/m", createdFile: false },
      fs,
    );
    expect(removal.change === "remove" && removal.after).toBe('{\n  // keep\n  "/a": "TRUST_FOLDER"\n}\n');
  });
});

describe("Qwen Code", () => {
  test("folder trust is off unless its settings switch it on; then setup trusts the mod too", async () => {
    const off = world("linux", { "/home/ann/.qwen/settings.json": "{}\n" });
    await runSetup(setupDeps(off), request(off, { clients: ["qwen"] }));
    expect(off.fs.text("/home/ann/.qwen/trustedFolders.json")).toBeNull();
    const on = world("linux", {
      "/home/ann/.qwen/settings.json": '{ "security": { "folderTrust": { "enabled": true } } }\n',
    });
    await runSetup(setupDeps(on), request(on, { clients: ["qwen"] }));
    expect(on.fs.text("/home/ann/.qwen/trustedFolders.json")).toBe('{\n  "/home/ann/mods/corona": "TRUST_FOLDER"\n}\n');
  });
});

describe("trailing commas (Gemini CLI and Qwen Code refuse the whole file)", () => {
  for (
    const [id, file, name] of [
      ["gemini", "/home/ann/.gemini/settings.json", "Gemini CLI"],
      ["qwen", "/home/ann/.qwen/settings.json", "Qwen Code"],
    ] as const
  ) {
    test(`${name}: setup leaves the file alone and says where; doctor flags it`, async () => {
      const text = '{\n  "ui": { "theme": "GitHub" },\n}\n';
      const w = world("linux", { [file]: text });
      const r = await runSetup(setupDeps(w), request(w, { clients: [id] }));
      expect(outcome(r, id)?.error).toBe(
        `${file}:2:30: a trailing comma, which ${name} refuses (it ignores the whole file until the comma is removed). ra3 left the file unchanged; fix it (or move it aside) and run setup again.`,
      );
      expect(w.fs.text(file)).toBe(text);
      // Once fixed, set up; then a comma added by hand is what doctor reports.
      w.fs.writeFile(file, enc('{\n  "ui": { "theme": "GitHub" }\n}\n'));
      await runSetup(setupDeps(w), request(w, { clients: [id] }));
      w.fs.writeFile(file, enc(w.fs.text(file)!.replace(/\}\n {2}\}\n\}\n$/, "},\n  }\n}\n")));
      const doc = await runDoctor(doctorDeps(w), { project: null });
      expect(doc.checks.find((c) => c.group === `${name}: ${file}`)?.problem).toMatch(
        new RegExp(`^${file.replace(/\./g, "\\.")}:\\d+:\\d+: a trailing comma, which ${name} refuses`),
      );
    });
  }

  test("Copilot CLI accepts them: its file with trailing commas is edited, the commas kept", async () => {
    const file = "/home/ann/.copilot/mcp-config.json";
    const w = world("linux", { [file]: '{\n  "mcpServers": {\n    "gh": { "command": "gh-mcp" },\n  },\n}\n' });
    const r = await runSetup(setupDeps(w), request(w, { clients: ["copilot"] }));
    expect(outcome(r, "copilot")?.result).toBe("updated");
    expect(w.fs.text(file)).toContain('"tools": ["*"]');
  });
});

describe("Cline", () => {
  test("CLINE_MCP_SETTINGS_PATH is where setup writes for Cline CLI", async () => {
    const w = world("linux", { "/opt/cline/mcp.json": '{ "mcpServers": {} }\n' });
    const deps = setupDeps(w, {
      platform: platformFor("linux", "/home/ann", { CLINE_MCP_SETTINGS_PATH: "/opt/cline/mcp.json" }),
    });
    const r = await runSetup(deps, request(w, { clients: ["cline"] }));
    expect(outcome(r, "cline")?.file).toBe("/opt/cline/mcp.json");
    expect(JSON.parse(w.fs.text("/opt/cline/mcp.json")!).mcpServers.ra3.transport.command).toBe(
      "/home/ann/.ra3modxml/bin/ra3",
    );
  });

  test("no Cline installed: --client cline creates no folder tree (not even VS Code's), and says why", async () => {
    const w = world("linux");
    const before = treeOf(w.fs);
    const r = await runSetup(setupDeps(w), request(w, { clients: ["cline"] }));
    expect(outcome(r, "cline")?.error).toBe(
      "Cline CLI does not look installed for this user (neither its folder nor its program on PATH was found), and ra3 does not create a client's folders for it; /home/ann/.cline/data/settings was left alone. Install Cline CLI (or start it once) and run setup again.",
    );
    const created = Object.keys(treeOf(w.fs)).filter((p) => !(p in before));
    expect(created.filter((p) => p.includes(".cline") || p.includes("Code"))).toEqual([]);
  });

  test("both installed: both files get the entry, each in its own shape", async () => {
    const ext = "/home/ann/.config/Code/User/globalStorage/saoudrizwan.claude-dev";
    const w = world("linux", {
      "/home/ann/.cline/data/settings/providers.json": "{}",
      [`${ext}/state.json`]: "{}",
    });
    const r = await runSetup(setupDeps(w), request(w, { clients: ["cline"] }));
    expect(r.clients.map((c) => `${c.client}:${c.result}`)).toEqual(["cline:created", "cline-vscode:created"]);
    expect(JSON.parse(w.fs.text(`${ext}/settings/cline_mcp_settings.json`)!).mcpServers.ra3.command).toBe(
      "/home/ann/.ra3modxml/bin/ra3",
    );
  });
});

describe("detection that ra3 itself does not fool", () => {
  test("the skill's ~/.claude/skills does not make the next setup write ~/.claude.json", async () => {
    const w = world("linux");
    w.fs.removeTree("/home/ann/.codex");
    w.fs.removeTree("/home/ann/.cursor");
    const first = await runSetup(setupDeps(w), request(w, { clients: [] }));
    expect(first.clients).toEqual([]);
    expect(w.fs.text("/home/ann/.claude/skills/ra3-mod-xml/SKILL.md")).not.toBeNull();
    const second = await runSetup(setupDeps(w), request(w, { clients: [] }));
    expect(second.clients).toEqual([]);
    expect(w.fs.text("/home/ann/.claude.json")).toBeNull();
  });
});

describe("a user's own ra3 entry is never lost", () => {
  const cases = [
    {
      id: "codex",
      file: "/home/ann/.codex/config.toml",
      text:
        '[mcp_servers.ra3]\ncommand = "/opt/ra3/ra3"\nargs = ["mcp", "--project", "/home/ann/mods/corona"]\nstartup_timeout_sec = 30\n\n[mcp_servers.ra3.env]\nRA3_SDK = "/opt/sdk"\n',
    },
    {
      id: "cline",
      file: "/home/ann/.cline/data/settings/cline_mcp_settings.json",
      text:
        '{\n  "mcpServers": {\n    "ra3": { "command": "/opt/ra3/ra3", "args": ["mcp"], "disabled": false, "autoApprove": ["find_asset"] }\n  }\n}\n',
    },
    {
      id: "zed",
      file: "/home/ann/.config/zed/settings.json",
      text:
        '{\n  "context_servers": {\n    "ra3": { "command": "/opt/ra3/ra3", "args": ["mcp"], "env": { "RA3_SDK": "/opt/sdk" } }\n  }\n}\n',
    },
  ] as const;
  for (const c of cases) {
    test(`${c.id}: setup refuses and offers --name, uninstall never touches it; --name adds ra3's beside it and takes only that away`, async () => {
      const w = world("linux", { [c.file]: c.text });
      const r = await runSetup(setupDeps(w), request(w, { clients: [c.id] }));
      expect(outcome(r, c.id)?.result).toBe("failed");
      expect(outcome(r, c.id)?.error).toBe(
        `${c.file} already has a server named "ra3" that ra3 did not write; ra3 left it as it is. Run ra3 setup --name ra3-index to add ra3's entry under another name, or remove that entry and run setup again.`,
      );
      expect(w.fs.text(c.file)).toBe(c.text);
      await runUninstall(uninstallDeps(w), yes);
      expect(w.fs.text(c.file)).toBe(c.text);

      const named = await runSetup(setupDeps(w), request(w, { clients: [c.id], name: "ra3-index" }));
      expect(outcome(named, c.id)?.result).toBe("updated");
      expect(w.fs.text(c.file)).toContain("ra3-index");
      const doc = await runDoctor(doctorDeps(w), { project: null });
      expect(doc.checks.filter((x) => x.label === "the ra3-index entry runs the stable binary")).toHaveLength(1);
      await runUninstall(uninstallDeps(w), yes);
      expect(w.fs.text(c.file)).toBe(c.text);
    });
  }

  test("an identical hand-written entry is left as it is and stays the user's", async () => {
    const file = "/home/ann/.cursor/mcp.json";
    const text =
      '{\n  "mcpServers": {\n    "ra3": {\n      "command": "/home/ann/.ra3modxml/bin/ra3",\n      "args": ["mcp", "--project", "/home/ann/mods/corona"]\n    }\n  }\n}\n';
    const w = world("linux", { [file]: text });
    const r = await runSetup(setupDeps(w), request(w, { clients: ["cursor"] }));
    expect(outcome(r, "cursor")?.result).toBe("unchanged");
    expect(JSON.parse(w.fs.text("/home/ann/.ra3modxml/install.json")!).configs).toEqual([]);
    await runUninstall(uninstallDeps(w), yes);
    expect(w.fs.text(file)).toBe(text);
  });
});

describe("an empty servers container the user already had is kept", () => {
  for (
    const [id, file, text] of [
      ["claude-code", "/home/ann/.claude.json", '{\n  "numStartups": 3,\n  "mcpServers": {}\n}\n'],
      ["vscode", "/home/ann/.config/Code/User/mcp.json", '{\n  "servers": {}\n}\n'],
      ["copilot", "/home/ann/.copilot/mcp-config.json", '{ "mcpServers": {} }\n'],
    ] as const
  ) {
    test(`${id}: setup + uninstall gives back ${JSON.stringify(text)} byte for byte`, async () => {
      const w = world("linux", { [file]: text });
      await runSetup(setupDeps(w), request(w, { clients: [id] }));
      expect(w.fs.text(file)).toContain('"ra3"');
      await runUninstall(uninstallDeps(w), yes);
      expect(w.fs.text(file)).toBe(text);
    });
  }
});

describe("paths a client would rewrite", () => {
  function dollarWorld(project: string): World {
    const w = world("linux", {
      [`${project}/Data/Mod.xml`]: "<AssetDeclaration/>",
      "/home/ann/.gemini/settings.json": "{}\n",
      "/home/ann/.config/opencode/opencode.json": "{}\n",
    });
    w.project_ = { ok: true, project: { projectDir: project, sdkDir: null, description: "no SDK" } };
    return w;
  }

  test("each client gets the form it leaves alone: file: URIs where it expands, the plain path elsewhere", async () => {
    const project = "/home/ann/mods/Cash $HOME ${HOME} {env:HOME} Mod";
    const w = dollarWorld(project);
    await runSetup(setupDeps(w), request(w, { clients: ["gemini", "claude-code", "opencode", "codex", "cursor"] }));
    const uri = "file:///home/ann/mods/Cash%20%24HOME%20%24%7BHOME%7D%20%7Benv%3AHOME%7D%20Mod";
    expect(JSON.parse(w.fs.text("/home/ann/.gemini/settings.json")!).mcpServers.ra3.args).toEqual([
      "mcp",
      "--project",
      uri,
    ]);
    expect(JSON.parse(w.fs.text("/home/ann/.claude.json")!).mcpServers.ra3.args[2]).toBe(uri);
    expect(JSON.parse(w.fs.text("/home/ann/.config/opencode/opencode.json")!).mcp.ra3.command[3]).toBe(uri);
    expect(w.fs.text("/home/ann/.codex/config.toml")).toContain(`"--project", "${project}"`);
    // Cursor documents ${env:NAME} / ${userHome} interpolation: the ${HOME} in the name makes it a URI too.
    expect(JSON.parse(w.fs.text("/home/ann/.cursor/mcp.json")!).mcpServers.ra3.args[2]).toBe(uri);
    // Every entry checks out: doctor expands as each client would and finds the mod.
    const doc = await runDoctor(doctorDeps(w), { project: null });
    expect(doc.checks.filter((c) => !c.ok && c.group !== "snapshot")).toEqual([]);
    expect(w.calls.live.map((l) => l.args[2])).toContain(uri);
  });

  test("a plain $HOME stays plain for Cursor (it interpolates only ${…}) and Codex (nothing)", async () => {
    const project = "/home/ann/mods/Cash $HOME Mod";
    const w = dollarWorld(project);
    await runSetup(setupDeps(w), request(w, { clients: ["cursor", "codex"] }));
    expect(JSON.parse(w.fs.text("/home/ann/.cursor/mcp.json")!).mcpServers.ra3.args[2]).toBe(project);
    expect(w.fs.text("/home/ann/.codex/config.toml")).toContain(`"--project", "${project}"`);
  });

  test("only what would be rewritten is encoded: a $ before a digit or alone stays plain for Gemini", async () => {
    const project = "/home/ann/mods/Cost $5 and $ signs";
    const w = dollarWorld(project);
    await runSetup(setupDeps(w), request(w, { clients: ["gemini"] }));
    expect(JSON.parse(w.fs.text("/home/ann/.gemini/settings.json")!).mcpServers.ra3.args[2]).toBe(project);
  });

  test("doctor starts what the client starts: a hand-written $HOME path is expanded before the live check", async () => {
    const w = dollarWorld("/home/ann/mods/corona");
    w.fs.writeFile(
      "/home/ann/.gemini/settings.json",
      enc(
        '{ "mcpServers": { "ra3": { "command": "/home/ann/.ra3modxml/bin/ra3", "args": ["mcp", "--project", "$HOME/mods/corona"] } } }\n',
      ),
    );
    const deps = doctorDeps(w, { platform: platformFor("linux", "/home/ann", { HOME: "/home/ann" }) });
    const doc = await runDoctor(deps, { project: null });
    const gemini = doc.checks.filter((c) => c.group === "Gemini CLI: /home/ann/.gemini/settings.json");
    expect(gemini.find((c) => c.label === "the project $HOME/mods/corona")?.problem).toBe(
      "Gemini CLI rewrites $VAR and ${VAR} in the path and starts the server on /home/ann/mods/corona",
    );
    expect(w.calls.live.at(-1)?.args).toEqual(["mcp", "--project", "/home/ann/mods/corona"]);
  });
});

describe("a second mod", () => {
  function twoMods(): World {
    return world("linux", {
      "/home/ann/mods/upheaval/Data/Mod.xml": "<AssetDeclaration/>",
      "/srv/other/Far/Data/Mod.xml": "<AssetDeclaration/>",
    });
  }
  const pick = (w: World, dir: string) => {
    w.project_ = { ok: true, project: { projectDir: dir, sdkDir: null, description: "no SDK" } };
  };

  test("a sibling mod moves the user entry to the mods' folder, and the line says what changed for which mod", async () => {
    const w = twoMods();
    await runSetup(setupDeps(w), request(w, { clients: ["cursor"] }));
    pick(w, "/home/ann/mods/upheaval");
    const r = await runSetup(setupDeps(w), request(w, { clients: ["cursor"] }));
    expect(clientLines(r)).toContain(
      "✓ Cursor: /home/ann/.cursor/mcp.json: updated; now serves the mods in /home/ann/mods (corona, upheaval); it served /home/ann/mods/corona before",
    );
    expect(JSON.parse(w.fs.text("/home/ann/.cursor/mcp.json")!).mcpServers.ra3.args).toEqual([
      "mcp",
      "--project",
      "/home/ann/mods",
    ]);
    // A third run for either mod changes nothing and says the mod is served through the folder.
    const again = await runSetup(setupDeps(w), request(w, { clients: ["cursor"] }));
    expect(clientLines(again)).toContain(
      "unchanged; serves the mods in /home/ann/mods (corona, upheaval), this one included",
    );
    const doc = await runDoctor(doctorDeps(w), { project: null });
    expect(renderDoctor(doc)).toContain("  ✓ the mods in /home/ann/mods (corona, upheaval)\n");
  });

  test("a mod with no folder in common is not silently repointed: the entry stays, the line says what to do", async () => {
    const w = twoMods();
    await runSetup(setupDeps(w), request(w, { clients: ["cursor"] }));
    const before = w.fs.text("/home/ann/.cursor/mcp.json");
    pick(w, "/srv/other/Far");
    const r = await runSetup(setupDeps(w), request(w, { clients: ["cursor"] }));
    expect(outcome(r, "cursor")?.error).toBe(
      'its "ra3" entry serves /home/ann/mods/corona, and /srv/other/Far shares no folder with it that ra3 would serve (only a drive root or your home folder); ra3 left the entry as it is. For this mod, run ra3 setup --project "/srv/other/Far" --name ra3-2 (a second entry) or --scope project (a file in the mod folder).',
    );
    expect(w.fs.text("/home/ann/.cursor/mcp.json")).toBe(before);
    const second = await runSetup(setupDeps(w), request(w, { clients: ["cursor"], name: "ra3-2" }));
    expect(outcome(second, "cursor")?.result).toBe("updated");
    expect(Object.keys(JSON.parse(w.fs.text("/home/ann/.cursor/mcp.json")!).mcpServers)).toEqual(["ra3", "ra3-2"]);
  });

  test("--entry for a sibling mod does not move the entry to the mods' folder (entry points belong to one mod)", async () => {
    const w = twoMods();
    await runSetup(setupDeps(w), request(w, { clients: ["cursor"] }));
    const before = w.fs.text("/home/ann/.cursor/mcp.json");
    pick(w, "/home/ann/mods/upheaval");
    const r = await runSetup(setupDeps(w), request(w, { clients: ["cursor"], entries: ["Data/Mod.xml"] }));
    expect(outcome(r, "cursor")?.error).toBe(
      'its "ra3" entry serves /home/ann/mods, a folder of several mods, and --entry names one mod\'s entry points; ra3 left the entry as it is. For this mod, run ra3 setup --project "/home/ann/mods/upheaval" --entry … --name ra3-2 (a second entry) or --scope project (a file in the mod folder).',
    );
    expect(w.fs.text("/home/ann/.cursor/mcp.json")).toBe(before);
  });

  test("--scope project writes the mod's own file and leaves the user entry alone", async () => {
    const w = twoMods();
    await runSetup(setupDeps(w), request(w, { clients: ["cursor"] }));
    pick(w, "/srv/other/Far");
    const r = await runSetup(setupDeps(w), request(w, { clients: ["cursor"], scope: "project" }));
    expect(outcome(r, "cursor")?.file).toBe("/srv/other/Far/.cursor/mcp.json");
    expect(JSON.parse(w.fs.text("/srv/other/Far/.cursor/mcp.json")!).mcpServers.ra3.args).toEqual([
      "mcp",
      "--project",
      "/srv/other/Far",
    ]);
    expect(JSON.parse(w.fs.text("/home/ann/.cursor/mcp.json")!).mcpServers.ra3.args[2]).toBe("/home/ann/mods/corona");
  });
});

describe("setup never crashes on a strange home", () => {
  // Every writer's user file (on an installed client), then made a link loop or put in a folder ra3 may not read.
  const installed = (w: World) => {
    for (const writer of allWriters) {
      const loc = writer.locate(w.platform, "user", w.fs);
      if (loc.file) w.fs.mkdir(w.fs.path.dirname(loc.file));
    }
  };
  for (const writer of allWriters) {
    test(`${writer.id}: a looping symbolic link and an unreadable folder are one line each; the other clients go on`, async () => {
      for (const trap of ["loop", "denied"] as const) {
        const w = world("linux");
        installed(w);
        const file = writer.locate(w.platform, "user", w.fs).file!;
        if (trap === "loop") {
          w.fs.symlink(file, `${file}.b`);
          w.fs.symlink(`${file}.b`, file);
        } else {
          // The file's folder, unless that is the home itself (Claude Code's ~/.claude.json): then the file.
          const dir = w.fs.path.dirname(file);
          w.fs.deny(dir === w.platform.home ? file : dir);
        }
        const others = writer.id === "cursor" ? "codex" : "cursor";
        const r = await runSetup(setupDeps(w), request(w, { clients: [writer.id, others] }));
        const mine = outcome(r, writer.id);
        expect(mine?.result).toBe("failed");
        expect(mine?.error).toContain(trap === "loop" ? "(ELOOP)" : "(EACCES)");
        expect(mine?.error?.split("\n")).toHaveLength(1);
        expect(outcome(r, others)?.result).toBe("created");
        expect(r.steps.map((s) => s.id)).toEqual(["binary", "project", "clients", "skill", "index", "verify"]);
      }
    });
  }

  test("an unreadable receipt: setup refuses with one sentence instead of a stack trace", async () => {
    const w = world("linux");
    w.fs.deny("/home/ann/.ra3modxml/install.json");
    const r = await runSetup(setupDeps(w), request(w));
    expect(r.mode).toBe("refused");
    expect(r.error).toBe(
      "/home/ann/.ra3modxml/install.json cannot be read (permission denied (EACCES)); fix its permissions and run the command again.",
    );
  });

  test("an unreadable receipt-recorded file during uninstall is one failed item, the rest goes", async () => {
    const w = world("linux");
    await runSetup(setupDeps(w), request(w));
    w.fs.deny("/home/ann/.cursor");
    const r = await runUninstall(uninstallDeps(w), yes);
    expect(r.items.filter((i) => i.result === "failed").map((i) => i.path)).toEqual(["/home/ann/.cursor/mcp.json"]);
    expect(w.fs.text("/home/ann/.codex/config.toml")).toBeNull();
  });
});

describe("on the real file system: link loops at opencode's and Cline's files (the reported crashes)", () => {
  test("planning reports ELOOP for each, presence does not throw", () => {
    const tmp = mkdtempSync(join(tmpdir(), "ra3-traps-"));
    try {
      const home = join(tmp, "home");
      const oc = join(home, ".config", "opencode");
      const cl = join(home, ".cline", "data", "settings");
      mkdirSync(oc, { recursive: true });
      mkdirSync(cl, { recursive: true });
      symlinkSync(join(oc, "b.json"), join(oc, "opencode.json"));
      symlinkSync(join(oc, "opencode.json"), join(oc, "b.json"));
      symlinkSync(join(cl, "x"), join(cl, "cline_mcp_settings.json"));
      symlinkSync(join(cl, "cline_mcp_settings.json"), join(cl, "x"));
      const platform = platformFor("linux", home, {});
      const fs = nodeFileSystem();
      const entry = ra3ServerEntry({ binaryPath: join(home, ".ra3modxml", "bin", "ra3"), projectDir: "/mods/x" });
      for (const id of ["opencode", "cline"]) {
        const writer = writerFor(id)!;
        expect(() => writer.presence(platform, fs)).not.toThrow();
        const plan = planConfigChange(writer, platform, "user", entry, fs, emptyReceipt("0.1.0"));
        expect(plan.change).toBe("error");
        expect(plan.error).toContain("a symbolic link points back at itself (a link loop) (ELOOP)");
      }
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  });
});
