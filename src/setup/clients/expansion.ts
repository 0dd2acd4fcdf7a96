/**
 * What clients rewrite inside a server's `args` before they start it, as verified with each client
 * (docs/clients.md): Gemini CLI and Qwen Code expand `$VAR` and `${VAR}` (an unset variable stays as
 * written, and there is no escape: `$$` and `\$` expand too); Claude Code expands `${VAR}` and
 * `${VAR:-default}` (an unset one stays, with a warning), not `$VAR`; opencode expands `{env:VAR}` (and
 * reads `{file:path}`). Codex, Copilot CLI, Cline and the editors pass arguments as written.
 *
 * Setup writes a path that the client would rewrite as a `file:` URI (every path flag accepts one), and
 * doctor applies the client's expansion before its live check, so it starts what the client starts.
 */

/** One client's argument rewriting. */
export interface ArgExpansion {
  /** How the docs name it, e.g. "$VAR and ${VAR}". */
  readonly describe: string;
  /** True when the client would change `arg` (with some environment). */
  rewrites(arg: string): boolean;
  /** `arg` as the client passes it, with the client's environment `env`. */
  expand(arg: string, env: Readonly<Record<string, string | undefined>>): string;
}

const SHELL_STYLE = /\$(?:\{([A-Za-z_][A-Za-z0-9_]*)\}|([A-Za-z_][A-Za-z0-9_]*))/g;

/** Gemini CLI and Qwen Code: `$VAR` and `${VAR}`; unset variables are left as written. */
export const shellStyleExpansion: ArgExpansion = {
  describe: "$VAR and ${VAR}",
  rewrites: (arg) => /\$(?:\{[A-Za-z_][A-Za-z0-9_]*\}|[A-Za-z_])/.test(arg),
  expand: (arg, env) =>
    arg.replace(SHELL_STYLE, (whole, braced: string | undefined, bare: string | undefined) => {
      const v = env[(braced ?? bare)!];
      return v === undefined ? whole : v;
    }),
};

const CLAUDE_STYLE = /\$\{([^}:]+)(?::-([^}]*))?\}/g;

/** Claude Code: `${VAR}` and `${VAR:-default}`; `$VAR` is left alone, an unset `${VAR}` too. */
export const claudeExpansion: ArgExpansion = {
  describe: "${VAR} and ${VAR:-default}",
  rewrites: (arg) => /\$\{[^}]*\}/.test(arg),
  expand: (arg, env) =>
    arg.replace(CLAUDE_STYLE, (whole, name: string, fallback: string | undefined) => {
      const v = env[name];
      if (v !== undefined && v !== "") return v;
      return fallback ?? whole;
    }),
};

/** opencode: `{env:VAR}` (an unset variable becomes empty) and `{file:path}` (the file's content). */
export const opencodeExpansion: ArgExpansion = {
  describe: "{env:VAR} and {file:path}",
  rewrites: (arg) => /\{(?:env|file):[^}]*\}/.test(arg),
  expand: (arg, env) => arg.replace(/\{env:([^}]*)\}/g, (_w, name: string) => env[name] ?? ""),
};

/**
 * Cursor, VS Code and Windsurf (from their documentation, not verified here: they are not npm CLIs):
 * `${env:NAME}`, `${userHome}` and editor variables such as `${workspaceFolder}` in `args`. ra3 treats any
 * `${…}` as rewritten; for doctor, `${env:NAME}` and `${userHome}` expand, the editor-only ones stay.
 */
export const editorExpansion: ArgExpansion = {
  describe: "${env:NAME} and ${userHome}",
  rewrites: (arg) => /\$\{[^}]*\}/.test(arg),
  expand: (arg, env) =>
    arg.replace(/\$\{(env:)?([^}]*)\}/g, (whole, isEnv: string | undefined, name: string) => {
      if (isEnv) return env[name] ?? "";
      if (name === "userHome") return env.HOME ?? env.USERPROFILE ?? whole;
      return whole;
    }),
};
