#!/usr/bin/env node
"use strict";
// Runs the skillsift binary of this platform's package with the same
// arguments, standard streams and exit status.

const { spawnSync } = require("node:child_process");
const { binaryPath } = require("../lib/platform.js");

let exe;
try {
  exe = process.env.SKILLSIFT_BINARY || binaryPath(process.platform, process.arch);
} catch (err) {
  process.stderr.write(`error: ${err.message}\n`);
  process.exit(2);
}

const run = spawnSync(exe, process.argv.slice(2), { stdio: "inherit", windowsHide: true });
if (run.error) {
  process.stderr.write(`error: cannot run ${exe}: ${run.error.message}\n`);
  process.exit(2);
}
if (run.signal) {
  process.kill(process.pid, run.signal);
}
process.exit(run.status === null ? 1 : run.status);
