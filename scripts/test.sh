#!/usr/bin/env bash
# The whole test suite: type check (the build), lint and layout (Prettier), then every integration and browser test
# against real Redis, PostgreSQL and Chromium. Extra arguments go to mocha (e.g. --grep).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/prepare.sh
node_modules/.bin/eslint .
node_modules/.bin/prettier --check . --log-level warn
node_modules/.bin/mocha "$@"
