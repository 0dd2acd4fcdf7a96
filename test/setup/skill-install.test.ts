import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import * as nodePath from "node:path";
import { join } from "node:path";
import { type FileSystemPort, nodeFileSystem } from "../../src/disk/port.ts";
import { installSkill, resolveSkillTarget, type SkillInstallOptions } from "../../src/setup/skill-install.ts";
import { SKILL_MARKER_FILE } from "../../src/setup/skill-marker.ts";
import { SKILL_FILES, SKILL_VERSION, type SkillFile } from "../../src/skill/embedded.ts";

let tmp: string;
let userHome: string;
let home: string;

beforeEach(() => {
  tmp = mkdtempSync(join(tmpdir(), "ra3-skill-install-"));
  userHome = join(tmp, "user");
  home = join(userHome, ".ra3modxml");
  mkdirSync(userHome, { recursive: true });
});

afterEach(() => {
  rmSync(tmp, { recursive: true, force: true });
});

function opts(extra: Partial<SkillInstallOptions> = {}): SkillInstallOptions {
  return { home, userHome, env: {}, now: () => new Date("2026-11-30T12:00:00Z"), ...extra };
}

const sha = (s: string | Buffer): string => createHash("sha256").update(s).digest("hex");
const agentsDir = (): string => join(userHome, ".agents", "skills", "ra3-mod-xml");
const claudeDir = (): string => join(userHome, ".claude", "skills", "ra3-mod-xml");
const readJson = (p: string): unknown => JSON.parse(readFileSync(p, "utf8"));

/** An "older release": different text in every file, plus a file the new release dropped. */
const OLD_FILES: readonly SkillFile[] = [
  ...SKILL_FILES.map((f) => ({ path: f.path, text: `${f.text}\n<!-- old -->\n` })),
  { path: "references/old-notes.md", text: "# Old notes\n" },
];

function listTree(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .map((e) =>
      nodePath.relative(dir, join(e.parentPath, e.name)).split(nodePath.sep).join("/") + (e.isDirectory() ? "/" : "")
    )
    .sort();
}

describe("resolveSkillTarget", () => {
  const ctx = { userHome: "/home/u", env: {}, cwd: "/work/mod", platform: "linux" as const };

  test("named targets and their environment overrides", () => {
    expect(resolveSkillTarget("agents", ctx)).toEqual({ target: "agents", dir: "/home/u/.agents/skills/ra3-mod-xml" });
    expect(resolveSkillTarget("claude", ctx)).toEqual({ target: "claude", dir: "/home/u/.claude/skills/ra3-mod-xml" });
    expect(resolveSkillTarget("claude", { ...ctx, env: { CLAUDE_CONFIG_DIR: "/cfg/claude" } })).toEqual({
      target: "claude",
      dir: "/cfg/claude/skills/ra3-mod-xml",
    });
    expect(resolveSkillTarget("codex", ctx)).toEqual({ target: "codex", dir: "/home/u/.codex/skills/ra3-mod-xml" });
    expect(resolveSkillTarget("codex", { ...ctx, env: { CODEX_HOME: "/cfg/codex" } })).toEqual({
      target: "codex",
      dir: "/cfg/codex/skills/ra3-mod-xml",
    });
    expect(resolveSkillTarget("project-agents", { ...ctx, projectDir: "/mods/x" })).toEqual({
      target: "project-agents",
      dir: "/mods/x/.agents/skills/ra3-mod-xml",
    });
    expect(resolveSkillTarget("project-claude", { ...ctx, projectDir: "/mods/x" })).toEqual({
      target: "project-claude",
      dir: "/mods/x/.claude/skills/ra3-mod-xml",
    });
  });

  test("project targets need a project", () => {
    expect(resolveSkillTarget("project-claude", ctx)).toEqual({
      target: "project-claude",
      error: 'target "project-claude" needs a mod project folder (run inside the mod or pass --project DIR)',
    });
  });

  test("folders: the skill goes inside, unless the folder is already named ra3-mod-xml", () => {
    expect(resolveSkillTarget("skills", ctx)).toEqual({ target: "skills", dir: "/work/mod/skills/ra3-mod-xml" });
    expect(resolveSkillTarget("/opt/skills/RA3-Mod-XML", ctx)).toEqual({
      target: "/opt/skills/RA3-Mod-XML",
      dir: "/opt/skills/RA3-Mod-XML",
    });
    expect(resolveSkillTarget("~/my skills", ctx)).toEqual({
      target: "~/my skills",
      dir: "/home/u/my skills/ra3-mod-xml",
    });
  });

  test("Windows paths", () => {
    const win = {
      userHome: "C:\\Users\\Ann",
      env: { CLAUDE_CONFIG_DIR: "D:\\Claude" },
      cwd: "C:\\Mods\\X",
      platform: "win32" as const,
    };
    expect(resolveSkillTarget("agents", win)).toEqual({
      target: "agents",
      dir: "C:\\Users\\Ann\\.agents\\skills\\ra3-mod-xml",
    });
    expect(resolveSkillTarget("claude", win)).toEqual({ target: "claude", dir: "D:\\Claude\\skills\\ra3-mod-xml" });
    expect(resolveSkillTarget("Data\\skills", win)).toEqual({
      target: "Data\\skills",
      dir: "C:\\Mods\\X\\Data\\skills\\ra3-mod-xml",
    });
  });
});

describe("installSkill", () => {
  test("installs the default targets with a marker and records both copies", async () => {
    const r = await installSkill(opts());
    expect(r.recordsError).toBeUndefined();
    expect(r.reports).toEqual([
      {
        target: "agents",
        dir: agentsDir(),
        action: "installed",
        written: SKILL_FILES.map((f) => f.path),
        removed: [],
        keptUserModified: [],
      },
      {
        target: "claude",
        dir: claudeDir(),
        action: "installed",
        written: SKILL_FILES.map((f) => f.path),
        removed: [],
        keptUserModified: [],
      },
    ]);
    for (const dir of [agentsDir(), claudeDir()]) {
      expect(listTree(dir)).toEqual([
        SKILL_MARKER_FILE,
        "SKILL.md",
        "references/",
        "references/mod-xml-primer.md",
        "references/query-guide.md",
      ]);
      for (const f of SKILL_FILES) expect(readFileSync(join(dir, f.path), "utf8")).toBe(f.text);
      expect(readJson(join(dir, SKILL_MARKER_FILE))).toEqual({
        tool: "ra3",
        version: SKILL_VERSION,
        files: Object.fromEntries(SKILL_FILES.map((f) => [f.path, sha(f.text)]).sort()),
      });
    }
    // No temp folders left beside the copies.
    expect(readdirSync(join(userHome, ".agents", "skills"))).toEqual(["ra3-mod-xml"]);
    expect(r.recordsFile).toBe(join(home, "skills.json"));
    expect(readJson(r.recordsFile)).toEqual({
      tool: "ra3",
      installs: [
        { target: "agents", dir: agentsDir(), version: SKILL_VERSION, updatedAt: "2026-11-30T12:00:00.000Z" },
        { target: "claude", dir: claudeDir(), version: SKILL_VERSION, updatedAt: "2026-11-30T12:00:00.000Z" },
      ],
    });
  });

  test("a second install of the same version changes nothing", async () => {
    await installSkill(opts());
    const markerBefore = readFileSync(join(agentsDir(), SKILL_MARKER_FILE), "utf8");
    const recordsBefore = readFileSync(join(home, "skills.json"), "utf8");
    const r = await installSkill(opts({ now: () => new Date("2027-01-01T00:00:00Z") }));
    expect(r.reports.map((x) => [x.target, x.action, x.written, x.keptUserModified])).toEqual([
      ["agents", "unchanged", [], []],
      ["claude", "unchanged", [], []],
    ]);
    expect(readFileSync(join(agentsDir(), SKILL_MARKER_FILE), "utf8")).toBe(markerBefore);
    expect(readFileSync(join(home, "skills.json"), "utf8")).toBe(recordsBefore);
  });

  test("an upgrade rewrites our files, removes dropped ones and keeps the one the user edited", async () => {
    await installSkill(opts({ targets: ["agents"], version: "0.0.9", files: OLD_FILES }));
    const userText = "---\nname: ra3-mod-xml\n---\nMy own notes.\n";
    writeFileSync(join(agentsDir(), "SKILL.md"), userText);

    const r = await installSkill(opts({ targets: ["agents"] }));
    expect(r.reports).toEqual([
      {
        target: "agents",
        dir: agentsDir(),
        action: "upgraded",
        written: ["references/query-guide.md", "references/mod-xml-primer.md"],
        removed: ["references/old-notes.md"],
        keptUserModified: ["SKILL.md"],
      },
    ]);
    expect(readFileSync(join(agentsDir(), "SKILL.md"), "utf8")).toBe(userText);
    expect(readFileSync(join(agentsDir(), "references/query-guide.md"), "utf8")).toBe(SKILL_FILES[1].text);
    expect(existsSync(join(agentsDir(), "references/old-notes.md"))).toBe(false);
    expect(readJson(join(agentsDir(), SKILL_MARKER_FILE))).toEqual({
      tool: "ra3",
      version: SKILL_VERSION,
      // The user's SKILL.md keeps the hash of what ra3 wrote: still known as ra3's file, changed by the user.
      files: {
        "SKILL.md": sha(OLD_FILES[0].text),
        "references/mod-xml-primer.md": sha(SKILL_FILES[2].text),
        "references/query-guide.md": sha(SKILL_FILES[1].text),
      },
    });
    expect((readJson(join(home, "skills.json")) as { installs: { version: string }[] }).installs.map((i) => i.version))
      .toEqual([SKILL_VERSION]);

    // Again: nothing to write, the user's file is still reported.
    const again = await installSkill(opts({ targets: ["agents"] }));
    expect(again.reports.map((x) => [x.action, x.written, x.keptUserModified])).toEqual([["unchanged", [], [
      "SKILL.md",
    ]]]);
  });

  test("a file the user deleted is restored; one they made identical to ours is adopted", async () => {
    await installSkill(opts({ targets: ["agents"], version: "0.0.9", files: OLD_FILES }));
    rmSync(join(agentsDir(), "SKILL.md"));
    writeFileSync(join(agentsDir(), "references/query-guide.md"), SKILL_FILES[1].text);
    const r = await installSkill(opts({ targets: ["agents"] }));
    expect(r.reports.map((x) => [x.action, x.written, x.removed, x.keptUserModified])).toEqual([
      ["upgraded", ["SKILL.md", "references/mod-xml-primer.md"], ["references/old-notes.md"], []],
    ]);
    expect(Object.keys((readJson(join(agentsDir(), SKILL_MARKER_FILE)) as { files: object }).files)).toEqual([
      "SKILL.md",
      "references/mod-xml-primer.md",
      "references/query-guide.md",
    ]);
  });

  test("an existing folder without a marker: identical files adopted, different ones kept", async () => {
    mkdirSync(join(agentsDir(), "references"), { recursive: true });
    writeFileSync(join(agentsDir(), "SKILL.md"), SKILL_FILES[0].text);
    writeFileSync(join(agentsDir(), "references/query-guide.md"), "mine\n");
    const r = await installSkill(opts({ targets: ["agents"] }));
    expect(r.reports.map((x) => [x.action, x.written, x.keptUserModified])).toEqual([
      ["installed", ["references/mod-xml-primer.md"], ["references/query-guide.md"]],
    ]);
    expect(readFileSync(join(agentsDir(), "references/query-guide.md"), "utf8")).toBe("mine\n");
  });

  test("a corrupt marker is reported and treated as no marker", async () => {
    await installSkill(opts({ targets: ["agents"], version: "0.0.9", files: OLD_FILES }));
    writeFileSync(join(agentsDir(), SKILL_MARKER_FILE), "{ nope");
    const r = await installSkill(opts({ targets: ["agents"] }));
    expect(r.reports[0].action).toBe("installed");
    expect(r.reports[0].written).toEqual([]);
    expect(r.reports[0].keptUserModified).toEqual(SKILL_FILES.map((f) => f.path).sort());
    expect(r.reports[0].note).toStartWith(`${SKILL_MARKER_FILE} is not valid JSON (`);
    expect(r.reports[0].note).toEndWith("); files that differ from ours were treated as the user's and kept");
  });

  test("uninstall removes only our files and keeps the user's, with the folder", async () => {
    await installSkill(opts());
    writeFileSync(join(agentsDir(), "references/query-guide.md"), "edited by the user\n");
    const r = await installSkill(opts({ uninstall: true }));
    expect(r.reports).toEqual([
      {
        target: "agents",
        dir: agentsDir(),
        action: "removed",
        written: [],
        removed: ["SKILL.md", "references/mod-xml-primer.md"],
        keptUserModified: ["references/query-guide.md"],
        note: `${agentsDir()} still holds files that are not ours; it was left in place`,
      },
      {
        target: "claude",
        dir: claudeDir(),
        action: "removed",
        written: [],
        removed: ["SKILL.md", "references/mod-xml-primer.md", "references/query-guide.md"],
        keptUserModified: [],
      },
    ]);
    expect(listTree(agentsDir())).toEqual(["references/", "references/query-guide.md"]);
    expect(existsSync(claudeDir())).toBe(false);
    expect(existsSync(join(userHome, ".claude", "skills"))).toBe(true);
    expect(readJson(join(home, "skills.json"))).toEqual({ tool: "ra3", installs: [] });
  });

  test("uninstall where nothing is installed, and from a folder ra3 did not write", async () => {
    const custom = join(tmp, "custom", "ra3-mod-xml");
    mkdirSync(custom, { recursive: true });
    writeFileSync(join(custom, "SKILL.md"), "theirs\n");
    const r = await installSkill(opts({ uninstall: true, targets: ["agents", custom] }));
    expect(r.reports).toEqual([
      {
        target: "agents",
        dir: agentsDir(),
        action: "skipped",
        written: [],
        removed: [],
        keptUserModified: [],
        note: "nothing is installed there",
      },
      {
        target: custom,
        dir: custom,
        action: "failed",
        written: [],
        removed: [],
        keptUserModified: [],
        error: `${custom} was not installed by ra3 (it has no ${SKILL_MARKER_FILE}); left it untouched`,
      },
    ]);
    expect(readFileSync(join(custom, "SKILL.md"), "utf8")).toBe("theirs\n");
    expect(existsSync(join(home, "skills.json"))).toBe(false);
  });

  test("an uninstall interrupted by a failing removal keeps the marker truthful and can be finished later", async () => {
    await installSkill(opts({ targets: ["agents"] }));
    const r = await installSkill(opts({ targets: ["agents"], uninstall: true, fs: failingFs({ removeAfter: 1 }) }));
    expect(r.reports).toEqual([
      {
        target: "agents",
        dir: agentsDir(),
        action: "failed",
        written: [],
        removed: ["SKILL.md"],
        keptUserModified: [],
        error: `cannot remove ${join(agentsDir(), "references", "mod-xml-primer.md")}: permission denied (EACCES)`,
      },
    ]);
    expect(Object.keys((readJson(join(agentsDir(), SKILL_MARKER_FILE)) as { files: object }).files)).toEqual([
      "references/mod-xml-primer.md",
      "references/query-guide.md",
    ]);
    expect((readJson(join(home, "skills.json")) as { installs: unknown[] }).installs.length).toBe(1);
    const finish = await installSkill(opts({ targets: ["agents"], uninstall: true }));
    expect(finish.reports.map((x) => [x.action, x.removed])).toEqual([["removed", [
      "references/mod-xml-primer.md",
      "references/query-guide.md",
    ]]]);
    expect(existsSync(agentsDir())).toBe(false);
  });

  test("a custom folder and CLAUDE_CONFIG_DIR", async () => {
    const claudeConfig = join(tmp, "claude-config");
    const r = await installSkill(
      opts({ targets: ["claude", "extra-skills"], cwd: tmp, env: { CLAUDE_CONFIG_DIR: claudeConfig } }),
    );
    expect(r.reports.map((x) => [x.target, x.dir, x.action])).toEqual([
      ["claude", join(claudeConfig, "skills", "ra3-mod-xml"), "installed"],
      ["extra-skills", join(tmp, "extra-skills", "ra3-mod-xml"), "installed"],
    ]);
    expect(readFileSync(join(claudeConfig, "skills", "ra3-mod-xml", "SKILL.md"), "utf8")).toBe(SKILL_FILES[0].text);
    expect(existsSync(join(userHome, ".claude"))).toBe(false);
  });

  test("two targets naming the same folder install once", async () => {
    const r = await installSkill(opts({ targets: ["agents", join(userHome, ".agents", "skills")] }));
    expect(r.reports.map((x) => [x.target, x.action])).toEqual([["agents", "installed"]]);
  });

  test("an unresolvable target fails alone", async () => {
    const r = await installSkill(opts({ targets: ["project-agents", "agents"] }));
    expect(r.reports.map((x) => [x.target, x.dir, x.action, x.error ?? null])).toEqual([
      [
        "project-agents",
        "",
        "failed",
        'target "project-agents" needs a mod project folder (run inside the mod or pass --project DIR)',
      ],
      ["agents", agentsDir(), "installed", null],
    ]);
  });

  test.skipIf(process.getuid?.() === 0)(
    "a read-only folder (real permissions) fails clearly and leaves nothing",
    async () => {
      const locked = join(tmp, "locked");
      mkdirSync(locked);
      chmodSync(locked, 0o555);
      try {
        const r = await installSkill(opts({ targets: [locked] }));
        expect(r.reports[0].error).toBe(
          `cannot install the skill into ${join(locked, "ra3-mod-xml")}: permission denied (EACCES)`,
        );
        expect(readdirSync(locked)).toEqual([]);
      } finally {
        chmodSync(locked, 0o755);
      }
    },
  );

  test("an unwritable folder fails with the folder's name and leaves nothing half-written", async () => {
    const locked = join(tmp, "locked");
    mkdirSync(locked);
    const r = await installSkill(opts({ targets: [locked], fs: failingFs({ writeUnder: locked }) }));
    expect(r.reports).toEqual([
      {
        target: locked,
        dir: join(locked, "ra3-mod-xml"),
        action: "failed",
        written: [],
        removed: [],
        keptUserModified: [],
        error: `cannot install the skill into ${join(locked, "ra3-mod-xml")}: permission denied (EACCES)`,
      },
    ]);
    expect(readdirSync(locked)).toEqual([]);
    expect(existsSync(join(home, "skills.json"))).toBe(false);
  });

  test("a write failing in the middle of an upgrade leaves the old version intact", async () => {
    await installSkill(opts({ targets: ["agents"], version: "0.0.9", files: OLD_FILES }));
    const before = listTree(agentsDir()).map((
      p,
    ) => [p, p.endsWith("/") ? "" : readFileSync(join(agentsDir(), p), "utf8")]);
    const r = await installSkill(
      opts({ targets: ["agents"], fs: failingFs({ writeUnder: join(agentsDir(), "references"), afterWrites: 1 }) }),
    );
    expect(r.reports[0].action).toBe("failed");
    expect(r.reports[0].error).toBe(`cannot update the skill in ${agentsDir()}: permission denied (EACCES)`);
    expect(listTree(agentsDir()).map((p) => [p, p.endsWith("/") ? "" : readFileSync(join(agentsDir(), p), "utf8")]))
      .toEqual(before);
  });

  test("a rename failing during an upgrade rolls the renamed files back", async () => {
    await installSkill(opts({ targets: ["agents"], version: "0.0.9", files: OLD_FILES }));
    const before = listTree(agentsDir()).map((
      p,
    ) => [p, p.endsWith("/") ? "" : readFileSync(join(agentsDir(), p), "utf8")]);
    const r = await installSkill(opts({ targets: ["agents"], fs: failingFs({ renameAfter: 1 }) }));
    expect(r.reports[0].error).toBe(`cannot update the skill in ${agentsDir()}: permission denied (EACCES)`);
    expect(listTree(agentsDir()).map((p) => [p, p.endsWith("/") ? "" : readFileSync(join(agentsDir(), p), "utf8")]))
      .toEqual(before);
  });

  test("sync upgrades every recorded copy and forgets the ones the user deleted", async () => {
    const custom = join(tmp, "custom");
    await installSkill(opts({ targets: ["agents", "claude", custom], version: "0.0.9", files: OLD_FILES }));
    rmSync(claudeDir(), { recursive: true });
    const r = await installSkill(opts({ sync: true, targets: ["ignored-with-sync"] }));
    expect(r.reports.map((x) => [x.target, x.dir, x.action, x.written.length])).toEqual([
      ["agents", agentsDir(), "upgraded", 3],
      ["claude", claudeDir(), "skipped", 0],
      [custom, join(custom, "ra3-mod-xml"), "upgraded", 3],
    ]);
    expect(existsSync(claudeDir())).toBe(false);
    expect(readFileSync(join(custom, "ra3-mod-xml", "SKILL.md"), "utf8")).toBe(SKILL_FILES[0].text);
    const records = readJson(join(home, "skills.json")) as { installs: { target: string; version: string }[] };
    expect(records.installs.map((i) => [i.target, i.version])).toEqual([
      ["agents", SKILL_VERSION],
      [custom, SKILL_VERSION],
    ]);
    const uninstallAll = await installSkill(opts({ sync: true, uninstall: true }));
    expect(uninstallAll.reports.map((x) => [x.target, x.action])).toEqual([["agents", "removed"], [custom, "removed"]]);
    expect(readJson(join(home, "skills.json"))).toEqual({ tool: "ra3", installs: [] });
  });

  test("a corrupt records file is reported and left untouched; the install still happens", async () => {
    mkdirSync(home, { recursive: true });
    writeFileSync(join(home, "skills.json"), "not json");
    const r = await installSkill(opts({ targets: ["agents"] }));
    expect(r.reports[0].action).toBe("installed");
    expect(r.recordsError).toStartWith(`${join(home, "skills.json")} is not a valid install record file (`);
    expect(r.recordsError).toEndWith("); it was left untouched");
    expect(readFileSync(join(home, "skills.json"), "utf8")).toBe("not json");
  });
});

/** The real file system, except that the chosen operations fail with EACCES. */
function failingFs(
  o: { writeUnder?: string; afterWrites?: number; renameAfter?: number; removeAfter?: number },
): FileSystemPort {
  const real = nodeFileSystem();
  let writes = 0;
  let renames = 0;
  let removes = 0;
  const denied = (op: string, path: string): Error =>
    Object.assign(new Error(`EACCES: permission denied, ${op} '${path}'`), { code: "EACCES" });
  const under = (p: string): boolean =>
    o.writeUnder !== undefined && (p === o.writeUnder || p.startsWith(o.writeUnder + nodePath.sep));
  return {
    ...real,
    writeFile(path, data, options) {
      if (under(path) && writes++ >= (o.afterWrites ?? 0)) throw denied("open", path);
      return real.writeFile(path, data, options);
    },
    mkdir(path) {
      if (under(path) && o.afterWrites === undefined && !existsSync(path)) throw denied("mkdir", path);
      return real.mkdir(path);
    },
    rename(from, to) {
      if (o.renameAfter !== undefined && renames++ >= o.renameAfter) throw denied("rename", from);
      return real.rename(from, to);
    },
    remove(path) {
      if (o.removeAfter !== undefined && removes++ >= o.removeAfter) throw denied("unlink", path);
      return real.remove(path);
    },
  };
}
