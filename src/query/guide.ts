/**
 * `get_usage_guide`: sections of the embedded usage guide (the skill and its references) for a topic,
 * bounded so the answer fits a tool result, with the sections left out named.
 */
import { type GuideSection, usageGuide } from "../skill/embedded.ts";

export interface GuideAnswer {
  readonly topic: string | null;
  readonly sections: readonly { readonly id: string; readonly title: string; readonly source: string }[];
  readonly topics: readonly { readonly id: string; readonly title: string; readonly source: string }[];
  readonly text: string;
}

/** The guide's text appears twice in an MCP answer (structured and text), so about 9,000 characters. */
const GUIDE_CHARS = 9_000;

/**
 * The guide sections for `topic`, whole sections while they fit {@link GUIDE_CHARS}, the first one cut if
 * alone too long; `truncated` and `omitted` say what was left out, and the text names the sections to ask for.
 * @example guideQuery("find_asset").sections[0].id // "find_asset"
 */
export function guideQuery(
  topic: string | undefined,
): GuideAnswer & { truncated?: boolean; omitted?: Record<string, number> } {
  const g = usageGuide(topic);
  const meta = (s: { id: string; title: string; source: string }) => ({ id: s.id, title: s.title, source: s.source });
  if (g.sections.length === 0) return { topic: g.topic, sections: [], topics: g.topics.map(meta), text: g.text };
  const kept: GuideSection[] = [];
  let text = "";
  for (const s of g.sections) {
    const piece = `<!-- ${s.source} -->\n${s.text}`;
    const next = text ? `${text}\n\n${piece}` : piece;
    if (next.length > GUIDE_CHARS) {
      if (kept.length === 0) {
        const cut = piece.slice(0, GUIDE_CHARS).replace(/\n[^\n]*$/, "");
        kept.push(s);
        text = `${cut}\n\n(cut here: ask for one of its subsections for the rest)`;
      }
      break;
    }
    kept.push(s);
    text = next;
  }
  const left = g.sections.length - kept.length;
  const base = { topic: g.topic, sections: kept.map(meta), topics: [], text };
  if (left === 0 && !text.endsWith("subsections for the rest)")) return base;
  const more = g.sections.slice(kept.length).map((s) => s.id);
  return {
    ...base,
    text: left
      ? `${text}\n\n(${left} more matching section${left === 1 ? "" : "s"}: ${more.join(", ")}; ask for one by its id)`
      : text,
    truncated: true,
    ...(left ? { omitted: { sections: left } } : {}),
  };
}
