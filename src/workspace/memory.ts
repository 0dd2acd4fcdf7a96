/**
 * Memory between build phases. A build makes most of its garbage in bursts (the tokenizer's events while a
 * file is parsed, the link's working tables), and the engine lets its heap grow well past what is live
 * before it collects, which for a huge input (a 200 MB file of a million assets) more than doubles the
 * peak. When the process is already large, the build collects at the ends of those bursts; an ordinary
 * mod stays below the threshold and pays nothing.
 */

/** Resident size above which a phase end collects garbage (ordinary mods stay well below it). */
const LARGE_RSS_BYTES = 640 * 1024 * 1024;

/** A file this large is a burst of its own: collected after it is parsed. */
export const LARGE_FILE_BYTES = 32 * 1024 * 1024;

interface CollectingRuntime {
  gc(force: boolean): void;
}

/**
 * Collects garbage now when the process holds more than {@link LARGE_RSS_BYTES} (only where the runtime
 * offers a collector: Bun; elsewhere nothing happens).
 * @example collectIfLarge() // after the XML phase of a build
 */
export function collectIfLarge(): void {
  const runtime = collectingRuntime();
  if (!runtime || process.memoryUsage.rss() < LARGE_RSS_BYTES) return;
  runtime.gc(true);
  memoryPacer.collected();
}

/** The runtime's collector: Bun's; null elsewhere. */
function collectingRuntime(): CollectingRuntime | null {
  return (globalThis as { Bun?: CollectingRuntime }).Bun ?? null;
}

/** How often (at most) {@link MemoryPacer.step} reads the resident size: reading it costs ≈ 9 µs. */
const PACE_CHECK_MS = 20;

/** Growth of the resident size since the last collection after which a step collects again. */
const PACE_GROWTH_BYTES = 32 * 1024 * 1024;

/** What a {@link MemoryPacer} reads and calls (the process's own by default; tests give their own). */
export interface PacerPorts {
  readonly now: () => number;
  readonly rss: () => number;
  /** A quick collection of young garbage (null: the runtime has none; the pacer does nothing). */
  readonly collect: (() => void) | null;
}

/**
 * Collections within a long phase. One phase of a huge input (the parse of a 200 MB file, the reference
 * sites of a million assets) allocates hundreds of megabytes of short-lived objects between two phase
 * ends, and the engine lets the heap reach about twice what is live before it collects on its own: the
 * peak was ≈ 400 MB above what the phase kept. Between two steps of such a job (at every pause of a
 * workspace's slicer, and between the steps of a snapshot save), once the process is past
 * {@link LARGE_RSS_BYTES} and has grown by {@link PACE_GROWTH_BYTES} since the last collection, the pacer
 * collects the young garbage (a few milliseconds), so the memory freed is reused instead of new memory
 * taken. Below the threshold a step costs one clock read.
 */
export class MemoryPacer {
  private checked = -Infinity;
  private floor = 0;

  constructor(private readonly ports: PacerPorts = processPorts()) {}

  /** Called between two steps of a long job. */
  step(): void {
    const { now, rss, collect } = this.ports;
    if (collect === null) return;
    const t = now();
    if (t - this.checked < PACE_CHECK_MS) return;
    this.checked = t;
    const size = rss();
    if (size < LARGE_RSS_BYTES) {
      this.floor = size;
      return;
    }
    if (size - this.floor < PACE_GROWTH_BYTES) return;
    collect();
    this.floor = rss();
  }

  /** A collection happened elsewhere (a phase end's full one): growth counts from the size after it. */
  collected(): void {
    if (this.ports.collect !== null) this.floor = this.ports.rss();
  }
}

/** The process's clock, resident size and (under Bun) quick collection. */
function processPorts(): PacerPorts {
  const runtime = collectingRuntime();
  return {
    now: () => performance.now(),
    rss: () => process.memoryUsage.rss(),
    collect: runtime ? () => runtime.gc(false) : null,
  };
}

/** The process's pacer: one per process (the memory it watches is the process's). */
export const memoryPacer: MemoryPacer = new MemoryPacer();
