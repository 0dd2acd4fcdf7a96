/**
 * The shared machinery of every JSON-file client: read (JSONC-tolerant, positioned errors), merge our
 * entry field by field (fields the user added to it, such as `env`, survive), remove, verify. A dialect
 * supplies only its file locations, its servers key and the shape of its entry.
 */
import type { FileSystemPort } from "../../disk/port.ts";
import type { Platform } from "../platform.ts";
import { decodeConfigBytes, describeKind, jsonEqual, lineColumn, problem, withBom } from "./config-text.ts";
import type { ArgExpansion } from "./expansion.ts";
import {
  applyTextEdits,
  detectIndentUnit,
  hasJsoncExtensions,
  insertProperty,
  type JsonFormat,
  nodeValue,
  parseJsonc,
  propertyOf,
  removeProperty,
  renderJson,
  replaceValue,
  trailingCommaOffset,
  valueOf,
} from "./json-edit.ts";
import type {
  ClientConfigWriter,
  ClientId,
  ConfigLocation,
  EditResult,
  EntryInspection,
  ParsedConfig,
  ReadResult,
  Scope,
  ServerEntry,
  TrustSpec,
} from "./types.ts";

export interface JsonDialectSpec {
  readonly id: ClientId;
  readonly displayName: string;
  readonly scopes: readonly Scope[];
  readonly syntax: "json" | "jsonc";
  /** Verified: the client refuses a trailing comma (the whole file is ignored). */
  readonly refusesTrailingCommas?: boolean;
  readonly expansion?: ArgExpansion | null;
  readonly trust?: TrustSpec;
  readonly serversKey: string;
  readonly renderEntry: (entry: ServerEntry) => Record<string, unknown>;
  readonly locate: (
    platform: Platform,
    scope: Scope,
    fs: FileSystemPort,
    projectDir?: string,
  ) => ConfigLocation;
  readonly presence: (platform: Platform, fs: FileSystemPort) => string | null;
}

/** A location with one fixed file. */
export function fixedLocation(file: string, notes: readonly string[] = []): ConfigLocation {
  return { file, candidates: [file], problem: null, notes };
}

/** The location answer when a project-scope file is asked for without a project folder. */
export function noProjectLocation(displayName: string): ConfigLocation {
  return {
    file: null,
    candidates: [],
    problem: `${displayName}'s project configuration needs a project folder; pass --project.`,
    notes: [],
  };
}

/** The location answer for a scope the client does not have. */
export function unsupportedScope(displayName: string, scope: Scope): ConfigLocation {
  return { file: null, candidates: [], problem: `${displayName} has no ${scope}-level configuration file.`, notes: [] };
}

/** The first of `paths` that exists, or null (a path that cannot be examined counts as absent). */
export function firstExisting(fs: FileSystemPort, paths: readonly string[]): string | null {
  for (const p of paths) {
    try {
      if (fs.exists(p)) return p;
    } catch {
      // A link loop or a denied folder: not a sign the client is installed.
    }
  }
  return null;
}

type JsonRead = { ok: true; doc: ParsedConfig } | { ok: false; problem: ReturnType<typeof problem> };

function readJson(bytes: Uint8Array, spec: JsonDialectSpec): JsonRead {
  const decoded = decodeConfigBytes(bytes);
  if (!decoded.ok) return decoded;
  const { text, bom, eol } = decoded.value;
  const parsed = parseJsonc(text);
  if (!parsed.ok) return parsed;
  const root = parsed.root;
  const warnings: string[] = [];
  if (root !== undefined) {
    if (root.type !== "object") {
      const at = lineColumn(text, root.offset);
      return {
        ok: false,
        problem: problem(`the top level is ${describeKind(nodeValue(root))}, not an object`, at.line, at.column),
      };
    }
    const servers = propertyOf(root, spec.serversKey);
    if (servers) {
      const value = valueOf(servers);
      if (value.type !== "object") {
        const at = lineColumn(text, value.offset);
        return {
          ok: false,
          problem: problem(
            `"${spec.serversKey}" is ${describeKind(nodeValue(value))}, not an object`,
            at.line,
            at.column,
          ),
        };
      }
    }
    if (spec.refusesTrailingCommas) {
      const comma = trailingCommaOffset(text);
      if (comma >= 0) {
        const at = lineColumn(text, comma);
        return {
          ok: false,
          problem: problem(
            `a trailing comma, which ${spec.displayName} refuses (it ignores the whole file until the comma is removed)`,
            at.line,
            at.column,
          ),
        };
      }
    }
    if (spec.syntax === "json" && hasJsoncExtensions(text)) {
      warnings.push(
        `the file has comments or trailing commas, which ${spec.displayName} may reject as invalid JSON; ra3 kept them as they are`,
      );
    }
  }
  return { ok: true, doc: { text, bom, eol, empty: root === undefined, warnings } };
}

/** Applies one edit step at a time, re-parsing in between, so each step sees positions of the current text. */
function mergeText(
  text: string,
  fmt: JsonFormat,
  serversKey: string,
  name: string,
  value: Record<string, unknown>,
): string {
  for (let guard = 0; guard < 16; guard++) {
    const parsed = parseJsonc(text);
    if (!parsed.ok || !parsed.root) throw new Error("merge on text that no longer parses");
    const root = parsed.root;
    const servers = propertyOf(root, serversKey);
    if (!servers) {
      text = applyTextEdits(text, insertProperty(text, root, serversKey, { [name]: value }, fmt));
      continue;
    }
    const serversObj = valueOf(servers);
    if (serversObj.type !== "object") throw new Error("merge on a document read() should have refused");
    const ours = propertyOf(serversObj, name);
    if (!ours) {
      text = applyTextEdits(text, insertProperty(text, serversObj, name, value, fmt));
      continue;
    }
    const oursValue = valueOf(ours);
    if (oursValue.type !== "object") {
      text = applyTextEdits(text, replaceValue(text, oursValue, value, fmt));
      continue;
    }
    let edited = false;
    for (const [field, want] of Object.entries(value)) {
      const prop = propertyOf(oursValue, field);
      if (!prop) {
        text = applyTextEdits(text, insertProperty(text, oursValue, field, want, fmt));
        edited = true;
        break;
      }
      if (!jsonEqual(nodeValue(valueOf(prop)), want)) {
        text = applyTextEdits(text, replaceValue(text, valueOf(prop), want, fmt));
        edited = true;
        break;
      }
    }
    if (!edited) return text;
  }
  throw new Error("merge did not converge");
}

/** Builds the writer of a JSON-file client from its spec. */
export function jsonWriter(spec: JsonDialectSpec): ClientConfigWriter {
  return {
    id: spec.id,
    displayName: spec.displayName,
    scopes: spec.scopes,
    syntax: spec.syntax,
    ...(spec.refusesTrailingCommas ? { refusesTrailingCommas: true } : {}),
    expansion: spec.expansion ?? null,
    ...(spec.trust ? { trust: spec.trust } : {}),
    serversKey: spec.serversKey,
    locate: spec.locate,
    presence: spec.presence,
    renderEntry: spec.renderEntry,

    read(bytes: Uint8Array): ReadResult {
      return readJson(bytes, spec);
    },

    merge(doc: ParsedConfig, entry: ServerEntry): EditResult {
      const value = spec.renderEntry(entry);
      const parsed = parseJsonc(doc.text);
      if (!parsed.ok) return parsed;
      const fmt: JsonFormat = { eol: doc.eol, unit: detectIndentUnit(doc.text, parsed.root) };
      if (parsed.root === undefined) {
        const fresh = renderJson({ [spec.serversKey]: { [entry.name]: value } }, "", fmt) + fmt.eol;
        const kept = doc.text.replace(/\s+$/, "");
        return { ok: true, text: withBom(kept === "" ? fresh : kept + fmt.eol + fresh, doc.bom) };
      }
      return { ok: true, text: withBom(mergeText(doc.text, fmt, spec.serversKey, entry.name, value), doc.bom) };
    },

    inspect(doc: ParsedConfig, name: string): EntryInspection {
      const parsed = parseJsonc(doc.text);
      const root = parsed.ok ? parsed.root : undefined;
      const servers = root?.type === "object" ? propertyOf(root, spec.serversKey) : undefined;
      const serversObj = servers ? valueOf(servers) : undefined;
      const ours = serversObj?.type === "object" ? propertyOf(serversObj, name) : undefined;
      return { container: servers !== undefined, entry: ours ? nodeValue(valueOf(ours)) : undefined };
    },

    remove(doc: ParsedConfig, name: string, options: { readonly dropEmptyContainer?: boolean } = {}): EditResult {
      const parsed = parseJsonc(doc.text);
      if (!parsed.ok) return parsed;
      const root = parsed.root;
      const servers = root?.type === "object" ? propertyOf(root, spec.serversKey) : undefined;
      const serversObj = servers ? valueOf(servers) : undefined;
      const ours = serversObj?.type === "object" ? propertyOf(serversObj, name) : undefined;
      if (!root || !servers || !serversObj || !ours) return { ok: true, text: withBom(doc.text, doc.bom) };
      let text = applyTextEdits(doc.text, removeProperty(doc.text, serversObj, ours));
      // A servers container ra3 added, left empty (no entries, no comments), goes too, so uninstall
      // restores the file as it was; one the user already had stays, even empty.
      const again = parseJsonc(text);
      const left = again.ok && again.root ? propertyOf(again.root, spec.serversKey) : undefined;
      if (options.dropEmptyContainer && again.ok && again.root && left) {
        const v = valueOf(left);
        if (text.slice(v.offset, v.offset + v.length) === "{}") {
          text = applyTextEdits(text, removeProperty(text, again.root, left));
        }
      }
      return { ok: true, text: withBom(text, doc.bom) };
    },

    verify(text: string, entry: ServerEntry): boolean {
      const parsed = parseJsonc(text.replace(/^\uFEFF/, ""));
      if (!parsed.ok || parsed.root?.type !== "object") return false;
      const servers = propertyOf(parsed.root, spec.serversKey);
      const serversObj = servers ? valueOf(servers) : undefined;
      const ours = serversObj?.type === "object" ? propertyOf(serversObj, entry.name) : undefined;
      if (!ours) return false;
      const actual = nodeValue(valueOf(ours));
      if (actual === null || typeof actual !== "object" || Array.isArray(actual)) return false;
      return Object.entries(spec.renderEntry(entry)).every(([k, v]) =>
        jsonEqual((actual as Record<string, unknown>)[k], v)
      );
    },

    isEmptyShell(text: string): boolean {
      const bare = text.replace(/^\uFEFF/, "").replace(/\s+/g, "");
      return bare === "" || bare === "{}" || bare === `{${JSON.stringify(spec.serversKey)}:{}}`;
    },
  };
}
