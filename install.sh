#!/bin/sh
# Installs ra3 on Linux or macOS from a GitHub release, then runs `ra3 setup`:
#   curl -fsSL https://github.com/__RA3_REPOSITORY__/releases/latest/download/install.sh | sh
#   curl -fsSL …/install.sh | sh -s -- --yes        (arguments after -- go to `ra3 setup`)
# Picks this machine's binary, checks its SHA-256 against the release's SHA256SUMS and installs it to
# the stable per-user path `ra3 setup` uses (<RA3_HOME or ~/.ra3modxml>/bin/ra3). A failed download or
# a checksum mismatch exits non-zero and installs nothing.
# Environment: RA3_DOWNLOAD_BASE  URL of a folder with the assets and SHA256SUMS (default: the latest
#                                 release, or the release RA3_VERSION, e.g. v0.1.0)
#              RA3_INSTALL_DIR    where to put ra3 (default: the stable path above)
#              RA3_NO_SETUP=1     install only; do not run `ra3 setup`
set -eu

# Stamped by the release workflow with the repository it was released from.
repository="__RA3_REPOSITORY__"

fail() {
  echo "install.sh: $*" >&2
  exit 1
}

base="${RA3_DOWNLOAD_BASE:-}"
if [ -z "$base" ]; then
  case "$repository" in
    __*) fail "RA3_DOWNLOAD_BASE is not set, and this copy of install.sh did not come from a release (take the one attached to a release, or set RA3_DOWNLOAD_BASE to the folder holding the assets)" ;;
  esac
  if [ -n "${RA3_VERSION:-}" ]; then
    base="https://github.com/$repository/releases/download/$RA3_VERSION"
  else
    base="https://github.com/$repository/releases/latest/download"
  fi
fi
base="${base%/}"

case "$(uname -s)" in
  Linux) os=linux ;;
  Darwin) os=darwin ;;
  *) fail "no ra3 build for $(uname -s); on Windows use install.ps1" ;;
esac
case "$(uname -m)" in
  x86_64 | amd64) cpu=x64 ;;
  arm64 | aarch64) cpu=arm64 ;;
  *) fail "no ra3 build for the $(uname -m) processor" ;;
esac
[ "$os-$cpu" != "linux-arm64" ] || fail "no ra3 build for Linux on arm64 yet"
asset="ra3-$os-$cpu"

state="${RA3_HOME:-}"
[ -n "$state" ] || state="$HOME/.ra3modxml"
install_dir="${RA3_INSTALL_DIR:-$state/bin}"

if command -v curl >/dev/null 2>&1; then
  download() { curl -fsSL --retry 2 -o "$2" "$1"; }
elif command -v wget >/dev/null 2>&1; then
  download() { wget -q -O "$2" "$1"; }
else
  fail "neither curl nor wget is installed"
fi
if command -v sha256sum >/dev/null 2>&1; then
  sha256() { sha256sum "$1" | cut -d ' ' -f 1; }
elif command -v shasum >/dev/null 2>&1; then
  sha256() { shasum -a 256 "$1" | cut -d ' ' -f 1; }
else
  fail "neither sha256sum nor shasum is installed, so the download cannot be checked"
fi

tmp=$(mktemp -d 2>/dev/null || mktemp -d -t ra3-install)
trap 'rm -rf "$tmp"' EXIT INT TERM

echo "install.sh: downloading $asset from $base"
download "$base/SHA256SUMS" "$tmp/SHA256SUMS" || fail "could not download $base/SHA256SUMS; nothing was installed"
download "$base/$asset" "$tmp/$asset" || fail "could not download $base/$asset; nothing was installed"
expected=$(awk -v name="$asset" '$2 == name || $2 == "*" name { print tolower($1) }' "$tmp/SHA256SUMS" | head -n 1)
[ -n "$expected" ] || fail "SHA256SUMS from $base has no line for $asset; nothing was installed"
actual=$(sha256 "$tmp/$asset")
if [ "$actual" != "$expected" ]; then
  fail "checksum mismatch for $asset: SHA256SUMS says $expected, the download is $actual; nothing was installed"
fi

mkdir -p "$install_dir" || fail "could not create $install_dir"
target="$install_dir/ra3"
# Copy next to the target, then rename over it: a running ra3 keeps its old file, nobody sees half a file.
cp "$tmp/$asset" "$target.download.$$" || fail "could not write to $install_dir"
chmod 755 "$target.download.$$"
mv -f "$target.download.$$" "$target" || { rm -f "$target.download.$$"; fail "could not replace $target"; }
echo "install.sh: installed $("$target" --version) at $target (SHA-256 checked)"

if [ "${RA3_NO_SETUP:-}" = "1" ]; then
  echo "install.sh: RA3_NO_SETUP=1: run $target setup when you are ready"
  exit 0
fi
# Piped into sh, our stdin is the script: give setup the terminal so it can ask its question.
if [ -t 1 ] && (exec </dev/tty) 2>/dev/null; then
  exec "$target" setup "$@" </dev/tty
fi
exec "$target" setup "$@"
