/**
 * Claude Code: user scope = top-level `mcpServers` in `~/.claude.json` (in `$CLAUDE_CONFIG_DIR` when
 * that is set); project scope = `.mcp.json` at the project root (Claude Code asks the user to approve
 * it). Strict JSON. Claude Code's "local" scope (`projects[<path>].mcpServers`) is not written.
 * `~/.claude.json` is large and rewritten by Claude Code while it runs; the planner re-reads it just
 * before writing and refuses if it changed in between.
 */
import { type FileSystemPort } from "../../disk/port.ts";
import { envVar, type Platform } from "../platform.ts";
import { firstExisting, fixedLocation, jsonWriter, noProjectLocation } from "./json-dialect.ts";
import type { ClientConfigWriter, ConfigLocation, Scope } from "./types.ts";

function configDir(platform: Platform): string {
  const dir = envVar(platform, "CLAUDE_CONFIG_DIR");
  return dir && platform.pathFlavour.isAbsolute(dir) ? dir : platform.home;
}

function locate(
  platform: Platform,
  scope: Scope,
  _fs: FileSystemPort,
  projectDir?: string,
): ConfigLocation {
  const j = platform.pathFlavour.join;
  if (scope === "project") {
    return projectDir ? fixedLocation(j(projectDir, ".mcp.json")) : noProjectLocation("Claude Code");
  }
  const notes = configDir(platform) !== platform.home
    ? ["CLAUDE_CONFIG_DIR is set, so Claude Code keeps its user configuration there."]
    : [];
  return fixedLocation(j(configDir(platform), ".claude.json"), notes);
}

/** The Claude Code writer. */
export const claudeCodeWriter: ClientConfigWriter = jsonWriter({
  id: "claude-code",
  displayName: "Claude Code",
  scopes: ["user", "project"],
  syntax: "json",
  serversKey: "mcpServers",
  renderEntry: (e) => ({ type: "stdio", command: e.command, args: [...e.args] }),
  locate,
  presence: (platform, fs) =>
    firstExisting(fs, [
      platform.pathFlavour.join(configDir(platform), ".claude.json"),
      platform.pathFlavour.join(platform.home, ".claude"),
    ]),
});
