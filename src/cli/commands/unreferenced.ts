/** `ra3 unreferenced [--type T] [--include-overrides]`: project assets nothing references. */
import type { CliConfig } from "../args.ts";
import { answer, openWorkspace } from "../context.ts";
import type { CliIo } from "../io.ts";
import { unreferenced } from "../../query/unreferenced.ts";
import { unreferencedAnswer } from "../../query/answers.ts";

export async function runUnreferenced(cfg: CliConfig, io: CliIo): Promise<number> {
  const opened = await openWorkspace(cfg, io);
  if (typeof opened === "number") return opened;
  const { ws } = opened;
  const result = unreferenced(ws.linked!, {
    type: cfg.type,
    includeOverrides: cfg.includeOverrides,
    limit: cfg.limit,
    cursor: cfg.cursor,
  });
  return answer(cfg, io, opened, result, (r) => {
    const lines: string[] = [];
    let type = "";
    for (const i of r.items) {
      if (i.type !== type) {
        type = i.type;
        lines.push(`${type}:`);
      }
      lines.push(
        `  ${i.id.padEnd(40)} ${i.file}:${i.line}${i.overridesVanilla ? "  (overrides a vanilla asset)" : ""}`,
      );
    }
    lines.push(
      `${r.total} unreferenced asset${r.total === 1 ? "" : "s"}${
        r.rule === "heuristic" ? " (no schema: types judged by what the project references)" : ""
      }${r.nextCursor ? `; next page: --cursor ${r.nextCursor}` : ""}`,
    );
    if (r.caveat) lines.push(r.caveat);
    return lines.join("\n");
  }, { answer: unreferencedAnswer });
}
