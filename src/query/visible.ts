/**
 * Strings from a mod shown in text output, made visible: a line break inside an id (XML keeps a raw
 * newline in an attribute value), a control character (an ANSI escape in a file name), a bidirectional
 * override that makes `txt.exe` read as `exe.txt`, or an invisible joiner that makes two ids look alike
 * is written as an escape (`\n`, `\u{202E}`), so a text answer never gains a line, a colour or a
 * reordering the data did not show. Tabs stay; backslashes stay (they are path separators on Windows).
 */

/** C0 and C1 controls (not tab), DEL, line/paragraph separators, bidi controls, invisible format characters. */
// deno-lint-ignore no-control-regex -- matching control characters is the point
const HIDDEN = /[\u0000-\u0008\u000A-\u001F\u007F-\u009F\u061C\u200B-\u200F\u2028-\u202E\u2060-\u2069\uFEFF]/g;
/** The same, except the line break: for text whose lines are meant (XML source). */
const HIDDEN_KEEP_LINES =
  // deno-lint-ignore no-control-regex -- matching control characters is the point
  /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u061C\u200B-\u200F\u2028-\u202E\u2060-\u2069\uFEFF]/g;

function escape(ch: string): string {
  if (ch === "\n") return "\\n";
  if (ch === "\r") return "\\r";
  return `\\u{${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}}`;
}

/**
 * `s` on one line with every hidden character escaped.
 * @example visible("Tank\nEvil\u202Egpj.exe") // "Tank\\nEvil\\u{202E}gpj.exe"
 */
export function visible(s: string): string {
  return s.replace(HIDDEN, escape);
}

/**
 * Multi-line text (a file's source) with its line breaks kept (a `\r` before one dropped) and every
 * other hidden character escaped.
 * @example visibleLines("<A id=\"x\u202Ey\"/>\r\n<B/>") // "<A id=\"x\\u{202E}y\"/>\n<B/>"
 */
export function visibleLines(s: string): string {
  return s.replace(/\r\n/g, "\n").replace(HIDDEN_KEEP_LINES, escape);
}
