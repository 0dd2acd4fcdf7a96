/**
 * The index lifecycle as a pure state machine: `nextState(state, event) → state`, no I/O.
 *
 * The published index is served in every state where `hasIndex` is true, including `error` (the last
 * good index is kept and flagged stale) and `building` after a previous build (a rebuild does not hide
 * the old answers). Events that make no sense in a state leave it unchanged, so a late or duplicated
 * event can never corrupt the state.
 */

export type IndexState = "no_index" | "building" | "ready_xml" | "ready" | "stale" | "error";

export type LifecycleEvent =
  | "build_started"
  | "xml_done"
  | "build_done"
  | "build_failed"
  | "files_changed"
  | "update_applied";

export const INDEX_STATES: readonly IndexState[] = ["no_index", "building", "ready_xml", "ready", "stale", "error"];
export const LIFECYCLE_EVENTS: readonly LifecycleEvent[] = [
  "build_started",
  "xml_done",
  "build_done",
  "build_failed",
  "files_changed",
  "update_applied",
];

export interface Lifecycle {
  readonly state: IndexState;
  /** An index has been published and can answer queries. */
  readonly hasIndex: boolean;
  /** The published index includes the art phase. */
  readonly complete: boolean;
  /** Files changed while a build was running: the result will be stale on arrival. */
  readonly dirty: boolean;
}

export const INITIAL_LIFECYCLE: Lifecycle = { state: "no_index", hasIndex: false, complete: false, dirty: false };

/** The state after `event`. @example nextState(INITIAL_LIFECYCLE, "build_started").state // "building" */
export function nextState(s: Lifecycle, event: LifecycleEvent): Lifecycle {
  const running = s.state === "building" || s.state === "ready_xml";
  switch (event) {
    case "build_started":
      if (s.state === "building") return s;
      return { ...s, state: "building", dirty: false };
    case "xml_done":
      // A rebuild's XML index still holds the previous build's art records (they are replaced only
      // when the art phase re-reads them), so it stays complete; a first build's XML index is not.
      if (s.state !== "building") return s;
      return { state: "ready_xml", hasIndex: true, complete: s.hasIndex && s.complete, dirty: s.dirty };
    case "build_done":
      if (!running) return s;
      return { state: s.dirty ? "stale" : "ready", hasIndex: true, complete: true, dirty: false };
    case "build_failed":
      if (!running) return s;
      return { ...s, state: "error", dirty: false };
    case "files_changed":
      if (s.state === "no_index") return s;
      if (running) return s.dirty ? s : { ...s, dirty: true };
      if (s.state === "ready") return { ...s, state: "stale" };
      if (s.state === "error") return s.dirty ? s : { ...s, dirty: true };
      return s; // stale stays stale
    case "update_applied":
      if (s.state === "stale" || (s.state === "error" && s.hasIndex)) {
        return { state: s.complete ? "ready" : "ready_xml", hasIndex: true, complete: s.complete, dirty: false };
      }
      return s;
  }
}

/** Whether answers from the published index may be out of date. */
export function isStale(s: Lifecycle): boolean {
  return s.state === "stale" || s.dirty || (s.state === "error" && s.hasIndex);
}
