/**
 * Parsing on two cores: a build hands one worker a share of the files (by bytes) while the main thread
 * parses the rest. Records come back through the snapshot codec. Falls back to the main thread alone
 * when workers are unavailable or disabled (`RA3_WORKERS=0`), so results never depend on it.
 */
import type { SchemaModel } from "../schema/model.ts";
import { decodeSnapshot, type SnapshotFile } from "../store/codec.ts";
import { TOOL_VERSION } from "../version.ts";

/** The project dir written into (and expected back from) a batch's encoding. */
export const BATCH_PROJECT = "(parse batch)";

export interface ParsedBatch {
  readonly files: readonly SnapshotFile[];
  readonly unreadable: readonly { path: string; error: string }[];
}

interface Pending {
  resolve(b: ParsedBatch): void;
  reject(e: Error): void;
}

/** The worker's module specifier: inside the compiled binary workers are embedded by their source path. */
function workerSpecifier(): string {
  return import.meta.url.includes("$bunfs")
    ? "./workspace/parse-worker.ts"
    : new URL("./parse-worker.ts", import.meta.url).href;
}

export class ParsePool {
  private worker: Worker | null = null;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private broken: string | null = null;

  /** Whether workers are used at all (env `RA3_WORKERS=0` turns them off). */
  static enabled(env: Record<string, string | undefined> = process.env): boolean {
    return env.RA3_WORKERS !== "0";
  }

  constructor(private readonly model: SchemaModel | null) {}

  /** Why the worker could not be used, if it could not. */
  get problem(): string | null {
    return this.broken;
  }

  /** Parses `files` in the worker; rejects when the worker is unavailable (the caller parses them itself). */
  parse(files: readonly { path: string; size: number; mtimeMs: number }[]): Promise<ParsedBatch> {
    const w = this.ensure();
    if (!w) return Promise.reject(new Error(this.broken ?? "no worker"));
    const id = this.nextId++;
    return new Promise<ParsedBatch>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      w.postMessage({ id, files });
    });
  }

  /** Stops the worker (pending batches are rejected). */
  close(): void {
    this.worker?.terminate();
    this.worker = null;
    for (const p of this.pending.values()) p.reject(new Error("the parse worker was stopped"));
    this.pending.clear();
  }

  private ensure(): Worker | null {
    if (this.worker) return this.worker;
    if (this.broken) return null;
    try {
      const w = new Worker(workerSpecifier(), { type: "module" });
      w.onmessage = (e: MessageEvent) => this.receive(e.data);
      w.onerror = (e: ErrorEvent) => this.fail(e.message || "the parse worker failed");
      w.postMessage({ init: this.model });
      // Don't keep a CLI process alive just for an idle worker.
      (w as unknown as { unref?: () => void }).unref?.();
      this.worker = w;
      return w;
    } catch (e) {
      this.broken = e instanceof Error ? e.message : String(e);
      return null;
    }
  }

  private receive(
    data: { id: number; bytes?: Uint8Array; unreadable?: { path: string; error: string }[]; error?: string },
  ): void {
    const p = this.pending.get(data.id);
    if (!p) return;
    this.pending.delete(data.id);
    if (data.error || !data.bytes) return p.reject(new Error(data.error ?? "empty answer from the parse worker"));
    const decoded = decodeSnapshot(data.bytes, { projectDir: BATCH_PROJECT, toolVersion: TOOL_VERSION });
    if (!decoded.ok) return p.reject(new Error(`the parse worker's records could not be decoded: ${decoded.message}`));
    p.resolve({ files: decoded.snapshot.files, unreadable: data.unreadable ?? [] });
  }

  private fail(message: string): void {
    this.broken = message;
    this.worker?.terminate();
    this.worker = null;
    for (const p of this.pending.values()) p.reject(new Error(message));
    this.pending.clear();
  }
}
