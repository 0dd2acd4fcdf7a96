/**
 * A file system held in memory, for tests of code that takes a {@link FileSystemPort}. With `win32`
 * paths it behaves like Windows: names are case-insensitive, and a file marked with {@link lock} (a
 * running .exe) can be renamed but not written, replaced or deleted. {@link failOn} injects a failure
 * into the next matching operation; {@link deny} makes every operation under a folder fail (an
 * unreadable folder, which root cannot simulate on a real disk); {@link symlink} links may form loops,
 * which fail with `ELOOP` as on a real disk.
 */
import { createHash } from "node:crypto";
import * as nodePath from "node:path";
import {
  type FileStat,
  type FileSystemPort,
  fsError,
  type WritableFile,
  type WriteOptions,
} from "../../src/disk/port.ts";
import { type PathFlavour, pathKey } from "../../src/project/paths.ts";

/** A file-system operation name, for {@link MemoryFileSystem.failOn}. */
export type FsOperation =
  | "readFile"
  | "writeFile"
  | "append"
  | "stat"
  | "mkdir"
  | "rename"
  | "remove"
  | "copyFile"
  | "chmod"
  | "sha256"
  | "listDir"
  | "realPath";

interface MemoryFile {
  path: string;
  bytes: Uint8Array;
  mode: number;
}

const MAX_LINK_HOPS = 40;

export class MemoryFileSystem implements FileSystemPort {
  readonly path: PathFlavour;
  private readonly files = new Map<string, MemoryFile>();
  private readonly dirs = new Map<string, string>();
  private readonly locked = new Set<string>();
  private readonly links = new Map<string, string>();
  private failures: { op: FsOperation; match: (path: string) => boolean; error: Error }[] = [];
  private denied: { prefix: string; code: string }[] = [];
  /** How many times {@link syncDir} was called (the atomic write syncs the folder after its rename). */
  syncs = 0;

  /** `files` maps absolute paths to text (UTF-8) or bytes; their folders are created implicitly. */
  constructor(flavour: PathFlavour, files: Record<string, string | Uint8Array> = {}) {
    this.path = flavour;
    for (const [p, content] of Object.entries(files)) {
      this.mkdirSync(flavour.dirname(p));
      const bytes = typeof content === "string" ? new TextEncoder().encode(content) : content;
      this.files.set(this.key(p), { path: flavour.normalize(p), bytes, mode: 0o644 });
    }
  }

  private key(p: string): string {
    const n = this.path.normalize(p);
    return this.path === nodePath.win32 ? pathKey(n) : n;
  }

  /** True when `p` is `dir` or lies below it. */
  private isUnder(p: string, dir: string): boolean {
    const k = this.key(p);
    const d = this.key(dir);
    const sep = this.path === nodePath.win32 ? "/" : this.path.sep;
    return k === d || k.startsWith(d.endsWith(sep) ? d : d + sep);
  }

  private mkdirSync(p: string): void {
    let cur = this.path.normalize(p);
    for (;;) {
      this.dirs.set(this.key(cur), cur);
      const up = this.path.dirname(cur);
      if (up === cur) return;
      cur = up;
    }
  }

  private check(op: FsOperation, p: string): void {
    for (const d of this.denied) {
      if (this.isUnder(p, d.prefix)) throw fsError(d.code, `${op} ${p}`);
    }
    const i = this.failures.findIndex((f) => f.op === op && f.match(p));
    if (i >= 0) {
      const [f] = this.failures.splice(i, 1);
      throw f.error;
    }
  }

  private requireParent(p: string): void {
    if (!this.dirs.has(this.key(this.path.dirname(p)))) {
      throw fsError("ENOENT", `no such folder: ${this.path.dirname(p)}`);
    }
  }

  /** `p` with links followed (the link itself, its target, the target's target …). */
  private resolveLink(p: string): string {
    let cur = p;
    for (let hops = 0; this.links.has(this.key(cur)); hops++) {
      if (hops >= MAX_LINK_HOPS) throw fsError("ELOOP", `too many levels of symbolic links: ${p}`);
      cur = this.links.get(this.key(cur))!;
    }
    return cur;
  }

  /** Makes the next `op` on a path matching `match` (a path or predicate) throw `error` (default EIO). */
  failOn(
    op: FsOperation,
    match: string | ((path: string) => boolean),
    error: Error = fsError("EIO", "injected failure"),
  ): void {
    const m = typeof match === "string" ? (p: string) => this.key(p) === this.key(match) : match;
    this.failures.push({ op, match: m, error });
  }

  /** Makes every operation on `dir` and below fail with `code` (default EACCES), as an unreadable folder does. */
  deny(dir: string, code = "EACCES"): void {
    this.denied.push({ prefix: dir, code });
  }

  /** Marks `p` as a running executable: rename works, write/replace/remove fail with EBUSY (Windows behaviour). */
  lock(p: string): void {
    this.locked.add(this.key(p));
  }

  /** Ends the simulated "in use" state of `p` (the program running it exited). */
  unlock(p: string): void {
    this.locked.delete(this.key(p));
  }

  /** Makes `p` a symbolic link to `target` (reads and writes through `realPath` reach the target). */
  symlink(p: string, target: string): void {
    this.mkdirSync(this.path.dirname(p));
    this.links.set(this.key(p), target);
  }

  /** The text of a file (UTF-8), or null when missing. */
  text(p: string): string | null {
    const f = this.files.get(this.key(this.resolveLink(p)));
    return f ? new TextDecoder().decode(f.bytes) : null;
  }

  /** Every file's path, sorted. */
  listAll(): string[] {
    return [...this.files.values()].map((f) => f.path).sort();
  }

  /** Every folder's path, sorted. */
  listDirs(): string[] {
    return [...this.dirs.values()].sort();
  }

  /** The permission bits of a file, or null when missing. */
  modeOf(p: string): number | null {
    return this.files.get(this.key(p))?.mode ?? null;
  }

  readFile(p: string): Uint8Array | null {
    this.check("readFile", p);
    const target = this.resolveLink(p);
    this.check("readFile", target);
    const k = this.key(target);
    if (this.dirs.has(k)) throw fsError("EISDIR", `is a folder: ${target}`);
    const f = this.files.get(k);
    return f ? f.bytes.slice() : null;
  }

  writeFile(p: string, bytes: Uint8Array, options?: WriteOptions): void {
    this.check("writeFile", p);
    const target = this.resolveLink(p);
    this.requireParent(target);
    const k = this.key(target);
    if (this.locked.has(k)) throw fsError("EBUSY", `file is in use: ${target}`);
    if (this.dirs.has(k)) throw fsError("EISDIR", `is a folder: ${target}`);
    const existing = this.files.get(k);
    if (existing && options?.exclusive) throw fsError("EEXIST", `file exists: ${target}`);
    this.files.set(k, {
      path: existing?.path ?? this.path.normalize(target),
      bytes: bytes.slice(),
      mode: existing?.mode ?? options?.mode ?? 0o644,
    });
  }

  /** A new file written in pieces: opened as {@link writeFile} would; `append` can be made to fail ({@link failOn}). */
  openNew(p: string, options?: WriteOptions): WritableFile {
    this.writeFile(p, new Uint8Array(0), options);
    const file = this.files.get(this.key(this.resolveLink(p)))!;
    const put = (offset: number, bytes: Uint8Array) => {
      const end = Math.max(file.bytes.length, offset + bytes.length);
      const next = new Uint8Array(end);
      next.set(file.bytes);
      next.set(bytes, offset);
      file.bytes = next;
    };
    return {
      append: (bytes) => {
        this.check("append", p);
        put(file.bytes.length, bytes);
      },
      writeAt: (offset, bytes) => put(offset, bytes),
      readAt: (offset, into) => {
        const part = file.bytes.subarray(offset, offset + into.length);
        into.set(part);
        return part.length;
      },
      close: () => {},
      abandon: () => {},
    };
  }

  stat(p: string): FileStat | null {
    this.check("stat", p);
    const target = this.resolveLink(p);
    this.check("stat", target);
    const k = this.key(target);
    const f = this.files.get(k);
    if (f) return { kind: "file", size: f.bytes.length, mode: f.mode };
    if (this.dirs.has(k)) return { kind: "directory", size: 0, mode: 0o755 };
    return null;
  }

  exists(p: string): boolean {
    return this.stat(p) !== null;
  }

  listDir(p: string): string[] | null {
    this.check("listDir", p);
    const k = this.key(this.resolveLink(p));
    if (!this.dirs.has(k)) return null;
    const names: string[] = [];
    const all = [...this.files.values()].map((f) => f.path).concat([...this.dirs.values()], [...this.links.keys()]);
    for (const child of all) {
      const parent = this.path.dirname(child);
      if (parent !== child && this.key(parent) === k) names.push(this.path.basename(child));
    }
    return [...new Set(names)].sort();
  }

  mkdir(p: string): void {
    this.check("mkdir", p);
    if (this.files.has(this.key(p))) throw fsError("EEXIST", `a file is in the way: ${p}`);
    this.mkdirSync(p);
  }

  rename(from: string, to: string): void {
    this.check("rename", from);
    const fk = this.key(from);
    const tk = this.key(to);
    this.requireParent(to);
    if (this.dirs.has(fk)) {
      this.renameDir(from, to);
      return;
    }
    const f = this.files.get(fk);
    if (!f) throw fsError("ENOENT", `no such file: ${from}`);
    if (fk !== tk && this.locked.has(tk)) throw fsError("EPERM", `cannot replace a file in use: ${to}`);
    if (this.dirs.has(tk)) throw fsError("EISDIR", `is a folder: ${to}`);
    this.files.delete(fk);
    this.files.set(tk, { ...f, path: this.path.normalize(to) });
    if (this.locked.delete(fk)) this.locked.add(tk);
  }

  private renameDir(from: string, to: string): void {
    const tk = this.key(to);
    if (this.files.has(tk)) throw fsError("ENOTDIR", `a file is in the way: ${to}`);
    if (this.dirs.has(tk) && (this.listDir(to) ?? []).length > 0) throw fsError("ENOTEMPTY", `not empty: ${to}`);
    const src = this.path.normalize(from);
    const dst = this.path.normalize(to);
    const moved = (p: string) => dst + p.slice(src.length);
    const under = (p: string) => this.isUnder(p, src);
    for (const [k, d] of [...this.dirs]) {
      if (!under(d)) continue;
      this.dirs.delete(k);
      this.dirs.set(this.key(moved(d)), moved(d));
    }
    for (const [k, f] of [...this.files]) {
      if (!under(f.path)) continue;
      this.files.delete(k);
      this.files.set(this.key(moved(f.path)), { ...f, path: moved(f.path) });
    }
  }

  remove(p: string): void {
    this.check("remove", p);
    const k = this.key(p);
    if (this.locked.has(k)) throw fsError("EBUSY", `file is in use: ${p}`);
    if (this.links.delete(k)) return;
    if (this.dirs.has(k)) throw fsError("EISDIR", `is a folder: ${p}`);
    this.files.delete(k);
  }

  removeEmptyDir(p: string): boolean {
    try {
      this.check("remove", p);
    } catch {
      return false;
    }
    const kids = this.listDir(p);
    if (kids === null || kids.length > 0) return false;
    return this.dirs.delete(this.key(p));
  }

  removeTree(p: string): void {
    this.check("remove", p);
    const under = (q: string) => this.isUnder(q, p);
    for (const f of [...this.files.values()]) {
      if (under(f.path) && this.locked.has(this.key(f.path))) throw fsError("EBUSY", `file is in use: ${f.path}`);
    }
    for (const [fk, f] of [...this.files]) if (under(f.path)) this.files.delete(fk);
    for (const [dk, d] of [...this.dirs]) if (under(d)) this.dirs.delete(dk);
    for (const lk of [...this.links.keys()]) if (under(lk)) this.links.delete(lk);
  }

  copyFile(from: string, to: string): void {
    this.check("copyFile", from);
    const bytes = this.readFile(from);
    if (bytes === null) throw fsError("ENOENT", `no such file: ${from}`);
    this.writeFile(to, bytes);
  }

  chmod(p: string, mode: number): void {
    this.check("chmod", p);
    const f = this.files.get(this.key(this.resolveLink(p)));
    if (!f) throw fsError("ENOENT", `no such file: ${p}`);
    f.mode = mode;
  }

  realPath(p: string): string {
    this.check("realPath", p);
    return this.resolveLink(p);
  }

  sha256(p: string): string | null {
    this.check("sha256", p);
    const bytes = this.readFile(p);
    return bytes === null ? null : createHash("sha256").update(bytes).digest("hex");
  }

  syncDir(_dir: string): void {
    this.syncs++;
  }
}
