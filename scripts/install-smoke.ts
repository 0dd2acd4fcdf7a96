// Runs this OS's installer (install.ps1 on Windows, install.sh elsewhere) against a fake release served on
// loopback, made from one binary: success installs the checked binary and runs `ra3 setup --dry-run`;
// a tampered download is refused and installs nothing. Prints a table. The hosted Windows CI job runs it
// (PowerShell is not available here, so install.ps1 is only ever run there); test/release/install-sh.test.ts
// covers install.sh in depth.
// Usage: bun scripts/install-smoke.ts --binary PATH
import { spawn } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { RELEASE_TARGETS } from "./build.ts";
import { sha256File, sha256sums } from "./release-assets.ts";
import { type CheckRow, printTable, ROOT, SAMPLE, treeOf } from "./smoke.ts";

const windows = process.platform === "win32";

/** The release asset name of this machine's binary. */
function assetName(): string {
  const os = windows ? "windows" : process.platform === "darwin" ? "darwin" : "linux";
  const cpu = process.arch === "arm64" ? "arm64" : "x64";
  const t = RELEASE_TARGETS.find((r) => r.asset === `ra3-${os}-${cpu}${windows ? ".exe" : ""}`);
  if (!t) throw new Error(`no release target for ${os} ${cpu}`);
  return t.asset;
}

/** Runs the installer with `env` in a fresh user home; resolves with its exit status and output. */
function runInstaller(env: NodeJS.ProcessEnv, home: string): Promise<{ status: number | null; out: string }> {
  const [file, args] = windows
    ? ["powershell", [
      "-NoProfile",
      "-ExecutionPolicy",
      "Bypass",
      "-File",
      join(ROOT, "install.ps1"),
      "--dry-run",
      "--sdk",
      "",
    ]]
    : ["/bin/sh", [join(ROOT, "install.sh"), "--dry-run", "--sdk", ""]];
  const userEnv = windows ? { USERPROFILE: home, APPDATA: join(home, "AppData", "Roaming") } : { HOME: home };
  return new Promise((resolve) => {
    const child = spawn(file, args, {
      cwd: SAMPLE,
      env: { ...process.env, ...userEnv, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    child.stdout.on("data", (c: Buffer) => (out += c));
    child.stderr.on("data", (c: Buffer) => (out += c));
    child.on("close", (status) => resolve({ status, out }));
  });
}

const { values } = parseArgs({ options: { binary: { type: "string" } } });
if (!values.binary || !existsSync(values.binary)) {
  console.error("usage: bun scripts/install-smoke.ts --binary PATH");
  process.exit(2);
}
const asset = assetName();
const served = mkdtempSync(join(tmpdir(), "ra3-install-smoke-"));
for (const name of ["good", "tampered"]) mkdirSync(join(served, name));
copyFileSync(values.binary, join(served, "good", asset));
writeFileSync(join(served, "good", "SHA256SUMS"), await sha256sums(join(served, "good"), [asset]));
const bytes = readFileSync(join(served, "good", asset));
bytes[bytes.length - 1] ^= 0xff;
writeFileSync(join(served, "tampered", asset), bytes);
copyFileSync(join(served, "good", "SHA256SUMS"), join(served, "tampered", "SHA256SUMS"));
const server = Bun.serve({
  hostname: "127.0.0.1",
  port: 0,
  fetch(req) {
    const file = join(served, decodeURIComponent(new URL(req.url).pathname));
    return existsSync(file) ? new Response(Bun.file(file)) : new Response("not found", { status: 404 });
  },
});
const base = (name: string) => `http://127.0.0.1:${server.port}/${name}`;
const rows: CheckRow[] = [];
const homes: string[] = [];
const installer = windows ? "install.ps1" : "install.sh";

{
  const started = performance.now();
  const home = mkdtempSync(join(tmpdir(), "ra3-install-user-"));
  homes.push(home);
  const r = await runInstaller({ RA3_DOWNLOAD_BASE: base("good") }, home);
  const target = join(home, ".ra3modxml", "bin", windows ? "ra3.exe" : "ra3");
  const same = existsSync(target) && (await sha256File(target)) === (await sha256File(join(served, "good", asset)));
  const ok = r.status === 0 && same && r.out.includes("dry run: nothing will be written");
  rows.push({
    check: `${installer}: install, then ra3 setup --dry-run`,
    ok,
    detail: ok
      ? `${target} (SHA-256 equal), setup ran as a dry run`
      : `exit ${r.status}; installed ${same}; ${r.out.slice(-400)}`,
    ms: performance.now() - started,
  });
}
{
  const started = performance.now();
  const home = mkdtempSync(join(tmpdir(), "ra3-install-user-"));
  homes.push(home);
  const r = await runInstaller({ RA3_DOWNLOAD_BASE: base("tampered") }, home);
  const left = treeOf(home);
  const ok = r.status !== 0 && r.out.includes(`checksum mismatch for ${asset}`) && left.length === 0;
  rows.push({
    check: `${installer}: a tampered download`,
    ok,
    detail: ok
      ? "refused (checksum mismatch), nothing installed"
      : `exit ${r.status}; left ${left.join(", ")}; ${r.out.slice(-400)}`,
    ms: performance.now() - started,
  });
}
server.stop(true);
for (const d of [served, ...homes]) rmSync(d, { recursive: true, force: true });
process.exit(printTable(`${installer} against a loopback release of ${values.binary}`, rows) ? 0 : 1);
