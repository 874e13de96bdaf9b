#!/usr/bin/env bash
# Execute every notebook RUNS times (default 2) with plain
# `jupyter nbconvert --to notebook --execute` (nbclient alone, no lossbook
# runner) into a temporary folder, leaving notebooks/ as it is, and check
# each run for missing output with the rules of scripts/run_notebooks.ts.
# Prints each run's check (one "notebooks checked: N passed, N failed" line
# per run) and exits 1 when any notebook of any run misses an output.
#
# Usage: bash scripts/plain_nbconvert_runs.sh [RUNS]
set -uo pipefail
cd "$(dirname "$0")/.."
runs=${1:-2}
plain=$(mktemp -d)
trap 'rm -rf "$plain"' EXIT
status=0
for run in $(seq 1 "$runs"); do
  echo "-- plain nbconvert run $run of $runs"
  for nb in notebooks/*.ipynb; do
    case "$(basename "$nb")" in _*) continue ;; esac
    if ! jupyter nbconvert --to notebook --execute --output-dir "$plain/run$run" "$nb" >"$plain/nbconvert.log" 2>&1; then
      echo "nbconvert exited non-zero on $nb (run $run):"
      grep -v -E 'Debugger|frozen|PYDEVD|debugger miss' "$plain/nbconvert.log" | tail -15
    fi
  done
  deno run --allow-read scripts/run_notebooks.ts --check "$plain/run$run" || status=1
done
exit $status
