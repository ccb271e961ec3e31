# `run --backend ncu` without a GPU: a stand-in ncu (tests/fake/ncu-replay.sh) runs the program
# and replays committed H200 exports, so the capture driver's argv, bundle layout, typed errors
# and the report on the result are checked here; the same path ran on the H200 (docs/nvidia.md).
NCU="$ROOT/tests/fake/ncu-replay.sh"
export FAKE_NCU_CASE="$ROOT/tests/nvidia-kernels/cases/cu_transpose_conflict"
RB="$E2E_TMP/nvrun"
fly "nvidia run: capture and report" 0 run transpose_conflict --backend ncu --ncu "$NCU" \
	--bundle "$RB" -- /bin/true
expect "nvidia run: rank 1 is the bank-conflict finding" \
	"$(field data.report.recommendations.0.rule)" "ncu_shared_bank_conflicts"
expect "nvidia run: on the defect's line" "$(field data.report.recommendations.0.source)" \
	"/src/nvk/defects.cu:34"
expect "nvidia run: ncu's -k filter" "$(field data.capture.kernel_filter)" "transpose_conflict"
expect "nvidia run: kernel from the details export" "$(field data.capture.kernel)" \
	"transpose_conflict(const float *, float *, int)"
for f in capture.json report.json REPORT.md ncu/source_sass.csv ncu/source_correlated.csv \
	ncu/details.csv ncu/raw.csv ncu/report.ncu-rep logs/ncu_profile.log; do
	[ -e "$RB/$f" ] && ok "nvidia run: bundle has $f" || notok "nvidia run: bundle has $f"
done
[ ! -e "$RB/.ncu-capture" ] && ok "nvidia run: no scratch left" || notok "nvidia run: no scratch left"
expect "nvidia run: manifest backend" "$("$JCHECK" get "$RB/manifest.json" backend)" "ncu"
"$BUILD_DIR/tools/bundle_verify" "$RB" >/dev/null 2>&1 && ok "nvidia run: bundle verifies" ||
	notok "nvidia run: bundle verifies"
fly "nvidia run: GPU-free report re-runs on the bundle" 0 report --bundle "$RB"
expect "nvidia run: same rank 1" "$(field data.recommendations.0.rule)" "ncu_shared_bank_conflicts"

fly "nvidia run: the program fails" 70 run transpose_conflict --backend ncu --ncu "$NCU" \
	--bundle "$E2E_TMP/nvfail" -- /bin/false
expect "nvidia run: PROGRAM_FAILED" "$(field error.code)" "PROGRAM_FAILED"
expect "nvidia run: its exit status" "$(field error.program_exit_status)" "1"
fly "nvidia run: no such program" 70 run k --backend ncu --ncu "$NCU" \
	--bundle "$E2E_TMP/nvfail2" -- /no/such/program
expect "nvidia run: not executable is PROGRAM_FAILED" "$(field error.code)" "PROGRAM_FAILED"
FAKE_NCU_MODE=nomatch fly "nvidia run: kernel not matched" 66 run nope --backend ncu \
	--ncu "$NCU" --bundle "$E2E_TMP/nvnm" -- /bin/true
expect "nvidia run: KERNEL_NOT_MATCHED" "$(field error.code)" "KERNEL_NOT_MATCHED"
expect "nvidia run: ncu's kernel list offered" "$(field error.available)" \
	'["copy_strided","transpose_conflict"]'
FAKE_NCU_MODE=denied fly "nvidia run: counters denied" 69 run k --backend ncu --ncu "$NCU" \
	--bundle "$E2E_TMP/nvden" -- /bin/true
expect "nvidia run: COUNTERS_DENIED" "$(field error.code)" "COUNTERS_DENIED"
FAKE_NCU_MODE=hang fly "nvidia run: deadline" 75 run k --backend ncu --ncu "$NCU" --timeout 1 \
	--bundle "$E2E_TMP/nvto" -- /bin/true
expect "nvidia run: CAPTURE_TIMEOUT" "$(field error.code)" "CAPTURE_TIMEOUT"
fly "nvidia run: ncu missing" 69 run k --backend ncu --ncu /no/such/ncu --bundle "$E2E_TMP/nvm" \
	-- /bin/true
fly "nvidia run: no program is USAGE" 64 run k --backend ncu --ncu "$NCU" --bundle "$E2E_TMP/nvu"
unset FAKE_NCU_CASE
rm -rf "$RB" "$E2E_TMP"/nvfail* "$E2E_TMP/nvnm" "$E2E_TMP/nvden" "$E2E_TMP/nvto" "$E2E_TMP/nvm"

# The committed H200 examples (made by `flyprof run --backend ncu` on the H200): they verify,
# re-analyse without a GPU to the same diagnosis, and `make demo` shows the real one first.
ex_rank1() { # EXAMPLE RULE LINE
	local ex="$ROOT/examples/$1"
	"$BUILD_DIR/tools/bundle_verify" "$ex" >/dev/null 2>&1 && ok "example $1 verifies" ||
		notok "example $1 verifies"
	fly "example $1: report" 0 report --bundle "$ex" --out "$E2E_TMP/ex-$1"
	expect "example $1: rank 1" "$(field data.recommendations.0.rule)" "$2"
	expect "example $1: its line" "$(field data.recommendations.0.source)" "$3"
	expect "example $1: captured on the H200" "$("$JCHECK" get "$ex/capture.json" arch)" "sm_90"
	# the repro line names no dispatch (a capture of ncu has none), never "(null)"
	"$JCHECK" get "$E2E_TMP/ex-$1/report.json" repro >"$E2E_TMP/repro.txt"
	grep -q -e '--dispatch' -e '(null)' "$E2E_TMP/repro.txt" "$ex/report.json" "$ex/REPORT.md" &&
		notok "example $1: repro without a dispatch" "$(cat "$E2E_TMP/repro.txt")" ||
		ok "example $1: repro without a dispatch"
	rm -rf "$E2E_TMP/ex-$1"
}
ex_rank1 h200_cuda_transpose ncu_shared_bank_conflicts /src/nvk/defects.cu:34
ex_rank1 h200_cuda_divergence ncu_divergence /src/nvk/defects.cu:94
ex_rank1 h200_triton_gemm ncu_no_software_pipelining /src/nvk/defects.py:17
ex_rank1 h200_triton_copy_cols ncu_uncoalesced_global /src/nvk/defects.py:39
H200EX="$ROOT/examples/h200_cuda_transpose"
(cd "$H200EX" && find . -type f | sort | xargs sha256sum) >"$E2E_TMP/h200-before.txt"
"$ROOT/scripts/demo.sh" "$BUILD_DIR" "$E2E_TMP/nvdemo" >"$E2E_TMP/nvdemo.txt" 2>&1
expect "demo: exits 0" "$?" "0"
grep -q '^nvidia report:  rank 1: cuda_smem_padding (ncu_shared_bank_conflicts) at /src/nvk/defects.cu:34' \
	"$E2E_TMP/nvdemo.txt" && ok "demo: the real H200 diagnosis" ||
	notok "demo: the real H200 diagnosis" "$(grep nvidia "$E2E_TMP/nvdemo.txt")"
(cd "$H200EX" && find . -type f | sort | xargs sha256sum) >"$E2E_TMP/h200-after.txt"
cmp -s "$E2E_TMP/h200-before.txt" "$E2E_TMP/h200-after.txt" &&
	ok "demo: leaves the H200 example unchanged" || notok "demo: leaves the H200 example unchanged"
rm -rf "$E2E_TMP/nvdemo" "$E2E_TMP/nvdemo.txt" "$E2E_TMP"/h200-*.txt
