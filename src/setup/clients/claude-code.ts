/**
 * Claude Code: user scope = top-level `mcpServers` in `~/.claude.json` (in `$CLAUDE_CONFIG_DIR` when
 * that is set); project scope = `.mcp.json` at the project root (Claude Code asks the user to approve
 * it). Strict JSON. Claude Code expands `${VAR}` and `${VAR:-default}` in `args` (verified, 2.1.332). Claude Code's "local" scope (`projects[<path>].mcpServers`) is not written.
 * `~/.claude.json` is large and rewritten by Claude Code while it runs; the planner re-reads it just
 * before writing and refuses if it changed in between.
 */
import { type FileSystemPort } from "../../disk/port.ts";
import { envVar, type Platform } from "../platform.ts";
import { claudeExpansion } from "./expansion.ts";
import { fixedLocation, jsonWriter, noProjectLocation } from "./json-dialect.ts";
import { clientFolder, existing, firstFound, onPath } from "./presence.ts";
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
  expansion: claudeExpansion,
  serversKey: "mcpServers",
  renderEntry: (e) => ({ type: "stdio", command: e.command, args: [...e.args] }),
  locate,
  // Claude Code writes ~/.claude.json on its first run; a ~/.claude holding only the skill is ra3's doing.
  presence: (platform, fs) =>
    firstFound(
      () => existing(fs, platform.pathFlavour.join(configDir(platform), ".claude.json")),
      () => clientFolder(fs, platform.pathFlavour.join(configDir(platform), ".claude")),
      () => onPath(platform, fs, ["claude"]),
    ),
});
