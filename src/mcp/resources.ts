/**
 * Resources mirror two tools for clients that attach documents rather than call tools:
 * `ra3://asset/{type}/{id}` is `get_definition` (facts + XML text), `ra3://file/{+path}` is
 * `is_file_active` plus the start of the file's text. Completions offer ids (prefix match over the
 * index, at most 100), types and file paths. They need one project: a multi-project server refuses.
 */
// @ts-types="@modelcontextprotocol/sdk/server/mcp"
import { McpServer, ResourceTemplate } from "@modelcontextprotocol/sdk/server/mcp.js";
// @ts-types="@modelcontextprotocol/sdk/types"
import { McpError, type ReadResourceResult } from "@modelcontextprotocol/sdk/types.js";
import type { LinkedIndex } from "../index/linked.ts";
import { completeFiles, completeIds, completeTypes } from "../query/completions.ts";
import { definitionOf, definitionTarget } from "../query/definition.ts";
import { isQueryError } from "../query/envelope.ts";
import { fileQuery } from "../query/files.ts";
import { toAbsolute } from "../project/paths.ts";
import { renderDefinition, renderFile } from "./render.ts";
import { progressText } from "./respond.ts";
import type { ToolEnv } from "./tools.ts";

/** JSON-RPC code for "resource not found" in the 2025 protocol revisions. */
const RESOURCE_NOT_FOUND = -32002;
const INVALID_PARAMS = -32602;
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

/** The single project's index, or an McpError saying why there is none. */
function indexFor(env: ToolEnv): LinkedIndex {
  const reg = env.registry;
  if (reg.mode !== "single") {
    throw new McpError(
      INVALID_PARAMS,
      reg.mode === "container"
        ? "this server serves several mods; resources need one: use the tools with project"
        : `no mod to read from: ${reg.note}`,
    );
  }
  const h = reg.pick(null);
  if (isQueryError(h)) throw new McpError(INVALID_PARAMS, h.error.message);
  const linked = h.service.linked;
  if (!linked) {
    throw new McpError(INVALID_PARAMS, `the index is still building ${progressText(h.service)}; retry in a moment`);
  }
  return linked;
}

function linkedOrNull(env: ToolEnv): LinkedIndex | null {
  try {
    return indexFor(env);
  } catch {
    return null;
  }
}

/** Registers the asset and file resource templates (with completions) on `server`. */
export function registerResources(server: McpServer, env: ToolEnv): void {
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
    (uri, vars): ReadResourceResult => {
      const linked = indexFor(env);
      const type = decode(vars.type);
      const id = decode(vars.id);
      const target = definitionTarget(linked, id, type);
      if (isQueryError(target)) {
        throw new McpError(RESOURCE_NOT_FOUND, target.error.message);
      }
      const source = target.def.origin === "manifest" ? null : env.readSource(target.def.file);
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
    (uri, vars): ReadResourceResult => {
      const linked = indexFor(env);
      const path = decode(vars.path);
      const r = fileQuery(linked, path);
      if (isQueryError(r)) {
        throw new McpError(r.error.code === "outside_project" ? INVALID_PARAMS : RESOURCE_NOT_FOUND, r.error.message);
      }
      const facts = renderFile(r);
      const abs = toAbsolute(path, linked.projectDir);
      const info = linked.file(abs);
      let body = "";
      if (info && info.kind !== "missing" && info.kind !== "binary" && info.kind !== "manifest") {
        const src = env.readSource(info.path);
        if ("error" in src) body = src.error;
        else {
          const lines = src.text.split(/\r?\n/);
          let text = lines.slice(0, FILE_LINES).join("\n");
          let cut = lines.length > FILE_LINES;
          if (text.length > FILE_CHARS) {
            text = text.slice(0, FILE_CHARS).replace(/\n[^\n]*$/, "");
            cut = true;
          }
          body = `${text}${
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
