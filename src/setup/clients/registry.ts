/** Every client dialect ra3 can configure, and lookup by id. */
import { claudeCodeWriter } from "./claude-code.ts";
import { claudeDesktopWriter } from "./claude-desktop.ts";
import { clineVscodeWriter, clineWriter } from "./cline.ts";
import { codexWriter } from "./codex.ts";
import { copilotWriter } from "./copilot.ts";
import { cursorWriter } from "./cursor.ts";
import { geminiWriter } from "./gemini.ts";
import { opencodeWriter } from "./opencode.ts";
import { qwenWriter } from "./qwen.ts";
import type { FileSystemPort } from "../../disk/port.ts";
import type { Platform } from "../platform.ts";
import type { ClientConfigWriter, ClientId } from "./types.ts";
import { vscodeWriter } from "./vscode.ts";
import { windsurfWriter } from "./windsurf.ts";
import { zedWriter } from "./zed.ts";

/** All writers, in the order setup offers them. */
export const allWriters: readonly ClientConfigWriter[] = [
  claudeCodeWriter,
  claudeDesktopWriter,
  cursorWriter,
  vscodeWriter,
  codexWriter,
  copilotWriter,
  geminiWriter,
  qwenWriter,
  windsurfWriter,
  clineWriter,
  clineVscodeWriter,
  zedWriter,
  opencodeWriter,
];

/** The ids accepted by `writerFor` (and `ra3 setup --client`). */
export const clientIds: readonly ClientId[] = allWriters.map((w) => w.id);

/**
 * The writer for a client id (case-insensitive), or null when unknown.
 * @example writerFor("codex")?.displayName // "Codex"
 */
export function writerFor(id: string): ClientConfigWriter | null {
  const key = id.toLowerCase();
  return allWriters.find((w) => w.id === key) ?? null;
}

/**
 * The writers a `--client` name stands for: one writer, except `cline`, which means every Cline found
 * installed (the CLI and the VS Code extension keep separate files), and the CLI when neither is found
 * (its plan then says Cline is not installed).
 * @example writersNamed("cline", platform, fs).map((w) => w.id) // ["cline", "cline-vscode"] with both installed
 */
export function writersNamed(id: string, platform: Platform, fs: FileSystemPort): ClientConfigWriter[] {
  const w = writerFor(id);
  if (w === null) return [];
  if (w.id !== "cline") return [w];
  const found = [clineWriter, clineVscodeWriter].filter((c) => c.presence(platform, fs) !== null);
  return found.length ? found : [clineWriter];
}
