/**
 * Every diagnostic code ra3 reports, with its default severity and a one-line description (used by
 * SARIF rules, `ra3 check` output and docs/cli.md), and what the front ends tell the user to do about
 * the index-wide ones: the index states the fact, the advice (a flag) is worded here.
 */
import type { Severity } from "../index/records.ts";

export interface DiagnosticCode {
  readonly code: string;
  readonly severity: Severity;
  readonly description: string;
  /** Appended to the index's message when shown: what to do about it. */
  readonly remedy?: string;
}

const DIAGNOSTIC_CODES: readonly DiagnosticCode[] = [
  { code: "xml-syntax", severity: "error", description: "The file is not well-formed XML." },
  {
    code: "encoding",
    severity: "warning",
    description: "The file's bytes do not match its encoding (e.g. invalid UTF-8 decoded as windows-1252).",
  },
  { code: "empty-file", severity: "error", description: "An .xml file with no content." },
  { code: "not-xml", severity: "error", description: "A file named .xml that holds binary data." },
  {
    code: "unreadable-file",
    severity: "error",
    description: "A file that exists but could not be read (permissions, locks).",
  },
  { code: "missing-id", severity: "error", description: "A top-level asset without an id." },
  {
    code: "duplicate-id",
    severity: "error",
    description: "The same type and id defined twice in one file or in two files of one stream.",
  },
  { code: "unknown-element", severity: "warning", description: "An element the schema does not declare." },
  {
    code: "unknown-attribute",
    severity: "warning",
    description: "An attribute the schema does not declare for the element's type.",
  },
  {
    code: "include-type",
    severity: "error",
    description: "An <Include> whose type is not all, instance or reference.",
  },
  { code: "include-source", severity: "error", description: "An <Include> without a source." },
  {
    code: "xinclude-href",
    severity: "error",
    description: "An xi:include with neither an href nor an xpointer (one of them names what it includes).",
  },
  {
    code: "xinclude-loop",
    severity: "error",
    description: "An xi:include whose xpointer selects, from its own document, what is being included already.",
  },
  {
    code: "xpointer-unsupported",
    severity: "warning",
    description: "An xpointer of another form than xmlns(n=…) xpointer(/n:Name/child::*): not followed.",
  },
  {
    code: "xpointer-not-found",
    severity: "warning",
    description: "An xpointer naming an element its target does not have: nothing is spliced.",
  },
  {
    code: "fragment-not-spliced",
    severity: "information",
    description: "A fragment no xi:include splices in: its elements are typed by a guess from its root's name.",
  },
  {
    code: "inherit-cycle",
    severity: "error",
    description: "An inheritFrom chain that comes back to where it started (A → B → A, or A → A).",
  },
  {
    code: "include-not-found",
    severity: "warning",
    description: "An include or xi:include target that does not exist.",
  },
  {
    code: "include-outside-roots",
    severity: "warning",
    description:
      "An include or xi:include that leads outside the project, the SDK and the mod's parent and grandparent folders: not followed, not looked up.",
    remedy: " (the project, the SDK, the mod's parent and grandparent folders); copy the file into the mod",
  },
  {
    code: "link-outside-roots",
    severity: "warning",
    description:
      "A symbolic link or junction whose target is not inside the folders ra3 reads, or cannot be resolved: not followed.",
    remedy: " (the project, the SDK, the mod's parent and grandparent folders); copy the files into the mod",
  },
  {
    code: "include-cycle",
    severity: "warning",
    description: "Files that include each other; the include closing the cycle is skipped.",
  },
  { code: "include-depth", severity: "warning", description: "Includes nested deeper than 300 levels." },
  { code: "define-name", severity: "error", description: "A <Define> without a name." },
  { code: "undefined-define", severity: "warning", description: 'A $NAME use with no <Define name="NAME">.' },
  { code: "unresolved-reference", severity: "warning", description: "A reference to an id no asset has." },
  {
    code: "wrong-type-reference",
    severity: "warning",
    description: "A reference to an id that exists only with types the reference does not accept.",
  },
  { code: "manifest-read-error", severity: "error", description: "A binary manifest that could not be read." },
  { code: "manifest-warning", severity: "warning", description: "A binary manifest with unexpected trailing bytes." },
  { code: "string-table", severity: "warning", description: "A problem in a .str string table." },
  {
    code: "foreign-xml",
    severity: "information",
    description: "XML that is not asset XML (another root and namespace): not checked against the asset schema.",
  },
  {
    code: "entry-conflict",
    severity: "warning",
    description: "Two plausible entry points disagree (a build script, a .babproj or a well-known name).",
    remedy: "; pass --entry FILE to choose",
  },
  { code: "entry-not-found", severity: "error", description: "An --entry that names no file of the project." },
  {
    code: "mod-name-alias",
    severity: "information",
    description: "The mod's own name differs from its folder's: DATA:<name>/… resolves against the project root.",
  },
  {
    code: "unlistable-folder",
    severity: "warning",
    description: "A folder that cannot be listed: its files are found only by their exact names.",
  },
  {
    code: "case-collision",
    severity: "warning",
    description: "Paths that differ only in letter case (one file on Windows); the first in sorted order is used.",
  },
  {
    code: "sdk-not-configured",
    severity: "information",
    description: "DATA:/ART:/AUDIO: includes point into an SDK that is not configured.",
    remedy: "; give --sdk to resolve them",
  },
  {
    code: "external-references",
    severity: "information",
    description: "References that may name vanilla assets; an SDK is needed to check them.",
    remedy: "; give --sdk to check them",
  },
  {
    code: "external-defines",
    severity: "information",
    description: "Define uses that may name vanilla defines; an SDK is needed to check them.",
    remedy: ": give --sdk to check them",
  },
  {
    code: "diagnostics-not-listed",
    severity: "information",
    description: "More diagnostics of one code in one file than an answer lists; their count is given.",
  },
];

/** The code of the summary that stands for diagnostics beyond the caps (SARIF results, docs). */
export const NOT_LISTED_CODE = "diagnostics-not-listed";

const BY_CODE = new Map(DIAGNOSTIC_CODES.map((c) => [c.code, c]));

/**
 * A diagnostic's message as the CLI and MCP show it: the index's message and, for the codes that have
 * one, the remedy.
 * @example presentMessage({ code: "external-references", message: "2 references point at assets outside the project" })
 * // "2 references point at assets outside the project; give --sdk to check them"
 */
export function presentMessage(d: { readonly code: string; readonly message: string }): string {
  const remedy = BY_CODE.get(d.code)?.remedy;
  return remedy ? d.message + remedy : d.message;
}

/** The description of `code`, or a generic one for codes not in the catalog. */
export function describeCode(code: string): DiagnosticCode {
  return BY_CODE.get(code) ?? { code, severity: "warning", description: code.replace(/-/g, " ") };
}
