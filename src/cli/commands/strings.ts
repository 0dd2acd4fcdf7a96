/** `ra3 strings TEXT`: search the string table, with the assets that use each key. */
import type { CliConfig } from "../args.ts";
import { answer, openWorkspace } from "../context.ts";
import type { CliIo } from "../io.ts";
import { searchStrings } from "../../query/strings.ts";
import { searchStringsAnswer } from "../../query/answers.ts";

export async function runStrings(cfg: CliConfig, io: CliIo): Promise<number> {
  const opened = await openWorkspace(cfg, io);
  if (typeof opened === "number") return opened;
  const { ws } = opened;
  const result = searchStrings(ws.linked!, cfg.positionals.join(" "), cfg.limit);
  return answer(cfg, io, opened, result, (r) => {
    if (r.noStringTable) return "the project has no string table (*.str)";
    const lines = r.matches.map((m) => {
      const shown = m.text.replace(/\n/g, "\\n");
      const head = `${m.key}  "${shown.length > 80 ? shown.slice(0, 77) + "…" : shown}"  ${m.file}:${m.line}`;
      return [head, ...m.assets.map((a) => `  used by ${a.type} ${a.id} (${a.field}) ${a.file}:${a.line}`)].join("\n");
    });
    lines.push(`${r.matches.length} of ${r.total} match${r.total === 1 ? "" : "es"}`);
    return lines.join("\n");
  }, { answer: searchStringsAnswer });
}
