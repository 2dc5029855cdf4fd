#!/usr/bin/env bash
# The fault suite: the real API and worker processes against a private Redis (AOF everysec) that it
# kills, restarts and wipes, and PostgreSQL behind a TCP proxy that it cuts.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/prepare.sh
node_modules/.bin/mocha --config .mocharc.faults.json "$@"
