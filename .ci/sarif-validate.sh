#!/usr/bin/env bash
# Validates the SARIF of every bug example with Microsoft's SARIF
# multitool (`sarif-multitool validate`: the 2.1.0 schema and the SARIF
# rules) and fails on any error it reports. The multitool comes from the
# npm registry into a local prefix, installed once.
#   .ci/sarif-validate.sh [WISER_BINARY]   (default: target/release/wiser)
set -euo pipefail
cd "$(dirname "$0")/.."
wiser=${1:-target/release/wiser}
prefix=${SARIF_MULTITOOL_PREFIX:-target/sarif-multitool}
tool="$prefix/node_modules/.bin/sarif-multitool"
if ! [ -x "$tool" ]; then
  npm install --prefix "$prefix" --no-save --no-audit --no-fund --loglevel=error \
    @microsoft/sarif-multitool@5.7.0
fi
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
n=0
for f in examples/*.imp examples/c/*.c; do
  case "$f" in *.c) prefix_re='//' ;; *) prefix_re='#' ;; esac
  header=$(awk -v p="$prefix_re" 'index($0, p) != 1 { exit } { print }' "$f")
  grep -q "^$prefix_re expect: bug" <<<"$header" || continue
  args=$(sed -n "s|^$prefix_re args:||p" <<<"$header")
  name=$(echo "$f" | tr '/.' '__')
  # The args lines are shell-quoted (e.g. --assume 'x >= 1').
  eval "set -- $args"
  status=0
  "$wiser" check "$f" "$@" --format sarif >"$out/$name.sarif" || status=$?
  if [ "$status" -ne 1 ]; then
    echo "sarif-validate: $f: wiser exited $status (expected 1: bug)" >&2
    exit 1
  fi
  n=$((n + 1))
done
# The multitool exits 0 even when a file has errors: read its own log.
"$tool" validate "$out"/*.sarif --output "$out/validation.sarif" --log ForceOverwrite >"$out/console.txt" || {
  cat "$out/console.txt" >&2
  exit 1
}
errors=$(node -e '
  const log = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
  const bad = log.runs.flatMap(r => (r.results || []).filter(x => (x.level || "warning") === "error"));
  for (const b of bad) console.log(b.ruleId, JSON.stringify(b.message));
  console.log(bad.length);
' "$out/validation.sarif")
count=$(tail -n 1 <<<"$errors")
if [ "$count" != 0 ]; then
  grep -E ': error ' "$out/console.txt" >&2 || echo "$errors" >&2
  echo "sarif-validate: $count error(s) in the SARIF of $n bug examples" >&2
  exit 1
fi
echo "sarif-validate: the SARIF of $n bug examples is valid (sarif-multitool validate)"
