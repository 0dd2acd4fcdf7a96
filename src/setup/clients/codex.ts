/**
 * OpenAI Codex (CLI, IDE extension and app share one file): `$CODEX_HOME/config.toml`, default
 * `~/.codex/config.toml`; project `.codex/config.toml` (read only in projects the user trusts). Our
 * entry is the table `[mcp_servers.ra3]` with `command` and `args`. The TOML text is edited in place so
 * the user's other tables and comments survive; smol-toml checks the file before and after.
 */
import { parse as parseToml, TomlError } from "smol-toml";
import { type FileSystemPort } from "../../disk/port.ts";
import { envVar, type Platform } from "../platform.ts";
import { decodeConfigBytes, describeKind, jsonEqual, lineColumn, problem, withBom } from "./config-text.ts";
import { fixedLocation, noProjectLocation } from "./json-dialect.ts";
import { clientFolder, firstFound, onPath } from "./presence.ts";
import { keysStartWith, removeLines, scanToml, sectionsOf, tomlKey, type TomlSection, tomlValue } from "./toml-edit.ts";
import type {
  ClientConfigWriter,
  ConfigLocation,
  ConfigProblem,
  EditResult,
  EntryInspection,
  ParsedConfig,
  ReadResult,
  Scope,
  ServerEntry,
} from "./types.ts";

const SERVERS = "mcp_servers";

type TomlParse = { ok: true; value: Record<string, unknown> } | { ok: false; problem: ConfigProblem };

function parseTomlText(text: string): TomlParse {
  try {
    return { ok: true, value: parseToml(text) as Record<string, unknown> };
  } catch (err) {
    if (err instanceof TomlError) {
      const reason = err.message.split("\n")[0].replace(/^Invalid TOML document:\s*/, "");
      return { ok: false, problem: problem(`not valid TOML (${reason})`, err.line, err.column) };
    }
    throw err;
  }
}

function isTable(v: unknown): v is Record<string, unknown> {
  return Object.prototype.toString.call(v) === "[object Object]";
}

function codexHome(platform: Platform): string {
  const fromEnv = envVar(platform, "CODEX_HOME");
  return fromEnv && platform.pathFlavour.isAbsolute(fromEnv)
    ? fromEnv
    : platform.pathFlavour.join(platform.home, ".codex");
}

function sectionOf(sections: readonly TomlSection[], keys: readonly string[]): TomlSection | undefined {
  return sections.find((s) =>
    s.header && !s.header.arrayTable && s.header.keys.length === keys.length && keysStartWith(s.header.keys, keys)
  );
}

/** Where a key path is first mentioned outside a `[mcp_servers.<name>]` header (for the "cannot edit" message). */
function mentionOf(
  text: string,
  sections: readonly TomlSection[],
  path: readonly string[],
): { line: number; column: number } | null {
  for (const s of sections) {
    const base = s.header?.keys ?? [];
    if (s.header && keysStartWith(s.header.keys, path)) return lineColumn(text, s.header.start);
    for (const st of s.body) {
      if (st.kind !== "keyvalue") continue;
      const full = [...base, ...st.keys];
      if (keysStartWith(full, path) || keysStartWith(path, full)) return lineColumn(text, st.start);
    }
  }
  return null;
}

function notEditable(text: string, name: string): ConfigProblem {
  const sections = sectionsOf(scanToml(text));
  const at = mentionOf(text, sections, [SERVERS, name]);
  return problem(
    `${SERVERS}.${name} is written as an inline table or with dotted keys, which ra3 does not edit; replace it with a [${SERVERS}.${
      tomlKey(name)
    }] table (or delete it) and run setup again`,
    at?.line ?? null,
    at?.column ?? null,
  );
}

function locate(platform: Platform, scope: Scope, _fs: FileSystemPort, projectDir?: string): ConfigLocation {
  const j = platform.pathFlavour.join;
  if (scope === "project") {
    if (!projectDir) return noProjectLocation("Codex");
    return fixedLocation(j(projectDir, ".codex", "config.toml"), [
      "Codex reads a project's .codex/config.toml only after you mark the project as trusted.",
    ]);
  }
  const notes = envVar(platform, "CODEX_HOME") ? ["CODEX_HOME is set, so Codex keeps its configuration there."] : [];
  return fixedLocation(j(codexHome(platform), "config.toml"), notes);
}

function read(bytes: Uint8Array): ReadResult {
  const decoded = decodeConfigBytes(bytes);
  if (!decoded.ok) return decoded;
  const { text, bom, eol } = decoded.value;
  const parsed = parseTomlText(text);
  if (!parsed.ok) return parsed;
  const servers = parsed.value[SERVERS];
  if (servers !== undefined && !isTable(servers)) {
    const at = mentionOf(text, sectionsOf(scanToml(text)), [SERVERS]);
    return {
      ok: false,
      problem: problem(`"${SERVERS}" is ${describeKind(servers)}, not a table`, at?.line ?? null, at?.column ?? null),
    };
  }
  return { ok: true, doc: { text, bom, eol, empty: text.trim() === "", warnings: [] } };
}

function merge(doc: ParsedConfig, entry: ServerEntry): EditResult {
  const wanted: [string, unknown][] = [
    ["command", entry.command],
    ["args", [...entry.args]],
  ];
  const path = [SERVERS, entry.name];
  const eol = doc.eol;
  let text = doc.text;
  const before = parseTomlText(text);
  if (!before.ok) return before;
  const existing = sectionOf(sectionsOf(scanToml(text)), path);
  if (!existing) {
    const servers = before.value[SERVERS];
    if (isTable(servers) && servers[entry.name] !== undefined) {
      return { ok: false, problem: notEditable(text, entry.name) };
    }
    const sections = sectionsOf(scanToml(text));
    const lastOurs = [...sections].reverse().find((s) => s.header && s.header.keys[0] === SERVERS);
    const block = [`[${path.map(tomlKey).join(".")}]`, ...wanted.map(([k, v]) => `${k} = ${tomlValue(v)}`)].join(eol) +
      eol;
    if (lastOurs) {
      const at = lastOurs.contentEnd;
      const lead = at > 0 && !/\n$/.test(text.slice(0, at)) ? eol + eol : eol;
      text = text.slice(0, at) + lead + block + text.slice(at);
    } else if (text.trim() === "") {
      text = block;
    } else {
      const endsWithBreak = /\n$/.test(text);
      const endsWithBlank = /\n[ \t]*\r?\n$/.test(text);
      text = text + (endsWithBreak ? "" : eol) + (endsWithBlank ? "" : eol) + block;
    }
  } else {
    for (const [key, value] of wanted) {
      const sections = sectionsOf(scanToml(text));
      const section = sectionOf(sections, path)!;
      const stmt = section.body.find((s) => s.kind === "keyvalue" && s.keys.length === 1 && s.keys[0] === key);
      if (stmt) {
        const current = parseTomlText(`v = ${text.slice(stmt.valueStart, stmt.valueEnd)}`);
        if (current.ok && jsonEqual(current.value.v, value)) continue;
        text = text.slice(0, stmt.valueStart) + tomlValue(value) + text.slice(stmt.valueEnd);
      } else {
        const at = section.contentEnd;
        const lead = /\n$/.test(text.slice(0, at)) ? "" : eol;
        text = text.slice(0, at) + lead + `${key} = ${tomlValue(value)}` + eol + text.slice(at);
      }
    }
  }
  const after = parseTomlText(text);
  if (!after.ok) {
    return {
      ok: false,
      problem: problem(
        `adding [${SERVERS}.${
          tomlKey(entry.name)
        }] would make the file invalid TOML (${after.problem.message}); add the entry by hand`,
      ),
    };
  }
  return { ok: true, text: withBom(text, doc.bom) };
}

function remove(doc: ParsedConfig, name: string): EditResult {
  const path = [SERVERS, name];
  const parsed = parseTomlText(doc.text);
  if (!parsed.ok) return parsed;
  const sections = sectionsOf(scanToml(doc.text));
  const ours = sections.filter((s) => s.header && keysStartWith(s.header.keys, path));
  if (ours.length === 0 || !sectionOf(sections, path)) {
    const servers = parsed.value[SERVERS];
    if (isTable(servers) && servers[name] !== undefined) return { ok: false, problem: notEditable(doc.text, name) };
    return { ok: true, text: withBom(doc.text, doc.bom) };
  }
  let text = doc.text;
  // Remove from the end so earlier offsets stay valid.
  for (const s of [...ours].reverse()) text = removeLines(text, s.header!.start, s.contentEnd);
  return { ok: true, text: withBom(text, doc.bom) };
}

function inspect(doc: ParsedConfig, name: string): EntryInspection {
  const parsed = parseTomlText(doc.text);
  const servers = parsed.ok ? parsed.value[SERVERS] : undefined;
  return { container: isTable(servers), entry: isTable(servers) ? servers[name] : undefined };
}

function verify(text: string, entry: ServerEntry): boolean {
  const parsed = parseTomlText(text.replace(/^\uFEFF/, ""));
  if (!parsed.ok) return false;
  const servers = parsed.value[SERVERS];
  const ours = isTable(servers) ? servers[entry.name] : undefined;
  return isTable(ours) && ours.command === entry.command && jsonEqual(ours.args, [...entry.args]);
}

/** The Codex writer (TOML, `[mcp_servers.ra3]`). */
export const codexWriter: ClientConfigWriter = {
  id: "codex",
  displayName: "Codex",
  scopes: ["user", "project"],
  syntax: "toml",
  serversKey: SERVERS,
  locate,
  // Codex creates its home on first run; `skills/` alone is ra3's (the codex skill target).
  presence: (platform, fs) =>
    firstFound(() => clientFolder(fs, codexHome(platform)), () => onPath(platform, fs, ["codex"])),
  expansion: null,
  read,
  merge,
  // A [mcp_servers] table is never added or removed: only [mcp_servers.<name>] is.
  remove: (doc, name) => remove(doc, name),
  inspect,
  verify,
  isEmptyShell: (text) => text.replace(/^\uFEFF/, "").trim() === "",
  renderEntry: (entry) => ({ command: entry.command, args: [...entry.args] }),
};
