/** `ra3 find ID [--type T]`: where an asset is defined. */
import type { CliConfig } from "../args.ts";
import { answer, openWorkspace } from "../context.ts";
import type { CliIo } from "../io.ts";
import { findAsset } from "../../query/assets.ts";
import { findAssetAnswer } from "../../query/answers.ts";

export async function runFind(cfg: CliConfig, io: CliIo): Promise<number> {
  const opened = await openWorkspace(cfg, io);
  if (typeof opened === "number") return opened;
  const { ws } = opened;
  return answer(cfg, io, opened, findAsset(ws.linked!, cfg.positionals[0], cfg.type), (r) =>
    r.definitions
      .map((d) => {
        const where = d.origin === "manifest"
          ? `${d.file} (manifest${d.manifestSource ? `, source ${d.manifestSource}` : ""})`
          : `${d.file}:${d.line}:${d.column}`;
        const state = d.state === "compiled" ? `compiled in ${d.streams.join("+")}` : d.state;
        const flags = [
          d.origin,
          state,
          d.viaInstance ? "instance-only" : "",
          d.fileHasErrors ? "file has an XML error" : "",
        ].filter(Boolean).join(", ");
        return `${d.type} ${d.id}\n  ${where}  [${flags}]${d.inheritFrom ? `\n  inheritFrom ${d.inheritFrom}` : ""}`;
      })
      .concat(r.notes)
      .join("\n"), { answer: findAssetAnswer });
}
