/**
 * The MCP tool names, in the deterministic order `tools/list` returns them. The server registers
 * exactly these (a test checks), and the skill documents exactly these (the skill validator checks).
 * The list lives with the skill, the contract agents read, so both `mcp/` and `setup/` may use it.
 */
export const TOOL_NAMES = [
  "get_status",
  "list_projects",
  "find_asset",
  "get_definition",
  "find_references",
  "get_asset_references",
  "list_assets_by_type",
  "resolve_include",
  "is_file_active",
  "list_files",
  "find_define",
  "find_unreferenced",
  "check_files",
  "search_strings",
  "get_usage_guide",
  "reindex",
] as const;

export type ToolName = (typeof TOOL_NAMES)[number];
