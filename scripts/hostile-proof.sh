#!/usr/bin/env bash
# Runs the hostile-input suite (tests/hostile/cases.tsv) against an older commit and against
# the current build, and prints, per failure kind of issue 14, how many cases fail on each.
# The older commit (default 0be6dc8, the one the issue was found on) is checked out into a
# temporary git worktree and only its binary is built; the cases, the example bundle and the
# test tools (jcheck, mksock, gen_att) come from this checkout, so both binaries face exactly
# the same inputs. docs/security.md records the result.
#
#   scripts/hostile-proof.sh [COMMIT [BUILD_DIR]]      defaults: 0be6dc8 build
#
# HOSTILE_TIMEOUT_OLD (default 5) and HOSTILE_TIMEOUT_NEW (default 30, the suite's own) are the
# deadlines per case; a hang counts as a failure. The old commit hangs on every FIFO case, so
# its deadline is kept short to finish in minutes.
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd -P)
BASE=${1:-0be6dc8}
BUILD=${2:-build}
case "$BUILD" in /*) ;; *) BUILD=$ROOT/$BUILD ;; esac
for exe in flyprof tools/jcheck tools/mksock bench/gen_att; do
	[ -x "$BUILD/$exe" ] || { echo "hostile-proof: $BUILD/$exe missing; run make first" >&2; exit 78; }
done
WORK=$(mktemp -d "${TMPDIR:-/tmp}/flyprof-proof-XXXXXX")
WORK=$(cd "$WORK" && pwd -P)
OLD="$WORK/old"
cleanup() {
	git -C "$ROOT" worktree remove --force "$OLD" >/dev/null 2>&1
	rm -rf "$WORK"
}
trap cleanup EXIT

echo "== building $BASE in a temporary worktree"
git -C "$ROOT" worktree add --detach "$OLD" "$BASE" >/dev/null 2>&1 ||
	{ echo "hostile-proof: cannot check out $BASE" >&2; exit 1; }
make -C "$OLD" -j"${JOBS:-2}" build/flyprof >"$WORK/build.log" 2>&1 ||
	{ tail -20 "$WORK/build.log"; exit 1; }

# run_suite NAME BINARY: the engine in a subshell; prints "kind cases failed" lines to NAME.kinds
run_suite() {
	local name=$1 bin=$2 deadline=$3
	(
		export HOSTILE_TIMEOUT=$deadline
		export FLYPROF=$bin JCHECK=$BUILD/tools/jcheck BUILD_DIR=$BUILD ROOT
		E2E_TMP=$(mktemp -d "$WORK/$name-XXXXXX")
		export E2E_TMP
		PASS=0
		FAIL=0
		ok() { PASS=$((PASS + 1)); }
		notok() {
			FAIL=$((FAIL + 1))
			printf '%s: %s\n' "$1" "$(head -c 200 <<<"${2:-}" | tr '\n' ' ')" >>"$WORK/$name.failures"
		}
		source "$ROOT/tests/hostile/engine.sh"
		hostile_run "$ROOT/tests/hostile/cases.tsv"
		for k in "${!HOSTILE_KIND_CASES[@]}"; do
			echo "$k ${HOSTILE_KIND_CASES[$k]} ${HOSTILE_FAILED_KINDS[$k]:-0}"
		done | sort -k1,1 >"$WORK/$name.kinds"
		echo "$PASS $FAIL" >"$WORK/$name.total"
		rm -rf "$E2E_TMP"
	)
}
T_OLD=${HOSTILE_TIMEOUT_OLD:-5}
T_NEW=${HOSTILE_TIMEOUT_NEW:-30}
echo "== cases against $BASE (deadline ${T_OLD}s per case)"
run_suite old "$OLD/build/flyprof" "$T_OLD"
echo "== cases against the current build (deadline ${T_NEW}s per case)"
run_suite new "$BUILD/flyprof" "$T_NEW"

printf '\n| kind | cases | fail on %s | fail now |\n|---|---|---|---|\n' "$BASE"
join "$WORK/old.kinds" "$WORK/new.kinds" | sort -n | while read -r k n f_old _ f_new; do
	printf '| %s | %s | %s | %s |\n' "$k" "$n" "$f_old" "$f_new"
done
read -r po fo <"$WORK/old.total"
read -r pn fn <"$WORK/new.total"
printf '| all | %s | %s | %s |\n' "$((po + fo))" "$fo" "$fn"
if [ -s "$WORK/new.failures" ]; then
	echo
	echo "failing now:"
	cat "$WORK/new.failures"
fi
# Every kind 1-10 must have a case that fails on the old commit; none may fail now.
missing=""
for k in 1 2 3 4 5 6 7 8 9 10; do
	f=$(awk -v k="$k" '$1 == k { print $3 }' "$WORK/old.kinds")
	[ "${f:-0}" -gt 0 ] || missing="$missing $k"
done
[ -z "$missing" ] || echo "kinds without a case failing on $BASE:$missing"
[ -z "$missing" ] && [ "$fn" -eq 0 ]
