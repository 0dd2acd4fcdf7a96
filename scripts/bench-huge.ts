// Memory and time for huge inputs (issue 15 item 4): generates two one-file mods (not committed; cached
// under /tmp) and runs the compiled binary on each as a user would, printing peak RSS, its ratio to the
// input size, wall time, diagnostics and the SARIF size:
//   assets    Data/Huge.xml, ≈200 MB: 1.27 M WeaponTemplates, each with a reference to the one before
//   unknown   Data/Mod.xml, ≈7 MB: one asset holding 10^6 elements the schema does not declare
//   links     Data/Mod.xml, ≈54 MB: one asset holding 10^6 weapon nuggets, every other one naming an
//             undefined `$NAME` or a missing weapon (diagnostics the link makes), with a stand-in SDK
//             (Schemas/xsd/CnC3Types.xsd only) so that they are reported one by one
// All use the sample mod's XSD set (copied in), so references are schema-typed and unknown elements are
// reported. Usage: bun scripts/bench-huge.ts [--cases assets,unknown,links] [--assets 1270000]
// [--unknown 1000000] [--links 1000000] [--out /tmp/ra3-huge] [--binary dist/ra3]
import { spawnSync } from "node:child_process";
import { closeSync, cpSync, existsSync, mkdirSync, mkdtempSync, openSync, rmSync, statSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
// The whole run, its save too: a cold run's save may otherwise end after the run (src/cli/detach.ts).
process.env.RA3_WAIT_FOR_SAVE = "1";

const root = join(import.meta.dirname, "..");
const { values } = parseArgs({
  options: {
    cases: { type: "string", default: "assets,unknown,links" },
    assets: { type: "string", default: "1270000" },
    unknown: { type: "string", default: "1000000" },
    links: { type: "string", default: "1000000" },
    out: { type: "string", default: join(tmpdir(), "ra3-huge") },
    binary: { type: "string", default: join(root, "dist", "ra3") },
  },
});
const binary = values.binary!;
if (!existsSync(binary)) {
  console.error(`bench-huge: ${binary} is missing; run npm run build first`);
  process.exit(2);
}
if (!existsSync("/usr/bin/time")) {
  console.error("bench-huge: needs GNU time at /usr/bin/time for peak RSS (apt-get install time)");
  process.exit(2);
}

const HEADER = '<?xml version="1.0" encoding="utf-8"?>\n<AssetDeclaration xmlns="uri:ea.com:eala:asset">\n';
const FOOTER = "</AssetDeclaration>\n";

/** Writes `parts()` to `path` in 1 MB chunks (the file never has to fit in memory as one string). */
function writeStreamed(path: string, parts: Iterable<string>): void {
  const fd = openSync(path, "w");
  try {
    let buf = "";
    for (const p of parts) {
      buf += p;
      if (buf.length >= 1 << 20) {
        writeSync(fd, buf);
        buf = "";
      }
    }
    writeSync(fd, buf);
  } finally {
    closeSync(fd);
  }
}

/** A one-file mod folder with the sample mod's schema; `body` makes Data/<name>. */
function makeMod(dir: string, name: string, body: () => Iterable<string>): void {
  if (existsSync(join(dir, "Data", name))) return;
  mkdirSync(join(dir, "Data"), { recursive: true });
  cpSync(join(root, "examples", "sample-mod", "Schemas"), join(dir, "Schemas"), { recursive: true });
  if (name !== "Mod.xml") {
    writeStreamed(join(dir, "Data", "Mod.xml"), [
      HEADER,
      `\t<Includes>\n\t\t<Include type="all" source="${name}" />\n\t</Includes>\n`,
      FOOTER,
    ]);
  }
  writeStreamed(join(dir, "Data", name), body());
}

function* assetsBody(n: number): Generator<string> {
  yield HEADER;
  const id = (i: number) => `HugeWeapon${String(i).padStart(7, "0")}`;
  for (let i = 0; i < n; i++) {
    yield `\t<WeaponTemplate id="${id(i)}" AttackRange="40">\n\t\t<Nuggets>\n\t\t\t<FireWeaponNugget WeaponName="${
      id(Math.max(0, i - 1))
    }" />\n\t\t</Nuggets>\n\t</WeaponTemplate>\n`;
  }
  yield FOOTER;
}

function* unknownBody(n: number): Generator<string> {
  yield HEADER;
  yield '<WeaponTemplate id="Unknowns" AttackRange="1">\n';
  for (let i = 0; i < n; i++) yield "<Zzz/>\n";
  yield "</WeaponTemplate>\n";
  yield FOOTER;
}

function* linksBody(n: number): Generator<string> {
  yield HEADER;
  yield '<WeaponTemplate id="Links" AttackRange="1">\n<Nuggets>\n';
  for (let i = 0; i < n; i++) {
    yield i % 2
      ? '<FireWeaponNugget WeaponName="MissingWeapon" />\n'
      : '<FireWeaponNugget WeaponName="$UNDEFINED" />\n';
  }
  yield "</Nuggets>\n</WeaponTemplate>\n";
  yield FOOTER;
}

/** A stand-in SDK (its marker file only): usable, so unresolved references and undefined defines are reported. */
function makeSdk(dir: string): string {
  const sdk = join(dir, "SDK");
  mkdirSync(join(sdk, "Schemas", "xsd"), { recursive: true });
  writeStreamed(join(sdk, "Schemas", "xsd", "CnC3Types.xsd"), []);
  return sdk;
}

interface Measured {
  readonly rssMb: number;
  readonly seconds: number;
  /** User + system CPU seconds. */
  readonly cpu: number;
  readonly stdout: Buffer;
}

/** One whole-process run under GNU time (fresh home each time: a cold index). */
function measure(args: string[], project: string, extra: readonly string[]): Measured {
  const home = mkdtempSync(join(tmpdir(), "ra3-huge-home-"));
  try {
    const r = spawnSync(
      "/usr/bin/time",
      ["-f", "%M %e %U %S", binary, ...args, "--project", project, "--home", home, "--no-progress", ...extra],
      { maxBuffer: 1 << 30 },
    );
    if (r.status !== 0 && r.status !== 1) throw new Error(`ra3 ${args.join(" ")} failed (${r.status}): ${r.stderr}`);
    const [kb, secs, user, sys] = r.stderr.toString().trim().split("\n").pop()!.split(" ").map(Number);
    return { rssMb: kb / 1024, seconds: secs, cpu: user + sys, stdout: r.stdout };
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

const mb = (n: number) => `${(n / 1e6).toFixed(1)} MB`;
const rows: string[] = [];
for (const c of values.cases!.split(",")) {
  const dir = join(values.out!, c);
  const file = c === "assets" ? "Huge.xml" : "Mod.xml";
  const n = Number(c === "assets" ? values.assets : c === "links" ? values.links : values.unknown);
  console.error(`bench-huge: ${c}: generating ${dir} (if missing)`);
  makeMod(dir, file, () => (c === "assets" ? assetsBody(n) : c === "links" ? linksBody(n) : unknownBody(n)));
  const extra = c === "links" ? ["--sdk", makeSdk(dir)] : [];
  const input = statSync(join(dir, "Data", file)).size;
  console.error(`bench-huge: ${c}: ra3 index`);
  const index = measure(["index", "--json"], dir, extra);
  const result = JSON.parse(index.stdout.toString()).result;
  console.error(`bench-huge: ${c}: ra3 check --format sarif`);
  const check = measure(["check", "--format", "sarif"], dir, extra);
  const sarif = JSON.parse(check.stdout.toString());
  const d = result.diagnostics;
  rows.push(
    `| ${c} | ${mb(input)} | ${result.files.total} | ${
      Object.values<number>(result.assetsByType).reduce((a, n) => a + n, 0).toLocaleString("en")
    } | ${(d.errors + d.warnings + d.information).toLocaleString("en")} | ${Math.round(index.rssMb)} MB | ${
      (index.rssMb * 1048576 / input).toFixed(1)
    }× | ${index.seconds.toFixed(1)} s (CPU ${index.cpu.toFixed(1)} s) | ${Math.round(check.rssMb)} MB, ${
      check.seconds.toFixed(1)
    } s (CPU ${check.cpu.toFixed(1)} s) | ${sarif.runs[0].results.length.toLocaleString("en")} results, ${
      mb(check.stdout.length)
    } |`,
  );
}
console.log(`binary ${binary}; cold runs with a fresh home; peak RSS from GNU time\n`);
console.log(
  "| case | input | files | assets | diagnostics | `ra3 index` peak RSS | RSS / input | time (CPU) | `ra3 check --format sarif` peak RSS, time (CPU) | SARIF |",
);
console.log("|---|---|---|---|---|---|---|---|---|---|");
for (const r of rows) console.log(r);
