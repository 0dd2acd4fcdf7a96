/**
 * The contract every MCP client dialect implements. A dialect knows where its client keeps its config
 * (per OS and scope), how to read that file without losing anything, how to add, update and remove our
 * server entry as a minimal text edit, and how to check the result.
 */
import type { FileSystemPort } from "../../disk/port.ts";
import type { Platform } from "../platform.ts";
import type { ArgExpansion } from "./expansion.ts";

export type ClientId =
  | "claude-desktop"
  | "claude-code"
  | "cursor"
  | "codex"
  | "vscode"
  | "windsurf"
  | "gemini"
  | "qwen"
  | "copilot"
  | "cline"
  | "cline-vscode"
  | "zed"
  | "opencode";

/** `user`: the client's per-user config; `project`: a config file inside the project folder. */
export type Scope = "user" | "project";

/** The server entry we register: what to run and with which arguments, under which name. */
export interface ServerEntry {
  readonly name: string;
  /** Absolute path of the stable installed binary. */
  readonly command: string;
  readonly args: readonly string[];
}

/** A problem with a config file, positioned when it comes from parsing. The message does not name the file. */
export interface ConfigProblem {
  readonly message: string;
  /** 1-based line and column of the offending text, or null when the problem has no position. */
  readonly line: number | null;
  readonly column: number | null;
}

/** A config file read for editing: its text and the conventions to keep when writing it back. */
export interface ParsedConfig {
  /** The document text without its BOM. */
  readonly text: string;
  readonly bom: boolean;
  /** The line ending the file uses (LF for an empty or new file). */
  readonly eol: "\n" | "\r\n";
  /** True when the file is empty or holds only whitespace (and comments). */
  readonly empty: boolean;
  /** Things worth telling the user that do not stop the edit (e.g. comments in a strict-JSON file). */
  readonly warnings: readonly string[];
}

export type ReadResult = { readonly ok: true; readonly doc: ParsedConfig } | {
  readonly ok: false;
  readonly problem: ConfigProblem;
};

/** The full new text of the file (BOM included when the file had one), or why it cannot be produced. */
export type EditResult = { readonly ok: true; readonly text: string } | {
  readonly ok: false;
  readonly problem: ConfigProblem;
};

/** Which file a client reads for a scope, and what else was considered. */
export interface ConfigLocation {
  /** The file to edit, or null when it cannot be decided (see `problem`). */
  readonly file: string | null;
  /** Every path considered, in order of preference. */
  readonly candidates: readonly string[];
  /** Why no file was chosen (ambiguous installs, missing project folder); null when `file` is set. */
  readonly problem: string | null;
  /** Facts worth reporting about the choice (e.g. "also found an older config at …"). */
  readonly notes: readonly string[];
}

/** How one client keeps folder trust. */
export interface TrustSpec {
  /** The trust file for this platform (environment overrides included). */
  file(platform: Platform): string;
  /** Whether the client checks folder trust, from its parsed user settings (null: no settings file). */
  enabled(settings: unknown): boolean;
  /** Where the user can change it in the client, for messages. */
  readonly howToTrust: string;
}

/** What ra3 finds about its entry in a parsed config: whether the servers container exists, and the entry's value. */
export interface EntryInspection {
  /** The servers key (or TOML table) is there, even if empty. */
  readonly container: boolean;
  /** The value stored under the entry's name, or undefined when there is none. */
  readonly entry: unknown;
}

export interface ClientConfigWriter {
  readonly id: ClientId;
  readonly displayName: string;
  readonly scopes: readonly Scope[];
  /** `json`: the client parses strict JSON; `jsonc`: it accepts comments (and trailing commas unless refused). */
  readonly syntax: "json" | "jsonc" | "toml";
  /**
   * Verified with the client: it refuses a file with a trailing comma (Gemini CLI, Qwen Code). Such a file
   * is an error for setup (writing into it would not help) and a ✗ for doctor.
   */
  readonly refusesTrailingCommas?: boolean;
  /** What the client rewrites inside `args` before starting a server (`$VAR`, `${VAR}`, …), or null. */
  readonly expansion: ArgExpansion | null;
  /** The client's folder-trust file, when it disables servers in untrusted folders (Gemini CLI, Qwen Code). */
  readonly trust?: TrustSpec;
  /** The key (or TOML table) that holds the servers, e.g. `mcpServers`. */
  readonly serversKey: string;
  /**
   * Where the client reads its config for `scope`. Probes the file system where a client has several
   * possible homes (Claude Desktop's MSIX package, Cline, opencode's `.json`/`.jsonc`).
   */
  locate(platform: Platform, scope: Scope, fs: FileSystemPort, projectDir?: string): ConfigLocation;
  /**
   * A file, folder or binary on `PATH` that the client itself creates or installs and whose presence
   * shows it is installed for this user, or null. Folders ra3 creates there itself (`skills/`) do not
   * count, so installing the skill never makes a client "detected".
   */
  presence(platform: Platform, fs: FileSystemPort): string | null;
  /** Parses the file's bytes (an empty array for a missing file). Invalid files are a problem, never an exception. */
  read(bytes: Uint8Array): ReadResult;
  /** The document with our entry added or updated; everything else is kept byte for byte. */
  merge(doc: ParsedConfig, entry: ServerEntry): EditResult;
  /**
   * The document without the server called `name` (unchanged text when it is not there). With
   * `dropEmptyContainer`, a servers container left empty (and without comments) goes too: ra3 added it.
   */
  remove(doc: ParsedConfig, name: string, options?: { readonly dropEmptyContainer?: boolean }): EditResult;
  /** The servers container and the entry called `name` in `doc`. */
  inspect(doc: ParsedConfig, name: string): EntryInspection;
  /** True when `text` parses and holds `entry` as this client expects it. */
  verify(text: string, entry: ServerEntry): boolean;
  /** True when `text` holds nothing but an empty servers container (a file we created, now emptied). */
  isEmptyShell(text: string): boolean;
  /** The value stored under the servers key for `entry`, in this client's shape. */
  renderEntry(entry: ServerEntry): unknown;
}
