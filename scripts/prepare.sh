#!/usr/bin/env bash
# Makes a fresh clone runnable: installs the locked dependencies when missing or stale, then compiles.
set -euo pipefail
cd "$(dirname "$0")/.."
# The lock file's hash, not its date, says whether node_modules is stale: a new checkout dates every file now.
lock_hash="$(sha256sum package-lock.json | cut -d' ' -f1)"
if [ ! -d node_modules ] || [ "$(cat node_modules/.lock-hash 2>/dev/null)" != "$lock_hash" ]; then
  npm ci --no-audit --no-fund --loglevel=error
  echo "$lock_hash" > node_modules/.lock-hash
fi
node_modules/.bin/tsc -p .
# tsc never deletes what a moved or removed source compiled to: drop it, so mocha cannot run a stale test.
if [ -d dist ]; then
  find dist -name '*.js' | while read -r out; do
    src="${out#dist/}"
    [ -f "${src%.js}.ts" ] || rm -f "$out" "$out.map"
  done
fi
