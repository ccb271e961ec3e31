# Hostile inputs (docs/security.md): every case of tests/hostile/cases.tsv ends within its
# deadline with exactly one envelope, the expected error code and nothing written where it must
# not be. scripts/hostile-proof.sh runs the same cases against commit 0be6dc8. The engine runs
# in a subshell: its helpers (fly, code, ...) must not replace lib.sh's for later scripts.
(
	PASS=0
	FAIL=0
	source "$ROOT/tests/hostile/engine.sh"
	hostile_run "$ROOT/tests/hostile/cases.tsv"
	rm -rf "$E2E_TMP/hostile" "$E2E_TMP/hostile-slow" "$E2E_TMP/hostile-slower" "$E2E_TMP/hostile-slowest"
	echo "$PASS $FAIL" >"$E2E_TMP/hostile.counts"
)
read -r hostile_pass hostile_fail <"$E2E_TMP/hostile.counts"
rm -f "$E2E_TMP/hostile.counts"
PASS=$((PASS + hostile_pass))
FAIL=$((FAIL + hostile_fail))
