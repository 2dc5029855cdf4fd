#!/usr/bin/env bash
# Makes a fresh clone runnable: installs the locked dependencies when missing or stale, then compiles.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm ci --no-audit --no-fund --loglevel=error
fi
node_modules/.bin/tsc -p .
