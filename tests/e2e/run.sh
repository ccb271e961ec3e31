#!/usr/bin/env bash
# End-to-end tests of the built binary:
#  1. golden cases: tests/golden/<case>/args (one argument per line; ${CORPUS}, ${TMP} and
#     ${ROOT} expanded) and expected.json (the envelope with paths and times normalised).
#     UPDATE_GOLDEN=1 rewrites expected.json from the current output.
#  2. scripted checks: every tests/e2e/t_*.sh, sourced with lib.sh.
# Closes with "e2e: N passed, N failed".
set -u
BUILD=${1:-build}
ROOT=$(cd "$(dirname "$0")/../.." && pwd -P)
export FLYPROF="$ROOT/$BUILD/flyprof" JCHECK="$ROOT/$BUILD/tools/jcheck"
export FAKE_DIR="$ROOT/$BUILD/fake" BUILD_DIR="$ROOT/$BUILD" ROOT
E2E_TMP=$(cd "$(mktemp -d "${TMPDIR:-/tmp}/flyprof-e2e-XXXXXX")" && pwd -P)
export E2E_TMP
trap 'rm -rf "$E2E_TMP"' EXIT
CORPUS=${FLYPROF_CORPUS:-}
# Physical paths: flyprof reports realpath()s, and the normalisation must see the same text.
[ -n "$CORPUS" ] && CORPUS=$(cd "$CORPUS" && pwd -P)
export CORPUS
# Isolate from the caller's configuration.
for v in $(env | grep -o '^FLYPROF_[A-Z_]*' | grep -v -E '^FLYPROF_(CORPUS|SAMPLES)$'); do unset "$v"; done
PASS=0
FAIL=0
SKIP=0
source "$ROOT/tests/e2e/lib.sh"

normalise() {
	local s=$1
	[ -n "$CORPUS" ] && s=${s//"$CORPUS"/<CORPUS>}
	s=${s//"$E2E_TMP"/<TMP>}
	s=${s//"$ROOT"/<ROOT>}
	printf '%s' "$s"
}

# E2E_ONLY="t_map t_report" (script names without .sh, or "golden", space-separated) runs just
# those parts while working on one area; the full suite is what CI runs. A name that matches no
# part is an error, not a quiet run of nothing.
ONLY=${E2E_ONLY:-}
wanted() { [ -z "$ONLY" ] || [[ " $ONLY " == *" $1 "* ]]; }
for want in $ONLY; do
	if [ "$want" != golden ] && [ ! -f "$ROOT/tests/e2e/$want.sh" ]; then
		echo "E2E_ONLY: no part named $want (tests/e2e/$want.sh)" >&2
		exit 2
	fi
done
for dir in "$ROOT"/tests/golden/*/; do
	[ -f "$dir/args" ] || continue
	wanted golden || continue
	name="golden/$(basename "$dir")"
	if grep -q '${CORPUS}' "$dir/args" && [ -z "$CORPUS" ]; then
		echo "ok - $name # SKIP FLYPROF_CORPUS not set"
		SKIP=$((SKIP + 1))
		continue
	fi
	args=()
	while IFS= read -r line || [ -n "$line" ]; do
		line=${line//'${CORPUS}'/$CORPUS}
		line=${line//'${TMP}'/$E2E_TMP}
		line=${line//'${ROOT}'/$ROOT}
		args+=("$line")
	done <"$dir/args"
	rm -rf "$E2E_TMP/work"
	mkdir -p "$E2E_TMP/work"
	envs=()
	[ -f "$dir/env" ] && mapfile -t envs <"$dir/env"
	(cd "$E2E_TMP/work" && env "${envs[@]}" "$FLYPROF" "${args[@]}" >"$E2E_TMP/golden.raw" 2>/dev/null </dev/null)
	status=$?
	if ! "$JCHECK" envelope "$E2E_TMP/golden.raw" "$status" 2>"$E2E_TMP/why.txt"; then
		notok "$name" "$(cat "$E2E_TMP/why.txt")"
		continue
	fi
	normalise "$(cat "$E2E_TMP/golden.raw")" >"$E2E_TMP/golden.sub"
	"$JCHECK" norm "$E2E_TMP/golden.sub" - >"$E2E_TMP/golden.json"
	if [ "${UPDATE_GOLDEN:-}" = 1 ]; then
		cp "$E2E_TMP/golden.json" "$dir/expected.json"
	fi
	if [ -f "$dir/expected.json" ] && "$JCHECK" equal "$dir/expected.json" "$E2E_TMP/golden.json"; then
		ok "$name"
	else
		notok "$name" "$(diff "$dir/expected.json" "$E2E_TMP/golden.json" 2>&1 | head -40)"
	fi
done

for t in "$ROOT"/tests/e2e/t_*.sh; do
	[ -f "$t" ] || continue
	wanted "$(basename "$t" .sh)" || continue
	echo "# $(basename "$t")"
	source "$t"
done

echo "e2e: $PASS passed, $FAIL failed, $SKIP skipped"
[ "$FAIL" -eq 0 ]
