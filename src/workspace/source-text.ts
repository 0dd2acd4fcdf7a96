/**
 * Reads a mod file's text for showing it (`get_definition`, the `ra3://file/` resource). The one place
 * outside the index driver that reads mod files; queries get the text passed in and stay I/O-free.
 * Decoding is the indexer's own (BOM, UTF-16, windows-1252 fallback), so line numbers agree with the index.
 * The confinement is checked again at the read (a file indexed earlier may have been replaced by a link
 * leading outside the allowed roots since).
 */
import { readFileSync, statSync } from "node:fs";
import { Confinement } from "../project/confinement.ts";
import { NodeDirectoryLister } from "../project/fs-port.ts";
import type { DisplayRoots } from "../project/paths.ts";
import { decodeXml } from "../xml/decode.ts";

/** Files larger than this are not read for display (a multi-megabyte `.w3x` mesh is never worth it). */
const MAX_SOURCE_BYTES = 64 * 1024 * 1024;

export type SourceText = { readonly text: string } | { readonly error: string };

/**
 * The decoded text of `path`, or a one-sentence reason it could not be read. A path that does not lie
 * (really, links resolved) inside the allowed roots of `roots` is not read; it gets the reason a missing
 * file gets.
 * @example readSourceText("/mods/x/Data/Mod.xml", { projectDir: "/mods/x", sdkDir: null }) // { text: "<?xml version=…" }
 */
export function readSourceText(path: string, roots: DisplayRoots): SourceText {
  if (!new Confinement(roots, new NodeDirectoryLister()).admitsNow(path)) {
    // One reason for both: telling them apart would say whether something exists outside the roots.
    return { error: `could not read ${path}: it no longer exists, or it leads outside the folders ra3 reads` };
  }
  try {
    const st = statSync(path);
    if (!st.isFile()) return { error: `${path} is not a file` };
    if (st.size > MAX_SOURCE_BYTES) {
      return { error: `${path} is ${Math.round(st.size / 1048576)} MB, too large to show` };
    }
    return { text: decodeXml(readFileSync(path)).text };
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const why = code === "ENOENT"
      ? "it no longer exists"
      : code === "EACCES" || code === "EPERM"
      ? "permission denied"
      : (e as Error).message;
    return { error: `could not read ${path}: ${why}` };
  }
}
