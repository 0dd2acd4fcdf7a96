#!/usr/bin/env bash
# Runs the Windows build (dist/ra3-windows-x64.exe) under Wine and checks it against the Linux binary
# (scripts/windows-smoke.ts prints the table). Installs what is missing with apt (wine64 and the mingw-w64
# cross compiler; as root, or through sudo), builds the test-only bcryptprimitives.dll shim (Bun's
# Windows runtime needs ProcessPrng, which Wine 8 lacks), and uses a fresh Wine prefix that is removed
# afterwards. RA3_WINDOWS_SMOKE=skip skips it with a message (for machines where Wine cannot be had).
set -euo pipefail
cd "$(dirname "$0")/.."
started=$(date +%s%N)
elapsed() { echo "$(( ($(date +%s%N) - started) / 1000000 )) ms"; }

if [ "${RA3_WINDOWS_SMOKE:-}" = "skip" ]; then
  echo "windows-smoke: skipped (RA3_WINDOWS_SMOKE=skip)"
  exit 0
fi

find_wine() {
  for w in "$(command -v wine64 || true)" /usr/lib/wine/wine64 "$(command -v wine || true)"; do
    if [ -n "$w" ] && [ -x "$w" ]; then echo "$w"; return; fi
  done
}
need=()
[ -n "$(find_wine)" ] || need+=(wine64)
command -v x86_64-w64-mingw32-gcc >/dev/null || need+=(gcc-mingw-w64-x86-64-win32)
if [ ${#need[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ]; then sudo=(); elif command -v sudo >/dev/null; then sudo=(sudo); else
    echo "windows-smoke: ${need[*]} missing and neither root nor sudo to install them (RA3_WINDOWS_SMOKE=skip skips)" >&2
    exit 1
  fi
  echo "windows-smoke: installing ${need[*]} with apt"
  "${sudo[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
  echo "windows-smoke: installed in $(elapsed)"
fi
wine=$(find_wine)
wineserver="$(dirname "$wine")/wineserver"
[ -x "$wineserver" ] || wineserver=$(command -v wineserver || echo true)

node_modules/.bin/bun scripts/build.ts --if-stale
mkdir -p dist/wine
shim=dist/wine/bcryptprimitives.dll
if [ ! -f "$shim" ] || [ scripts/wine/bcryptprimitives.c -nt "$shim" ] || [ scripts/wine/bcryptprimitives.def -nt "$shim" ]; then
  x86_64-w64-mingw32-gcc -O2 -shared -s -o "$shim" scripts/wine/bcryptprimitives.c scripts/wine/bcryptprimitives.def
fi

prefix_root=$(mktemp -d)
export WINEPREFIX="$prefix_root/prefix" WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml="
# shellcheck disable=SC2317 # run by the EXIT trap
cleanup() { "$wineserver" -k >/dev/null 2>&1 || true; [ -n "${RA3_KEEP_PREFIX:-}" ] || rm -rf "$prefix_root"; }
trap cleanup EXIT
"$wine" wineboot --init >/dev/null 2>&1
# A persistent wineserver: otherwise every run of the exe starts one (about 2 s each).
"$wineserver" -p >/dev/null 2>&1 || true
cp "$shim" "$WINEPREFIX/drive_c/windows/system32/bcryptprimitives.dll"
echo "windows-smoke: $("$wine" --version 2>/dev/null || echo wine), prefix and shim ready in $(elapsed)"

rc=0
node_modules/.bin/bun scripts/windows-smoke.ts --wine "$wine" --prefix "$WINEPREFIX" || rc=$?
echo "windows-smoke: $(elapsed) in all"
exit $rc
