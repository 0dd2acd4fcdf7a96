/**
 * The XML layer: bytes → text ({@link decodeXml}), a strict positioned tokenizer ({@link parseXml}),
 * offsets → lines/bytes ({@link LineMap}) and the shallow scanner for art files ({@link scanShallow}).
 */
export { decodeXml, sniffBinary } from "./decode.ts";
export { LineMap } from "./line-map.ts";
export type { LinePosition } from "./line-map.ts";
export { scanShallow } from "./shallow.ts";
export { parseXml, XML_NAMESPACE, XMLNS_NAMESPACE } from "./tokenizer.ts";
export type { ParseOptions } from "./tokenizer.ts";
export type {
  DecodedText,
  ShallowAsset,
  ShallowDefine,
  ShallowInclude,
  ShallowScan,
  ShallowXInclude,
  XmlAttribute,
  XmlEndTag,
  XmlError,
  XmlStartTag,
  XmlVisitor,
} from "./types.ts";
