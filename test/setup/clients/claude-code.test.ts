import { defineGoldenSuite, invalidFileErrors } from "./golden-harness.ts";

const userFiles = {
  windows: "C:\\Users\\Ann Lee\\.claude.json",
  macos: "/Users/ann/.claude.json",
  linux: "/home/ann/.claude.json",
};

defineGoldenSuite({
  client: "claude-code",
  scope: "user",
  ext: "json",
  files: userFiles,
  existing: `{
  "numStartups": 12,
  "projects": {
    "/home/ann/work": {
      "mcpServers": {}
    }
  },
  "mcpServers": {
    "github": {
      "type": "stdio",
      "command": "github-mcp-server",
      "args": ["stdio"]
    }
  },
  "autoUpdates": true
}
`,
  invalid: `{"mcpServers": []}`,
  invalidErrors: invalidFileErrors(userFiles, `1:16: "mcpServers" is an array, not an object`),
});

const projectFiles = {
  windows: "D:\\Mods\\Corona Mod\\.mcp.json",
  macos: "/Users/ann/Mods/Corona Mod/.mcp.json",
  linux: "/home/ann/mods/corona/.mcp.json",
};

defineGoldenSuite({
  client: "claude-code",
  scope: "project",
  ext: "json",
  files: projectFiles,
  existing: `{
  "mcpServers": {
    "sentry": { "type": "http", "url": "https://mcp.sentry.dev/mcp" }
  }
}
`,
  invalid: `{
  "mcpServers": {
    "x": "unterminated
  }
}
`,
  invalidErrors: invalidFileErrors(projectFiles, "3:10: not valid JSON (unterminated string)"),
});
