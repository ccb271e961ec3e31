#!/usr/bin/env bash
# Runs a subset of the hostile-input cases with flyprof under valgrind memcheck. A case fails
# when memcheck reports an error (invalid read/write, use of uninitialised memory, a definite
# leak: valgrind's exit status 99 then disagrees with the envelope) or when the case itself
# fails. The subset leaves out the cases whose inputs are large on purpose (signals on big
# traces, concurrency, 40,000 kernels), which memcheck would take minutes over.
#
#   scripts/valgrind-hostile.sh [BUILD_DIR [ID_REGEX]]       defaults: build, the subset below
#
# Prints one TAP line per case and "valgrind: N passed, N failed". docs/security.md records
# the last result.
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd -P)
BUILD=${1:-build}
case "$BUILD" in /*) ;; *) BUILD=$ROOT/$BUILD ;; esac
SUBSET=${2:-'^(fifo-(code-X-report|wave-D-bubbles|snapshots-D-map|capture-X-report|ktrace-X-report|codeobject-map)|chardev-code-X-report|sock-wave-D-bubbles|adir-manifest-X-report|zero-snapshots-D-map|sparse64G-(code-X-report|codeobject-map)|limit-(att-wave|bad-value)|folded-(link|fifo|new)|(sarif|svg|speedscope|timeline)-new|sarif-link|lock-(link-dangling-X|fifo-X)|out-inside-dispatch|folded-code-json|codeobj-sibling-capture-report|bad-wave-report-out|ncu-dispatch-dotdot|r-(code|wave|filenames|occupancy|realtime|snapshots|manifest|ktrace|codeobject|diff|ncu)-)'}
command -v valgrind >/dev/null || { echo "valgrind-hostile: valgrind is not installed" >&2; exit 69; }
[ -x "$BUILD/flyprof" ] || { echo "valgrind-hostile: $BUILD/flyprof missing; run make" >&2; exit 78; }
grep -q -a __asan_init "$BUILD/flyprof" &&
	{ echo "valgrind-hostile: $BUILD/flyprof is an ASan build; use a plain one" >&2; exit 78; }

E2E_TMP=$(mktemp -d "${TMPDIR:-/tmp}/flyprof-valgrind-XXXXXX")
E2E_TMP=$(cd "$E2E_TMP" && pwd -P)
trap 'rm -rf "$E2E_TMP"' EXIT
# flyprof under memcheck, as one executable path the engine can run
cat >"$E2E_TMP/flyprof" <<EOF
#!/bin/sh
exec valgrind --quiet --error-exitcode=99 --leak-check=full --show-leak-kinds=definite \\
	--errors-for-leak-kinds=definite "$BUILD/flyprof" "\$@"
EOF
chmod +x "$E2E_TMP/flyprof"
grep -E -- "$SUBSET" "$ROOT/tests/hostile/cases.tsv" | grep -v '^#' >"$E2E_TMP/subset.tsv"

export FLYPROF="$E2E_TMP/flyprof" JCHECK="$BUILD/tools/jcheck" BUILD_DIR="$BUILD" ROOT E2E_TMP
export HOSTILE_TIMEOUT=${HOSTILE_TIMEOUT:-300}
PASS=0
FAIL=0
ok() { PASS=$((PASS + 1)); echo "ok - $1"; }
notok() { FAIL=$((FAIL + 1)); echo "not ok - $1"; [ -n "${2:-}" ] && sed 's/^/#   /' <<<"$2"; }
source "$ROOT/tests/hostile/engine.sh"
hostile_run "$E2E_TMP/subset.tsv"
echo "valgrind: $PASS passed, $FAIL failed ($(valgrind --version), $(wc -l <"$E2E_TMP/subset.tsv") cases)"
[ "$FAIL" -eq 0 ]
