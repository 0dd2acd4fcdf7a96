/**
 * SDK validation, game detection and the choice of SDK (`--sdk` → `RA3_SDK` → detection → none).
 *
 * An SDK is *usable* when it has the schema marker `Schemas/xsd/CnC3Types.xsd`; the other items of
 * the checklist only decide between `ok` and `partial`. The checklist depends on the layout: an RA3
 * SDK has `SageXml/` and the root placeholders `static.xml`, `global.xml`, `audio.xml`; a Tiberium
 * Wars / Kane's Wrath SDK has `CnC3Xml/` instead and no placeholders (its stream roots live in
 * `CnC3Xml/`).
 */
import { execFileSync } from "node:child_process";
import { CaseResolver } from "./case-resolver.ts";
import type { DirectoryLister } from "./fs-port.ts";
import { ancestors, baseName, native, toAbsolute } from "./paths.ts";

/** The sibling SAGE games ra3 understands. */
export type Game = "ra3" | "tw" | "kw";

/** `missing`: empty or not a folder; `not-sdk`: no schema marker; `partial`: marker but items missing. */
export type SdkStatus = "ok" | "partial" | "not-sdk" | "missing";

/** What an SDK folder contains, with real on-disk casing. */
export interface SdkInfo {
  /** Normalised absolute path (real casing when it exists); "" when the input was empty. */
  readonly dir: string;
  readonly status: SdkStatus;
  /** Checklist items not found, in checklist order (folders end with `/`). */
  readonly missing: readonly string[];
  /** `Schemas/xsd` (the folder holding the marker). */
  readonly schemaDir: string | null;
  /** `Schemas/xsd/CnC3Types.xsd`, the schema entry file. */
  readonly schemaFile: string | null;
  /** `SageXml` (RA3) or `CnC3Xml` (TW/KW). */
  readonly vanillaDir: string | null;
  /** `builtmods` (any casing; several on a case-sensitive FS) then `builtmods-quantum`. */
  readonly builtmodsDirs: readonly string[];
  /** Where to look for `<stream>.manifest`, in order: each builtmods dir, then its `sagexml`/`CnC3Xml` sub-folder. */
  readonly manifestDirs: readonly string[];
  readonly modsDir: string | null;
  readonly artDir: string | null;
  readonly audioDir: string | null;
  /** Root placeholders `static.xml`, `global.xml`, `audio.xml` that exist, in that order. */
  readonly placeholders: readonly string[];
  readonly game: Game | null;
}

/** The SDK marker, relative to the SDK root. */
const SDK_SCHEMA_MARKER = "Schemas/xsd/CnC3Types.xsd";

/** True for an SDK whose entries belong in the search lists (`ok` or `partial`). */
export function isUsableSdk(sdk: SdkInfo | null | undefined): sdk is SdkInfo {
  return sdk != null && (sdk.status === "ok" || sdk.status === "partial");
}

/**
 * `raw` without surrounding whitespace and one pair of matching surrounding quotes.
 * @example normalizeSdkPath('  "C:\\RA3 SDK"  ') // "C:\\RA3 SDK"
 */
export function normalizeSdkPath(raw: string): string {
  let s = raw.trim();
  if (s.length >= 2 && (s[0] === '"' || s[0] === "'") && s[s.length - 1] === s[0]) s = s.slice(1, -1).trim();
  return s;
}

type ListerOrResolver = DirectoryLister | CaseResolver;

function resolverOf(l: ListerOrResolver): CaseResolver {
  return l instanceof CaseResolver ? l : new CaseResolver(l);
}

function dirsNamed(r: CaseResolver, dir: string, name: string): string[] {
  const lower = name.toLowerCase();
  const entries = r.entries(dir) ?? [];
  const hits = entries.filter((e) => e.isDirectory && e.name.toLowerCase() === lower).map((e) => e.name);
  hits.sort((a, b) => (a === name ? -1 : b === name ? 1 : 0));
  return hits.map((n) => native.join(dir, n));
}

const EMPTY_INFO = {
  missing: [],
  schemaDir: null,
  schemaFile: null,
  vanillaDir: null,
  builtmodsDirs: [],
  manifestDirs: [],
  modsDir: null,
  artDir: null,
  audioDir: null,
  placeholders: [],
  game: null,
} as const;

/**
 * Validates an SDK folder (the path is normalised first: quotes, whitespace, made absolute).
 * @example validateSdk("/opt/tw-sdk", lister).status // "ok"
 */
export function validateSdk(dir: string, lister: ListerOrResolver, cwd: string = process.cwd()): SdkInfo {
  const r = resolverOf(lister);
  const cleaned = normalizeSdkPath(dir);
  if (cleaned === "") return { dir: "", status: "missing", ...EMPTY_INFO };
  const abs = toAbsolute(cleaned, cwd);
  const root = r.resolvePath(abs, "directory");
  if (root === null) return { dir: abs, status: "missing", ...EMPTY_INFO };

  const schemaFile = r.resolve(root, SDK_SCHEMA_MARKER, "file");
  const sageXml = r.childNamed(root, "SageXml", "directory");
  const cnc3Xml = sageXml ? null : r.childNamed(root, "CnC3Xml", "directory");
  const vanillaDir = sageXml ?? cnc3Xml;
  const builtmodsDirs = [...dirsNamed(r, root, "builtmods"), ...dirsNamed(r, root, "builtmods-quantum")];
  const manifestDirs: string[] = [];
  for (const b of builtmodsDirs) {
    manifestDirs.push(b, ...dirsNamed(r, b, "sagexml"), ...dirsNamed(r, b, "CnC3Xml"));
  }
  const modsDir = r.childNamed(root, "Mods", "directory");
  const placeholders = ["static.xml", "global.xml", "audio.xml"]
    .map((n) => r.childNamed(root, n, "file"))
    .filter((p): p is string => p !== null);
  const game = detectGameFromLayout(root, r);

  const missing: string[] = [];
  if (!schemaFile) missing.push(SDK_SCHEMA_MARKER);
  if (game === "tw" || game === "kw") {
    if (builtmodsDirs.length === 0) missing.push("BuiltMods/");
    if (!vanillaDir) missing.push("CnC3Xml/");
    if (!modsDir) missing.push("Mods/");
  } else {
    if (builtmodsDirs.length === 0) missing.push("builtmods/");
    if (!vanillaDir) missing.push("SageXml/");
    if (!modsDir) missing.push("Mods/");
    for (const n of ["static.xml", "global.xml", "audio.xml"]) {
      if (!placeholders.some((p) => baseName(p).toLowerCase() === n)) missing.push(n);
    }
  }
  return {
    dir: root,
    status: !schemaFile ? "not-sdk" : missing.length > 0 ? "partial" : "ok",
    missing,
    schemaDir: schemaFile ? native.dirname(schemaFile) : null,
    schemaFile,
    vanillaDir,
    builtmodsDirs,
    manifestDirs,
    modsDir,
    artDir: r.childNamed(root, "Art", "directory"),
    audioDir: r.childNamed(root, "Audio", "directory"),
    placeholders,
    game,
  };
}

/**
 * The game an SDK folder is for, judged from its layout only: `SageXml/` ⇒ ra3; `CnC3Xml/` ⇒ tw, or kw
 * when the KW SDK's `Tools/Games/Kane's Wrath` folder is present; otherwise the vanilla sub-folder of
 * `builtmods` (`sagexml` ⇒ ra3, `CnC3Xml` ⇒ tw); else null. TW and KW share the XML layout, so
 * {@link detectGameFromAssetNames} (from the schema) is the authority when the schema is loaded.
 */
export function detectGameFromLayout(dir: string, lister: ListerOrResolver): Game | null {
  const r = resolverOf(lister);
  if (r.childNamed(dir, "SageXml", "directory")) return "ra3";
  if (r.childNamed(dir, "CnC3Xml", "directory")) {
    return r.resolve(dir, "Tools/Games/Kane's Wrath", "directory") ? "kw" : "tw";
  }
  for (const b of [...dirsNamed(r, dir, "builtmods"), ...dirsNamed(r, dir, "builtmods-quantum")]) {
    if (r.childNamed(b, "sagexml", "directory")) return "ra3";
    if (r.childNamed(b, "CnC3Xml", "directory")) return "tw";
  }
  return null;
}

/** Asset kinds that exist only in RA3's schema (absent from TW's). */
const RA3_ONLY_ASSET_KINDS: readonly string[] = [
  "UnitAbilityButtonTemplate",
  "PlayerTech",
  "PlayerTechStoreTemplate",
  "RedAlertTemplate",
  "PlayerPowerButtonTemplate",
];

/** Asset kinds of the C&C3 family (TW, KW) that RA3's schema does not have. */
const CNC3_ONLY_ASSET_KINDS: readonly string[] = [
  "UnitAbilityButtonTemplateStore",
  "PlayerPowerButtonTemplateStore",
  "TheaterOfWarTemplate",
  "RadiusCursorLibrary",
  "InGameUISettings",
];

/**
 * Counts of top-level asset kinds: RA3 292, KW 139, TW 128 (formats.md). KW extends TW, so within the
 * C&C3 family the count is the signal: at or above the midpoint ⇒ KW.
 */
const KW_MIN_ASSET_KINDS = 134;

const STRUCTURAL = new Set(["Tags", "Includes", "Defines"]);

/**
 * The game a schema belongs to, from the names of its top-level asset elements (children of
 * `AssetDeclaration`): an RA3-only kind ⇒ ra3; a C&C3-family kind ⇒ kw when there are at least
 * {@link KW_MIN_ASSET_KINDS} kinds, else tw; with neither, the count alone (≥ 200 ra3, ≥ 134 kw,
 * ≥ 100 tw); a small or empty list (a test schema) ⇒ null.
 * @example detectGameFromAssetNames(["GameObject", "PlayerTech"]) // "ra3"
 */
export function detectGameFromAssetNames(names: Iterable<string>): Game | null {
  const set = new Set<string>();
  for (const n of names) if (!STRUCTURAL.has(n)) set.add(n);
  if (RA3_ONLY_ASSET_KINDS.some((n) => set.has(n))) return "ra3";
  if (CNC3_ONLY_ASSET_KINDS.some((n) => set.has(n))) return set.size >= KW_MIN_ASSET_KINDS ? "kw" : "tw";
  if (set.size >= 200) return "ra3";
  if (set.size >= KW_MIN_ASSET_KINDS) return "kw";
  if (set.size >= 100) return "tw";
  return null;
}

// ---------------------------------------------------------------------------------------------------
// Windows registry

/** The RA3 Mod SDK's uninstall entry. */
const SDK_UNINSTALL_GUID = "{F6A3F605-7B10-4939-8D3D-4594332C1649}";

/** Registry keys holding the SDK's `InstallLocation`, 64-bit view first, then the 32-bit one. */
export const SDK_REGISTRY_KEYS: readonly string[] = [
  `HKLM\\SOFTWARE\\Microsoft\\Windows\\CurrentVersion\\Uninstall\\${SDK_UNINSTALL_GUID}`,
  `HKLM\\SOFTWARE\\Wow6432Node\\Microsoft\\Windows\\CurrentVersion\\Uninstall\\${SDK_UNINSTALL_GUID}`,
];

/** The registry value read from {@link SDK_REGISTRY_KEYS}. */
const SDK_REGISTRY_VALUE = "InstallLocation";

/** Runs `reg query <key> /v <value>` (or pretends to) and returns its raw output, or null on failure. */
export type RegistryQuery = (key: string, value: string) => string | null;

/**
 * The data of `valueName` in the output of `reg query KEY /v VALUE`, or null when absent or empty.
 * @example parseRegQueryOutput("\r\nHKEY_…\r\n    InstallLocation    REG_SZ    C:\\SDK\r\n", "InstallLocation") // "C:\\SDK"
 */
export function parseRegQueryOutput(output: string, valueName: string): string | null {
  const want = valueName.toLowerCase();
  for (const line of output.split(/\r?\n/)) {
    const m = /^\s+(.+?)\s+(REG_[A-Z_]+)(?:\s+(.*))?$/.exec(line);
    if (!m || m[1].toLowerCase() !== want) continue;
    const data = (m[3] ?? "").trim();
    return data === "" ? null : data;
  }
  return null;
}

/** The real registry on Windows (via `reg.exe`); null elsewhere or when the key is absent. */
export function systemRegistryQuery(key: string, value: string): string | null {
  if (process.platform !== "win32") return null;
  try {
    return execFileSync("reg", ["query", key, "/v", value], {
      encoding: "utf8",
      windowsHide: true,
      timeout: 5000,
      stdio: ["ignore", "pipe", "ignore"],
    });
  } catch {
    return null; // reg.exe exits 1 when the key or value does not exist
  }
}

// ---------------------------------------------------------------------------------------------------
// Choosing the SDK

/** Where an SDK candidate came from. `project-parent`: the project lives in `<SDK>/Mods/<name>`. */
export type SdkSource = "flag" | "env" | "project-parent" | "registry";

/** One source consulted while choosing the SDK, and what came of it. */
export interface SdkCandidate {
  readonly source: SdkSource;
  /** The path as given (flag, env, registry data), or null when the source offered none. */
  readonly raw: string | null;
  /** The validation result, or null when there was no path to validate. */
  readonly info: SdkInfo | null;
  readonly accepted: boolean;
  /** Why it was accepted or rejected, one sentence fragment for `ra3 status` / `doctor`. */
  readonly reason: string;
}

/** The chosen SDK (null = project-only mode), its source, and every source consulted in order. */
export interface SdkResolution {
  readonly sdk: SdkInfo | null;
  readonly source: SdkSource | null;
  readonly candidates: readonly SdkCandidate[];
}

/** Injectable detection inputs for {@link resolveSdk}. */
export interface SdkDetectors {
  /** The project root, for the `<SDK>/Mods/<name>` rule. */
  readonly projectDir?: string | null;
  /** Registry port; defaults to {@link systemRegistryQuery}. Pass null to disable. */
  readonly queryRegistry?: RegistryQuery | null;
}

export interface ResolveSdkOptions {
  /** `--sdk` value; undefined when not given. An empty value asks for project-only mode. */
  readonly flag?: string | null;
  /** The process environment (reads `RA3_SDK`; empty counts as unset). */
  readonly env?: Readonly<Record<string, string | undefined>>;
  readonly lister: ListerOrResolver;
  readonly detectors?: SdkDetectors;
  readonly cwd?: string;
}

function describeRejection(info: SdkInfo): string {
  if (info.status === "missing") return info.dir === "" ? "empty path" : `not a directory: ${info.dir}`;
  if (info.status === "not-sdk") return `no ${SDK_SCHEMA_MARKER} in ${info.dir}`;
  return info.status === "ok" ? "usable SDK (ok)" : `usable SDK (partial: missing ${info.missing.join(", ")})`;
}

/**
 * Chooses the SDK: `--sdk`, then `RA3_SDK`, then the SDK that contains the project (`<SDK>/Mods/…`),
 * then the Windows registry; the first usable candidate wins, the rest are not consulted. An explicit
 * but empty `--sdk ""` selects project-only mode.
 * @example resolveSdk({ flag: "/opt/sdk", lister }).source // "flag"
 */
export function resolveSdk(opts: ResolveSdkOptions): SdkResolution {
  const r = resolverOf(opts.lister);
  const cwd = opts.cwd ?? process.cwd();
  const candidates: SdkCandidate[] = [];
  const tryPath = (source: SdkSource, raw: string): SdkInfo | null => {
    const info = validateSdk(raw, r, cwd);
    const accepted = isUsableSdk(info);
    candidates.push({ source, raw, info, accepted, reason: describeRejection(info) });
    return accepted ? info : null;
  };
  const none = (source: SdkSource, reason: string): void => {
    candidates.push({ source, raw: null, info: null, accepted: false, reason });
  };
  const won = (sdk: SdkInfo, source: SdkSource): SdkResolution => ({ sdk, source, candidates });

  if (opts.flag != null) {
    if (normalizeSdkPath(opts.flag) === "") {
      candidates.push({
        source: "flag",
        raw: opts.flag,
        info: null,
        accepted: true,
        reason: "empty --sdk: project-only mode",
      });
      return { sdk: null, source: "flag", candidates };
    }
    const hit = tryPath("flag", opts.flag);
    if (hit) return won(hit, "flag");
  } else none("flag", "--sdk not given");

  const envValue = opts.env?.RA3_SDK;
  if (envValue != null && normalizeSdkPath(envValue) !== "") {
    const hit = tryPath("env", envValue);
    if (hit) return won(hit, "env");
  } else none("env", "RA3_SDK not set");

  const projectDir = opts.detectors?.projectDir;
  if (projectDir) {
    let offered = false;
    for (const a of ancestors(native.dirname(toAbsolute(projectDir, cwd)), 12)) {
      if (baseName(a).toLowerCase() !== "mods") continue;
      offered = true;
      const hit = tryPath("project-parent", native.dirname(a));
      if (hit) return won(hit, "project-parent");
    }
    if (!offered) none("project-parent", "the project is not inside an <SDK>/Mods folder");
  } else none("project-parent", "no project to look around");

  const injected = opts.detectors?.queryRegistry;
  const query = injected === undefined ? (process.platform === "win32" ? systemRegistryQuery : null) : injected;
  if (query) {
    let offered = false;
    for (const key of SDK_REGISTRY_KEYS) {
      const out = query(key, SDK_REGISTRY_VALUE);
      const value = out === null ? null : parseRegQueryOutput(out, SDK_REGISTRY_VALUE);
      if (value === null) continue;
      offered = true;
      const hit = tryPath("registry", value);
      if (hit) return won(hit, "registry");
    }
    if (!offered) none("registry", `no ${SDK_REGISTRY_VALUE} under the SDK's uninstall key`);
  } else none("registry", injected === null ? "registry lookup disabled" : "no registry on this OS");

  return { sdk: null, source: null, candidates };
}
