/**
 * The Agent Skill `ra3-mod-xml`, embedded at build time as text imports (Bun, `bun build --compile`
 * and Deno all support `with { type: "text" }`), so the binary carries the skill without reading the
 * repository. One source of truth: the installer copies these files, the MCP server takes its
 * `instructions` and `get_usage_guide` answers from them.
 */
import skillMd from "../../skills/ra3-mod-xml/SKILL.md" with { type: "text" };
import queryGuideMd from "../../skills/ra3-mod-xml/references/query-guide.md" with { type: "text" };
import primerMd from "../../skills/ra3-mod-xml/references/mod-xml-primer.md" with { type: "text" };
import { entryOf, parseFrontmatter } from "./frontmatter.ts";
import { headingSlug, markdownSections } from "./markdown.ts";

export interface SkillFile {
  /** Relative to the skill folder, with `/`. */
  readonly path: string;
  readonly text: string;
}

/** The skill's folder name, which the spec requires to equal its `name`. */
export const SKILL_NAME = "ra3-mod-xml";

/** Every file of the skill, SKILL.md first. */
export const SKILL_FILES: readonly SkillFile[] = [
  { path: "SKILL.md", text: skillMd },
  { path: "references/query-guide.md", text: queryGuideMd },
  { path: "references/mod-xml-primer.md", text: primerMd },
];

/** `metadata.version` of SKILL.md ("0.0.0" if it were ever missing; a test guards that). */
export const SKILL_VERSION: string = readVersion(skillMd);

function readVersion(text: string): string {
  const fm = parseFrontmatter(text);
  if (typeof fm === "string") return "0.0.0";
  const meta = entryOf(fm.entries, "metadata")?.value;
  if (meta?.kind !== "mapping") return "0.0.0";
  const v = entryOf(meta.entries, "version")?.value;
  return v?.kind === "scalar" && v.value !== "" ? v.value : "0.0.0";
}

function bodyOf(text: string): string {
  const fm = parseFrontmatter(text);
  return typeof fm === "string" ? text : fm.body;
}

/**
 * The `##` section of SKILL.md whose heading equals `heading` (case-insensitive, surrounding space
 * ignored), heading line included, up to the next `##` heading; null when there is none.
 * @example skillSection("rules")?.startsWith("## Rules") // true
 */
export function skillSection(heading: string): string | null {
  const want = heading.trim().toLowerCase();
  const found = markdownSections(bodyOf(skillMd)).find((s) => s.level === 2 && s.heading.toLowerCase() === want);
  return found ? found.text : null;
}

export interface GuideTopic {
  /** What to pass as `topic`, e.g. `workflows`, `find_asset`, `mod-xml-primer`. */
  readonly id: string;
  readonly title: string;
  /** The skill file the topic lives in. */
  readonly source: string;
}

export interface GuideSection extends GuideTopic {
  readonly text: string;
}

export interface UsageGuide {
  /** The topic asked for, or null for the index. */
  readonly topic: string | null;
  /** The matching sections (empty for the index and for a topic that matches nothing). */
  readonly sections: readonly GuideSection[];
  /** Every topic, for the index and as a hint when nothing matched. */
  readonly topics: readonly GuideTopic[];
  /** Ready-to-show text: the sections, the topic index, or a "no match" line plus the index. */
  readonly text: string;
}

/** At most this many sections answer one topic; a broad word would otherwise return the whole guide. */
const MAX_SECTIONS = 6;

function guideSections(): GuideSection[] {
  const out: GuideSection[] = [];
  const skillBody = bodyOf(skillMd);
  for (const s of markdownSections(skillBody)) {
    if (s.level === 2 || s.level === 3) {
      out.push({ id: headingSlug(s.heading), title: s.heading.replace(/`/g, ""), source: "SKILL.md", text: s.text });
    }
  }
  for (const file of SKILL_FILES.slice(1)) {
    const base = file.path.replace(/^.*\//, "").replace(/\.md$/, "");
    out.push({
      id: base,
      title: markdownSections(file.text)[0]?.heading ?? base,
      source: file.path,
      text: file.text.trim(),
    });
    for (const s of markdownSections(file.text)) {
      if (s.level !== 2 && s.level !== 3) continue;
      // Tool sections are headed by the tool name in backticks; the slug keeps `_`, so the id is the name.
      out.push({ id: headingSlug(s.heading), title: s.heading.replace(/`/g, ""), source: file.path, text: s.text });
    }
  }
  return out;
}

function squash(s: string): string {
  return s.toLowerCase().replace(/[^a-z0-9]+/g, "");
}

/**
 * The part of the guide that answers `topic`: an exact topic id (`workflows`, `find_asset`,
 * `mod-xml-primer`) returns that section; otherwise every section whose heading contains the topic's
 * words (`weapons`, `inheritFrom`); no topic returns the index of topics.
 * @example usageGuide("find_asset").sections[0].source // "references/query-guide.md"
 */
export function usageGuide(topic?: string | null): UsageGuide {
  const all = guideSections();
  const topics: GuideTopic[] = all.map(({ id, title, source }) => ({ id, title, source }));
  const index = ["Topics (pass one as `topic`):", ...topics.map((t) => `- ${t.id}: ${t.title} (${t.source})`)].join(
    "\n",
  );
  const asked = topic?.trim() ?? "";
  if (asked === "") return { topic: null, sections: [], topics, text: index };
  const slug = headingSlug(asked);
  const exact = all.filter((s) => s.id === slug);
  let sections = exact;
  if (!sections.length) {
    const want = squash(asked);
    sections = want === "" ? [] : all.filter((s) => squash(s.title).includes(want)).slice(0, MAX_SECTIONS);
  }
  if (!sections.length) {
    return { topic: asked, sections: [], topics, text: `No guide section matches "${asked}".\n\n${index}` };
  }
  const text = sections.map((s) => `<!-- ${s.source} -->\n${s.text}`).join("\n\n");
  return { topic: asked, sections, topics, text };
}
