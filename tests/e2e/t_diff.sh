# `diff`: a bundle against itself has zero deltas and passes any gate; a constructed regression
# fails the gate with REGRESSION (exit 1); the noise floor is reported.
G="$ROOT/tests/golden/diff_regression"
fly "diff without --after is BAD_ARGS" 78 diff --before "$G/before.json"
fly "diff of a missing side is NO_ARTIFACT" 66 diff --before "$G/before.json" --after "$E2E_TMP/none"
fly "diff of a file with itself" 0 diff --before "$G/before.json" --after "$G/before.json" --gate 0 --format json
expect "self diff: targeted delta 0" "$(field data.verdict.delta_pp)" "0"
expect "self diff: total delta 0" "$(field data.totals.stall_pct_of_latency.delta_pp)" "0"
expect "self diff: gate passed" "$(field data.gate.failed)" "false"
fly "constructed regression fails the gate" 1 diff --before "$G/before.json" --after "$G/after.json" --gate 5 --format json
expect "regression code" "$(field error.code)" "REGRESSION"
expect "regression verdict class" "$(field error.verdict.class)" "vmem_wait"
expect "regression verdict delta" "$(field error.verdict.delta_pp)" "10"
fly "a wide gate passes the same change" 0 diff --before "$G/before.json" --after "$G/after.json" --gate 20 --format json
expect "outcome regressed" "$(field data.verdict.outcome)" "regressed"
fly "the reverse change improved" 0 diff --before "$G/after.json" --after "$G/before.json" --gate 0 --format json
expect "outcome improved" "$(field data.verdict.outcome)" "improved"
expect "noise floor is stated" "$(field data.noise.floor_pp)" "0"
if [ -z "$CORPUS" ]; then
	echo "ok - diff corpus checks # SKIP FLYPROF_CORPUS not set"
	SKIP=$((SKIP + 1))
else
	d=$(ls -d "$CORPUS"/rmsnorm/att/big/ui_output_* | head -1)
	fly "diff of a raw dispatch with itself" 0 diff --before "$d" --after "$d" --gate 0 --format json
	expect "raw self diff: targeted delta 0" "$(field data.verdict.delta_pp)" "0"
	"$FLYPROF" report --bundle "$d" --out "$E2E_TMP/d1" >/dev/null 2>&1
	fly "diff of a report bundle with itself" 0 diff --before "$E2E_TMP/d1" --after "$E2E_TMP/d1" --gate 0 --format json
	expect "bundle self diff reads report.json" "$(field data.before_input.source)" "report.json"
	expect "bundle self diff: total delta 0" "$(field data.totals.stall_pct_of_latency.delta_pp)" "0"
	d2=$(ls -d "$CORPUS"/vec_add/att/big/ui_output_* | head -1)
	fly "diff of two different kernels runs" 0 diff --before "$E2E_TMP/d1" --after "$d2" --format json
	rm -rf "$E2E_TMP/d1"
fi
# One model: diff reads every input through its backend and refuses what it cannot compare.
if [ -z "$CORPUS" ] || [ -z "${FLYPROF_SAMPLES:-}" ] || [ ! -d "$FLYPROF_SAMPLES/ncu-h200" ]; then
	echo "ok - diff across backends # SKIP FLYPROF_CORPUS or FLYPROF_SAMPLES not set"
	SKIP=$((SKIP + 1))
else
	NS="$FLYPROF_SAMPLES/ncu-h200"
	fly "diff of an Nsight Compute export folder with itself" 0 diff --before "$NS" --after "$NS" --dispatch cuda --gate 0
	expect "ncu self diff: targeted class" "$(field data.verdict.class)" "long_scoreboard"
	expect "ncu self diff: kernel duration shown" "$(field data.durations.before.us)" "332.7"
	"$FLYPROF" bubbles --bundle "$NS" --dispatch cuda --out "$E2E_TMP/nvb" >/dev/null 2>&1
	"$FLYPROF" bubbles --bundle "$NS" --dispatch triton --out "$E2E_TMP/nvt" >/dev/null 2>&1
	fly "diff of an AMD capture against an NVIDIA one is INCOMPARABLE" 65 diff --before "$CORPUS/rmsnorm" --after "$E2E_TMP/nvb"
	expect "incomparable: code" "$(field error.code)" "INCOMPARABLE"
	expect "incomparable: the vendors are named" "$(field error.vendors.after)" "nvidia"
	fly "diff of two NVIDIA kernels runs, with a warning" 0 diff --before "$E2E_TMP/nvb" --after "$E2E_TMP/nvt"
	case "$(field warnings)" in *"different kernels"*) ok "diff warns on different kernels" ;; *) notok "diff warns on different kernels" "$(field warnings)" ;; esac
	rm -rf "$E2E_TMP/nvb" "$E2E_TMP/nvt"
fi
fly "a failed gate keeps the comparison in the envelope" 1 diff --before "$G/before.json" --after "$G/after.json" --gate 5
expect "failed gate: error.data.verdict" "$(field error.data.verdict.class)" "vmem_wait"
