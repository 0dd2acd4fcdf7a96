/**
 * `ra3 file PATH [--limit N] [--cursor C]`: is a file compiled, referenced or not included; its include
 * chain, streams, who includes it (paged).
 */
import type { CliConfig } from "../args.ts";
import { answer, openWorkspace } from "../context.ts";
import type { CliIo } from "../io.ts";
import { fileQuery } from "../../query/files.ts";
import { fileAnswer } from "../../query/answers.ts";

export async function runFile(cfg: CliConfig, io: CliIo): Promise<number> {
  const opened = await openWorkspace(cfg, io);
  if (typeof opened === "number") return opened;
  const { ws } = opened;
  return answer(
    cfg,
    io,
    opened,
    fileQuery(ws.linked!, cfg.positionals[0], { limit: cfg.limit, cursor: cfg.cursor }),
    (r) => {
      const lines = [
        r.summary,
        `  kind ${r.kind}, ${r.assets} asset${r.assets === 1 ? "" : "s"}, ${r.diagnostics} diagnostic${
          r.diagnostics === 1 ? "" : "s"
        }`,
      ];
      if (r.chain) {
        lines.push(`  entry point ${r.chain.entry.file} (${r.chain.entry.stream}: ${r.chain.entry.reason})`);
        for (const h of r.chain.hops) lines.push(`    ${h.file}:${h.line} ${h.type} → ${h.to}`);
      }
      const how = (e: (typeof r.includes)[number]) =>
        `${e.type ?? "invalid type: ignored"}${
          e.resolution === "manifest" || e.resolution === "sdk-stream" ? `, ${e.resolution}` : ""
        }`;
      for (const e of r.includedBy) lines.push(`  included by ${e.file}:${e.line} (${how(e)})`);
      for (const e of r.includes) lines.push(`  includes ${e.source} (${how(e)}) → ${e.file ?? "not found"}`);
      if (r.truncated) {
        lines.push(
          `  (this page: ${r.includedBy.length} of ${r.includedByTotal} including files, ${r.includes.length} of ${r.includesTotal} includes${
            r.nextCursor ? `; next page: --cursor ${r.nextCursor}` : ""
          })`,
        );
      }
      return lines.join("\n");
    },
    { answer: fileAnswer },
  );
}
