/**
 * `ra3 files [--state compiled|referenced|not-included] [--prefix P] [--limit N] [--cursor C]`: the
 * project's files by state, paged — `--state not-included` lists the files nothing includes.
 */
import type { CliConfig } from "../args.ts";
import { answer, openWorkspace } from "../context.ts";
import type { CliIo } from "../io.ts";
import { listFiles } from "../../query/file-list.ts";
import { listFilesAnswer } from "../../query/answers.ts";

export async function runFiles(cfg: CliConfig, io: CliIo): Promise<number> {
  const opened = await openWorkspace(cfg, io);
  if (typeof opened === "number") return opened;
  const { ws } = opened;
  const result = listFiles(ws.linked!, { state: cfg.state, prefix: cfg.prefix, limit: cfg.limit, cursor: cfg.cursor });
  return answer(cfg, io, opened, result, (r) => {
    const lines = r.items.map((i) => {
      const flags = [
        r.state ? "" : i.state,
        i.kind === "missing" ? "missing on disk" : "",
        i.viaInstance ? "instance-only" : "",
        i.foreign ? "not asset XML" : "",
        i.hasXmlError ? "XML error" : "",
      ].filter(Boolean).join(", ");
      return `${i.file}${flags ? `  [${flags}]` : ""}`;
    });
    lines.push(
      `${r.items.length} of ${r.total} file${r.total === 1 ? "" : "s"}${
        r.state ? ` ${r.state === "not-included" ? "not included" : r.state}` : ""
      }${r.prefix ? ` under ${r.prefix}` : ""} (${r.byState.compiled} compiled, ${r.byState.referenced} referenced, ${
        r.byState["not-included"]
      } not included)${r.nextCursor ? `; next page: --cursor ${r.nextCursor}` : ""}`,
    );
    return lines.join("\n");
  }, { answer: listFilesAnswer });
}
