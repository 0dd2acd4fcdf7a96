/**
 * Checks an Agent Skill folder against the Agent Skills spec (the rules `skills-ref validate`
 * enforces) plus this project's own rules: the description front-loads the words a modder uses,
 * links resolve one level deep, and the tool names the text mentions are exactly the server's tools.
 * Problems are returned as values; an empty list means the skill is clean.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import * as nodePath from "node:path";
import { TOOL_NAMES } from "../skill/tool-names.ts";
import type { SkillFile } from "../skill/embedded.ts";
import { entryOf, type FrontmatterEntry, type FrontmatterValue, parseFrontmatter } from "../skill/frontmatter.ts";
import { markdownCode, markdownLinks } from "../skill/markdown.ts";

export interface SkillProblem {
  /** Skill-relative path with `/` (`SKILL.md`, `references/x.md`), or the folder for I/O problems. */
  readonly file: string;
  /** 1-based line, when the problem has one. */
  readonly line: number | null;
  readonly message: string;
}

/** A skill held in memory: its folder name (which `name` must equal) and its files. */
export interface SkillBundle {
  readonly folderName: string;
  readonly files: readonly SkillFile[];
}

export interface SkillValidationOptions {
  /** The tool names the skill must document exactly (default: the MCP server's `TOOL_NAMES`). */
  readonly toolNames?: readonly string[];
  /** Words the description must contain, case-insensitively (default {@link REQUIRED_TRIGGER_WORDS}). */
  readonly triggerWords?: readonly string[];
}

/** The frontmatter keys the spec allows; `skills-ref` rejects any other. */
const ALLOWED_FRONTMATTER_KEYS = [
  "name",
  "description",
  "license",
  "compatibility",
  "metadata",
  "allowed-tools",
] as const;

/** What a modder types when this skill should wake up. */
const REQUIRED_TRIGGER_WORDS: readonly string[] = [
  "Red Alert 3",
  "RA3",
  "SAGE",
  "mod",
  "XML",
  "GameObject",
  "weapon",
  "inheritFrom",
];

/** Codex shortens descriptions when many skills are installed, so the game must be named early. */
const FRONT_LOADED = { words: ["Red Alert 3", "RA3"], within: 120 } as const;

const MAX_BODY_LINES = 500;
const MAX_NAME = 64;
const MAX_DESCRIPTION = 1024;
const MAX_COMPATIBILITY = 500;

/** `file:line: message` (or `file: message`). */
export function formatSkillProblem(p: SkillProblem): string {
  return p.line === null ? `${p.file}: ${p.message}` : `${p.file}:${p.line}: ${p.message}`;
}

/**
 * Reads a skill folder into a {@link SkillBundle}: every file below it (Markdown as text, other files
 * with empty text, since only their existence matters), skipping `.git` and `node_modules`. Returns a
 * problem instead when the folder cannot be read.
 */
function readSkillDir(dir: string): SkillBundle | SkillProblem {
  const files: SkillFile[] = [];
  try {
    if (!statSync(dir).isDirectory()) return { file: dir, line: null, message: `${dir} is not a folder` };
    const walk = (abs: string, rel: string): void => {
      for (const entry of readdirSync(abs, { withFileTypes: true })) {
        if (entry.name === ".git" || entry.name === "node_modules") continue;
        const childAbs = nodePath.join(abs, entry.name);
        const childRel = rel ? `${rel}/${entry.name}` : entry.name;
        if (entry.isDirectory()) walk(childAbs, childRel);
        else if (entry.isFile()) {
          files.push({ path: childRel, text: /\.md$/i.test(entry.name) ? readFileSync(childAbs, "utf8") : "" });
        }
      }
    };
    walk(dir, "");
  } catch (e) {
    return { file: dir, line: null, message: `cannot read the skill folder ${dir}: ${(e as Error).message}` };
  }
  files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { folderName: nodePath.basename(nodePath.resolve(dir)), files };
}

/**
 * Every problem of the skill in `input` (a folder path, or a bundle held in memory), in file order.
 * @example validateSkill({ folderName: "ra3-mod-xml", files: SKILL_FILES }) // []
 */
export function validateSkill(input: string | SkillBundle, options: SkillValidationOptions = {}): SkillProblem[] {
  let bundle: SkillBundle;
  if (typeof input === "string") {
    const read = readSkillDir(input);
    if ("message" in read) return [read];
    bundle = read;
  } else bundle = input;
  const problems: SkillProblem[] = [];
  const skill = bundle.files.find((f) => f.path === "SKILL.md");
  if (!skill) return [{ file: "SKILL.md", line: null, message: "SKILL.md is missing" }];

  problems.push(
    ...checkFrontmatterAndBody(skill.text, bundle.folderName, options.triggerWords ?? REQUIRED_TRIGGER_WORDS),
  );
  problems.push(...checkLinks(bundle));
  problems.push(...checkToolNames(bundle, options.toolNames ?? TOOL_NAMES));
  return problems;
}

function checkFrontmatterAndBody(text: string, folderName: string, triggerWords: readonly string[]): SkillProblem[] {
  const out: SkillProblem[] = [];
  const at = (line: number | null, message: string): void => void out.push({ file: "SKILL.md", line, message });
  const fm = parseFrontmatter(text);
  if (fm === "missing") {
    at(1, 'no YAML frontmatter: SKILL.md must start with a line "---"');
    return out;
  }
  if (fm === "unclosed") {
    at(1, 'the frontmatter is never closed: end it with a line "---"');
    return out;
  }
  for (const e of fm.errors) at(e.line, e.message);

  for (const e of fm.entries) {
    if (!(ALLOWED_FRONTMATTER_KEYS as readonly string[]).includes(e.key)) {
      at(e.line, `unknown frontmatter key "${e.key}"; allowed keys: ${ALLOWED_FRONTMATTER_KEYS.join(", ")}`);
    }
  }

  const name = requiredString(fm.entries, "name", at);
  if (name !== null) {
    const line = entryOf(fm.entries, "name")!.line;
    const n = name.normalize("NFKC");
    if (n.length < 1 || n.length > MAX_NAME) at(line, `name must be 1-${MAX_NAME} characters (got ${n.length})`);
    else if (!/^[a-z0-9-]+$/.test(n)) at(line, `name "${n}" may contain only lowercase letters, digits and hyphens`);
    else if (n.startsWith("-") || n.endsWith("-")) at(line, `name "${n}" must not start or end with a hyphen`);
    else if (n.includes("--")) at(line, `name "${n}" must not contain two hyphens in a row`);
    if (n !== folderName) at(line, `name "${n}" must equal the folder name "${folderName}"`);
  }

  const description = requiredString(fm.entries, "description", at);
  if (description !== null) {
    const line = entryOf(fm.entries, "description")!.line;
    if (description.length < 1 || description.length > MAX_DESCRIPTION) {
      at(line, `description must be 1-${MAX_DESCRIPTION} characters (got ${description.length})`);
    }
    const lower = description.toLowerCase();
    for (const w of triggerWords) {
      if (!lower.includes(w.toLowerCase())) {
        at(line, `description does not mention "${w}" (a word modders use when this skill should apply)`);
      }
    }
    const head = lower.slice(0, FRONT_LOADED.within);
    const missing = FRONT_LOADED.words.filter((w) =>
      lower.includes(w.toLowerCase()) && !head.includes(w.toLowerCase())
    );
    if (missing.length) {
      at(
        line,
        `description should name ${
          missing.map((w) => `"${w}"`).join(" and ")
        } within its first ${FRONT_LOADED.within} characters (clients shorten long descriptions)`,
      );
    }
  }

  optionalString(fm.entries, "license", at);
  const compatibility = optionalString(fm.entries, "compatibility", at);
  if (compatibility !== null && compatibility.length > MAX_COMPATIBILITY) {
    at(
      entryOf(fm.entries, "compatibility")!.line,
      `compatibility must be at most ${MAX_COMPATIBILITY} characters (got ${compatibility.length})`,
    );
  }

  const metadata = entryOf(fm.entries, "metadata");
  if (!metadata) at(null, 'missing key "metadata" (it must hold "version")');
  else if (metadata.value.kind !== "mapping") {
    at(metadata.line, "metadata must be a mapping of string keys to string values");
  } else {
    for (const e of metadata.value.entries) {
      const why = notAString(e.value);
      if (why) at(e.line, `metadata.${e.key} ${why}`);
    }
    if (!entryOf(metadata.value.entries, "version")) at(metadata.line, 'metadata has no "version"');
  }

  const allowed = entryOf(fm.entries, "allowed-tools");
  if (allowed) {
    if (allowed.value.kind === "mapping") {
      at(allowed.line, "allowed-tools must be a space-separated string or a list of strings");
    } else if (allowed.value.kind === "list") {
      for (const item of allowed.value.items) {
        if (item.yamlType !== "string") {
          at(
            allowed.line,
            `allowed-tools item "${item.value}" is read by YAML as a ${item.yamlType}, not a string; put it in double quotes`,
          );
        }
      }
    } else {
      const why = notAString(allowed.value);
      if (why) at(allowed.line, `allowed-tools ${why}`);
    }
  }

  const bodyLines = fm.body.replace(/\s+$/, "").split(/\r?\n/).length;
  if (bodyLines >= MAX_BODY_LINES) {
    at(
      fm.bodyStartLine,
      `the body has ${bodyLines} lines; keep it under ${MAX_BODY_LINES} (move detail into references/)`,
    );
  }
  return out;
}

type At = (line: number | null, message: string) => void;

function notAString(v: FrontmatterValue): string | null {
  if (v.kind === "mapping") return "must be a string, not a mapping";
  if (v.kind === "list") return "must be a string, not a list";
  if (v.yamlType !== "string") return `is read by YAML as a ${v.yamlType}, not a string; put it in double quotes`;
  return null;
}

function requiredString(entries: readonly FrontmatterEntry[], key: string, at: At): string | null {
  const e = entryOf(entries, key);
  if (!e) {
    at(null, `missing required key "${key}"`);
    return null;
  }
  return stringValue(e, at);
}

function optionalString(entries: readonly FrontmatterEntry[], key: string, at: At): string | null {
  const e = entryOf(entries, key);
  return e ? stringValue(e, at) : null;
}

function stringValue(e: FrontmatterEntry, at: At): string | null {
  if (e.value.kind === "scalar" && e.value.yamlType === "null") return "";
  const why = notAString(e.value);
  if (why) {
    at(e.line, `${e.key} ${why}`);
    return null;
  }
  return e.value.kind === "scalar" ? e.value.value : null;
}

function checkLinks(bundle: SkillBundle): SkillProblem[] {
  const out: SkillProblem[] = [];
  const paths = new Set(bundle.files.map((f) => f.path));
  const linkedFromSkill = new Set<string>();
  for (const file of bundle.files) {
    if (!/\.md$/i.test(file.path)) continue;
    const dir = nodePath.posix.dirname(file.path);
    for (const link of markdownLinks(file.text)) {
      const raw = link.target;
      if (raw.startsWith("#") || /^[a-z][a-z0-9+.-]*:/i.test(raw)) continue;
      const at = (message: string): void => void out.push({ file: file.path, line: link.line, message });
      if (raw.startsWith("/") || raw.startsWith("\\")) {
        at(`link "${raw}" is absolute; use a path relative to the skill folder`);
        continue;
      }
      let target = raw.replace(/[#?].*$/, "");
      try {
        target = decodeURIComponent(target);
      } catch {
        // A stray % is just a character.
      }
      const resolved = nodePath.posix.normalize(nodePath.posix.join(dir, target.replace(/\\/g, "/")));
      if (resolved === ".." || resolved.startsWith("../")) {
        at(`link "${raw}" points outside the skill folder`);
        continue;
      }
      if (!paths.has(resolved)) {
        at(`link "${raw}" does not resolve to a file in the skill`);
        continue;
      }
      if (file.path === "SKILL.md") {
        linkedFromSkill.add(resolved);
        if (resolved.split("/").length > 2) {
          at(`link "${raw}" is more than one level deep; keep reference files directly in a folder next to SKILL.md`);
        }
      }
    }
  }
  for (const f of bundle.files) {
    if (f.path === "SKILL.md" || !/\.md$/i.test(f.path) || linkedFromSkill.has(f.path)) continue;
    out.push({
      file: f.path,
      line: null,
      message: `${f.path} is not linked from SKILL.md; agents only find reference files through links in SKILL.md`,
    });
  }
  return out;
}

/**
 * A tool mention is the identifier that starts an inline code span (`find_asset`, `find_asset {id}`),
 * or any snake_case word in a fenced code block; it counts when its first word is a verb the server's
 * tool names use (`get`, `find`, …) or it is a tool name itself. State names like `no_index` do not.
 */
function toolMentions(
  text: string,
  toolNames: ReadonlySet<string>,
  verbs: ReadonlySet<string>,
): { name: string; line: number }[] {
  const out: { name: string; line: number }[] = [];
  const counts = (w: string): boolean => toolNames.has(w) || (w.includes("_") && verbs.has(w.slice(0, w.indexOf("_"))));
  for (const code of markdownCode(text)) {
    if (code.fenced) {
      for (const m of code.text.matchAll(/(?<![A-Za-z0-9_$:.-])[a-z][a-z0-9]*(?:_[a-z0-9]+)*(?![A-Za-z0-9_])/g)) {
        if (counts(m[0])) out.push({ name: m[0], line: code.line });
      }
    } else {
      const m = /^([a-z][a-z0-9]*(?:_[a-z0-9]+)*)(?=$|[\s({])/.exec(code.text);
      if (m && counts(m[1])) out.push({ name: m[1], line: code.line });
    }
  }
  return out;
}

function checkToolNames(bundle: SkillBundle, toolNames: readonly string[]): SkillProblem[] {
  const out: SkillProblem[] = [];
  const known = new Set(toolNames);
  const verbs = new Set(toolNames.filter((t) => t.includes("_")).map((t) => t.slice(0, t.indexOf("_"))));
  const documented = new Set<string>();
  for (const file of bundle.files) {
    if (!/\.md$/i.test(file.path)) continue;
    const seen = new Set<string>();
    for (const m of toolMentions(file.text, known, verbs)) {
      if (known.has(m.name)) {
        if (file.path === "SKILL.md") documented.add(m.name);
      } else if (!seen.has(m.name)) {
        seen.add(m.name);
        out.push({
          file: file.path,
          line: m.line,
          message: `unknown tool "${m.name}" (the server has no tool of that name)`,
        });
      }
    }
  }
  for (const t of toolNames) {
    if (!documented.has(t)) {
      out.push({ file: "SKILL.md", line: null, message: `tool "${t}" is not documented in SKILL.md` });
    }
  }
  return out;
}
