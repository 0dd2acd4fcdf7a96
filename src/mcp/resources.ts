/**
 * Resources mirror two tools for clients that attach documents rather than call tools:
 * `ra3://asset/{type}/{id}` is `get_definition` (facts + XML text), `ra3://file/{+path}` is
 * `is_file_active` plus the start of the file's text. Completions offer ids (prefix match over the
 * index, at most 100 values of bounded length), types and file paths. They need one project: a
 * multi-project server refuses. A read while the first build runs waits for it (briefly), then says so
 * with an error the client may retry.
 */
import {
  type McpServer,
  ProtocolError,
  type ReadResourceResult,
  ResourceNotFoundError,
  ResourceTemplate,
} from "@modelcontextprotocol/server";
import type { LinkedIndex } from "../index/linked.ts";
import { completeFiles, completeIds, completeTypes } from "../query/completions.ts";
import { definitionOf, definitionTarget } from "../query/definition.ts";
import { isQueryError } from "../query/envelope.ts";
import { fileQuery } from "../query/files.ts";
import { visibleLines } from "../query/visible.ts";
import { toAbsolute } from "../project/paths.ts";
import { renderDefinition, renderFile } from "./render.ts";
import { progressText } from "./respond.ts";
import type { ToolEnv } from "./tools.ts";

const INVALID_PARAMS = -32602;
/** JSON-RPC "internal error": the read could not be served now; `data.retryAfterMs` says it is worth retrying. */
const INTERNAL_ERROR = -32603;
/** How long a read waits for the first index of the project before answering "still building". */
export const RESOURCE_WAIT_MS = 10_000;
const RETRY_AFTER_MS = 2_000;
const FILE_LINES = 200;
const FILE_CHARS = 12_000;

function decode(v: string | string[]): string {
  const s = Array.isArray(v) ? v.join(",") : v;
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** The single project's handle, or a ProtocolError saying why resources cannot be read on this server. */
function singleProject(env: ToolEnv) {
  const reg = env.registry;
  if (reg.mode !== "single") {
    throw new ProtocolError(
      INVALID_PARAMS,
      reg.mode === "container"
        ? "this server serves several mods; resources need one: use the tools with project"
        : `no mod to read from: ${reg.note}`,
    );
  }
  const h = reg.pick(null);
  if (isQueryError(h)) throw new ProtocolError(INVALID_PARAMS, h.error.message);
  return h;
}

/**
 * The single project's index, waiting up to `waitMs` for the first one; a ProtocolError when there is
 * none (still building: retryable, with `data.retryAfterMs`; the build failed: not).
 */
async function indexFor(env: ToolEnv, waitMs: number): Promise<LinkedIndex> {
  const h = singleProject(env);
  const linked = h.service.linked ?? (waitMs > 0 ? await h.service.waitForIndex(waitMs) : null);
  if (linked) {
    // A warm start's stored sites are decoded (or refused and the index linked again) before any read.
    const unreadable = await h.service.decodeStoredSites();
    if (unreadable) {
      throw new ProtocolError(
        INTERNAL_ERROR,
        `the stored index cannot be read: ${unreadable}; fix the cause, then call the reindex tool`,
      );
    }
    return h.service.linked ?? linked;
  }
  if (h.service.ws.lifecycle.state === "error") {
    throw new ProtocolError(
      INTERNAL_ERROR,
      `the index could not be built: ${h.service.error ?? "unknown error"}; fix the cause, then call the reindex tool`,
    );
  }
  throw new ProtocolError(
    INTERNAL_ERROR,
    `the index is still building ${progressText(h.service)}; read the resource again in a moment`,
    { reason: "building", retryAfterMs: RETRY_AFTER_MS },
  );
}

/** The index for completions: whatever is published now (completions never wait). */
function linkedOrNull(env: ToolEnv): LinkedIndex | null {
  try {
    return singleProject(env).service.linked;
  } catch {
    return null;
  }
}

/** Registers the asset and file resource templates (with completions) on `server`. */
export function registerResources(server: McpServer, env: ToolEnv, waitMs: number): void {
  const asset = new ResourceTemplate("ra3://asset/{type}/{id}", {
    list: undefined,
    complete: {
      type: (value) => {
        const linked = linkedOrNull(env);
        return linked ? completeTypes(linked, value) : [];
      },
      id: (value, context) => {
        const linked = linkedOrNull(env);
        return linked ? completeIds(linked, context?.arguments?.type, value) : [];
      },
    },
  });
  server.registerResource(
    "asset",
    asset,
    {
      title: "Asset definition",
      description:
        "An asset's XML definition with its facts (file, lines, origin, other definitions), like get_definition.",
      mimeType: "text/plain",
    },
    async (uri, vars): Promise<ReadResourceResult> => {
      const linked = await indexFor(env, waitMs);
      const type = decode(vars.type);
      const id = decode(vars.id);
      const target = definitionTarget(linked, id, type);
      if (isQueryError(target)) throw new ResourceNotFoundError(uri.toString(), target.error.message);
      const source = target.def.origin === "manifest" ? null : env.readSource(target.def.file, linked);
      const r = definitionOf(linked, target, source, { maxLines: FILE_LINES, maxChars: FILE_CHARS });
      return { contents: [{ uri: uri.toString(), mimeType: "text/plain", text: renderDefinition(r) }] };
    },
  );

  const file = new ResourceTemplate("ra3://file/{+path}", {
    list: undefined,
    complete: {
      path: (value) => {
        const linked = linkedOrNull(env);
        return linked ? completeFiles(linked, decode(value)) : [];
      },
    },
  });
  server.registerResource(
    "file",
    file,
    {
      title: "Mod file",
      description:
        "Whether a project file is active, its streams and include edges (like is_file_active), then the start of its text.",
      mimeType: "text/plain",
    },
    async (uri, vars): Promise<ReadResourceResult> => {
      const linked = await indexFor(env, waitMs);
      const path = decode(vars.path);
      const r = fileQuery(linked, path);
      if (isQueryError(r)) {
        if (r.error.code === "outside_project") throw new ProtocolError(INVALID_PARAMS, r.error.message);
        throw new ResourceNotFoundError(uri.toString(), r.error.message);
      }
      const facts = renderFile(r);
      const abs = toAbsolute(path, linked.projectDir);
      const info = linked.file(abs);
      let body = "";
      if (info && info.kind !== "missing" && info.kind !== "binary" && info.kind !== "manifest") {
        const src = env.readSource(info.path, linked);
        if ("error" in src) body = src.error;
        else {
          const lines = src.text.split(/\r?\n/);
          let text = lines.slice(0, FILE_LINES).join("\n");
          let cut = lines.length > FILE_LINES;
          if (text.length > FILE_CHARS) {
            text = text.slice(0, FILE_CHARS).replace(/\n[^\n]*$/, "");
            cut = true;
          }
          body = `${visibleLines(text)}${
            cut
              ? `\n(cut: the file has ${lines.length} lines; read the rest with your own tools, a few lines at a time)`
              : ""
          }`;
        }
      }
      return {
        contents: [{ uri: uri.toString(), mimeType: "text/plain", text: body ? `${facts}\n\n${body}` : facts }],
      };
    },
  );
}
