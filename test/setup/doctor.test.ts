import { describe, expect, test } from "bun:test";
import { cursorWriter } from "../../src/setup/clients/cursor.ts";
import { codexWriter } from "../../src/setup/clients/codex.ts";
import { opencodeWriter } from "../../src/setup/clients/opencode.ts";
import { type DoctorReport, extractEntry, formatAge, renderDoctor, runDoctor } from "../../src/setup/doctor.ts";
import { runSetup } from "../../src/setup/setup.ts";
import { doctorDeps, request, setupDeps, type World, world } from "./setup-harness.ts";

async function installed(os: "linux" | "windows" = "linux"): Promise<World> {
  const w = world(os);
  await runSetup(setupDeps(w), request(w));
  w.calls.live.length = 0;
  return w;
}

const bad = (r: DoctorReport) =>
  r.checks.filter((c) => !c.ok).map((c) => `${c.group} | ${c.label}: ${c.problem} | ${c.todo}`);
const enc = (s: string) => new TextEncoder().encode(s);

describe("a healthy installation", () => {
  test("all ✓, live checks spawn each entry exactly, verdict 'all is well'", async () => {
    const w = await installed();
    const r = await runDoctor(doctorDeps(w), { project: null });
    expect(r.ok).toBe(true);
    expect(renderDoctor(r)).toBe(
      [
        "ra3 doctor 0.1.0: home /home/ann/.ra3modxml",
        "install",
        "  ✓ install receipt /home/ann/.ra3modxml/install.json: 3 client configs, 2 skill copies",
        "  ✓ stable binary /home/ann/.ra3modxml/bin/ra3 (matches the receipt)",
        "Claude Code: /home/ann/.claude.json",
        "  ✓ the file parses",
        "  ✓ the ra3 entry runs the stable binary",
        "  ✓ the project /home/ann/mods/corona",
        "  ✓ live check: initialize → tools/list (15 tools) → get_status in 42 ms (index ready)",
        "Codex: /home/ann/.codex/config.toml",
        "  ✓ the file parses",
        "  ✓ the ra3 entry runs the stable binary",
        "  ✓ the project /home/ann/mods/corona",
        "  ✓ live check: initialize → tools/list (15 tools) → get_status in 42 ms (index ready)",
        "Cursor: /home/ann/.cursor/mcp.json",
        "  ✓ the file parses",
        "  ✓ the ra3 entry runs the stable binary",
        "  ✓ the project /home/ann/mods/corona",
        "  ✓ live check: initialize → tools/list (15 tools) → get_status in 42 ms (index ready)",
        "skill",
        "  ✓ /home/ann/.agents/skills/ra3-mod-xml: version 0.1.0",
        "  ✓ /home/ann/.claude/skills/ra3-mod-xml: version 0.1.0",
        "snapshot",
        "  ✓ /home/ann/mods/corona: /home/ann/.ra3modxml/snapshots/corona-0123456789ab.msgpack, 5.1 KB, 16 files, 2 min old",
        "all is well",
        "",
      ].join("\n"),
    );
    const args = ["mcp", "--project", "/home/ann/mods/corona"];
    expect(w.calls.live).toEqual(
      [0, 1, 2].map(() => ({ command: "/home/ann/.ra3modxml/bin/ra3", args, cwd: "/home/ann", timeoutMs: 20_000 })),
    );
    expect(r.clients.map((c) => `${c.client}:${c.source}`)).toEqual([
      "claude-code:receipt",
      "codex:receipt",
      "cursor:receipt",
    ]);
  });

  test("Windows paths", async () => {
    const w = await installed("windows");
    const r = await runDoctor(doctorDeps(w), { project: "d:/mods/corona mod" });
    expect(bad(r)).toEqual([]);
    expect(r.ok).toBe(true);
    expect(r.binary).toBe("C:\\Users\\Ann Lee\\.ra3modxml\\bin\\ra3.exe");
  });
});

describe("each problem gives an exact ✗ line with what to do", () => {
  test("an entry pointing at a stale binary path", async () => {
    const w = await installed();
    const file = "/home/ann/.cursor/mcp.json";
    await w.fs.writeFile(
      file,
      enc(w.fs.text(file)!.replace('"/home/ann/.ra3modxml/bin/ra3"', '"/home/ann/Downloads/ra3-0.0.9"')),
    );
    const r = await runDoctor(doctorDeps(w), { project: null });
    expect(r.ok).toBe(false);
    expect(bad(r)).toEqual([
      "Cursor: /home/ann/.cursor/mcp.json | the ra3 entry: it runs /home/ann/Downloads/ra3-0.0.9, not the stable binary /home/ann/.ra3modxml/bin/ra3 | run ra3 setup --client cursor",
    ]);
    expect(renderDoctor(r)).toContain(
      "  ✗ the ra3 entry: it runs /home/ann/Downloads/ra3-0.0.9, not the stable binary /home/ann/.ra3modxml/bin/ra3\n      what to do: run ra3 setup --client cursor\n",
    );
    expect(renderDoctor(r).endsWith("1 problem found\n")).toBe(true);
    expect(w.calls.live.map((c) => c.command)).toContain("/home/ann/Downloads/ra3-0.0.9");
  });

  test("a missing config file", async () => {
    const w = await installed();
    await w.fs.remove("/home/ann/.codex/config.toml");
    const r = await runDoctor(doctorDeps(w), { project: null });
    expect(bad(r)).toEqual([
      "Codex: /home/ann/.codex/config.toml | the file: it is missing | run ra3 setup --client codex",
    ]);
  });

  test("a broken JSON file", async () => {
    const w = await installed();
    await w.fs.writeFile("/home/ann/.claude.json", enc('{\n  "mcpServers": {,\n}\n'));
    const r = await runDoctor(doctorDeps(w), { project: null });
    expect(bad(r)).toEqual([
      "Claude Code: /home/ann/.claude.json | the file parses: /home/ann/.claude.json:2:18: not valid JSON (value expected) | fix the file (Claude Code ignores its servers until then), then run ra3 setup --client claude-code",
    ]);
  });

  test("a broken TOML file", async () => {
    const w = await installed();
    await w.fs.writeFile("/home/ann/.codex/config.toml", enc("[mcp_servers.ra3\ncommand = 1\n"));
    const r = await runDoctor(doctorDeps(w), { project: null });
    expect(bad(r)).toHaveLength(1);
    expect(
      bad(r)[0].startsWith("Codex: /home/ann/.codex/config.toml | the file parses: /home/ann/.codex/config.toml:1:"),
    ).toBe(true);
  });

  test("the entry was removed from the file", async () => {
    const w = await installed();
    await w.fs.writeFile("/home/ann/.cursor/mcp.json", enc('{ "mcpServers": {} }\n'));
    const r = await runDoctor(doctorDeps(w), { project: null });
    expect(bad(r)).toEqual([
      'Cursor: /home/ann/.cursor/mcp.json | the ra3 entry: there is no "ra3" entry under "mcpServers" | run ra3 setup --client cursor',
    ]);
  });

  test("a live check that fails", async () => {
    const w = await installed();
    w.live = (
      req,
    ) => (req.args.includes("--project")
      ? { ok: false, ms: 20_000, stage: "initialize", error: "no answer within 20 s" }
      : { ok: false, ms: 1, stage: "spawn", error: "?" });
    const r = await runDoctor(doctorDeps(w), { project: null });
    expect(bad(r)[0]).toBe(
      "Claude Code: /home/ann/.claude.json | live check: failed at initialize after 20000 ms: no answer within 20 s | run the entry by hand to see what Claude Code sees: /home/ann/.ra3modxml/bin/ra3 mcp --project /home/ann/mods/corona",
    );
    expect(bad(r)).toHaveLength(3);
  });

  test("a project that is not the one asked for, or not a mod", async () => {
    const w = await installed();
    let r = await runDoctor(doctorDeps(w), { project: "/home/ann/mods/other" });
    expect(bad(r)[0]).toBe(
      'Claude Code: /home/ann/.claude.json | the project /home/ann/mods/corona: it is not /home/ann/mods/other | run ra3 setup --client claude-code --project "/home/ann/mods/other"',
    );
    await w.fs.remove("/home/ann/mods/corona/Data/Mod.xml");
    r = await runDoctor(doctorDeps(w), { project: null });
    expect(bad(r)).toContain(
      "Cursor: /home/ann/.cursor/mcp.json | the project /home/ann/mods/corona: it is not a mod folder (no Data/Mod.xml, .babproj or map metadata) nor a folder of mods, or does not exist | run ra3 setup --client cursor --project DIR with the mod's folder",
    );
  });

  test("the stable binary is missing, or differs from the receipt", async () => {
    const w = await installed();
    await w.fs.writeFile(w.binary, enc("SOMETHING ELSE"));
    let r = await runDoctor(doctorDeps(w), { project: null });
    expect(bad(r)).toEqual([
      "install | stable binary /home/ann/.ra3modxml/bin/ra3: it differs from the binary setup installed (the receipt's checksum does not match) | run ra3 setup again to reinstall it",
    ]);
    await w.fs.remove(w.binary);
    r = await runDoctor(doctorDeps(w), { project: null });
    expect(bad(r)[0]).toBe(
      "install | stable binary /home/ann/.ra3modxml/bin/ra3: it is missing | run ra3 setup with a compiled ra3 (it installs itself there)",
    );
  });

  test("the installed server reports another version", async () => {
    const w = await installed();
    w.live = () => ({ ok: true, ms: 40, tools: 15, serverName: "ra3", serverVersion: "0.0.9", indexState: "ready" });
    const r = await runDoctor(doctorDeps(w), { project: null });
    expect(bad(r)).toEqual([
      "install | installed version: the stable binary is ra3 0.0.9; this is ra3 0.1.0 | run ra3 setup with the newer binary to update the stable copy",
    ]);
  });

  test("skill copies: missing, outdated, files deleted; a changed file is fine", async () => {
    const w = await installed();
    const agents = "/home/ann/.agents/skills/ra3-mod-xml";
    const claude = "/home/ann/.claude/skills/ra3-mod-xml";
    await w.fs.writeFile(`${agents}/SKILL.md`, enc("my own notes"));
    let r = await runDoctor(doctorDeps(w), { project: null });
    expect(r.ok).toBe(true);
    expect(r.checks.find((c) => c.label.startsWith(agents))?.label).toBe(
      `${agents}: version 0.1.0; you changed SKILL.md (ra3 keeps your changes)`,
    );

    await w.fs.remove(`${claude}/references/query-guide.md`);
    r = await runDoctor(doctorDeps(w), { project: null });
    expect(bad(r)).toEqual([
      `skill | ${claude}: files are missing: references/query-guide.md | run ra3 install-skill --sync to restore them`,
    ]);

    const marker = `${claude}/.ra3-managed.json`;
    await w.fs.writeFile(marker, enc(w.fs.text(marker)!.replace('"version": "0.1.0"', '"version": "0.0.1"')));
    r = await runDoctor(doctorDeps(w), { project: null });
    expect(bad(r)).toEqual([
      `skill | ${claude}: version 0.0.1 is installed; this ra3 carries 0.1.0 | run ra3 install-skill --sync (your own changes are kept)`,
    ]);

    for (const f of w.fs.listAll().filter((p) => p.startsWith(agents))) await w.fs.remove(f);
    w.fs.removeEmptyDir(`${agents}/references`);
    w.fs.removeEmptyDir(agents);
    r = await runDoctor(doctorDeps(w), { project: null });
    expect(bad(r)[0]).toBe(`skill | ${agents}: the skill folder is missing | run ra3 install-skill --target agents`);
  });

  test("no snapshot", async () => {
    const w = await installed();
    await w.fs.remove("/home/ann/.ra3modxml/snapshots/corona-0123456789ab.msgpack");
    const r = await runDoctor(doctorDeps(w), { project: null });
    expect(bad(r)).toEqual([
      'snapshot | /home/ann/mods/corona: there is no snapshot (/home/ann/.ra3modxml/snapshots/corona-0123456789ab.msgpack), so the server indexes from scratch on its first start | run ra3 index --project "/home/ann/mods/corona"',
    ]);
  });

  test("nothing installed: no receipt, no binary, no client, no skill", async () => {
    const w = world("linux");
    const r = await runDoctor(doctorDeps(w), { project: null });
    expect(renderDoctor(r)).toBe(
      [
        "ra3 doctor 0.1.0: home /home/ann/.ra3modxml",
        "install",
        "  ✗ install receipt /home/ann/.ra3modxml/install.json: there is none: ra3 setup has not run with this home",
        "      what to do: run ra3 setup",
        "  ✗ stable binary /home/ann/.ra3modxml/bin/ra3: it is missing",
        "      what to do: run ra3 setup with a compiled ra3 (it installs itself there)",
        "clients",
        "  ✗ configured clients: no MCP client has an ra3 entry",
        "      what to do: run ra3 setup --client NAME",
        "skill",
        "  ✗ skill copies: the ra3-mod-xml skill is not installed anywhere",
        "      what to do: run ra3 install-skill (or ra3 setup)",
        "4 problems found",
        "",
      ].join("\n"),
    );
  });

  test("a client configured by hand (not in the receipt) is found and checked too", async () => {
    const w = await installed();
    await w.fs.mkdir("/home/ann/.gemini");
    await w.fs.writeFile(
      "/home/ann/.gemini/settings.json",
      enc('{ "mcpServers": { "ra3": { "command": "/opt/ra3", "args": ["mcp"] } } }\n'),
    );
    const r = await runDoctor(doctorDeps(w), { project: null });
    expect(r.clients.map((c) => `${c.client}:${c.source}`)).toEqual([
      "claude-code:receipt",
      "codex:receipt",
      "cursor:receipt",
      "gemini:detected",
    ]);
    expect(bad(r)).toEqual([
      "Gemini CLI: /home/ann/.gemini/settings.json | the ra3 entry: it runs /opt/ra3, not the stable binary /home/ann/.ra3modxml/bin/ra3 | run ra3 setup --client gemini",
      "Gemini CLI: /home/ann/.gemini/settings.json | the project: the entry passes no --project, and clients start servers in unrelated folders | run ra3 setup --client gemini",
    ]);
  });
});

describe("helpers", () => {
  test("extractEntry reads every dialect's shape", () => {
    expect(extractEntry(cursorWriter, '{"mcpServers":{"ra3":{"command":"/b/ra3","args":["mcp"]}}}')).toEqual({
      command: "/b/ra3",
      args: ["mcp"],
    });
    expect(extractEntry(codexWriter, '[mcp_servers.ra3]\ncommand = "/b/ra3"\nargs = ["mcp", "--project", "/m"]\n'))
      .toEqual({ command: "/b/ra3", args: ["mcp", "--project", "/m"] });
    expect(extractEntry(opencodeWriter, '{"mcp":{"ra3":{"type":"local","command":["/b/ra3","mcp"],"enabled":true}}}'))
      .toEqual({ command: "/b/ra3", args: ["mcp"] });
    expect(extractEntry(cursorWriter, '{"mcpServers":{"other":{"command":"x"}}}')).toBeNull();
  });

  test("formatAge", () => {
    expect([5_000, 120_000, 3 * 3600_000, 5 * 86400_000].map(formatAge)).toEqual(["5 s", "2 min", "3 h", "5 days"]);
  });
});
