/** `ra3 define NAME [--limit N] [--cursor C]`: where a $DEFINE is declared and used. */
import type { CliConfig } from "../args.ts";
import { answer, openWorkspace } from "../context.ts";
import type { CliIo } from "../io.ts";
import { findDefine } from "../../query/defines.ts";
import { findDefineAnswer } from "../../query/answers.ts";

export async function runDefine(cfg: CliConfig, io: CliIo): Promise<number> {
  const opened = await openWorkspace(cfg, io);
  if (typeof opened === "number") return opened;
  const { ws } = opened;
  const result = findDefine(ws.linked!, cfg.positionals[0], { limit: cfg.limit, cursor: cfg.cursor });
  return answer(
    cfg,
    io,
    opened,
    result,
    (r) =>
      [
        ...r.definitions.map((d) =>
          `$${d.name} = ${JSON.stringify(d.value)}  ${d.file}:${d.line}${
            d.state === "compiled" ? "" : `  (${d.state === "referenced" ? "referenced file" : "file not included"})`
          }`
        ),
        ...(r.inEffect > 1 ? [`declared ${r.inEffect} times in the files the build sees`] : []),
        ...(r.inEffect === 0 ? ["no declaration is in a file the build sees"] : []),
        `${r.uses} use${r.uses === 1 ? "" : "s"} in compiled or referenced files; ${r.useSitesTotal} use site${
          r.useSitesTotal === 1 ? "" : "s"
        } in all:`,
        ...r.useSites.map((u) =>
          `  ${u.file}:${u.line}:${u.column}  ${u.attribute ? `${u.element}@${u.attribute}` : `<${u.element}>`}${
            u.state === "compiled" ? "" : `  (${u.state === "referenced" ? "referenced file" : "file not included"})`
          }`
        ),
        ...(r.nextCursor ? [`  … next page: --cursor ${r.nextCursor}`] : []),
      ].join("\n"),
    { answer: findDefineAnswer },
  );
}
