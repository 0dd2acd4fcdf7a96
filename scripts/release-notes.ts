// Prints the CHANGELOG.md section of one version: the release notes the release workflow publishes.
// Exits 1 with a clear error when the version has no section (tagging before writing the entry).
// Usage: bun scripts/release-notes.ts v0.1.0
import { readFileSync } from "node:fs";
import { join } from "node:path";

/**
 * The body of `## [version]` in a Keep-a-Changelog text (without its heading and link lines), or null.
 * @example releaseNotes("## [1.0.0] - 2027-01-01\n### Added\n- x\n", "v1.0.0") // "### Added\n- x"
 */
export function releaseNotes(changelog: string, tag: string): string | null {
  const version = tag.replace(/^v/, "");
  const lines = changelog.replace(/\r\n/g, "\n").split("\n");
  const start = lines.findIndex((l) => l.startsWith(`## [${version}]`));
  if (start < 0) return null;
  let end = lines.findIndex((l, i) => i > start && /^## \[/.test(l));
  if (end < 0) end = lines.length;
  const body = lines.slice(start + 1, end).filter((l) => !/^\[[^\]]+\]: /.test(l));
  const text = body.join("\n").trim();
  return text === "" ? null : text;
}

if (import.meta.main) {
  const tag = process.argv[2];
  if (!tag) {
    console.error("usage: bun scripts/release-notes.ts vX.Y.Z");
    process.exit(2);
  }
  const notes = releaseNotes(readFileSync(join(import.meta.dirname, "..", "CHANGELOG.md"), "utf8"), tag);
  if (notes === null) {
    console.error(`release-notes: CHANGELOG.md has no "## [${tag.replace(/^v/, "")}]" section with text`);
    process.exit(1);
  }
  console.log(notes);
}
