/** `ra3 status`: what ra3 knows about this project, its SDK, schema and index. */
import type { CliConfig } from "../args.ts";
import { emit, openWorkspace } from "../context.ts";
import type { CliIo } from "../io.ts";
import { statusOf } from "../../query/status.ts";

export async function runStatus(cfg: CliConfig, io: CliIo): Promise<number> {
  const opened = await openWorkspace(cfg, io);
  if (typeof opened === "number") return opened;
  const { ws } = opened;
  return emit(cfg, io, ws, statusOf(ws), (r) => {
    const lines = [
      `project   ${r.project} (${r.marker ?? "no marker"})`,
      `game      ${r.game ?? "unknown"}`,
      `sdk       ${r.sdk ? `${r.sdk.dir} (${r.sdk.status}, from ${r.sdk.source})` : "none: project-only mode"}`,
    ];
    for (const c of r.sdkCandidates) lines.push(`            ${c.accepted ? "used" : "skipped"} ${c.source}${c.path ? ` ${c.path}` : ""}: ${c.reason}`);
    lines.push(`schema    ${r.schema.dir ? `${r.schema.dir} (${r.schema.source}, ${r.schema.files} files)` : "none: references matched heuristically"}`);
    lines.push(`index     ${r.state}, build ${r.buildId}${r.builtAt ? ` at ${r.builtAt}` : ""}${r.complete ? "" : ", incomplete"}${r.stale ? ", stale" : ""}`);
    for (const s of r.streams) lines.push(`stream    ${s.name}: ${s.entry} (${s.files} files)`);
    return lines.join("\n");
  });
}
