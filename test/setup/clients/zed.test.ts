import { defineGoldenSuite, invalidFileErrors } from "./golden-harness.ts";

const files = {
  windows: "C:\\Users\\Ann Lee\\AppData\\Roaming\\Zed\\settings.json",
  macos: "/Users/ann/.config/zed/settings.json",
  linux: "/home/ann/.config/zed/settings.json",
};

// Zed's settings file starts with a comment block and is edited by hand.
defineGoldenSuite({
  client: "zed",
  scope: "user",
  ext: "json",
  files,
  existing: `// Zed settings
//
// For information on how to configure Zed, see the Zed
// documentation: https://zed.dev/docs/configuring-zed
{
  "ui_font_size": 16,
  "buffer_font_size": 15,
  "context_servers": {
    /* from the extension store */
    "postgres-context-server": {
      "settings": { "database_url": "postgresql://localhost/db" }
    }
  },
  "theme": {
    "mode": "system",
    "light": "One Light",
    "dark": "One Dark"
  }
}
`,
  invalid: `{
  "ui_font_size": 16 /* unfinished
}
`,
  invalidErrors: invalidFileErrors(files, "2:22: not valid JSON (unterminated comment)"),
});
