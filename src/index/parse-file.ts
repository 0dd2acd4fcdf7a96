/**
 * Bytes of one file → its {@link FileRecord}: classification by extension and content sniffing, text
 * decoding, then the matching extractor (full XML, shallow art scan, string table, babproj, manifest).
 * Pure: the caller supplies the bytes.
 */
import { extensionOf } from "../project/paths.ts";
import type { SchemaQueries } from "../schema/model.ts";
import { decodeXml, isAsciiBytes, sniffBinary } from "../xml/decode.ts";
import type { DecodedText, XmlStartTag } from "../xml/types.ts";
import { scanShallowAscii } from "../xml/shallow.ts";
import { parseXml } from "../xml/tokenizer.ts";
import { parseManifest } from "../formats/manifest.ts";
import { parseStringTable } from "../formats/str.ts";
import { extractXmlRecordSteps } from "./extract-xml.ts";
import { runSteps } from "../steps.ts";
import { artReferences, singleByteSource, stringSource, utf8Source } from "./art-refs.ts";
import {
  emptyRecord,
  type FileRecord,
  type RecordDiagnostic,
  type RefRecord,
  type StreamReferenceDecl,
} from "./records.ts";

/**
 * The record of a file from its bytes.
 * @param path used only for the extension
 * @example parseFile("Data/Mod.xml", bytes, schema).includes.length
 */
export function parseFile(path: string, bytes: Uint8Array, schema: SchemaQueries | null): FileRecord {
  const ext = extensionOf(path);
  switch (ext) {
    case ".xml":
      return runSteps(parseFileSteps(path, bytes, schema, Infinity));
    case ".w3x":
      return parseArtFile(bytes, schema);
    case ".str":
      return parseStrFile(bytes);
    case ".babproj":
      return parseBabproj(bytes);
    case ".manifest":
      return parseManifestFile(bytes);
    default:
      // An include may name any file: XML behind another extension is scanned shallowly, the rest is binary.
      if (bytes.length === 0 || sniffBinary(bytes)) return emptyRecord("binary");
      return parseArtFile(bytes, schema);
  }
}

/**
 * {@link parseFile} in steps: an XML file's document is parsed in steps of about `stepChars` characters
 * (the generator yields between them; see `parseXmlSteps`), any other file in one. The record is the
 * one {@link parseFile} returns. An XML file's bytes are decoded by this call, before the first step (any
 * other file is parsed by it), and the steps hold only the text: a caller that drops its own reference to
 * `bytes` after this call lets the engine free them while the document is parsed (200 MB of the largest
 * generated file).
 * @example runSteps(parseFileSteps("Data/Map.xml", bytes, schema, 65536))
 */
export function parseFileSteps(
  path: string,
  bytes: Uint8Array,
  schema: SchemaQueries | null,
  stepChars: number,
): Generator<void, FileRecord, void> {
  if (extensionOf(path) !== ".xml") return recordOf(parseFile(path, bytes, schema));
  const prepared = prepareXml(bytes);
  // A generator's frame keeps its parameters alive to its end, so the bytes never enter one.
  return "record" in prepared ? recordOf(prepared.record) : extractXmlFileSteps(prepared, schema, stepChars);
}

// deno-lint-ignore require-yield
function* recordOf(record: FileRecord): Generator<void, FileRecord, void> {
  return record;
}

/** An XML file's decoded text, or its whole record when it cannot be parsed (empty, binary). */
function prepareXml(bytes: Uint8Array): DecodedText | { readonly record: FileRecord } {
  if (bytes.length === 0) {
    return {
      record: {
        ...emptyRecord("xml"),
        diagnostics: [diag("empty-file", "error", "the file is empty (an XML file needs a root element)")],
      },
    };
  }
  if (sniffBinary(bytes)) {
    return {
      record: {
        ...emptyRecord("binary"),
        diagnostics: [
          diag(
            "not-xml",
            "error",
            "the file is named .xml but holds binary data (it does not start with '<' or contains NUL bytes); it was not parsed",
          ),
        ],
      },
    };
  }
  return decodeXml(bytes);
}

function* extractXmlFileSteps(
  decoded: DecodedText,
  schema: SchemaQueries | null,
  stepChars: number,
): Generator<void, FileRecord, void> {
  const record = yield* extractXmlRecordSteps(decoded.text, schema, stepChars);
  if (decoded.warnings.length === 0) return record;
  const warnings = decoded.warnings.map((w) => ({
    code: "encoding",
    severity: "warning" as const,
    message: w.message,
    line: w.line,
    column: w.column,
  }));
  return { ...record, diagnostics: [...warnings, ...record.diagnostics] };
}

function parseArtFile(bytes: Uint8Array, schema: SchemaQueries | null): FileRecord {
  const { scan, ascii, utf8, singleByte } = scanShallowAscii(bytes);
  let refs: RefRecord[] = [];
  if (schema && scan.assets.length) {
    // Art files nearly all start with a UTF-8 BOM before pure ASCII: the decoded text (BOM removed) is
    // then the bytes after it, read in place instead of decoding megabytes of vertex data. The scan has
    // most often told whether they are (300 MB of art at Corona scale: a second pass of 26 ms). UTF-8
    // with other characters is read in place too, its offsets mapped, and a single-byte code page (one
    // byte, one unit) with the asked ranges decoded; only UTF-16 is decoded whole.
    const body = hasUtf8Bom(bytes) ? bytes.subarray(3) : bytes;
    const source = singleByte !== null
      ? singleByteSource(body, singleByte === "windows-1252")
      : (ascii ?? isAsciiBytes(body))
      ? singleByteSource(body, false) // ASCII: read as Latin-1
      : utf8
      ? utf8Source(body)
      : stringSource(decodeXml(bytes).text);
    refs = artReferences(source, scan, schema);
  }
  const diagnostics: RecordDiagnostic[] = [];
  if (scan.error) {
    diagnostics.push({
      code: "xml-syntax",
      severity: "error",
      message: scan.error.message,
      line: scan.error.line,
      column: scan.error.column,
    });
  }
  return {
    ...emptyRecord("art"),
    rootName: scan.rootName,
    fragment: scan.rootName !== null && scan.rootName !== "AssetDeclaration",
    assets: scan.assets.map((a) => ({
      type: a.type,
      id: a.id,
      line: a.line,
      column: a.column,
      startLine: a.line,
      endLine: a.line,
      start: a.start,
      end: a.start,
      inheritFrom: null,
    })),
    defines: scan.defines.map((d) => ({ name: d.name, value: d.value, line: d.line, column: d.column })),
    includes: scan.includes.map((i) => ({
      type: i.type,
      rawType: i.rawType,
      source: i.source,
      line: i.line,
      column: i.column,
    })),
    xincludes: scan.xincludes.map((x) => ({
      href: x.href,
      xpointer: x.xpointer,
      rootLevel: x.rootLevel,
      owner: -1,
      offset: x.offset,
      line: x.line,
      column: x.column,
      // The shallow scan reads no schema types; its xi:includes are never spliced into assets (owner -1).
      parentType: null,
      parent: null,
    })),
    refs,
    diagnostics,
  };
}

function hasUtf8Bom(bytes: Uint8Array): boolean {
  return bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
}

function parseStrFile(bytes: Uint8Array): FileRecord {
  const decoded = decodeXml(bytes);
  const table = parseStringTable(decoded.text);
  return {
    ...emptyRecord("str"),
    strings: table.entries.map((e) => ({ key: e.key, text: e.text, line: e.line })),
    diagnostics: table.diagnostics.map((d) => ({
      code: "string-table",
      severity: "warning" as const,
      message: d.message,
      line: d.line,
      column: d.column,
    })),
  };
}

function parseBabproj(bytes: Uint8Array): FileRecord {
  const decoded = decodeXml(bytes);
  const sources: string[] = [];
  const references: StreamReferenceDecl[] = [];
  const attr = (tag: XmlStartTag, name: string): string =>
    tag.attributes.find((a) => a.local === name)?.value.trim() ?? "";
  const error = parseXml(decoded.text, {
    startElement(tag) {
      if (tag.local === "Stream") {
        const source = attr(tag, "Source");
        if (source) sources.push(source);
      } else if (tag.local === "StreamReference" && sources.length > 0) {
        const name = attr(tag, "ReferenceName");
        const manifest = attr(tag, "ReferenceManifest");
        if (name && manifest) references.push({ stream: sources[sources.length - 1], name, manifest });
      }
    },
  });
  return {
    ...emptyRecord("babproj"),
    streamSources: sources,
    streamReferences: references,
    diagnostics: error
      ? [{ code: "xml-syntax", severity: "error", message: error.message, line: error.line, column: error.column }]
      : [],
  };
}

function parseManifestFile(bytes: Uint8Array): FileRecord {
  const parsed = parseManifest(bytes);
  if (!parsed.ok) {
    return {
      ...emptyRecord("manifest"),
      diagnostics: [
        diag(
          "manifest-read-error",
          "error",
          `the manifest could not be read: ${parsed.error.message} (at byte ${parsed.error.offset})`,
        ),
      ],
    };
  }
  const m = parsed.manifest;
  const refs: number[] = [];
  m.assets.forEach((a, i) => {
    for (let k = 0; k < a.referenceCount; k++) {
      const p = (a.referenceStart + k) * 2;
      refs.push(i, m.references[p], m.references[p + 1]);
    }
  });
  return {
    ...emptyRecord("manifest"),
    manifestAssets: m.assets.map((a) => ({
      type: a.typeName,
      id: a.id,
      typeId: a.typeId,
      instanceId: a.instanceId,
      sourceFile: a.sourceFile,
    })),
    manifestRefs: refs,
    diagnostics: m.warnings.map((w) => diag("manifest-warning", "warning", w.message)),
  };
}

function diag(code: string, severity: RecordDiagnostic["severity"], message: string): RecordDiagnostic {
  return { code, severity, message, line: 1, column: 1 };
}
