"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const path = require("node:path");
const { PLATFORMS, UnsupportedPlatformError, resolvePlatform, binaryPath } = require("../lib/platform.js");
const pkg = require("../package.json");

const expected = [
  ["linux", "x64", "@skillsift/cli-linux-x64", "x86_64-unknown-linux-musl", "skillsift"],
  ["linux", "arm64", "@skillsift/cli-linux-arm64", "aarch64-unknown-linux-musl", "skillsift"],
  ["darwin", "x64", "@skillsift/cli-darwin-x64", "x86_64-apple-darwin", "skillsift"],
  ["darwin", "arm64", "@skillsift/cli-darwin-arm64", "aarch64-apple-darwin", "skillsift"],
  ["win32", "x64", "@skillsift/cli-win32-x64", "x86_64-pc-windows-msvc", "skillsift.exe"],
];

for (const [os, cpu, name, target, exe] of expected) {
  test(`${os}-${cpu} resolves to ${name}`, () => {
    const p = resolvePlatform(os, cpu);
    assert.equal(p.package, name);
    assert.equal(p.target, target);
    assert.equal(p.exe, exe);
    const fake = (id) => {
      assert.equal(id, `${name}/package.json`);
      return path.join("/nm", name, "package.json");
    };
    assert.equal(binaryPath(os, cpu, fake), path.join("/nm", name, "bin", exe));
  });
}

test("every platform is an optional dependency pinned to the launcher's version", () => {
  assert.equal(PLATFORMS.length, expected.length);
  for (const p of PLATFORMS) {
    assert.equal(pkg.optionalDependencies[p.package], pkg.version, p.package);
  }
  assert.equal(Object.keys(pkg.optionalDependencies).length, PLATFORMS.length);
});

for (const [os, cpu] of [["linux", "ia32"], ["freebsd", "x64"], ["win32", "arm64"], ["aix", "ppc64"]]) {
  test(`${os}-${cpu} is unsupported, and the error says so`, () => {
    assert.throws(
      () => resolvePlatform(os, cpu),
      (err) =>
        err instanceof UnsupportedPlatformError &&
        err.message.includes(`no prebuilt binary for ${os}-${cpu}`) &&
        err.message.includes("linux-x64") &&
        err.message.includes("cargo install"),
    );
  });
}

test("a supported platform whose package is missing names the package to install", () => {
  const missing = () => {
    throw Object.assign(new Error("Cannot find module"), { code: "MODULE_NOT_FOUND" });
  };
  assert.throws(
    () => binaryPath("linux", "x64", missing),
    (err) => err.message.includes("@skillsift/cli-linux-x64 for linux-x64 is not installed"),
  );
});
