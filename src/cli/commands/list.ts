/** `ra3 list TYPE [--prefix P] [--limit N] [--cursor C]`: the ids of a type, paged. */
import type { CliConfig } from "../args.ts";
import { answer, openWorkspace } from "../context.ts";
import type { CliIo } from "../io.ts";
import { listAssets } from "../../query/assets.ts";
import { listAssetsAnswer } from "../../query/answers.ts";

export async function runList(cfg: CliConfig, io: CliIo): Promise<number> {
  const opened = await openWorkspace(cfg, io);
  if (typeof opened === "number") return opened;
  const { ws } = opened;
  const result = listAssets(ws.linked!, cfg.positionals[0], {
    prefix: cfg.prefix,
    limit: cfg.limit,
    cursor: cfg.cursor,
  });
  return answer(cfg, io, opened, result, (r) => {
    const lines = r.items.map((i) =>
      `${i.id.padEnd(40)} ${i.file}:${i.line}${i.state === "compiled" ? "" : ` (${i.state})`}${
        i.origin === "project" ? "" : ` [${i.origin}]`
      }`
    );
    lines.push(
      `${r.items.length} of ${r.total} ${r.type}${r.prefix ? ` starting with "${r.prefix}"` : ""}${
        r.nextCursor ? `; next page: --cursor ${r.nextCursor}` : ""
      }`,
    );
    return lines.join("\n");
  }, { answer: listAssetsAnswer });
}
