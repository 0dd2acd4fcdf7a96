/** `ra3 refs ID [--type T]`: who references an asset. */
import type { CliConfig } from "../args.ts";
import { answer, openWorkspace } from "../context.ts";
import type { CliIo } from "../io.ts";
import { findReferences } from "../../query/references.ts";
import { findReferencesAnswer } from "../../query/answers.ts";

export async function runRefs(cfg: CliConfig, io: CliIo): Promise<number> {
  const opened = await openWorkspace(cfg, io);
  if (typeof opened === "number") return opened;
  const { ws } = opened;
  const result = findReferences(ws.linked!, cfg.positionals[0], {
    type: cfg.type,
    limit: cfg.limit,
    cursor: cfg.cursor,
  });
  return answer(cfg, io, opened, result, (r) => {
    const lines = [`${r.type} ${r.id}: ${r.total} reference${r.total === 1 ? "" : "s"}`];
    for (const s of r.references) {
      const from = s.from ? `${s.from.type} ${s.from.id}` : "(no asset)";
      const where = s.attribute ? `${s.element}@${s.attribute}` : `<${s.element}>`;
      lines.push(
        `  ${s.file}:${s.line}:${s.column}  ${from}  ${s.kind === "inheritFrom" ? "inheritFrom" : where}${
          s.state === "compiled" ? "" : `  (${s.state === "referenced" ? "referenced file" : "file not included"})`
        }`,
      );
    }
    if (r.nextCursor) lines.push(`  … next page: --cursor ${r.nextCursor}`);
    return lines.join("\n");
  }, { answer: findReferencesAnswer });
}
