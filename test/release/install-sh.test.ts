// install.sh end to end against a fake release served from loopback: the real dist/release/ when it has
// been built (npm run release:assets; .ci/run builds it before the tests), else the same layout made
// from dist/ra3. A checksum mismatch, a failed download or a missing SHA256SUMS line exit 1 and leave
// nothing installed; success installs the binary at setup's stable path and runs `ra3 setup --dry-run`.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { spawn } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { sha256File, sha256sums } from "../../scripts/release-assets.ts";
import { treeOf } from "../../scripts/smoke.ts";
import { TOOL_VERSION } from "../../src/version.ts";
import { tempDirs } from "../temp-dirs.ts";

const TMP = tempDirs();

const ROOT = join(import.meta.dirname, "..", "..");
const SCRIPT = join(ROOT, "install.sh");
const SAMPLE = join(ROOT, "examples", "sample-mod");
const RELEASE = join(ROOT, "dist", "release");
const ASSET = "ra3-linux-x64";
const TIMEOUT = 60_000;

const realRelease = existsSync(join(RELEASE, "SHA256SUMS")) && existsSync(join(RELEASE, ASSET));
// install.sh is for Linux and macOS (install.ps1 runs in the hosted Windows job: scripts/install-smoke.ts).
const POSIX = process.platform !== "win32";
const available = POSIX && (realRelease || existsSync(join(ROOT, "dist", "ra3")));

/** Folders served by the loopback server: /good (the release), /tampered, /incomplete. */
const served = TMP.make("ra3-release-");
let server: ReturnType<typeof Bun.serve> | null = null;
const requests: string[] = [];

function folder(name: string): string {
  const d = join(served, name);
  mkdirSync(d, { recursive: true });
  return d;
}

beforeAll(async () => {
  if (!available) return;
  const good = folder("good");
  const source = realRelease ? join(RELEASE, ASSET) : join(ROOT, "dist", "ra3");
  copyFileSync(source, join(good, ASSET));
  writeFileSync(
    join(good, "SHA256SUMS"),
    realRelease ? readFileSync(join(RELEASE, "SHA256SUMS")) : await sha256sums(good, [ASSET]),
  );
  // The asset changed after SHA256SUMS was written (one byte at the end).
  const tampered = folder("tampered");
  copyFileSync(join(good, "SHA256SUMS"), join(tampered, "SHA256SUMS"));
  const bytes = readFileSync(join(good, ASSET));
  bytes[bytes.length - 1] ^= 0xff;
  writeFileSync(join(tampered, ASSET), bytes);
  // SHA256SUMS without this platform's line; and a release without the asset at all.
  const incomplete = folder("incomplete");
  copyFileSync(join(good, ASSET), join(incomplete, ASSET));
  writeFileSync(join(incomplete, "SHA256SUMS"), `${"0".repeat(64)}  ra3-windows-x64.exe\n`);
  writeFileSync(join(folder("missing"), "SHA256SUMS"), readFileSync(join(good, "SHA256SUMS")));
  server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch(req) {
      const path = decodeURIComponent(new URL(req.url).pathname);
      requests.push(path);
      const file = join(served, path);
      if (path.includes("..") || !existsSync(file)) return new Response("not found", { status: 404 });
      return new Response(Bun.file(file));
    },
  });
});
afterAll(() => server?.stop(true));

interface Installed {
  readonly status: number | null;
  readonly out: string;
  readonly err: string;
  readonly home: string;
}

/** Runs install.sh with /bin/sh in a fresh user home, downloading from `/<release>` on the server. */
function install(
  release: string,
  env: Record<string, string> = {},
  args: string[] = [],
  home?: string,
): Promise<Installed> {
  const user = home ?? TMP.make("ra3-install-home-");
  const base = `http://127.0.0.1:${server!.port}/${release}`;
  const childEnv: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: user, RA3_DOWNLOAD_BASE: base, ...env };
  return new Promise((resolve) => {
    const child = spawn("/bin/sh", [SCRIPT, ...args], {
      cwd: SAMPLE,
      env: childEnv,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    let err = "";
    child.stdout.on("data", (c: Buffer) => (out += c));
    child.stderr.on("data", (c: Buffer) => (err += c));
    child.on("close", (status) => resolve({ status, out, err, home: user }));
  });
}

describe.skipIf(!available)(
  `install.sh against a loopback release (${realRelease ? "dist/release" : "made from dist/ra3"})`,
  () => {
    test("success: the checked binary at <home>/.ra3modxml/bin/ra3, then ra3 setup --dry-run", async () => {
      requests.length = 0;
      const r = await install("good", {}, ["--dry-run", "--sdk", ""]);
      expect(r.err).toBe("");
      expect(r.status).toBe(0);
      const target = join(r.home, ".ra3modxml", "bin", "ra3");
      expect(await sha256File(target)).toBe(await sha256File(join(served, "good", ASSET)));
      expect(r.out).toContain(`install.sh: installed ra3 ${TOOL_VERSION} (`);
      expect(r.out).toContain(`at ${target} (SHA-256 checked)`);
      // setup ran from the installed binary, as a dry run: it wrote nothing more.
      expect(r.out).toContain("ra3 setup ");
      expect(r.out).toContain("dry run: nothing will be written");
      expect(treeOf(r.home)).toEqual([".ra3modxml", ".ra3modxml/bin", ".ra3modxml/bin/ra3"]);
      expect(requests).toEqual(["/good/SHA256SUMS", `/good/${ASSET}`]);
    }, TIMEOUT);

    test("checksum mismatch: refused with a clear error, nothing installed", async () => {
      const r = await install("tampered");
      expect(r.status).toBe(1);
      expect(r.err).toMatch(
        new RegExp(
          `^install\\.sh: checksum mismatch for ${ASSET}: SHA256SUMS says [0-9a-f]{64}, the download is [0-9a-f]{64}; nothing was installed\\n$`,
        ),
      );
      expect(treeOf(r.home)).toEqual([]);
    }, TIMEOUT);

    test("checksum mismatch over an earlier install: the old binary stays as it was", async () => {
      const home = TMP.make("ra3-install-home-");
      mkdirSync(join(home, ".ra3modxml", "bin"), { recursive: true });
      writeFileSync(join(home, ".ra3modxml", "bin", "ra3"), "#!/bin/sh\necho old ra3\n", { mode: 0o755 });
      const r = await install("tampered", {}, [], home);
      expect(r.status).toBe(1);
      expect(readFileSync(join(home, ".ra3modxml", "bin", "ra3"), "utf8")).toBe("#!/bin/sh\necho old ra3\n");
      expect(treeOf(home)).toEqual([".ra3modxml", ".ra3modxml/bin", ".ra3modxml/bin/ra3"]);
    }, TIMEOUT);

    test("a failed download (404) or no SHA256SUMS line for this platform: exit 1, nothing installed", async () => {
      const missing = await install("missing");
      expect(missing.status).toBe(1);
      // curl says why first ("The requested URL returned error: 404").
      expect(missing.err).toEndWith(
        `install.sh: could not download http://127.0.0.1:${server!.port}/missing/${ASSET}; nothing was installed\n`,
      );
      expect(treeOf(missing.home)).toEqual([]);
      const nowhere = await install("no-such-release");
      expect(nowhere.err).toContain("could not download http://127.0.0.1:");
      expect(nowhere.err).toContain("/no-such-release/SHA256SUMS; nothing was installed");
      const incomplete = await install("incomplete");
      expect([incomplete.status, incomplete.err]).toEqual([
        1,
        `install.sh: SHA256SUMS from http://127.0.0.1:${
          server!.port
        }/incomplete has no line for ${ASSET}; nothing was installed\n`,
      ]);
      expect(treeOf(incomplete.home)).toEqual([]);
    }, TIMEOUT);

    test("RA3_INSTALL_DIR and RA3_NO_SETUP=1: installs there and does not run setup", async () => {
      const dir = join(TMP.make("ra3-install-dir-"), "tools");
      const r = await install("good", { RA3_INSTALL_DIR: dir, RA3_NO_SETUP: "1" });
      expect(r.status).toBe(0);
      expect(existsSync(join(dir, "ra3"))).toBe(true);
      expect(r.out).toContain(`RA3_NO_SETUP=1: run ${join(dir, "ra3")} setup when you are ready`);
      expect(r.out).not.toContain(`ra3 setup ${TOOL_VERSION}`);
      expect(treeOf(r.home)).toEqual([]);
    }, TIMEOUT);

    test("RA3_HOME moves the stable path like it moves setup's", async () => {
      const state = join(TMP.make("ra3-install-state-"), "state");
      const r = await install("good", { RA3_HOME: state, RA3_NO_SETUP: "1" });
      expect([r.status, existsSync(join(state, "bin", "ra3"))]).toEqual([0, true]);
    }, TIMEOUT);
  },
);

describe.skipIf(!POSIX)("install.sh without a download folder", () => {
  test("an unstamped copy and no RA3_DOWNLOAD_BASE: a clear error, nothing downloaded", async () => {
    const home = TMP.make("ra3-install-home-");
    const r = await new Promise<{ status: number | null; err: string }>((resolve) => {
      const child = spawn("/bin/sh", [SCRIPT], {
        env: { PATH: process.env.PATH, HOME: home },
        stdio: ["ignore", "ignore", "pipe"],
      });
      let err = "";
      child.stderr.on("data", (c: Buffer) => (err += c));
      child.on("close", (status) => resolve({ status, err }));
    });
    expect(r.status).toBe(1);
    expect(r.err).toStartWith(
      "install.sh: RA3_DOWNLOAD_BASE is not set, and this copy of install.sh did not come from a release",
    );
    expect(treeOf(home)).toEqual([]);
  });
});
