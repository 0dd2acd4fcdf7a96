#!/usr/bin/env bun
/**
 * Entry point of the ra3 binary: parse flags once, dispatch to a command, exit with its status. Started
 * by a double-click on Windows (no arguments, a console of its own) it runs the interactive setup instead.
 */
import { processIo } from "./cli/io.ts";
import { run } from "./cli/run.ts";
import { runsUntilStopped } from "./cli/args.ts";
import { captureMcpStdin } from "./cli/commands/mcp.ts";
import { setTypedArgv } from "./cli/relaunch.ts";
import { processConsoleHost, runDoubleClick, startedByDoubleClick } from "./cli/double-click.ts";

const argv = process.argv.slice(2);
// Before the first await: an MCP client writes initialize right after spawning us.
captureMcpStdin(argv);

// A run that lasts writes through Node's streams (see `cli/fd-writer.ts`).
const io = processIo({ inPlace: !runsUntilStopped(argv) });
const host = processConsoleHost();
const doubleClick = await startedByDoubleClick(argv, host);
// A command line as typed may run again in a child (a cold build: `cli/relaunch.ts`); a double-click's setup not.
setTypedArgv(doubleClick ? null : argv);
const code = doubleClick ? await runDoubleClick(io, host, run) : await run(argv, io);
process.exitCode = code;
