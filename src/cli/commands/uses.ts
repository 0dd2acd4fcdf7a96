/** `ra3 uses ID [--type T] [--depth N] [--target-type T]... [--max-edges N]`: forward references with provenance. */
import type { CliConfig } from "../args.ts";
import { answer, openWorkspace } from "../context.ts";
import type { CliIo } from "../io.ts";
import { edgeNote, uses } from "../../query/uses.ts";
import { usesAnswer } from "../../query/answers.ts";

export async function runUses(cfg: CliConfig, io: CliIo): Promise<number> {
  const opened = await openWorkspace(cfg, io);
  if (typeof opened === "number") return opened;
  const { ws } = opened;
  const result = uses(ws.linked!, cfg.positionals[0], {
    type: cfg.type,
    depth: cfg.depth,
    targetTypes: cfg.targetTypes,
    maxEdges: cfg.maxEdges,
  });
  return answer(cfg, io, opened, result, (r) => {
    const lines = [
      `${r.asset.type} ${r.asset.id} (${r.asset.file}:${r.asset.line}), depth ${r.depth}${
        r.targetTypes.length ? `, only ${r.targetTypes.join(", ")}` : ""
      }`,
    ];
    if (r.inheritChain.length) lines.push(`  inherits ${r.inheritChain.map((a) => a.id).join(" → ")}`);
    for (const e of r.edges) {
      const via = e.via.kind === "inheritFrom"
        ? "inheritFrom"
        : e.via.attribute
        ? `${e.via.element}@${e.via.attribute}`
        : `<${e.via.element}>`;
      const note = edgeNote(e);
      const to = `${e.to.type} ${e.to.id}${note ? ` (${note})` : ""}`;
      const prov = e.definedIn ? ` [inherited from ${e.definedIn.id}]` : "";
      lines.push(
        `  ${"  ".repeat(e.depth - 1)}${e.from.id} → ${to}  via ${via} at ${e.source.file}:${e.source.line}${prov}`,
      );
    }
    if (r.truncated) lines.push(`  … truncated at ${r.edges.length} edges (raise --max-edges)`);
    if (r.omittedByTargetType) lines.push(`  (${r.omittedByTargetType} edges to other types left out)`);
    return lines.join("\n");
  }, { answer: usesAnswer });
}
