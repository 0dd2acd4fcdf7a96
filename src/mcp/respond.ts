/**
 * What every tool call goes through: picking the project, getting an index that may answer (waiting
 * for it with `consistency: "strict"`, else a clear "still building" error), and turning a query result
 * or error into an MCP result: `structuredContent` = the envelope, a short text, the size bound, and
 * `isError` results whose one sentence says what to do next.
 */
import type { CallToolResult } from "@modelcontextprotocol/server";
import type { LinkedIndex } from "../index/linked.ts";
import { envelopeOf, type IndexEnvelope, isQueryError, type QueryError, shortEnvelope } from "../query/envelope.ts";
import { errorAnswer } from "../query/answers.ts";
import type { IndexService } from "../workspace/service.ts";
import { answerSize, FIRST_STRING_CUT, MAX_ANSWER_CHARS, shortenStrings, shrinkLists } from "./bound.ts";
import { boundNote, indexLine, indexNote } from "./render.ts";
import { visible } from "../query/visible.ts";
import type { ProjectHandle, ProjectRegistry } from "./projects.ts";

export type ErrorCode = QueryError["error"]["code"] | "too_large" | "cancelled";

export interface Failure {
  readonly index: IndexEnvelope | null;
  readonly error: {
    readonly code: ErrorCode;
    readonly message: string;
    readonly details?: Readonly<Record<string, unknown>>;
  };
}

export interface Success<R> {
  readonly index: IndexEnvelope | null;
  readonly result: R;
}

export type Outcome<R> = Success<R> | Failure;

/** True when `o` is a {@link Failure}. */
function isFailure<R>(o: Outcome<R>): o is Failure {
  return "error" in o && !("result" in o);
}

/** A failure from a query error value, with the envelope when there is one. */
export function failure(index: IndexEnvelope | null, e: QueryError | Failure["error"]): Failure {
  return { index, error: "error" in e ? e.error : e };
}

export interface Acquired {
  readonly handle: ProjectHandle;
  readonly linked: LinkedIndex;
}

/** How long `consistency: "strict"` waits for a running build before giving up. */
export const DEFAULT_STRICT_TIMEOUT_MS = 30_000;
/** How long a call waits for a saved snapshot to become a servable index (0.4–1.3 s at Corona scale here, by the load). */
const SNAPSHOT_WAIT_MS = 5_000;

/**
 * When the project has no index yet but is starting from a saved snapshot (the first call a
 * multi-project server gets for a project opens it), waits — bounded — while the snapshot becomes a
 * servable index (its stored link decoded; a snapshot without one: decoded, compared with the disk by
 * one scan, linked), not for the re-reading of
 * changed files after it: the answer then comes from the stored index, marked stale until they are
 * applied. Without a usable snapshot it returns at once (the caller says "building"). Every tool call,
 * get_status included, goes through this one rule.
 */
export async function awaitSnapshot(registry: ProjectRegistry, h: ProjectHandle, signal: AbortSignal): Promise<void> {
  const svc = h.service;
  if (svc.linked || svc.ws.lifecycle.state !== "building" || !registry.snapshotOf(h.entry)) return;
  await svc.waitForStoredIndex(SNAPSHOT_WAIT_MS, signal);
}

/** The running build's progress as a short parenthesis: "(120 files of 444)". */
export function progressText(service: IndexService): string {
  const p = service.ws.progress;
  if (!p) return "(starting)";
  if (p.phase === "scan") return "(listing the project's files)";
  if (p.phase === "link") return "(linking)";
  if (p.phase === "reach") return `(reading the files the entry points include: ${p.done} so far)`;
  return `(${p.done} files of ${p.total})`;
}

/**
 * With `strict`: waits (bounded) until the running work is done and every file stamp is re-checked.
 * Returns null when it finished, or the failure to report (timeout, cancelled).
 */
export async function makeStrict(
  handle: ProjectHandle,
  timeoutMs: number,
  signal: AbortSignal,
): Promise<Failure | null> {
  const svc = handle.service;
  let timer: ReturnType<typeof setTimeout> | null = null;
  const timeout = new Promise<"timeout">((resolve) => {
    timer = setTimeout(() => resolve("timeout"), timeoutMs);
  });
  const cancelled = new Promise<"cancelled">((resolve) => {
    if (signal.aborted) resolve("cancelled");
    signal.addEventListener("abort", () => resolve("cancelled"), { once: true });
  });
  const work = svc.strict(timeoutMs, signal).then(
    (r) => (r === null ? ("timeout" as const) : ("done" as const)),
    () => "failed" as const,
  );
  const r = await Promise.race([work, timeout, cancelled]);
  if (timer) clearTimeout(timer);
  const index = envelopeOf(svc.view());
  if (r === "done") return null;
  if (r === "cancelled") return failure(index, { code: "cancelled", message: "the request was cancelled" });
  if (r === "failed") {
    if (svc.linked) return null; // the refresh failed but an index is served; the envelope says so
    return failure(index, {
      code: "no_index",
      message: `the index could not be built: ${svc.error ?? "unknown error"}; fix the cause, then call reindex`,
    });
  }
  return failure(index, {
    code: "timeout",
    message: `the index did not finish updating within ${
      timeoutMs >= 1000 ? `${Math.round(timeoutMs / 1000)} s` : `${timeoutMs} ms`
    } ${progressText(svc)}; retry, or call get_status to watch the progress`,
  });
}

/**
 * The project and the index a query tool answers from, or why there is none yet. Eventual: the
 * published index as it is (the envelope flags staleness); strict: re-validated first.
 */
export async function acquireIndex(
  registry: ProjectRegistry,
  args: { project?: string; consistency?: "eventual" | "strict" },
  timeoutMs: number,
  signal: AbortSignal,
): Promise<Acquired | Failure> {
  const h = registry.pick(args.project);
  if (isQueryError(h)) return failure(null, h);
  if (args.consistency === "strict") {
    const f = await makeStrict(h, timeoutMs, signal);
    if (f) return f;
  } else await awaitSnapshot(registry, h, signal);
  // A warm start's stored sites are decoded (or refused and the index linked again) before any query.
  const unreadable = await h.service.decodeStoredSites();
  if (unreadable) {
    return failure(envelopeOf(h.service.view()), {
      code: "no_index",
      message: `the stored index cannot be read: ${unreadable}; fix the cause, then call reindex`,
    });
  }
  const linked = h.service.linked;
  if (linked) return { handle: h, linked };
  const index = envelopeOf(h.service.view());
  if (h.service.ws.lifecycle.state === "error") {
    return failure(index, {
      code: "no_index",
      message: `the index could not be built: ${h.service.error ?? "unknown error"}; fix the cause, then call reindex`,
    });
  }
  return failure(index, {
    code: "building",
    message: `the index is still building ${
      progressText(h.service)
    }; retry in a moment or pass consistency: "strict" to wait`,
  });
}

export interface Presentation<R> {
  render(result: R, index: IndexEnvelope | null): string;
  /** The JSON answer (`query/answers.ts`); the result itself when absent. */
  answer?(result: R): unknown;
  /** Carry the full envelope (SDK, game, counts): get_status and reindex. */
  readonly fullIndex?: boolean;
  /** `render` writes the index facts itself (get_status), so no index line is added. */
  readonly ownIndexLine?: boolean;
  /** A smaller answer to the same question (a re-run with a smaller page), or null when there is none. */
  refit?(result: R, factor: number): R | null;
}

/** The text, then the lines about the index (its state, and what to do when it is not ready) and the size bound. */
function withNotes(text: string, index: IndexEnvelope | null, result: unknown, ownIndexLine = false): string {
  const notes = [
    indexNote(index),
    typeof result === "object" && result !== null ? boundNote(result as object) : "",
    ownIndexLine || !index ? "" : indexLine(index),
  ].filter(Boolean);
  return notes.length ? `${text}\n${notes.join("\n")}` : text;
}

/**
 * The MCP result of an outcome: success → `structuredContent: {index, result}` (the short envelope,
 * the full one for get_status and reindex; `result` the JSON answer) + text, kept under {@link MAX_ANSWER_CHARS};
 * failure → `isError: true`, the sentence (and the index line) as text, and (when a project is
 * involved) `structuredContent: {index, error}`, the same shape as `ra3 … --json`.
 */
export function toToolResult<R>(outcome: Outcome<R>, p: Presentation<R>, maxChars = MAX_ANSWER_CHARS): CallToolResult {
  if (isFailure(outcome)) return errorResult(outcome);
  let result = outcome.result;
  const index = outcome.index;
  const envelope = index ? (p.fullIndex ? index : shortEnvelope(index)) : null;
  const answer = p.answer ?? ((r: R) => r);
  let stringCut = FIRST_STRING_CUT;
  for (let round = 0; round < 60; round++) {
    const text = withNotes(p.render(result, index), index, result, p.ownIndexLine);
    const structured = { index: envelope, result: answer(result) };
    const size = answerSize(structured, text);
    if (size <= maxChars) {
      return { content: [{ type: "text", text }], structuredContent: structured as unknown as Record<string, unknown> };
    }
    const factor = maxChars / size;
    // A smaller page first (the cursor stays exact), then shorter lists, then shorter strings: an item
    // too large on its own stays on its page, shortened, rather than being skipped.
    let smaller: unknown = (p.refit ? p.refit(result, factor) : null) ?? shrinkLists(result as object, factor);
    while (smaller === null && stringCut >= 1) {
      smaller = shortenStrings(result as object, stringCut);
      stringCut = Math.floor(stringCut / 2);
    }
    if (smaller === null) break;
    result = smaller as R;
  }
  return errorResult(
    failure(index, {
      code: "too_large",
      message:
        `the answer is larger than ${maxChars} characters even after shortening its lists and strings; ask a narrower question (a type, a prefix, fewer paths, a smaller depth)`,
    }),
  );
}

/** An `isError` result. */
export function errorResult(f: Failure): CallToolResult {
  // The sentence is one line; an id quoted in it may carry hidden characters.
  const sentence = visible(f.error.message);
  if (!f.index) return { content: [{ type: "text", text: sentence }], isError: true };
  return {
    content: [{ type: "text", text: `${sentence}\n${indexLine(f.index)}` }],
    isError: true,
    structuredContent: { index: shortEnvelope(f.index), error: errorAnswer(f.error) },
  };
}
