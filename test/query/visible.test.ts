// Hidden characters from a mod, made visible in text output.
import { describe, expect, test } from "bun:test";
import { visible, visibleLines } from "../../src/query/visible.ts";

describe("visible", () => {
  test("line breaks, controls, bidi controls and invisible characters are escaped; the rest is kept", () => {
    expect(visible("Tank\nEvil\r\u001B[31mred\u0000")).toBe("Tank\\nEvil\\r\\u{001B}[31mred\\u{0000}");
    expect(visible("report\u202Efdp.exe \u2066x\u2069 a\u200Bb \uFEFF\u2028\u0085\u061C")).toBe(
      "report\\u{202E}fdp.exe \\u{2066}x\\u{2069} a\\u{200B}b \\u{FEFF}\\u{2028}\\u{0085}\\u{061C}",
    );
    expect(visible("Data\\Units\\Tank.xml\tÄ→ 坦克")).toBe("Data\\Units\\Tank.xml\tÄ→ 坦克");
  });

  test("escaping twice changes nothing more", () => {
    const once = visible("a\nb\u202Ec");
    expect(visible(once)).toBe(once);
  });
});

describe("visibleLines", () => {
  test("keeps the lines (CRLF becomes LF), escapes everything else hidden", () => {
    expect(visibleLines('<A id="x\u202Ey"/>\r\n\t<B/>\n\u001B')).toBe('<A id="x\\u{202E}y"/>\n\t<B/>\n\\u{001B}');
  });
});
