/** `ra3 define NAME`: a $DEFINE's value and where it is declared. */
import type { CliConfig } from "../args.ts";
import { answer, openWorkspace } from "../context.ts";
import type { CliIo } from "../io.ts";
import { findDefine } from "../../query/defines.ts";
import { findDefineAnswer } from "../../query/answers.ts";

export async function runDefine(cfg: CliConfig, io: CliIo): Promise<number> {
  const opened = await openWorkspace(cfg, io);
  if (typeof opened === "number") return opened;
  const { ws } = opened;
  const result = findDefine(ws.linked!, cfg.positionals[0]);
  return answer(
    cfg,
    io,
    opened,
    result,
    (r) =>
      [
        ...r.definitions.map((d) => `$${d.name} = ${JSON.stringify(d.value)}  ${d.file}:${d.line}`),
        `${r.uses} use${r.uses === 1 ? "" : "s"} in compiled or referenced files`,
      ].join("\n"),
    { answer: findDefineAnswer },
  );
}
