/** Every client dialect ra3 can configure, and lookup by id. */
import { claudeCodeWriter } from "./claude-code.ts";
import { claudeDesktopWriter } from "./claude-desktop.ts";
import { clineWriter } from "./cline.ts";
import { codexWriter } from "./codex.ts";
import { cursorWriter } from "./cursor.ts";
import { geminiWriter } from "./gemini.ts";
import { opencodeWriter } from "./opencode.ts";
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
  geminiWriter,
  windsurfWriter,
  clineWriter,
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
