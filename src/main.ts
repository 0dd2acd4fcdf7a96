#!/usr/bin/env bun
/**
 * Entry point of the ra3 binary: parse flags once, dispatch to a command, exit with its status.
 */
import { processIo } from "./cli/io.ts";
import { run } from "./cli/run.ts";
import { captureMcpStdin } from "./cli/commands/mcp.ts";

// Before the first await: an MCP client writes initialize right after spawning us.
captureMcpStdin(process.argv.slice(2));

const code = await run(process.argv.slice(2), processIo());
process.exitCode = code;
