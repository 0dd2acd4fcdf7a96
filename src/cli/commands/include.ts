/** `ra3 include SOURCE [--from FILE]`: how an Include source string resolves. */
import type { CliConfig } from "../args.ts";
import { answer, openWorkspace } from "../context.ts";
import type { CliIo } from "../io.ts";
import { resolveIncludeQuery } from "../../query/includes.ts";
import { resolveIncludeAnswer } from "../../query/answers.ts";

export async function runInclude(cfg: CliConfig, io: CliIo): Promise<number> {
  const opened = await openWorkspace(cfg, io);
  if (typeof opened === "number") return opened;
  const { ws } = opened;
  const result = resolveIncludeQuery(
    ws.linked!,
    ws.ports.projectResolver,
    ws.config.layout,
    cfg.positionals[0],
    cfg.from,
    ws.ports.references,
  );
  return answer(cfg, io, opened, result, (r) => {
    const lines = [
      r.resolved
        ? `${r.source} → ${r.resolved}${r.caseFixed ? " (case fixed)" : ""}${
          r.twoLetterRule ? " (ART two-letter folder rule)" : ""
        } [${r.state}]`
        : `${r.source} does not resolve: ${r.reason}`,
    ];
    lines.push(`  from ${r.from}`);
    const a = r.asReference;
    if (a.answeredBy === "manifest") {
      lines.push(`  as a reference include: the prebuilt manifest ${a.manifest} (from ${a.manifestFrom})`);
    } else if (a.answeredBy === "sdk-stream") lines.push(`  as a reference include: the SDK stream ${a.sdkStream}`);
    for (const t of r.tried) {
      lines.push(`  ${t.outside ? "outside (not looked up)" : t.hit ? "hit " : "miss"} ${t.candidate}`);
    }
    return lines.join("\n");
  }, { answer: resolveIncludeAnswer });
}
