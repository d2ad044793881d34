"use strict";
// Which platform package holds the skillsift binary for this machine.
// The table is lib/platforms.json, the same file the release workflow reads
// to build one package per platform, so the two cannot drift apart.

const path = require("node:path");
const PLATFORMS = require("./platforms.json");

class UnsupportedPlatformError extends Error {
  constructor(os, cpu) {
    const supported = PLATFORMS.map((p) => `${p.os}-${p.cpu}`).join(", ");
    super(
      `skillsift has no prebuilt binary for ${os}-${cpu} (supported: ${supported}).\n` +
        "Install it from source instead: cargo install --locked skillsift",
    );
    this.name = "UnsupportedPlatformError";
    this.os = os;
    this.cpu = cpu;
  }
}

/** The platform entry for `os` (process.platform) and `cpu` (process.arch). */
function resolvePlatform(os, cpu) {
  const hit = PLATFORMS.find((p) => p.os === os && p.cpu === cpu);
  if (!hit) throw new UnsupportedPlatformError(os, cpu);
  return hit;
}

/**
 * The absolute path of the binary for this platform.
 * `resolve` is require.resolve (injectable for tests).
 */
function binaryPath(os, cpu, resolve = require.resolve) {
  const entry = resolvePlatform(os, cpu);
  let manifest;
  try {
    manifest = resolve(`${entry.package}/package.json`);
  } catch (err) {
    const e = new Error(
      `skillsift: the package ${entry.package} for ${os}-${cpu} is not installed.\n` +
        "It is an optional dependency of skillsift: reinstall without --omit=optional " +
        "(or --no-optional), or install it directly: npm install " +
        entry.package,
    );
    e.cause = err;
    throw e;
  }
  return path.join(path.dirname(manifest), "bin", entry.exe);
}

module.exports = { PLATFORMS, UnsupportedPlatformError, resolvePlatform, binaryPath };
