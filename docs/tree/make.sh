#!/usr/bin/env bash
# Draws the pictures of symbolic execution trees shown in the README
# (`wiser check --tree`), with each example's own arguments (its `# args:`
# line). Run from anywhere: `bash docs/tree/make.sh`.
set -euo pipefail
cd "$(dirname "$0")/../.."
cargo build --release -q -p wiser
wiser=target/release/wiser
draw() { # FILE OUT ARGS...: exit 1 (a bug found) is expected
  local file=$1 out=$2
  shift 2
  "$wiser" check "$file" -q -j 1 --tree "$out" "$@" >/dev/null || [ $? -eq 1 ]
}
for ext in svg html; do
  draw examples/min3.imp docs/tree/min3.$ext --all
  draw examples/nested_loops.imp docs/tree/nested_loops.$ext
done
echo "drawn: docs/tree/{min3,nested_loops}.{svg,html}"
