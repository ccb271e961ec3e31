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
skips=$(mktemp)
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
	grep -E '# SKIP |^SKIP [^:]*: ' "$log" | sed -E 's/.*# SKIP //; s/^SKIP [^:]*: //' >>"$skips"
	rm -f "$log"
}
run "$BUILD/unit-tests"
run "$BUILD/fuzz-replay" tests/fuzz/seeds.txt "${FUZZ_MUTATIONS:-200}"
run tests/e2e/run.sh "$BUILD"
# What did not run and why: each skip line stands for a block of checks that needs data or
# tools this machine lacks, named with where the suite looks for them.
if [ "$total_skip" -gt 0 ]; then
	echo "skipped $total_skip block(s) of checks:"
	sort "$skips" | uniq -c | sed 's/^/  /'
	grep -q FLYPROF_CORPUS "$skips" &&
		echo "  the rocprofv3 corpus is read from \$FLYPROF_CORPUS, by default ../shared/corpus beside the checkout"
	grep -q FLYPROF_SAMPLES "$skips" &&
		echo "  the Nsight Compute samples are read from \$FLYPROF_SAMPLES, by default ../shared/samples"
fi
rm -f "$skips"
echo "$total_pass passed, $total_fail failed, $total_skip skipped"
[ "$total_fail" -eq 0 ]
