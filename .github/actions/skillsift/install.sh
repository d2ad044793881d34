#!/usr/bin/env bash
# Installs the skillsift binary for the GitHub Action (and for anyone else
# who wants a release binary in a script).
#
# It downloads the release archive of the requested version for this runner,
# verifies it against the release's SHA256SUMS, and puts the binary on PATH.
# It builds from source (cargo install from the action's own checkout) only
# when asked (SKILLSIFT_FROM_SOURCE=true) or when no release matches: the
# action is used at a branch or commit rather than a release tag, or the
# release has no archive for this platform. A checksum mismatch or a failed
# download is an error, never a reason to build.
#
# Environment (all optional):
#   SKILLSIFT_VERSION       release to install, "0.2.0" or "v0.2.0"; empty:
#                           the action's ref when it is a version tag
#   SKILLSIFT_ACTION_REF    the ref the action was used at (github.action_ref)
#   SKILLSIFT_FROM_SOURCE   "true" builds with cargo instead of downloading
#   SKILLSIFT_SOURCE        source tree for the build (default: this repo)
#   SKILLSIFT_TOOLCHAIN     rustup toolchain for the build, e.g. "1.95.0"
#   SKILLSIFT_RELEASE_BASE  where releases live (default: GitHub releases of
#                           the repository below); a file:// URL works too
#   SKILLSIFT_INSTALL_ROOT  where to install (default: $RUNNER_TEMP/skillsift)
#   RUNNER_OS, RUNNER_ARCH  the platform, as GitHub runners name it
#                           (default: from uname)
set -euo pipefail

repo_url="https://github.com/skillsift/skillsift"
bin="skillsift"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"

say() { printf '%s\n' "$*" >&2; }
# An error annotation in Actions, a plain line elsewhere.
die() {
  if [[ -n "${GITHUB_ACTIONS:-}" ]]; then
    printf '::error title=skillsift install::%s\n' "$*"
  fi
  say "error: $*"
  exit 1
}

base="${SKILLSIFT_RELEASE_BASE:-$repo_url/releases/download}"
base="${base%/}"
root="${SKILLSIFT_INSTALL_ROOT:-${RUNNER_TEMP:-${TMPDIR:-/tmp}}/skillsift}"
source_tree="${SKILLSIFT_SOURCE:-$here/../../..}"

# The platform, as the release names it (Rust target triples).
os="${RUNNER_OS:-$(uname -s)}"
arch="${RUNNER_ARCH:-$(uname -m)}"
case "$os" in
  Linux | linux) os=linux ;;
  macOS | Darwin | darwin) os=macos ;;
  Windows | MINGW* | MSYS* | CYGWIN*) os=windows ;;
esac
case "$arch" in
  X64 | x86_64 | amd64) arch=x64 ;;
  ARM64 | arm64 | aarch64) arch=arm64 ;;
esac
target=""
case "$os-$arch" in
  linux-x64) target=x86_64-unknown-linux-musl ;;
  linux-arm64) target=aarch64-unknown-linux-musl ;;
  macos-x64) target=x86_64-apple-darwin ;;
  macos-arm64) target=aarch64-apple-darwin ;;
  windows-x64) target=x86_64-pc-windows-msvc ;;
esac

build_from_source() {
  local why="$1"
  say "building $bin from source ($why)"
  command -v cargo >/dev/null 2>&1 ||
    die "cargo was not found, and building from source is needed ($why); install a Rust toolchain before this step (for example dtolnay/rust-toolchain@stable)"
  local plus=()
  if [[ -n "${SKILLSIFT_TOOLCHAIN:-}" ]]; then
    command -v rustup >/dev/null 2>&1 ||
      die "toolchain '$SKILLSIFT_TOOLCHAIN' was requested but rustup was not found"
    rustup toolchain install "$SKILLSIFT_TOOLCHAIN" --profile minimal --no-self-update
    plus=("+$SKILLSIFT_TOOLCHAIN")
  fi
  cargo "${plus[@]}" install --locked --path "$source_tree" --root "$root" --bin "$bin"
  finish "$root/bin"
}

finish() {
  local dir="$1"
  local exe="$dir/$bin"
  [[ "$os" == windows ]] && exe="$exe.exe"
  [[ -x "$exe" ]] || die "no $bin binary at $exe after installing"
  say "installed: $("$exe" --version)"
  if [[ -n "${GITHUB_PATH:-}" ]]; then
    printf '%s\n' "$dir" >>"$GITHUB_PATH"
  fi
  printf '%s\n' "$dir"
  exit 0
}

# Fetches URL to FILE. Returns 0, or 4 when there is nothing at that URL
# (HTTP 404, or a missing file for file:// URLs); dies on any other failure.
fetch() {
  local url="$1" file="$2" code=0 status
  status="$(curl -sL --retry 3 --retry-delay 2 -o "$file" -w '%{http_code}' "$url")" || code=$?
  if [[ $code -eq 37 || "$status" == 404 ]]; then
    return 4
  fi
  [[ $code -eq 0 && ( "$status" == 200 || "$status" == 000 ) ]] ||
    die "cannot download $url (curl exit $code, HTTP $status)"
}

sha256_of() {
  if command -v sha256sum >/dev/null 2>&1; then
    sha256sum "$1" | cut -d' ' -f1
  else
    shasum -a 256 "$1" | cut -d' ' -f1
  fi
}

if [[ "${SKILLSIFT_FROM_SOURCE:-false}" == true ]]; then
  build_from_source "from-source was asked for"
fi

# A second use in the same job reuses the first install.
if [[ -x "$root/bin/$bin" || -x "$root/bin/$bin.exe" ]]; then
  finish "$root/bin"
fi

version="${SKILLSIFT_VERSION:-}"
if [[ -z "$version" ]]; then
  ref="${SKILLSIFT_ACTION_REF:-}"
  if [[ "$ref" =~ ^v?[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.-]+)?$ ]]; then
    version="$ref"
  else
    build_from_source "the action is used at '${ref:-an unknown ref}', not at a release tag, so no release matches"
  fi
fi
version="${version#v}"
[[ "$version" =~ ^[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.-]+)?$ ]] ||
  die "version '$version' is not a release version (want e.g. 0.2.0)"
[[ -n "$target" ]] ||
  build_from_source "no release archive is built for $os-$arch"

ext=tar.gz
[[ "$os" == windows ]] && ext=zip
archive="$bin-$version-$target.$ext"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

if ! fetch "$base/v$version/SHA256SUMS" "$tmp/SHA256SUMS"; then
  build_from_source "release v$version has no SHA256SUMS at $base/v$version"
fi
if ! fetch "$base/v$version/$archive" "$tmp/$archive"; then
  build_from_source "release v$version has no $archive"
fi

want="$(awk -v f="$archive" '$2 == f || $2 == "*" f { print $1; exit }' "$tmp/SHA256SUMS")"
[[ -n "$want" ]] || die "SHA256SUMS of v$version does not list $archive"
got="$(sha256_of "$tmp/$archive")"
[[ "$got" == "$want" ]] ||
  die "checksum mismatch for $archive: SHA256SUMS says $want, the download is $got; not installing it"
say "verified $archive (sha256 $got)"

mkdir -p "$root/bin"
mkdir -p "$tmp/x"
if [[ "$ext" == zip ]]; then
  unzip -q -o "$tmp/$archive" -d "$tmp/x"
else
  tar -xzf "$tmp/$archive" -C "$tmp/x"
fi
found="$(find "$tmp/x" -type f \( -name "$bin" -o -name "$bin.exe" \) | head -n 1)"
[[ -n "$found" ]] || die "$archive holds no $bin binary"
cp "$found" "$root/bin/"
chmod +x "$root/bin/$(basename "$found")"
finish "$root/bin"
