// Prints the release notes the release workflow publishes: the CHANGELOG.md section of one version, then
// how to install it (the one-line installers with this repository's URLs). Exits 1 with a clear error
// when the version has no section (tagging before writing the entry).
// Usage: bun scripts/release-notes.ts v0.1.0 [--repository OWNER/NAME]
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";

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

/** The "Install" section of a release's notes, for the release `tag` of `repository` (OWNER/NAME). */
export function installSection(repository: string, tag: string): string {
  const download = `https://github.com/${repository}/releases/download/${tag}`;
  return [
    "## Install",
    "",
    "- **Windows**: download `ra3-windows-x64.exe` and double-click it (it sets up your agents), or in PowerShell:",
    `  \`irm ${download}/install.ps1 | iex\``,
    `- **macOS, Linux**: \`curl -fsSL ${download}/install.sh | sh\``,
    "- **Claude Desktop**: download `ra3.mcpb`, double-click it and pick your mod folder.",
    "",
    "The installers check the download against `SHA256SUMS` and then run `ra3 setup`.",
  ].join("\n");
}

if (import.meta.main) {
  const { values, positionals } = parseArgs({ options: { repository: { type: "string" } }, allowPositionals: true });
  const tag = positionals[0];
  if (!tag) {
    console.error("usage: bun scripts/release-notes.ts vX.Y.Z [--repository OWNER/NAME]");
    process.exit(2);
  }
  const notes = releaseNotes(readFileSync(join(import.meta.dirname, "..", "CHANGELOG.md"), "utf8"), tag);
  if (notes === null) {
    console.error(`release-notes: CHANGELOG.md has no "## [${tag.replace(/^v/, "")}]" section with text`);
    process.exit(1);
  }
  console.log(values.repository ? `${notes}\n\n${installSection(values.repository, tag)}` : notes);
}
