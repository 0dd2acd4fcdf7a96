/**
 * opencode: key `mcp`; an entry is `{type: "local", command: [binary, ...args], enabled: true}` (one
 * command array, no `args`; opencode rejects unknown fields). User config in
 * `$XDG_CONFIG_HOME/opencode/` (default `~/.config/opencode/`, on Windows too), project config at the
 * project root; each may be `opencode.json` or `opencode.jsonc` — the existing one is edited, the
 * `.jsonc` one when both exist (opencode reads it last, so it wins).
 */
import { type FileSystemPort } from "../../disk/port.ts";
import { envVar, type Platform, xdgConfigHome } from "../platform.ts";
import { opencodeExpansion } from "./expansion.ts";
import { jsonWriter, noProjectLocation } from "./json-dialect.ts";
import { clientFolder, existing, firstFound, onPath } from "./presence.ts";
import type { ClientConfigWriter, ConfigLocation, Scope } from "./types.ts";

function userDir(platform: Platform): string {
  return platform.pathFlavour.join(xdgConfigHome(platform), "opencode");
}

/** opencode's data folder, which it creates on its first run: `$XDG_DATA_HOME/opencode`, else `~/.local/share/opencode`. */
function dataDir(platform: Platform): string {
  const xdg = envVar(platform, "XDG_DATA_HOME");
  const base = xdg && platform.pathFlavour.isAbsolute(xdg)
    ? xdg
    : platform.pathFlavour.join(platform.home, ".local", "share");
  return platform.pathFlavour.join(base, "opencode");
}

function pick(platform: Platform, dir: string, fs: FileSystemPort): ConfigLocation {
  const j = platform.pathFlavour.join;
  const json = j(dir, "opencode.json");
  const jsonc = j(dir, "opencode.jsonc");
  const candidates = [jsonc, json];
  const hasJson = fs.exists(json);
  const hasJsonc = fs.exists(jsonc);
  if (hasJson && hasJsonc) {
    return {
      file: jsonc,
      candidates,
      problem: null,
      notes: [`Both ${json} and ${jsonc} exist; ra3 edits the .jsonc one, which opencode reads last.`],
    };
  }
  return { file: hasJsonc ? jsonc : json, candidates, problem: null, notes: [] };
}

function locate(
  platform: Platform,
  scope: Scope,
  fs: FileSystemPort,
  projectDir?: string,
): ConfigLocation {
  if (scope === "project") return projectDir ? pick(platform, projectDir, fs) : noProjectLocation("opencode");
  return pick(platform, userDir(platform), fs);
}

/** The opencode writer. */
export const opencodeWriter: ClientConfigWriter = jsonWriter({
  id: "opencode",
  displayName: "opencode",
  scopes: ["user", "project"],
  syntax: "jsonc",
  expansion: opencodeExpansion,
  serversKey: "mcp",
  renderEntry: (e) => ({ type: "local", command: [e.command, ...e.args], enabled: true }),
  locate,
  presence: (platform, fs) =>
    firstFound(
      () => clientFolder(fs, userDir(platform)),
      () => existing(fs, dataDir(platform)),
      () => onPath(platform, fs, ["opencode"]),
    ),
});
