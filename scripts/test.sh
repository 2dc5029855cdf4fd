#!/usr/bin/env bash
# The whole test suite: type check (the build), lint and layout (Prettier), the layering rules
# (.dependency-cruiser.cjs), the unit tests of pure logic (no server, seconds), then every integration and
# browser test against real Redis, PostgreSQL and Chromium. Extra arguments go to the integration run's mocha
# (e.g. --grep).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/prepare.sh
node_modules/.bin/eslint .
node_modules/.bin/prettier --check . --log-level warn
node_modules/.bin/depcruise api engine worker scripts test --output-type err
node_modules/.bin/mocha --config .mocharc.unit.json
node_modules/.bin/mocha "$@"
