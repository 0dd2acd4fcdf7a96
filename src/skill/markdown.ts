/**
 * The little Markdown structure the skill tooling needs: headings and their sections, links, and code
 * (inline spans and fenced blocks). Fenced code is skipped when looking for headings and links, so a
 * `## x` or `[a](b)` inside an example never counts.
 */

export interface MarkdownSection {
  /** Heading text without the `#` marks, trimmed. */
  readonly heading: string;
  readonly level: number;
  /** 1-based line of the heading (relative to the text given). */
  readonly line: number;
  /** The heading line and everything up to the next heading of the same or a higher level, trimmed. */
  readonly text: string;
}

export interface MarkdownLink {
  readonly target: string;
  /** 1-based line. */
  readonly line: number;
}

export interface MarkdownCode {
  readonly text: string;
  /** 1-based line where the span or the code line is. */
  readonly line: number;
  readonly fenced: boolean;
}

interface ClassifiedLine {
  readonly text: string;
  readonly inFence: boolean;
}

function classify(text: string): ClassifiedLine[] {
  const out: ClassifiedLine[] = [];
  let fence: string | null = null;
  for (const line of text.split(/\r?\n/)) {
    const m = /^ {0,3}(`{3,}|~{3,})/.exec(line);
    if (fence === null && m) {
      fence = m[1];
      out.push({ text: line, inFence: true });
    } else if (fence !== null) {
      if (m && m[1][0] === fence[0] && m[1].length >= fence.length && line.trim() === m[1]) fence = null;
      out.push({ text: line, inFence: true });
    } else out.push({ text: line, inFence: false });
  }
  return out;
}

const HEADING = /^ {0,3}(#{1,6})\s+(.*?)(?:\s+#+)?\s*$/;

/**
 * Every heading of `text` with its section.
 * @example markdownSections("# A\nx\n## B\ny").map((s) => s.heading) // ["A", "B"]
 */
export function markdownSections(text: string): MarkdownSection[] {
  const lines = classify(text);
  const heads: { heading: string; level: number; index: number }[] = [];
  lines.forEach((l, index) => {
    if (l.inFence) return;
    const m = HEADING.exec(l.text);
    if (m) heads.push({ heading: m[2].trim(), level: m[1].length, index });
  });
  return heads.map((h, k) => {
    let end = lines.length;
    for (let n = k + 1; n < heads.length; n++) {
      if (heads[n].level <= h.level) {
        end = heads[n].index;
        break;
      }
    }
    const body = lines.slice(h.index, end).map((l) => l.text).join("\n").trim();
    return { heading: h.heading, level: h.level, line: h.index + 1, text: body };
  });
}

/**
 * Inline links and images (`[t](target)`, `![a](target)`) and reference definitions (`[x]: target`)
 * outside code. The target has its `<…>` brackets and title removed.
 */
export function markdownLinks(text: string): MarkdownLink[] {
  const out: MarkdownLink[] = [];
  classify(text).forEach((l, i) => {
    if (l.inFence) return;
    const line = stripCodeSpans(l.text);
    const def = /^ {0,3}\[[^\]]+\]:\s*(<[^>]*>|\S+)/.exec(line);
    if (def) out.push({ target: unbracket(def[1]), line: i + 1 });
    for (const m of line.matchAll(/\]\(\s*(<[^>]*>|[^)\s]+)(?:\s+(?:"[^"]*"|'[^']*'))?\s*\)/g)) {
      out.push({ target: unbracket(m[1]), line: i + 1 });
    }
  });
  return out;
}

function unbracket(t: string): string {
  return t.startsWith("<") && t.endsWith(">") ? t.slice(1, -1) : t;
}

function stripCodeSpans(line: string): string {
  return line.replace(/(`+)([\s\S]*?[^`])\1(?!`)/g, (m) => " ".repeat(m.length));
}

/** Inline code spans (outside fences) and the lines of fenced code blocks (fence lines excluded). */
export function markdownCode(text: string): MarkdownCode[] {
  const out: MarkdownCode[] = [];
  const lines = classify(text);
  lines.forEach((l, i) => {
    if (l.inFence) {
      if (!/^ {0,3}(`{3,}|~{3,})/.test(l.text)) out.push({ text: l.text, line: i + 1, fenced: true });
      return;
    }
    for (const m of l.text.matchAll(/(`+)([\s\S]*?[^`])\1(?!`)/g)) {
      out.push({ text: m[2].trim(), line: i + 1, fenced: false });
    }
  });
  return out;
}

/**
 * A heading reduced to a topic id: lower-case words joined by `-`, backticks and punctuation dropped.
 * @example headingSlug("A unit's weapons, with provenance") // "a-units-weapons-with-provenance"
 */
export function headingSlug(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/['’`]/g, "")
    .replace(/[^a-z0-9_]+/g, "-")
    .replace(/^-+|-+$/g, "");
}
