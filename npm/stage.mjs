#!/usr/bin/env node
// Stages the npm packages from built binaries, ready for `npm pack` or
// `npm publish`: the launcher `skillsift` (npm/skillsift, with its version
// and its optional dependencies set to the release's version) and one
// package per platform holding that platform's binary.
//
//   node npm/stage.mjs --out DIR [--version X.Y.Z] [--launcher]
//                      [--binary TARGET=PATH ...]
//
// TARGET is a Rust target triple from npm/skillsift/lib/platforms.json.
// The version defaults to the one in the repository's Cargo.toml.

import { readFileSync, mkdirSync, copyFileSync, writeFileSync, cpSync, chmodSync, rmSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const launcherSrc = join(here, "skillsift");
const platforms = JSON.parse(readFileSync(join(launcherSrc, "lib", "platforms.json"), "utf8"));

function fail(msg) {
  process.stderr.write(`stage.mjs: ${msg}\n`);
  process.exit(2);
}

function cargoVersion() {
  const toml = readFileSync(join(here, "..", "Cargo.toml"), "utf8");
  // The first `version = "…"` of [workspace.package] or [package].
  let section = "";
  for (const line of toml.split(/\r?\n/)) {
    const head = line.match(/^\s*\[([^\]]+)\]\s*$/);
    if (head) {
      section = head[1].trim();
      continue;
    }
    const v = line.match(/^\s*version\s*=\s*"([^"]+)"/);
    if (v && (section === "workspace.package" || section === "package")) return v[1];
  }
  fail("no version in Cargo.toml's [workspace.package] or [package]");
}

const args = process.argv.slice(2);
let out = null;
let version = null;
let launcher = false;
const binaries = [];
for (let i = 0; i < args.length; i++) {
  const a = args[i];
  if (a === "--out") out = args[++i];
  else if (a === "--version") version = args[++i];
  else if (a === "--launcher") launcher = true;
  else if (a === "--binary") binaries.push(args[++i]);
  else fail(`unknown argument ${JSON.stringify(a)}`);
}
if (!out) fail("--out DIR is required");
if (!launcher && binaries.length === 0) fail("nothing to stage: give --launcher and/or --binary TARGET=PATH");
version = version || cargoVersion();
if (!/^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/.test(version)) fail(`not a release version: ${version}`);
out = resolve(out);
mkdirSync(out, { recursive: true });

if (launcher) {
  const dest = join(out, "skillsift");
  rmSync(dest, { recursive: true, force: true });
  cpSync(launcherSrc, dest, { recursive: true, filter: (src) => !src.includes(`${launcherSrc}/test`) && !src.includes("node_modules") });
  const pkg = JSON.parse(readFileSync(join(dest, "package.json"), "utf8"));
  pkg.version = version;
  pkg.optionalDependencies = Object.fromEntries(platforms.map((p) => [p.package, version]));
  writeFileSync(join(dest, "package.json"), JSON.stringify(pkg, null, 2) + "\n");
  process.stdout.write(`${dest}\n`);
}

for (const spec of binaries) {
  const eq = spec.indexOf("=");
  if (eq < 0) fail(`--binary wants TARGET=PATH, got ${JSON.stringify(spec)}`);
  const target = spec.slice(0, eq);
  const binary = spec.slice(eq + 1);
  const p = platforms.find((x) => x.target === target);
  if (!p) fail(`no npm platform for target ${target} (known: ${platforms.map((x) => x.target).join(", ")})`);
  const dir = join(out, p.package.replace("@skillsift/", ""));
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(join(dir, "bin"), { recursive: true });
  copyFileSync(binary, join(dir, "bin", p.exe));
  chmodSync(join(dir, "bin", p.exe), 0o755);
  const pkg = {
    name: p.package,
    version,
    description: `The skillsift binary for ${p.os}-${p.cpu} (installed by the skillsift package).`,
    repository: { type: "git", url: "git+https://github.com/skillsift/skillsift.git" },
    homepage: "https://github.com/skillsift/skillsift",
    os: [p.os],
    cpu: [p.cpu],
    files: ["bin/"],
    preferUnplugged: true,
  };
  writeFileSync(join(dir, "package.json"), JSON.stringify(pkg, null, 2) + "\n");
  writeFileSync(
    join(dir, "README.md"),
    `# ${p.package}\n\nThe \`skillsift\` binary for ${p.os}-${p.cpu} (Rust target \`${p.target}\`).\nInstall \`skillsift\` instead: it picks this package on this platform.\n`,
  );
  process.stdout.write(`${dir}\n`);
}
