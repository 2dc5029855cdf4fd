#!/usr/bin/env bash
# Runs each test on its own, as `npm test -- --grep '<its title>'` would, to show that no test needs
# another to have run first. One mocha run (and one global setup) per test, so it takes a while: not
# part of npm test. Arguments narrow it to tests whose compiled file path contains one of them,
# e.g. `bash scripts/test-alone.sh test/api/ test/browser/`. Set TEST_DATABASE_URL and
# TEST_REDIS_KEY_PREFIX as for npm test.
set -uo pipefail
cd "$(dirname "$0")/.."
bash scripts/prepare.sh || exit 1

# One title a line, escaped for --grep (a regular expression matched against the full title).
titles=$(node_modules/.bin/mocha --dry-run --reporter json | node -e '
  const parts = process.argv.slice(1);
  let json = "";
  process.stdin.on("data", (chunk) => (json += chunk)).on("end", () => {
    const titles = JSON.parse(json).tests
      .filter((test) => parts.length === 0 || parts.some((part) => test.file.includes(part)))
      .map((test) => test.title.replace(/[.*+?^${}()|[\]\\\/]/g, "\\$&"));
    console.log([...new Set(titles)].join("\n"));
  });
' "$@") || exit 1

checked=0
failed=()
while IFS= read -r title; do
  [ -n "$title" ] || continue
  checked=$((checked + 1))
  # A title that matched nothing would pass without testing anything: count that as a failure too.
  if ! output=$(node_modules/.bin/mocha --grep "$title" 2>&1) || grep -q '^ *0 passing' <<< "$output"; then
    failed+=("$title")
    # The failures as mocha reports them, or the end of the output if it stopped before any test.
    summary=$(sed -n '/ failing$/,$p' <<< "$output" | head -n 40)
    printf 'FAILED alone: %s\n%s\n\n' "$title" "${summary:-$(tail -n 40 <<< "$output")}"
  fi
done <<< "$titles"

echo "$checked titles run alone, ${#failed[@]} failed"
for title in "${failed[@]}"; do echo "  $title"; done
[ ${#failed[@]} -eq 0 ]
