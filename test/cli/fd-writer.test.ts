// The standard streams written in place (pipes, sockets, files) or through Node's stream (a console),
// through an injected descriptor, and once for real through a pipe.
import { describe, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { runsUntilStopped } from "../../src/cli/args.ts";
import { fdIsTTY, type FdPort, fdWriter } from "../../src/cli/fd-writer.ts";
import { progressBar } from "../../src/cli/progress.ts";
import { tempDirs } from "../temp-dirs.ts";

const TMP = tempDirs();

/** A descriptor of `kind` that takes at most `chunk` bytes a call; `fail` throws the given codes in turn. */
function port(kind: ReturnType<FdPort["kind"]>, chunk = 1 << 20, fail: (string | null)[] = []) {
  const written: number[] = [];
  let kinds = 0;
  const p: FdPort & { written: number[]; kinds: () => number } = {
    written,
    kinds: () => kinds,
    kind() {
      kinds++;
      return kind;
    },
    write(_fd, bytes, offset) {
      const code = fail.shift();
      if (code) throw Object.assign(new Error(code), { code });
      const n = Math.min(chunk, bytes.length - offset);
      for (let i = 0; i < n; i++) written.push(bytes[offset + i]);
      return n;
    },
  };
  return p;
}

/** A stream sink that records what reaches it, and how often it was made. */
function sink() {
  const chunks: string[] = [];
  let made = 0;
  return {
    chunks,
    made: () => made,
    stream: () => {
      made++;
      return (c: string | Uint8Array) => chunks.push(typeof c === "string" ? c : Buffer.from(c).toString("utf8"));
    },
  };
}

const text = (bytes: number[]) => Buffer.from(bytes).toString("utf8");

describe("fdWriter", () => {
  test("a pipe is written in place, in order, through short writes, as UTF-8, without making the stream", () => {
    const p = port("pipe", 3);
    const s = sink();
    const w = fdWriter(1, s.stream, p);
    w("Athena Cannon ≈ ");
    w("");
    w("Weapon\n");
    expect(text(p.written)).toBe("Athena Cannon ≈ Weapon\n");
    expect(s.made()).toBe(0);
    expect(p.kinds()).toBe(1); // the descriptor's kind is read once
  });

  test("a file is written in place too", () => {
    const p = port("file");
    const s = sink();
    fdWriter(2, s.stream, p)("ra3: done\n");
    expect(text(p.written)).toBe("ra3: done\n");
    expect(s.made()).toBe(0);
  });

  test("a console, or a descriptor whose kind cannot be told, goes through the stream, made once", () => {
    for (const kind of ["console", null] as const) {
      const p = port(kind);
      const s = sink();
      const w = fdWriter(1, s.stream, p);
      w("a");
      w("b");
      expect(s.chunks).toEqual(["a", "b"]);
      expect(s.made()).toBe(1);
      expect(p.written).toEqual([]);
    }
  });

  test("a full non-blocking pipe hands the rest and everything after it to the stream, in order", () => {
    const p = port("pipe", 4, [null, "EAGAIN"]);
    const s = sink();
    const w = fdWriter(1, s.stream, p);
    w("0123456789");
    w("tail\n");
    expect(text(p.written)).toBe("0123");
    expect(s.chunks).toEqual(["456789", "tail\n"]);
    expect(s.made()).toBe(1);
  });

  test("a reader that went away (EPIPE) drops what follows without throwing", () => {
    const p = port("pipe", 2, [null, "EPIPE"]);
    const s = sink();
    const w = fdWriter(1, s.stream, p);
    expect(() => w("abcdef")).not.toThrow();
    w("more");
    expect(text(p.written)).toBe("ab");
    expect(s.chunks).toEqual([]);
  });
});

describe("fdIsTTY", () => {
  test("a pipe or a file is not a terminal, told without asking the terminal module", () => {
    let asked = 0;
    const isatty = () => (asked++, true);
    expect(fdIsTTY(2, isatty, port("pipe"))).toBe(false);
    expect(fdIsTTY(2, isatty, port("file"))).toBe(false);
    expect(asked).toBe(0);
  });

  test("a character device is asked (a terminal, or /dev/null, which is not one)", () => {
    expect(fdIsTTY(2, () => true, port("console"))).toBe(true);
    expect(fdIsTTY(2, () => false, port("console"))).toBe(false);
    expect(fdIsTTY(2, () => false, port(null))).toBe(false);
  });
});

describe("runsUntilStopped: which runs keep Node's streams", () => {
  test("the MCP server and --watch last; a query, an index, --help and a usage error answer and exit", () => {
    expect(runsUntilStopped(["mcp"])).toBe(true);
    expect(runsUntilStopped(["mcp", "--project", "C:\\Mods\\My Mod"])).toBe(true);
    expect(runsUntilStopped(["index", "--watch"])).toBe(true);
    expect(runsUntilStopped(["index"])).toBe(false);
    expect(runsUntilStopped(["find", "AlliedAntiVehicleVehicleTech1"])).toBe(false);
    expect(runsUntilStopped(["--help"])).toBe(false);
    expect(runsUntilStopped(["mcp", "--no-such-flag"])).toBe(false);
  });
});

describe("processIo through a real pipe", () => {
  test("8 MB written to a slow reader arrive whole and in order; a reader that left early is not an error", () => {
    const dir = TMP.make("fd-writer-");
    const script = join(dir, "write.ts");
    const io = JSON.stringify(join(import.meta.dir, "../../src/cli/io.ts"));
    writeFileSync(
      script,
      `import { processIo } from ${io};\nconst io = processIo({ inPlace: true });\n` +
        `for (let i = 0; i < 8192; i++) io.out(String(i).padStart(8, "0") + "x".repeat(1015) + "\\n");\n` +
        `io.err("tty " + io.errIsTTY + "\\n");\n`,
    );
    // A shell pipe into a reader that sleeps first: the writer blocks until there is room.
    const whole = spawnSync("sh", ["-c", `"${process.execPath}" "${script}" | (sleep 0.3; cat)`], {
      encoding: "utf8",
      maxBuffer: 64 << 20,
    });
    expect(whole.status).toBe(0);
    const lines = whole.stdout.split("\n");
    expect(lines.length).toBe(8193);
    expect(lines[0].slice(0, 8)).toBe("00000000");
    expect(lines[8191].slice(0, 8)).toBe("00008191");
    expect(whole.stdout.length).toBe(8192 * 1024);
    expect(whole.stderr).toBe("tty false\n");
    // `| head -c 10`: the reader leaves after 10 bytes; the writer ends quietly with status 0.
    const early = spawnSync("sh", ["-c", `"${process.execPath}" "${script}" | head -c 10`], { encoding: "utf8" });
    expect(early.stdout).toBe("00000000xx");
    expect(early.stderr).toBe("tty false\n");
  });
});

describe("progressBar", () => {
  test("disabled, it writes nothing", () => {
    const out: string[] = [];
    const bar = progressBar((t) => out.push(t), false, () => 10_000);
    bar.update("parse", 1, 2);
    bar.finish();
    expect(out).toEqual([]);
  });

  test("shown after half a second, redrawn at most every 100 ms (and at the end), cleared once", () => {
    const out: string[] = [];
    let clock = 1_000;
    const bar = progressBar((t) => out.push(t), true, () => clock);
    clock = 1_400;
    bar.update("parse", 1, 4); // under half a second: nothing
    clock = 1_500;
    bar.update("parse", 2, 4);
    clock = 1_550;
    bar.update("parse", 3, 4); // 50 ms later: throttled
    bar.update("parse", 4, 4); // the end is always drawn
    bar.finish();
    bar.finish();
    expect(out).toEqual([
      "\rparse      [############------------] 2/4\u001b[K",
      "\rparse      [########################] 4/4\u001b[K",
      "\r\u001b[K",
    ]);
  });

  test("a run that never showed the bar does not clear the line", () => {
    const out: string[] = [];
    const bar = progressBar((t) => out.push(t), true, () => 0);
    bar.update("parse", 1, 2);
    bar.finish();
    expect(out).toEqual([]);
  });
});
