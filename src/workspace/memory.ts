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
  const runtime = (globalThis as { Bun?: CollectingRuntime }).Bun;
  if (!runtime || process.memoryUsage.rss() < LARGE_RSS_BYTES) return;
  runtime.gc(true);
}
