#!/usr/bin/env bash
# Runs every test runner and closes with the combined "N passed, N failed" line.
set -u
BUILD=${1:-build}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
export ROOT
total_pass=0
total_fail=0
total_skip=0
run() {
	local log
	log=$(mktemp)
	"$@" 2>&1 | tee "$log"
	local line
	line=$(grep -E '^[a-z0-9-]+: [0-9]+ passed, [0-9]+ failed' "$log" | tail -n 1)
	if [ -z "$line" ]; then
		echo "runner '$*' printed no summary line"
		total_fail=$((total_fail + 1))
	else
		p=$(sed -E 's/.*: ([0-9]+) passed.*/\1/' <<<"$line")
		f=$(sed -E 's/.*passed, ([0-9]+) failed.*/\1/' <<<"$line")
		s=$(sed -nE 's/.*failed, ([0-9]+) skipped.*/\1/p' <<<"$line")
		total_pass=$((total_pass + p))
		total_fail=$((total_fail + f))
		total_skip=$((total_skip + ${s:-0}))
	fi
	rm -f "$log"
}
run "$BUILD/unit-tests"
run "$BUILD/fuzz-replay" tests/fuzz/seeds.txt "${FUZZ_MUTATIONS:-200}"
run tests/e2e/run.sh "$BUILD"
echo "$total_pass passed, $total_fail failed, $total_skip skipped"
[ "$total_fail" -eq 0 ]
