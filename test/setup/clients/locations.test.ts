import { describe, expect, test } from "bun:test";
import {
  allWriters,
  type ClientId,
  clientIds,
  type Scope,
  writerFor,
  writersNamed,
} from "../../../src/setup/clients/index.ts";
import { MemoryFileSystem } from "../../disk/memory-fs.ts";
import { type OsName, type Platform, platformFor } from "../../../src/setup/platform.ts";
import { PLATFORMS, PROJECTS } from "./golden-harness.ts";

/** Where each client's config lives for Ann on each OS, with nothing installed yet. */
const EXPECTED: Record<ClientId, Partial<Record<Scope, Record<OsName, string>>>> = {
  "claude-desktop": {
    user: {
      windows: "C:\\Users\\Ann Lee\\AppData\\Roaming\\Claude\\claude_desktop_config.json",
      macos: "/Users/ann/Library/Application Support/Claude/claude_desktop_config.json",
      linux: "/home/ann/.config/Claude/claude_desktop_config.json",
    },
  },
  "claude-code": {
    user: {
      windows: "C:\\Users\\Ann Lee\\.claude.json",
      macos: "/Users/ann/.claude.json",
      linux: "/home/ann/.claude.json",
    },
    project: {
      windows: "D:\\Mods\\Corona Mod\\.mcp.json",
      macos: "/Users/ann/Mods/Corona Mod/.mcp.json",
      linux: "/home/ann/mods/corona/.mcp.json",
    },
  },
  cursor: {
    user: {
      windows: "C:\\Users\\Ann Lee\\.cursor\\mcp.json",
      macos: "/Users/ann/.cursor/mcp.json",
      linux: "/home/ann/.cursor/mcp.json",
    },
    project: {
      windows: "D:\\Mods\\Corona Mod\\.cursor\\mcp.json",
      macos: "/Users/ann/Mods/Corona Mod/.cursor/mcp.json",
      linux: "/home/ann/mods/corona/.cursor/mcp.json",
    },
  },
  codex: {
    user: {
      windows: "C:\\Users\\Ann Lee\\.codex\\config.toml",
      macos: "/Users/ann/.codex/config.toml",
      linux: "/home/ann/.codex/config.toml",
    },
    project: {
      windows: "D:\\Mods\\Corona Mod\\.codex\\config.toml",
      macos: "/Users/ann/Mods/Corona Mod/.codex/config.toml",
      linux: "/home/ann/mods/corona/.codex/config.toml",
    },
  },
  vscode: {
    user: {
      windows: "C:\\Users\\Ann Lee\\AppData\\Roaming\\Code\\User\\mcp.json",
      macos: "/Users/ann/Library/Application Support/Code/User/mcp.json",
      linux: "/home/ann/.config/Code/User/mcp.json",
    },
    project: {
      windows: "D:\\Mods\\Corona Mod\\.vscode\\mcp.json",
      macos: "/Users/ann/Mods/Corona Mod/.vscode/mcp.json",
      linux: "/home/ann/mods/corona/.vscode/mcp.json",
    },
  },
  windsurf: {
    user: {
      windows: "C:\\Users\\Ann Lee\\.codeium\\windsurf\\mcp_config.json",
      macos: "/Users/ann/.codeium/windsurf/mcp_config.json",
      linux: "/home/ann/.codeium/windsurf/mcp_config.json",
    },
  },
  gemini: {
    user: {
      windows: "C:\\Users\\Ann Lee\\.gemini\\settings.json",
      macos: "/Users/ann/.gemini/settings.json",
      linux: "/home/ann/.gemini/settings.json",
    },
    project: {
      windows: "D:\\Mods\\Corona Mod\\.gemini\\settings.json",
      macos: "/Users/ann/Mods/Corona Mod/.gemini/settings.json",
      linux: "/home/ann/mods/corona/.gemini/settings.json",
    },
  },
  qwen: {
    user: {
      windows: "C:\\Users\\Ann Lee\\.qwen\\settings.json",
      macos: "/Users/ann/.qwen/settings.json",
      linux: "/home/ann/.qwen/settings.json",
    },
    project: {
      windows: "D:\\Mods\\Corona Mod\\.qwen\\settings.json",
      macos: "/Users/ann/Mods/Corona Mod/.qwen/settings.json",
      linux: "/home/ann/mods/corona/.qwen/settings.json",
    },
  },
  copilot: {
    user: {
      windows: "C:\\Users\\Ann Lee\\.copilot\\mcp-config.json",
      macos: "/Users/ann/.copilot/mcp-config.json",
      linux: "/home/ann/.copilot/mcp-config.json",
    },
  },
  cline: {
    user: {
      windows: "C:\\Users\\Ann Lee\\.cline\\data\\settings\\cline_mcp_settings.json",
      macos: "/Users/ann/.cline/data/settings/cline_mcp_settings.json",
      linux: "/home/ann/.cline/data/settings/cline_mcp_settings.json",
    },
  },
  "cline-vscode": {
    user: {
      windows:
        "C:\\Users\\Ann Lee\\AppData\\Roaming\\Code\\User\\globalStorage\\saoudrizwan.claude-dev\\settings\\cline_mcp_settings.json",
      macos:
        "/Users/ann/Library/Application Support/Code/User/globalStorage/saoudrizwan.claude-dev/settings/cline_mcp_settings.json",
      linux: "/home/ann/.config/Code/User/globalStorage/saoudrizwan.claude-dev/settings/cline_mcp_settings.json",
    },
  },
  zed: {
    user: {
      windows: "C:\\Users\\Ann Lee\\AppData\\Roaming\\Zed\\settings.json",
      macos: "/Users/ann/.config/zed/settings.json",
      linux: "/home/ann/.config/zed/settings.json",
    },
    project: {
      windows: "D:\\Mods\\Corona Mod\\.zed\\settings.json",
      macos: "/Users/ann/Mods/Corona Mod/.zed/settings.json",
      linux: "/home/ann/mods/corona/.zed/settings.json",
    },
  },
  opencode: {
    user: {
      windows: "C:\\Users\\Ann Lee\\.config\\opencode\\opencode.json",
      macos: "/Users/ann/.config/opencode/opencode.json",
      linux: "/home/ann/.config/opencode/opencode.json",
    },
    project: {
      windows: "D:\\Mods\\Corona Mod\\opencode.json",
      macos: "/Users/ann/Mods/Corona Mod/opencode.json",
      linux: "/home/ann/mods/corona/opencode.json",
    },
  },
};

const empty = (p: Platform): MemoryFileSystem => new MemoryFileSystem(p.pathFlavour);

describe("default locations", () => {
  for (const writer of allWriters) {
    for (const scope of ["user", "project"] as const) {
      const expected = EXPECTED[writer.id][scope];
      test(`${writer.id} ${scope}`, async () => {
        expect(writer.scopes.includes(scope)).toBe(expected !== undefined);
        for (const os of ["windows", "macos", "linux"] as const) {
          const loc = await writer.locate(PLATFORMS[os], scope, empty(PLATFORMS[os]), PROJECTS[os]);
          if (expected) expect(loc.file).toBe(expected[os]);
          else expect(loc.problem).toBe(`${writer.displayName} has no ${scope}-level configuration file.`);
        }
      });
    }
  }

  test("project scope without a project folder is a problem, not a guess", async () => {
    const loc = await writerFor("cursor")!.locate(PLATFORMS.linux, "project", empty(PLATFORMS.linux));
    expect(loc).toEqual({
      file: null,
      candidates: [],
      problem: "Cursor's project configuration needs a project folder; pass --project.",
      notes: [],
    });
  });
});

describe("environment overrides", () => {
  test("CLAUDE_CONFIG_DIR moves ~/.claude.json", async () => {
    const p = platformFor("linux", "/home/ann", { CLAUDE_CONFIG_DIR: "/home/ann/.config/claude" });
    const loc = await writerFor("claude-code")!.locate(p, "user", empty(p));
    expect(loc.file).toBe("/home/ann/.config/claude/.claude.json");
    expect(loc.notes).toEqual(["CLAUDE_CONFIG_DIR is set, so Claude Code keeps its user configuration there."]);
  });

  test("CODEX_HOME moves config.toml; a relative value is ignored", async () => {
    const set = platformFor("windows", "C:\\Users\\a", { CODEX_HOME: "E:\\codex" });
    expect((await writerFor("codex")!.locate(set, "user", empty(set))).file).toBe("E:\\codex\\config.toml");
    const relative = platformFor("linux", "/home/a", { CODEX_HOME: "codex" });
    expect((await writerFor("codex")!.locate(relative, "user", empty(relative))).file).toBe(
      "/home/a/.codex/config.toml",
    );
  });

  test("XDG_CONFIG_HOME on Linux moves Zed, VS Code, Claude Desktop and opencode; Flatpak's override wins for Zed", async () => {
    const p = platformFor("linux", "/home/a", { XDG_CONFIG_HOME: "/cfg" });
    const files = await Promise.all(
      ["zed", "vscode", "claude-desktop", "opencode"].map(async (id) =>
        (await writerFor(id)!.locate(p, "user", empty(p))).file
      ),
    );
    expect(files).toEqual([
      "/cfg/zed/settings.json",
      "/cfg/Code/User/mcp.json",
      "/cfg/Claude/claude_desktop_config.json",
      "/cfg/opencode/opencode.json",
    ]);
    const flatpak = platformFor("linux", "/home/a", {
      XDG_CONFIG_HOME: "/cfg",
      FLATPAK_XDG_CONFIG_HOME: "/home/a/.var/app/dev.zed.Zed/config",
    });
    expect((await writerFor("zed")!.locate(flatpak, "user", empty(flatpak))).file).toBe(
      "/home/a/.var/app/dev.zed.Zed/config/zed/settings.json",
    );
  });

  test("Zed on macOS ignores XDG_CONFIG_HOME", async () => {
    const p = platformFor("macos", "/Users/a", { XDG_CONFIG_HOME: "/cfg" });
    expect((await writerFor("zed")!.locate(p, "user", empty(p))).file).toBe("/Users/a/.config/zed/settings.json");
  });

  test("Cline CLI: CLINE_MCP_SETTINGS_PATH, else CLINE_DATA_DIR, else CLINE_DIR/data", async () => {
    const cline = writerFor("cline")!;
    const at = (env: Record<string, string>) => {
      const p = platformFor("linux", "/home/a", env);
      return cline.locate(p, "user", empty(p)).file;
    };
    expect(at({})).toBe("/home/a/.cline/data/settings/cline_mcp_settings.json");
    expect(at({ CLINE_DIR: "/opt/cline" })).toBe("/opt/cline/data/settings/cline_mcp_settings.json");
    expect(at({ CLINE_DIR: "/opt/cline", CLINE_DATA_DIR: "/var/cline" })).toBe(
      "/var/cline/settings/cline_mcp_settings.json",
    );
    expect(at({ CLINE_DATA_DIR: "/var/cline", CLINE_MCP_SETTINGS_PATH: "/etc/mcp.json" })).toBe("/etc/mcp.json");
  });

  test("GEMINI_CLI_HOME, QWEN_HOME and COPILOT_HOME move those clients' files (and Gemini's trust file)", async () => {
    const p = platformFor("linux", "/home/a", {
      GEMINI_CLI_HOME: "/g",
      QWEN_HOME: "/q",
      COPILOT_HOME: "/c",
    });
    expect(["gemini", "qwen", "copilot"].map((id) => writerFor(id)!.locate(p, "user", empty(p)).file)).toEqual([
      "/g/.gemini/settings.json",
      "/q/settings.json",
      "/c/mcp-config.json",
    ]);
    expect(writerFor("gemini")!.trust!.file(p)).toBe("/g/.gemini/trustedFolders.json");
    expect(writerFor("qwen")!.trust!.file(p)).toBe("/q/trustedFolders.json");
    const override = platformFor("linux", "/home/a", { GEMINI_CLI_TRUSTED_FOLDERS_PATH: "/t.json" });
    expect(writerFor("gemini")!.trust!.file(override)).toBe("/t.json");
  });

  test("Windows variable names are case-insensitive; a missing APPDATA falls back to the profile", async () => {
    const mixed = platformFor("windows", "C:\\Users\\a", { AppData: "E:\\Roam" });
    expect((await writerFor("vscode")!.locate(mixed, "user", empty(mixed))).file).toBe(
      "E:\\Roam\\Code\\User\\mcp.json",
    );
    const bare = platformFor("windows", "C:\\Users\\a", {});
    expect((await writerFor("zed")!.locate(bare, "user", empty(bare))).file).toBe(
      "C:\\Users\\a\\AppData\\Roaming\\Zed\\settings.json",
    );
  });
});

describe("Claude Desktop on Windows: classic or MSIX", () => {
  const p = PLATFORMS.windows;
  const classic = "C:\\Users\\Ann Lee\\AppData\\Roaming\\Claude\\claude_desktop_config.json";
  const pkg = "C:\\Users\\Ann Lee\\AppData\\Local\\Packages\\Claude_pzs8sxrjxfjjc";
  const msix = `${pkg}\\LocalCache\\Roaming\\Claude\\claude_desktop_config.json`;
  const writer = writerFor("claude-desktop")!;
  const fsWith = (files: Record<string, string>, dirs: string[] = []): MemoryFileSystem => {
    const fs = new MemoryFileSystem(p.pathFlavour, files);
    for (const d of dirs) void fs.mkdir(d);
    return fs;
  };

  test("an MSIX package without a config: the package's path (writing the classic one would do nothing)", async () => {
    const loc = await writer.locate(p, "user", fsWith({}, [pkg]));
    expect(loc).toEqual({
      file: msix,
      candidates: [msix, classic],
      problem: null,
      notes: ["Claude Desktop is installed as an MSIX package, so its configuration lives in the package folder."],
    });
  });

  test("the package folder name is matched case-insensitively", async () => {
    const lower = "C:\\Users\\Ann Lee\\AppData\\Local\\Packages\\claude_abc";
    expect((await writer.locate(p, "user", fsWith({}, [lower]))).file).toBe(
      `${lower}\\LocalCache\\Roaming\\Claude\\claude_desktop_config.json`,
    );
  });

  test("exactly one existing config wins", async () => {
    expect((await writer.locate(p, "user", fsWith({ [msix]: "{}" }))).file).toBe(msix);
    const classicOnly = await writer.locate(p, "user", fsWith({ [classic]: "{}" }, [pkg]));
    expect(classicOnly.file).toBe(classic);
    expect(classicOnly.notes).toEqual([
      `Also found the Claude Desktop package folder ${pkg}, which has no configuration file; ra3 left it alone.`,
    ]);
  });

  test("configs in both places: refused, with how to find out which one the app reads", async () => {
    const loc = await writer.locate(p, "user", fsWith({ [msix]: "{}", [classic]: "{}" }));
    expect(loc.file).toBeNull();
    expect(loc.problem).toBe(
      `Claude Desktop has configuration files in 2 places (${msix}; ${classic}) and ra3 cannot tell which one the app reads. ` +
        "In Claude Desktop open Settings → Developer → Edit Config to see the file it uses, rename the other one, and run setup again.",
    );
  });

  test("two packages and no config: refused", async () => {
    const other = "C:\\Users\\Ann Lee\\AppData\\Local\\Packages\\Claude_other";
    const loc = await writer.locate(p, "user", fsWith({}, [pkg, other]));
    expect(loc.problem).toBe(
      `Found 2 Claude Desktop packages (${other}; ${pkg}) and no configuration file in any of them, so ra3 cannot tell which one is in use. ` +
        "In Claude Desktop open Settings → Developer → Edit Config (this creates the file) and run setup again.",
    );
  });

  test("presence: the package folder counts", async () => {
    expect(await writer.presence(p, fsWith({}, [pkg]))).toBe(pkg);
    expect(await writer.presence(p, fsWith({}))).toBeNull();
  });
});

describe("clients with two possible files", () => {
  test("Cline CLI and the Cline VS Code extension are two clients, each detected by its own traces", () => {
    const p = platformFor("linux", "/home/ann", { PATH: "/usr/bin" });
    const ext = "/home/ann/.config/Code/User/globalStorage/saoudrizwan.claude-dev";
    const cli = writerFor("cline")!;
    const vscode = writerFor("cline-vscode")!;
    const none = new MemoryFileSystem(p.pathFlavour, { "/home/ann/.keep": "" });
    expect([cli.presence(p, none), vscode.presence(p, none)]).toEqual([null, null]);
    expect(writersNamed("cline", p, none).map((w) => w.id)).toEqual(["cline"]);
    const both = new MemoryFileSystem(p.pathFlavour, {
      "/usr/bin/cline": "#!",
      [`${ext}/tasks/1.json`]: "{}",
    });
    expect([cli.presence(p, both), vscode.presence(p, both)]).toEqual(["/usr/bin/cline", ext]);
    expect(writersNamed("cline", p, both).map((w) => w.id)).toEqual(["cline", "cline-vscode"]);
    const dataOnly = new MemoryFileSystem(p.pathFlavour, { "/home/ann/.cline/data/settings/providers.json": "{}" });
    expect(cli.presence(p, dataOnly)).toBe("/home/ann/.cline/data");
    expect(writersNamed("cline", p, dataOnly).map((w) => w.id)).toEqual(["cline"]);
  });

  test("opencode: an existing .jsonc is used; with both, the .jsonc one (read last) and a note", async () => {
    const p = PLATFORMS.linux;
    const dir = "/home/ann/.config/opencode";
    const writer = writerFor("opencode")!;
    expect(
      (await writer.locate(p, "user", new MemoryFileSystem(p.pathFlavour, { [`${dir}/opencode.jsonc`]: "{}" }))).file,
    ).toBe(`${dir}/opencode.jsonc`);
    const both = await writer.locate(
      p,
      "user",
      new MemoryFileSystem(p.pathFlavour, { [`${dir}/opencode.jsonc`]: "{}", [`${dir}/opencode.json`]: "{}" }),
    );
    expect(both.file).toBe(`${dir}/opencode.jsonc`);
    expect(both.notes).toEqual([
      `Both ${dir}/opencode.json and ${dir}/opencode.jsonc exist; ra3 edits the .jsonc one, which opencode reads last.`,
    ]);
  });
});

describe("registry", () => {
  test("every dialect is registered once, in setup's order", () => {
    expect(clientIds).toEqual([
      "claude-code",
      "claude-desktop",
      "cursor",
      "vscode",
      "codex",
      "copilot",
      "gemini",
      "qwen",
      "windsurf",
      "cline",
      "cline-vscode",
      "zed",
      "opencode",
    ]);
  });
  test("writerFor is case-insensitive and returns null for unknown clients", () => {
    expect(writerFor("Codex")?.id).toBe("codex");
    expect(writerFor("notepad")).toBeNull();
  });
  test("servers keys per dialect", () => {
    expect(Object.fromEntries(allWriters.map((w) => [w.id, w.serversKey]))).toEqual({
      "claude-code": "mcpServers",
      "claude-desktop": "mcpServers",
      cursor: "mcpServers",
      vscode: "servers",
      codex: "mcp_servers",
      gemini: "mcpServers",
      windsurf: "mcpServers",
      cline: "mcpServers",
      "cline-vscode": "mcpServers",
      copilot: "mcpServers",
      zed: "context_servers",
      opencode: "mcp",
      qwen: "mcpServers",
    });
  });
  test("presence: a client's own folder (with something in it) or its program on PATH", async () => {
    const p = platformFor("macos", "/Users/ann", { PATH: "/opt/bin:/usr/local/bin" });
    const fs = new MemoryFileSystem(p.pathFlavour, {
      "/Users/ann/.cursor/extensions/extensions.json": "[]",
      "/Users/ann/.codex/auth.json": "{}",
      "/usr/local/bin/gemini": "#!",
    });
    fs.mkdir("/Users/ann/.gemini-empty");
    const found = allWriters.map((w) => [w.id, w.presence(p, fs)] as const);
    expect(found.filter(([, at]) => at !== null)).toEqual([
      ["cursor", "/Users/ann/.cursor"],
      ["codex", "/Users/ann/.codex"],
      ["gemini", "/usr/local/bin/gemini"],
    ]);
  });

  test("folders ra3 creates itself (the skill's skills/) do not make a client detected", () => {
    const p = platformFor("linux", "/home/ann", {});
    const fs = new MemoryFileSystem(p.pathFlavour, {
      "/home/ann/.claude/skills/ra3-mod-xml/SKILL.md": "x",
      "/home/ann/.codex/skills/ra3-mod-xml/SKILL.md": "x",
      "/home/ann/.agents/skills/ra3-mod-xml/SKILL.md": "x",
    });
    expect(allWriters.map((w) => w.presence(p, fs)).filter((x) => x !== null)).toEqual([]);
    fs.writeFile("/home/ann/.claude.json", new TextEncoder().encode("{}"));
    expect(writerFor("claude-code")!.presence(p, fs)).toBe("/home/ann/.claude.json");
  });

  test("on Windows, npm's .cmd shims on PATH count", () => {
    const p = platformFor("windows", "C:\\Users\\a", { Path: "C:\\Users\\a\\AppData\\Roaming\\npm" });
    const fs = new MemoryFileSystem(p.pathFlavour, { "C:\\Users\\a\\AppData\\Roaming\\npm\\qwen.cmd": "@echo" });
    expect(writerFor("qwen")!.presence(p, fs)).toBe("C:\\Users\\a\\AppData\\Roaming\\npm\\qwen.cmd");
  });
});
