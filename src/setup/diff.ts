/**
 * A unified diff of two texts (what `ra3 setup --dry-run` prints): `---`/`+++` headers, `@@` hunks with
 * three lines of context, `\ No newline at end of file` markers. Lines are matched with Myers' O(ND)
 * algorithm after trimming the common head and tail, which for config edits leaves a handful of lines.
 * A UTF-8 BOM and CRLF line ends are not shown (they are preserved in the files, never changed by setup).
 */

export interface UnifiedDiffOptions {
  /** The header of the old side, e.g. the file path, or `/dev/null` for a file about to be created. */
  readonly oldLabel: string;
  /** The header of the new side, e.g. the file path, or `/dev/null` for a file about to be deleted. */
  readonly newLabel: string;
  /** Lines of context around each change (default 3). */
  readonly context?: number;
}

type Op = { readonly kind: " " | "-" | "+"; readonly line: string };

/** Beyond this many differing lines the diff stops looking for a minimal match and replaces the block. */
const MAX_MYERS_LINES = 4000;

/** Splits `text` into lines that keep their terminators, so a missing final newline is a difference. */
function splitLines(text: string): string[] {
  const out: string[] = [];
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      out.push(text.slice(start, i + 1));
      start = i + 1;
    }
  }
  if (start < text.length) out.push(text.slice(start));
  return out;
}

/** The shortest edit script turning `a` into `b` (Myers 1986, greedy forward pass plus backtracking). */
function myers(a: readonly string[], b: readonly string[]): Op[] {
  const n = a.length;
  const m = b.length;
  const max = n + m;
  if (max === 0) return [];
  const offset = max + 1;
  const v = new Int32Array(2 * max + 3);
  const trace: Int32Array[] = [];
  let found = false;
  for (let d = 0; d <= max && !found; d++) {
    trace.push(v.slice());
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && v[offset + k - 1] < v[offset + k + 1])
        ? v[offset + k + 1]
        : v[offset + k - 1] + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) {
        found = true;
        break;
      }
    }
  }
  const ops: Op[] = [];
  let x = n;
  let y = m;
  for (let d = trace.length - 1; d >= 0; d--) {
    const vd = trace[d];
    const k = x - y;
    const prevK = k === -d || (k !== d && vd[offset + k - 1] < vd[offset + k + 1]) ? k + 1 : k - 1;
    const prevX = vd[offset + prevK];
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) {
      ops.push({ kind: " ", line: a[x - 1] });
      x--;
      y--;
    }
    if (d > 0) {
      if (x === prevX) ops.push({ kind: "+", line: b[--y] });
      else ops.push({ kind: "-", line: a[--x] });
    }
  }
  return ops.reverse();
}

/** The edit script for two line lists: common head and tail kept, the middle matched by Myers. */
function editScript(a: readonly string[], b: readonly string[]): Op[] {
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const midA = a.slice(head, a.length - tail);
  const midB = b.slice(head, b.length - tail);
  const middle = midA.length + midB.length > MAX_MYERS_LINES
    ? [...midA.map((line): Op => ({ kind: "-", line })), ...midB.map((line): Op => ({ kind: "+", line }))]
    : myers(midA, midB);
  return [
    ...a.slice(0, head).map((line): Op => ({ kind: " ", line })),
    ...middle,
    ...a.slice(a.length - tail).map((line): Op => ({ kind: " ", line })),
  ];
}

function range(start: number, count: number): string {
  return count === 1 ? `${start}` : `${count === 0 ? start - 1 : start},${count}`;
}

function renderLine(op: Op): string {
  const ended = op.line.endsWith("\n");
  const body = ended ? op.line.slice(0, op.line.endsWith("\r\n") ? -2 : -1) : op.line;
  return `${op.kind}${body}\n` + (ended ? "" : "\\ No newline at end of file\n");
}

/**
 * A unified diff from `oldText` to `newText` (null = no file), or "" when they are equal.
 * @example unifiedDiff("a\nb\n", "a\nc\n", { oldLabel: "f", newLabel: "f" })
 * // "--- f\n+++ f\n@@ -1,2 +1,2 @@\n a\n-b\n+c\n"
 */
export function unifiedDiff(oldText: string | null, newText: string | null, options: UnifiedDiffOptions): string {
  const strip = (t: string | null): string => (t ?? "").replace(/^\uFEFF/, "");
  const a = splitLines(strip(oldText));
  const b = splitLines(strip(newText));
  const ops = editScript(a, b);
  const context = options.context ?? 3;
  const changed: number[] = [];
  ops.forEach((op, i) => {
    if (op.kind !== " ") changed.push(i);
  });
  if (changed.length === 0) return "";

  let out = `--- ${options.oldLabel}\n+++ ${options.newLabel}\n`;
  // Line numbers (1-based) of each op's position on the old and new side.
  const oldLine: number[] = [];
  const newLine: number[] = [];
  let o = 1;
  let n = 1;
  for (const op of ops) {
    oldLine.push(o);
    newLine.push(n);
    if (op.kind !== "+") o++;
    if (op.kind !== "-") n++;
  }
  let i = 0;
  while (i < changed.length) {
    let j = i;
    while (j + 1 < changed.length && changed[j + 1] - changed[j] - 1 <= 2 * context) j++;
    const start = Math.max(0, changed[i] - context);
    const end = Math.min(ops.length, changed[j] + 1 + context);
    const hunk = ops.slice(start, end);
    const oldCount = hunk.filter((op) => op.kind !== "+").length;
    const newCount = hunk.filter((op) => op.kind !== "-").length;
    out += `@@ -${range(oldLine[start], oldCount)} +${range(newLine[start], newCount)} @@\n`;
    for (const op of hunk) out += renderLine(op);
    i = j + 1;
  }
  return out;
}
