import { defineGoldenSuite, invalidFileErrors } from "./golden-harness.ts";

const files = {
  windows: "C:\\Users\\Ann Lee\\.codex\\config.toml",
  macos: "/Users/ann/.codex/config.toml",
  linux: "/home/ann/.codex/config.toml",
};

defineGoldenSuite({
  client: "codex",
  scope: "user",
  ext: "toml",
  files,
  existing: `# Codex configuration
model = "gpt-5-codex"
approval_policy = "on-request"

[mcp_servers.docs]
command = "docs-mcp"
args = ["--port", "0"]
startup_timeout_sec = 30

[mcp_servers.docs.env]
DOCS_TOKEN = "secret" # keep out of git

# Profiles below
[profiles.fast]
model = "gpt-5-mini"
`,
  invalid: `model = "gpt-5"
[mcp_servers.docs
command = "x"
`,
  invalidErrors: invalidFileErrors(files, "2:18: not valid TOML (illegal character in key)"),
});
