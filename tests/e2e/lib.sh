# Shared helpers for end-to-end tests. Sourced by tests/e2e/run.sh and the t_*.sh scripts.
# Each check prints "ok - name" or "not ok - name" (TAP style) and counts.
: "${FLYPROF:?}" "${JCHECK:?}" "${E2E_TMP:?}"
PASS=${PASS:-0}
FAIL=${FAIL:-0}

ok() { PASS=$((PASS + 1)); echo "ok - $1"; }
notok() { FAIL=$((FAIL + 1)); echo "not ok - $1"; [ -n "${2:-}" ] && sed 's/^/#   /' <<<"$2"; }

# fly NAME EXPECTED_STATUS ARGS...: runs flyprof, checks it printed exactly one envelope whose
# exit status equals the process status and equals EXPECTED_STATUS. Output stays in $OUT.
fly() {
	local name=$1 want=$2
	shift 2
	OUT="$E2E_TMP/out.json"
	"$FLYPROF" "$@" >"$OUT" 2>"$E2E_TMP/err.txt" </dev/null
	local got=$?
	if ! "$JCHECK" envelope "$OUT" "$got" 2>"$E2E_TMP/why.txt"; then
		notok "$name" "$(cat "$E2E_TMP/why.txt"; head -c 2000 "$OUT")"
		return 1
	fi
	if [ "$got" != "$want" ]; then
		notok "$name" "exit $got, expected $want: $(head -c 1500 "$OUT")"
		return 1
	fi
	ok "$name"
}

# field PATH: prints a value of the last envelope.
field() { "$JCHECK" get "$OUT" "$1"; }

# expect NAME ACTUAL EXPECTED
expect() {
	if [ "$2" = "$3" ]; then ok "$1"; else notok "$1" "got '$2', expected '$3'"; fi
}
