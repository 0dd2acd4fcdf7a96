/**
 * Random, seeded edits of a mod folder on disk, as a modder makes them: values changed, ids renamed (to a
 * new name, to an id that exists already — a duplicate appears — or back), lines inserted above
 * everything, files copied in (all their ids duplicated) and deleted, includes added and removed, XML
 * errors introduced and fixed. Each edit names the files it wrote or removed, so a test can refresh by
 * stamps or by the watcher's names. The same seed on the same folder gives the same edits.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";

export interface Edit {
  /** What was done, e.g. `rename Data/Mod/Allied.xml AlliedTank → Missing3` (for a failure message). */
  readonly what: string;
  /** Absolute paths written or removed. */
  readonly paths: readonly string[];
}

/** The XML files under `dir/Data`, sorted, relative with `/`. */
function xmlFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.toLowerCase().endsWith(".xml")) out.push(relative(dir, p).split("\\").join("/"));
    }
  };
  walk(join(dir, "Data"));
  return out;
}

/** The `.str` string tables anywhere in the mod, sorted, relative with `/`. */
function strFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.toLowerCase().endsWith(".str")) out.push(relative(dir, p).split("\\").join("/"));
    }
  };
  walk(dir);
  return out;
}

/** Attributes whose value is structure, not data: a value edit leaves them alone. */
const STRUCTURAL = /^(?:id|xmlns(?::\w+)?|source|href|xpointer|type|name)$/;

/** Files whose existence the project layout decides (entry points found when the workspace starts). */
const LAYOUT_FILES = /^Data\/(?:Mod|Static)\.xml$|^Data\/AdditionalMaps\/MapMetaData_[^/]*$/i;

/**
 * The offset spans of the root's children that carry an `id` in their start tag (comments blanked out
 * first; a rough scan of well-formed text, enough for the mods the sequences edit).
 */
function topLevelWithId(text: string): [number, number][] {
  const plain = text.replace(/<!--[\s\S]*?-->/g, (c) => " ".repeat(c.length));
  const out: [number, number][] = [];
  let depth = 0;
  let open: { start: number; id: boolean } | null = null;
  for (const m of plain.matchAll(/<(\/?)([\w:.-]+)([^>]*?)(\/?)>/g)) {
    const closing = m[1] === "/";
    const selfClosing = m[4] === "/";
    if (closing) {
      depth--;
      if (depth === 1 && open) {
        if (open.id) out.push([open.start, m.index! + m[0].length]);
        open = null;
      }
      continue;
    }
    if (depth === 1) {
      const id = /\bid="/.test(m[3]);
      if (selfClosing) {
        if (id) out.push([m.index!, m.index! + m[0].length]);
      } else open = { start: m.index!, id };
    }
    if (!selfClosing) depth++;
  }
  return out;
}

/** Makes random edits to the mod in `dir`; `random` is a seeded generator of numbers in [0, 1). */
export class ModEditor {
  private step = 0;
  private copies = 0;
  private made = 0;
  /** Files given an XML error → their text before it (a fix restores it). */
  private readonly broken = new Map<string, string>();
  private readonly clock: number;

  constructor(private readonly dir: string, private readonly random: () => number) {
    // Stamps far from the copy's own mtimes, one second apart per write: every write is seen by stamp.
    this.clock = Math.floor(Date.now() / 1000) + 1000;
  }

  private pick<T>(list: readonly T[]): T {
    return list[Math.floor(this.random() * list.length)];
  }

  private abs(rel: string): string {
    return join(this.dir, ...rel.split("/"));
  }

  private read(rel: string): string {
    return readFileSync(this.abs(rel), "utf8");
  }

  private write(rel: string, text: string): string {
    const p = this.abs(rel);
    mkdirSync(dirname(p), { recursive: true });
    writeFileSync(p, text);
    const t = this.clock + ++this.step;
    utimesSync(p, t, t);
    return p;
  }

  /** Every asset or module id written in the mod's XML. */
  private ids(files: readonly string[]): string[] {
    const out = new Set<string>();
    for (const f of files) for (const m of this.read(f).matchAll(/\bid="([^"]+)"/g)) out.add(m[1]);
    return [...out].sort();
  }

  /** A name for something new (never written before in this sequence). */
  private fresh(prefix: string): string {
    return `${prefix}${++this.made}`;
  }

  /** One random edit (some kinds need a file of a certain shape; when none fits, another kind is tried). */
  edit(): Edit {
    for (;;) {
      const files = xmlFiles(this.dir);
      // Content edits (what a modder makes most) weigh more than those that change the include graph.
      const kinds = [
        this.valueEdit,
        this.valueEdit,
        this.valueEdit,
        this.valueEdit,
        this.rename,
        this.rename,
        this.rename,
        this.shiftLines,
        this.addAsset,
        this.addAsset,
        this.addAsset,
        this.removeAsset,
        this.removeAsset,
        this.removeAsset,
        this.copyFile,
        this.deleteFile,
        this.addInclude,
        this.removeInclude,
        this.breakXml,
        this.fixXml,
        this.fixXml,
        this.touch,
        this.stringEdit,
      ];
      const e = this.pick(kinds).call(this, files);
      if (e) return e;
    }
  }

  /** An attribute value replaced by an id of the mod (in another case, sometimes), a missing id or a number. */
  private valueEdit(files: readonly string[]): Edit | null {
    const f = this.pick(files);
    const text = this.read(f);
    const spots = [...text.matchAll(/\s([\w:]+)="([^"]*)"/g)].filter((m) => !STRUCTURAL.test(m[1]));
    if (spots.length === 0) return null;
    const m = this.pick(spots);
    const roll = this.random();
    const ids = this.ids(files);
    let value: string;
    if (roll < 0.55 && ids.length) {
      const id = this.pick(ids);
      value = this.random() < 0.2 ? id.toUpperCase() : id;
    } else if (roll < 0.8) value = this.fresh("Missing");
    else value = String(Math.floor(this.random() * 500));
    const at = m.index! + m[0].indexOf('"') + 1;
    const next = text.slice(0, at) + value + text.slice(at + m[2].length);
    return { what: `value ${f} ${m[1]}="${m[2]}" → "${value}"`, paths: [this.write(f, next)] };
  }

  /** An `id` renamed: to a new name (references to it break), to an existing id (a duplicate), or to its old name in another case. */
  private rename(files: readonly string[]): Edit | null {
    const f = this.pick(files);
    const text = this.read(f);
    const spots = [...text.matchAll(/\bid="([^"]+)"/g)];
    if (spots.length === 0) return null;
    const m = this.pick(spots);
    const roll = this.random();
    const ids = this.ids(files);
    const to = roll < 0.4 ? this.fresh("Renamed") : roll < 0.8 ? this.pick(ids) : m[1].toLowerCase();
    const at = m.index! + 4;
    const next = text.slice(0, at) + to + text.slice(at + m[1].length);
    return { what: `rename ${f} ${m[1]} → ${to}`, paths: [this.write(f, next)] };
  }

  /** Lines inserted before a random tag: every position after it moves. */
  private shiftLines(files: readonly string[]): Edit | null {
    const f = this.pick(files);
    const text = this.read(f);
    const tags = [...text.matchAll(/\n\s*</g)];
    if (tags.length === 0) return null;
    const m = this.pick(tags);
    const lines = 1 + Math.floor(this.random() * 3);
    const next = text.slice(0, m.index!) + "\n<!-- shifted -->".repeat(lines) + text.slice(m.index!);
    return { what: `shift ${f} by ${lines} at offset ${m.index}`, paths: [this.write(f, next)] };
  }

  /**
   * A top-level asset added before `</AssetDeclaration>` or, one time in three, first in the root (above the
   * includes and every xi:include: they move, the include graph stays): with a new id, an id some value
   * names (often one nothing defines yet), or an existing id (a duplicate); its type one of the file's
   * element names, and sometimes a reference to an existing id.
   */
  private addAsset(files: readonly string[]): Edit | null {
    const f = this.pick(files.filter((x) => !this.broken.has(x)));
    if (!f) return null;
    const text = this.read(f);
    const end = text.lastIndexOf("</AssetDeclaration>");
    if (end < 0) return null;
    const root = text.indexOf("<AssetDeclaration");
    const first = root < 0 ? -1 : text.indexOf(">", root) + 1;
    const top = first > 0 && this.random() < 0.35;
    const at = top ? first : end;
    const types = [...new Set([...text.matchAll(/<(\w+)\s[^>]*\bid="/g)].map((m) => m[1]))];
    const type = types.length ? this.pick(types) : "GameObject";
    const roll = this.random();
    const ids = this.ids(files);
    const named = [...text.matchAll(/\s([\w:]+)="([A-Za-z_][\w]*)"/g)].filter((m) => !STRUCTURAL.test(m[1]))
      .map((m) => m[2]);
    const id = roll < 0.35 || !ids.length
      ? this.fresh("Added")
      : roll < 0.7 && named.length
      ? this.pick(named)
      : this.pick(ids);
    const ref = ids.length && this.random() < 0.5 ? ` inheritFrom="${this.pick(ids)}"` : "";
    const added = `\t<${type} id="${id}"${ref} />`;
    const next = top
      ? `${text.slice(0, at)}\n${added}${text.slice(at)}`
      : `${text.slice(0, at)}${added}\n${text.slice(at)}`;
    return { what: `add asset ${f}${top ? " (first)" : ""} <${type} id="${id}"${ref}>`, paths: [this.write(f, next)] };
  }

  /**
   * A top-level asset (a child of the root with an id) removed, references to it left as they are; any of
   * them (the includes and xi:includes after it move; one that holds an xi:include takes it along).
   */
  private removeAsset(files: readonly string[]): Edit | null {
    const f = this.pick(files.filter((x) => !this.broken.has(x)));
    if (!f) return null;
    const text = this.read(f);
    const spans = topLevelWithId(text);
    if (spans.length === 0) return null;
    const [start, end] = this.pick(spans);
    const next = text.slice(0, start) + text.slice(end);
    return { what: `remove asset ${f} ${text.slice(start, Math.min(end, start + 60))}…`, paths: [this.write(f, next)] };
  }

  /** A copy of a file under `Data/Copies/` (every id in it duplicated), included from a random file most times. */
  private copyFile(files: readonly string[]): Edit | null {
    const from = this.pick(files);
    const to = `Data/Copies/Copy ${++this.copies}.xml`;
    const paths = [this.write(to, this.read(from))];
    let what = `copy ${from} → ${to}`;
    if (this.random() < 0.7) {
      const inc = this.insertInclude(files, to, "all");
      if (inc) {
        paths.push(inc.path);
        what += `, included from ${inc.file}`;
      }
    }
    return { what, paths };
  }

  /**
   * A file deleted (copies more often than the mod's own files). Never an entry point the project layout
   * names (`Data/Mod.xml`, `Data/Static.xml`, map metadata): the layout is decided when the workspace
   * starts, so a live index keeps a vanished entry as a missing stream (a known limit, not the link's).
   */
  private deleteFile(files: readonly string[]): Edit | null {
    const copies = files.filter((f) => f.startsWith("Data/Copies/"));
    const candidates = copies.length && this.random() < 0.6 ? copies : files.filter((f) => !LAYOUT_FILES.test(f));
    if (candidates.length === 0) return null;
    const f = this.pick(candidates);
    rmSync(this.abs(f));
    this.broken.delete(f);
    return { what: `delete ${f}`, paths: [this.abs(f)] };
  }

  /** `<Include>` of `target` (relative to the including file) added to a random file that has an `<Includes>`. */
  private insertInclude(
    files: readonly string[],
    target: string,
    type: string,
  ): { file: string; path: string } | null {
    const hosts = files.filter((f) => f !== target && this.read(f).includes("</Includes>"));
    if (hosts.length === 0) return null;
    const file = this.pick(hosts);
    const source = relative(dirname(this.abs(file)), this.abs(target)).split("\\").join("/");
    const text = this.read(file);
    const next = text.replace("</Includes>", `\t<Include type="${type}" source="${source}" />\n\t</Includes>`);
    return { file, path: this.write(file, next) };
  }

  /** An include of an existing or a missing file, of a random type. */
  private addInclude(files: readonly string[]): Edit | null {
    const type = this.pick(["all", "all", "instance", "reference"]);
    const target = this.random() < 0.85 ? this.pick(files) : `Data/${this.fresh("NotThere")}.xml`;
    const inc = this.insertInclude(files, target, type);
    return inc ? { what: `include ${target} (${type}) from ${inc.file}`, paths: [inc.path] } : null;
  }

  /** One `<Include>` removed. */
  private removeInclude(files: readonly string[]): Edit | null {
    const hosts = files.filter((f) => /<Include\s[^>]*\/>/.test(this.read(f)));
    if (hosts.length === 0) return null;
    const f = this.pick(hosts);
    const text = this.read(f);
    const m = this.pick([...text.matchAll(/<Include\s[^>]*\/>/g)]);
    const next = text.slice(0, m.index!) + text.slice(m.index! + m[0].length);
    return { what: `remove ${m[0]} from ${f}`, paths: [this.write(f, next)] };
  }

  /** An XML error introduced: an unclosed element, a stray `&` or a cut-off end. */
  private breakXml(files: readonly string[]): Edit | null {
    const f = this.pick(files.filter((x) => !this.broken.has(x)));
    if (!f) return null;
    const text = this.read(f);
    const roll = this.random();
    let next: string;
    let how: string;
    if (roll < 0.4) {
      const tags = [...text.matchAll(/\/>/g)];
      if (tags.length === 0) return null;
      const m = this.pick(tags);
      next = text.slice(0, m.index!) + ">" + text.slice(m.index! + 2);
      how = "unclosed element";
    } else if (roll < 0.7) {
      const at = text.indexOf(">", Math.floor(this.random() * text.length));
      if (at < 0) return null;
      next = text.slice(0, at + 1) + " & " + text.slice(at + 1);
      how = "stray &";
    } else {
      next = text.slice(0, Math.floor(text.length * (0.3 + 0.6 * this.random())));
      how = "cut off";
    }
    this.broken.set(f, text);
    return { what: `break ${f} (${how})`, paths: [this.write(f, next)] };
  }

  /** A broken file given back its text from before the error. */
  private fixXml(): Edit | null {
    const list = [...this.broken.keys()].filter((f) => existsSync(this.abs(f)));
    if (list.length === 0) return null;
    const f = this.pick(list);
    const text = this.broken.get(f)!;
    this.broken.delete(f);
    return { what: `fix ${f}`, paths: [this.write(f, text)] };
  }

  /** A string-table entry's text changed, or an entry added (the mod's `.str` files, when it has any). */
  private stringEdit(): Edit | null {
    const tables = strFiles(this.dir);
    if (tables.length === 0) return null;
    const f = this.pick(tables);
    const text = this.read(f);
    const entries = [...text.matchAll(/^"([^"\n]*)"/gm)];
    let next: string;
    let what: string;
    if (entries.length && this.random() < 0.7) {
      const m = this.pick(entries);
      next = text.slice(0, m.index! + 1) + `Edited ${++this.made}` + text.slice(m.index! + 1 + m[1].length);
      what = `string ${f} "${m[1]}" edited`;
    } else {
      const key = `Name:${this.fresh("Str")}`;
      next = `${text}\n${key}\n"New text"\nEND\n`;
      what = `string ${f} ${key} added`;
    }
    return { what, paths: [this.write(f, next)] };
  }

  /** A file saved unchanged (a new stamp, the same bytes). */
  private touch(files: readonly string[]): Edit | null {
    const f = this.pick(files);
    return { what: `touch ${f}`, paths: [this.write(f, this.read(f))] };
  }
}
