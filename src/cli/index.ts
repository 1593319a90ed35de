#!/usr/bin/env node
import { CliIo } from './io.js';
import { runProgram } from './program.js';

const { exitCode, exitNow } = await runProgram(process.argv.slice(2), CliIo.ofProcess());
// A command that ended well may leave a server or a worker running: the process ends with them.
if (exitNow) process.exit(exitCode);
process.exitCode = exitCode;
