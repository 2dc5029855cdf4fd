#!/usr/bin/env bash
# Makes a fresh clone runnable: installs the locked dependencies when missing or stale, then compiles.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm ci --no-audit --no-fund --loglevel=error
fi
node_modules/.bin/tsc -p .
# tsc never deletes what a moved or removed source compiled to: drop it, so mocha cannot run a stale test.
if [ -d dist ]; then
  find dist -name '*.js' | while read -r out; do
    src="${out#dist/}"
    [ -f "${src%.js}.ts" ] || rm -f "$out" "$out.map"
  done
fi
