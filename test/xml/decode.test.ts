import { describe, expect, test } from "bun:test";
import {
  declaredSingleByteEncoding,
  decodeSingleByte,
  decodeXml,
  firstInvalidUtf8,
  sniffBinary,
  sniffEncoding,
} from "../../src/xml/decode.ts";

const utf8 = (s: string): Uint8Array => new TextEncoder().encode(s);
const bytes = (...parts: (string | number[])[]): Uint8Array => {
  const out: number[] = [];
  for (const p of parts) {
    if (typeof p === "string") { for (let i = 0; i < p.length; i++) out.push(p.charCodeAt(i)); }
    else out.push(...p);
  }
  return new Uint8Array(out);
};
const utf16 = (s: string, le: boolean, bom: boolean): Uint8Array => {
  const out: number[] = bom ? (le ? [0xff, 0xfe] : [0xfe, 0xff]) : [];
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (le) out.push(c & 0xff, c >> 8);
    else out.push(c >> 8, c & 0xff);
  }
  return new Uint8Array(out);
};
const BOM = [0xef, 0xbb, 0xbf];

describe("decodeXml", () => {
  test("plain UTF-8 without BOM", () => {
    expect(decodeXml(utf8("<r>é</r>"))).toEqual({ text: "<r>é</r>", encoding: "utf-8", bomBytes: 0, warnings: [] });
  });

  test("UTF-8 BOM is removed and counted", () => {
    expect(decodeXml(bytes(BOM, "<r/>"))).toEqual({ text: "<r/>", encoding: "utf-8", bomBytes: 3, warnings: [] });
  });

  test("empty file", () => {
    expect(decodeXml(new Uint8Array(0))).toEqual({ text: "", encoding: "utf-8", bomBytes: 0, warnings: [] });
  });

  test("UTF-16 LE and BE with BOM", () => {
    expect(decodeXml(utf16("<r>é\ud83d\ude00</r>", true, true))).toEqual({
      text: "<r>é\ud83d\ude00</r>",
      encoding: "utf-16le",
      bomBytes: 2,
      warnings: [],
    });
    expect(decodeXml(utf16("<r/>", false, true))).toEqual({
      text: "<r/>",
      encoding: "utf-16be",
      bomBytes: 2,
      warnings: [],
    });
  });

  test("BOM-less UTF-16 detected from the '<' + NUL pattern (also after leading whitespace)", () => {
    expect(decodeXml(utf16('<?xml version="1.0" encoding="utf-16"?><r/>', true, false))).toEqual({
      text: '<?xml version="1.0" encoding="utf-16"?><r/>',
      encoding: "utf-16le",
      bomBytes: 0,
      warnings: [],
    });
    expect(decodeXml(utf16("\n<r/>", false, false))).toEqual({
      text: "\n<r/>",
      encoding: "utf-16be",
      bomBytes: 0,
      warnings: [],
    });
  });

  test("UTF-16 file declaring utf-8 decodes as UTF-16 with a warning", () => {
    expect(decodeXml(utf16('<?xml version="1.0" encoding="utf-8"?><r/>', true, true)).warnings).toEqual([
      {
        message: "declared encoding 'utf-8' does not match the file's bytes; decoded as UTF-16 little-endian",
        offset: 30,
        line: 1,
        column: 31,
      },
    ]);
  });

  test("UTF-16 with an odd number of bytes: last byte ignored, with a warning", () => {
    const odd = new Uint8Array([...utf16("<r/>", true, true), 0x41]);
    expect(decodeXml(odd)).toEqual({
      text: "<r/>",
      encoding: "utf-16le",
      bomBytes: 2,
      warnings: [{
        message: "UTF-16 little-endian data has an odd number of bytes; the last byte was ignored",
        offset: 4,
        line: 1,
        column: 5,
      }],
    });
  });

  test("declared windows-1252 uses the 1252 table for 0x80–0x9F", () => {
    const d = decodeXml(
      bytes('<?xml version="1.0" encoding="Windows-1252"?><r>', [0x80, 0x93, 0x94, 0x9f, 0xe9, 0x81], "</r>"),
    );
    expect(d).toEqual({
      text: '<?xml version="1.0" encoding="Windows-1252"?><r>\u20ac\u201c\u201d\u0178\u00e9\u0081</r>',
      encoding: "windows-1252",
      bomBytes: 0,
      warnings: [],
    });
  });

  test("declared iso-8859-1 / latin1 maps each byte to the same code point", () => {
    const d = decodeXml(bytes("<?xml version='1.0' encoding='latin1'?><r>", [0x80, 0xe9], "</r>"));
    expect(d.encoding).toBe("iso-8859-1");
    expect(d.text).toBe("<?xml version='1.0' encoding='latin1'?><r>\u0080\u00e9</r>");
    expect(d.warnings).toEqual([]);
  });

  test("declared us-ascii with only ASCII bytes", () => {
    const d = decodeXml(utf8('<?xml version="1.0" encoding="us-ascii"?><r/>'));
    expect([d.encoding, d.warnings]).toEqual(["us-ascii", []]);
  });

  test("declared us-ascii with valid UTF-8 bytes decodes as UTF-8 without a warning (the real-world case)", () => {
    const d = decodeXml(utf8('<?xml version="1.0" encoding="us-ascii"?><r>Café</r>'));
    expect(d).toEqual({
      text: '<?xml version="1.0" encoding="us-ascii"?><r>Café</r>',
      encoding: "utf-8",
      bomBytes: 0,
      warnings: [],
    });
  });

  test("declared us-ascii with bytes that are not UTF-8 either: windows-1252 and a warning", () => {
    const d = decodeXml(bytes('<?xml version="1.0" encoding="us-ascii"?>\n<r>caf', [0xe9], "</r>"));
    expect(d.encoding).toBe("windows-1252");
    expect(d.text).toBe('<?xml version="1.0" encoding="us-ascii"?>\n<r>café</r>');
    expect(d.warnings).toEqual([
      {
        message:
          "declared encoding 'us-ascii' but the file has non-ASCII bytes that are not valid UTF-8 either, first at byte 48 (line 2, column 7); decoded as windows-1252",
        offset: 48,
        line: 2,
        column: 7,
      },
    ]);
  });

  test("invalid UTF-8 falls back to windows-1252, naming byte, line and column of the first bad byte", () => {
    const d = decodeXml(bytes("<r>\nab", [0xff], "c</r>"));
    expect(d).toEqual({
      text: "<r>\nab\u00ffc</r>",
      encoding: "windows-1252",
      bomBytes: 0,
      warnings: [{
        message: "not valid UTF-8 at byte 6 (line 2, column 3); decoded as windows-1252",
        offset: 6,
        line: 2,
        column: 3,
      }],
    });
  });

  test("invalid UTF-8 after a BOM: the byte number counts the BOM, the offset does not", () => {
    const d = decodeXml(bytes(BOM, "<r>\r\n", [0x80], "</r>"));
    expect(d.bomBytes).toBe(3);
    expect(d.text).toBe("<r>\r\n\u20ac</r>");
    expect(d.warnings).toEqual([
      {
        message: "not valid UTF-8 at byte 8 (line 2, column 1); decoded as windows-1252",
        offset: 5,
        line: 2,
        column: 1,
      },
    ]);
  });

  test("unknown declared encoding: decoded as UTF-8 with a warning at the declared name", () => {
    const d = decodeXml(utf8('<?xml version="1.0" encoding="shift_jis"?><r/>'));
    expect(d.encoding).toBe("utf-8");
    expect(d.warnings).toEqual([
      { message: "declared encoding 'shift_jis' is not supported; decoded as UTF-8", offset: 30, line: 1, column: 31 },
    ]);
  });

  test("utf-16 declared on an 8-bit file", () => {
    expect(decodeXml(utf8("<?xml version='1.0' encoding='UTF-16'?><r/>")).warnings).toEqual([
      {
        message: "declared encoding 'UTF-16' does not match the file's bytes (not UTF-16); decoded as UTF-8",
        offset: 30,
        line: 1,
        column: 31,
      },
    ]);
  });

  test("a UTF-8 BOM wins over a declared single-byte encoding", () => {
    const d = decodeXml(
      bytes(BOM, '<?xml version="1.0" encoding="windows-1252"?><r>é</r>'.replace("é", "\u00c3\u00a9")),
    );
    expect(d.text).toBe('<?xml version="1.0" encoding="windows-1252"?><r>é</r>');
    expect(d.encoding).toBe("utf-8");
    expect(d.warnings).toEqual([
      {
        message: "declared encoding 'windows-1252' contradicts the UTF-8 byte order mark; decoded as UTF-8",
        offset: 30,
        line: 1,
        column: 31,
      },
    ]);
  });
});

describe("declaredSingleByteEncoding", () => {
  test("reports only declarations decodeXml honours", () => {
    expect(declaredSingleByteEncoding(utf8("<?xml version='1.0' encoding='cp1252'?><r/>"))).toBe("windows-1252");
    expect(declaredSingleByteEncoding(utf8("<?xml version='1.0' encoding='ISO-8859-1'?><r/>"))).toBe("iso-8859-1");
    expect(declaredSingleByteEncoding(utf8("<?xml version='1.0' encoding='utf-8'?><r/>"))).toBeNull();
    expect(declaredSingleByteEncoding(bytes(BOM, "<?xml version='1.0' encoding='latin1'?><r/>"))).toBeNull();
    expect(declaredSingleByteEncoding(utf8("<r/>"))).toBeNull();
  });
});

describe("sniffEncoding", () => {
  test("BOMs and BOM-less UTF-16", () => {
    expect(sniffEncoding(bytes(BOM, "<"))).toEqual({ family: "8-bit", bomBytes: 3, utf8Bom: true });
    expect(sniffEncoding(new Uint8Array([0xff, 0xfe, 0x3c, 0]))).toEqual({
      family: "utf-16le",
      bomBytes: 2,
      utf8Bom: false,
    });
    expect(sniffEncoding(new Uint8Array([0xfe, 0xff, 0, 0x3c]))).toEqual({
      family: "utf-16be",
      bomBytes: 2,
      utf8Bom: false,
    });
    expect(sniffEncoding(new Uint8Array([0x3c, 0, 0x3f, 0]))).toEqual({
      family: "utf-16le",
      bomBytes: 0,
      utf8Bom: false,
    });
    expect(sniffEncoding(new Uint8Array([0, 0x3c, 0, 0x3f]))).toEqual({
      family: "utf-16be",
      bomBytes: 0,
      utf8Bom: false,
    });
    expect(sniffEncoding(utf8("<?xml"))).toEqual({ family: "8-bit", bomBytes: 0, utf8Bom: false });
  });
});

describe("sniffBinary", () => {
  test("XML text is not binary: plain, after BOM and whitespace, UTF-16", () => {
    expect(sniffBinary(utf8("<r/>"))).toBe(false);
    expect(sniffBinary(bytes(BOM, " \r\n\t<r/>"))).toBe(false);
    expect(sniffBinary(utf16("<r/>", true, true))).toBe(false);
    expect(sniffBinary(utf16("  <r/>", false, false))).toBe(false);
  });

  test("an empty file is not binary (the parser reports it)", () => {
    expect(sniffBinary(new Uint8Array(0))).toBe(false);
  });

  test("a binary file named .xml: NUL bytes, or a first character other than '<'", () => {
    expect(sniffBinary(new Uint8Array([0x44, 0x44, 0x53, 0x20, 0x7c, 0, 0, 0]))).toBe(true); // "DDS |" texture header
    expect(sniffBinary(new Uint8Array([0x3c, 0x61, 0x3e, 0, 0x3c]))).toBe(true); // "<a>" then NUL: not UTF-16 either
    expect(sniffBinary(utf8("hello <r/>"))).toBe(true);
    expect(sniffBinary(utf16("x<r/>", true, true))).toBe(true);
  });

  test("only the first 512 bytes are examined for NUL", () => {
    const late = new Uint8Array(600).fill(0x20);
    late[0] = 0x3c;
    late[550] = 0;
    expect(sniffBinary(late)).toBe(false);
  });
});

describe("firstInvalidUtf8", () => {
  test("valid input, and each class of invalid sequence", () => {
    expect(firstInvalidUtf8(utf8("aé€\ud83d\ude00"))).toBe(-1);
    expect(firstInvalidUtf8(new Uint8Array([0x61, 0xc0, 0x80]))).toBe(1); // overlong
    expect(firstInvalidUtf8(new Uint8Array([0x61, 0x62, 0xed, 0xa0, 0x80]))).toBe(2); // surrogate
    expect(firstInvalidUtf8(new Uint8Array([0xf5, 0x80, 0x80, 0x80]))).toBe(0); // above U+10FFFF
    expect(firstInvalidUtf8(new Uint8Array([0x61, 0xe2, 0x82]))).toBe(1); // truncated at the end
    expect(firstInvalidUtf8(new Uint8Array([0xe2, 0x41, 0x82]))).toBe(0); // bad continuation
    expect(firstInvalidUtf8(new Uint8Array([0x80]))).toBe(0); // stray continuation
  });
});

describe("decodeSingleByte", () => {
  test("windows-1252 vs ISO-8859-1 differ only in 0x80–0x9F", () => {
    const all = new Uint8Array(256).map((_, i) => i);
    const cp = decodeSingleByte(all, true);
    const latin = decodeSingleByte(all, false);
    for (let i = 0; i < 256; i++) {
      if (i < 0x80 || i >= 0xa0) expect(cp.charCodeAt(i)).toBe(i);
      expect(latin.charCodeAt(i)).toBe(i);
    }
    expect(cp.slice(0x80, 0xa0)).toBe("€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008dŽ\u008f\u0090‘’“”•–—˜™š›œ\u009džŸ");
  });
});

describe("ASCII bytes (decoded one character per byte, natively)", () => {
  const ascii = new Uint8Array(128).map((_, i) => i);
  const expected = String.fromCharCode(...ascii);

  test("every 8-bit decoder gives the same text for them", () => {
    expect(decodeSingleByte(ascii, true)).toBe(expected);
    expect(decodeSingleByte(ascii, false)).toBe(expected);
    expect(decodeXml(bytes("<a>", [...ascii.slice(0x20)], "</a>")).text).toBe(`<a>${expected.slice(0x20)}</a>`);
  });

  test("a view into a larger buffer is read from its own offset (a BOM, a reused read buffer)", () => {
    const decoded = decodeXml(bytes(BOM, "<a x='1'/>"));
    expect(decoded).toEqual({ text: "<a x='1'/>", encoding: "utf-8", bomBytes: 3, warnings: [] });
    const big = bytes("JUNK<b/>JUNK");
    expect(decodeXml(big.subarray(4, 8)).text).toBe("<b/>");
    expect(decodeSingleByte(big.subarray(4, 8), true)).toBe("<b/>");
  });

  test("one byte at 0x80 or above takes the full decoder (UTF-8 stays UTF-8)", () => {
    expect(decodeXml(utf8("<a>é</a>")).text).toBe("<a>é</a>");
    expect(decodeXml(bytes("<a>", [0xe9], "</a>"))).toMatchObject({ text: "<a>é</a>", encoding: "windows-1252" });
  });

  test("declared us-ascii stays us-ascii", () => {
    expect(decodeXml(bytes('<?xml version="1.0" encoding="us-ascii"?><a/>')).encoding).toBe("us-ascii");
  });
});
