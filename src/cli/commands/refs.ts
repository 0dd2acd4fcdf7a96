/** `ra3 refs ID [--type T] [--kind K]...`: who references an asset, with totals by kind. */
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
    kinds: cfg.kinds,
    limit: cfg.limit,
    cursor: cfg.cursor,
  });
  return answer(cfg, io, opened, result, (r) => {
    // The counts by kind and of assets only when they say more than the sites do (as the JSON answer).
    const kinds = Object.entries(r.byKind);
    const byKind = kinds.length === 1 && kinds[0][1] === r.total ? "" : kinds.map(([k, n]) => `${k} ${n}`).join(", ");
    const lines = [
      `${r.type} ${r.id}: ${r.total} reference${r.total === 1 ? "" : "s"}${
        r.kinds.length ? ` of kind ${r.kinds.join(", ")}` : ""
      }${r.assets === r.total ? "" : ` from ${r.assets} asset${r.assets === 1 ? "" : "s"}`}${
        byKind ? ` (${byKind})` : ""
      }`,
    ];
    for (const s of r.references) {
      const from = s.from ? `${s.from.type} ${s.from.id}` : "(no asset)";
      const where = s.attribute ? `${s.element}@${s.attribute}` : `<${s.element}>`;
      const notes = [
        s.kind === "attribute" || s.kind === "content" || s.kind === "inheritFrom" ? "" : s.kind,
        s.confirmedByManifest ? "confirmed by the manifest" : "",
        s.cycle ? `cycle ${s.cycle.join(" → ")}` : "",
        s.unspliced ? "fragment spliced nowhere" : "",
        s.state === "compiled" ? "" : s.state === "referenced" ? "referenced file" : "file not included",
      ].filter((n) => n !== "");
      lines.push(
        `  ${s.file}:${s.line}:${s.column}  ${from}  ${s.kind === "inheritFrom" ? "inheritFrom" : where}${
          notes.length ? `  (${notes.join(", ")})` : ""
        }`,
      );
    }
    if (r.nextCursor) lines.push(`  … next page: --cursor ${r.nextCursor}`);
    return lines.join("\n");
  }, { answer: findReferencesAnswer });
}
