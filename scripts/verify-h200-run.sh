#!/usr/bin/env bash
# End-to-end check of `flyprof run --backend ncu` on a machine with an NVIDIA GPU, Nsight
# Compute, nvcc and Triton (run on the project's H200; results in docs/nvidia.md). For every
# defect/control pair of tests/nvidia-kernels (the same table as tests/e2e/t_nvidia_defects.sh,
# which checks the committed exports without a GPU) it captures the kernel live with flyprof and
# checks: the finding that names the fix is at rank 1 or 2, on the defect's source line, and the
# control kernel does not get it. Then a few failure modes and the overhead against ncu alone.
#
#   scripts/verify-h200-run.sh FLYPROF RESULTS_DIR
# Prints one "PASS"/"FAIL" line per check and a closing count; exits 1 on any FAIL. The
# programs are built and run from /src/nvk, as for the committed captures.
set -u
FP=$1
R=$2
HERE=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$R" /src/nvk
cp "$HERE/tests/nvidia-kernels/src/defects.cu" "$HERE/tests/nvidia-kernels/src/defects.py" /src/nvk/
PASS=0
FAIL=0
pass() { echo "PASS $*"; PASS=$((PASS + 1)); }
# since T0: seconds elapsed since $EPOCHREALTIME was T0 (no bc on the GPU machine)
since() { python3 -c 'import sys, time; print(f"{time.time() - float(sys.argv[1]):.2f}")' "$1"; }
fail() { echo "FAIL $*"; FAIL=$((FAIL + 1)); }
# get FILE PATH: a dotted path (numbers index arrays) of a JSON file, "null" when absent.
get() {
	python3 - "$1" "$2" <<'EOF'
import json, sys
try:
    v = json.load(open(sys.argv[1]))
except Exception:
    print("null"); sys.exit(0)
for k in sys.argv[2].split("."):
    if isinstance(v, list) and k.isdigit() and int(k) < len(v):
        v = v[int(k)]
    elif isinstance(v, dict) and k in v:
        v = v[k]
    else:
        print("null"); sys.exit(0)
print(v if not isinstance(v, (dict, list)) else json.dumps(v))
EOF
}
{
	"$FP" --version
	nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv,noheader
	ncu --version | tail -1
	nvcc --version | tail -1
	python3 -c 'import triton, torch; print("triton", triton.__version__, "torch", torch.__version__)'
} 2>&1 | tee "$R/versions.txt"
(cd /src/nvk && nvcc -O3 -lineinfo -arch=sm_90 -o defects defects.cu) >"$R/nvcc.log" 2>&1 ||
	fail "nvcc: $(tail -3 "$R/nvcc.log")"

# capture NAME KERNEL [run options] -- PROGRAM...: flyprof run into $R/NAME, envelope NAME.json.
capture() {
	local n=$1 k=$2
	shift 2
	local t0=$EPOCHREALTIME
	(cd /src/nvk && "$FP" run "$k" --backend ncu --bundle "$R/$n" -f json "$@") >"$R/$n.json" 2>"$R/$n.err"
	local rc=$?
	echo "$n rc=$rc wall=$(since "$t0")" >>"$R/timings.txt"
	return $rc
}
# rules NAME: the rules of the recommendations, one per line, in rank order.
rules() { python3 -c 'import json,sys
for r in json.load(open(sys.argv[1])).get("data",{}).get("report",{}).get("recommendations",[]): print(r.get("rule"))' "$R/$1.json" 2>/dev/null; }
# pair DEFECT KERNEL CONTROL CONTROL_KERNEL RULE LINE -- PROGRAM...
pair() {
	local d=$1 dk=$2 c=$3 ck=$4 rule=$5 line=$6
	shift 7
	if ! capture "$d" "$dk" -- "$@"; then
		fail "$d: run exited non-zero ($(get "$R/$d.json" error.code))"
		return
	fi
	local top src="" k
	top=$(rules "$d" | head -2)
	grep -qx "$rule" <<<"$top" && pass "$d: $rule at rank 1 or 2" ||
		fail "$d: $rule at rank 1 or 2 (top two: $(echo $top))"
	for k in 0 1; do
		[ "$(get "$R/$d.json" "data.report.recommendations.$k.rule")" = "$rule" ] &&
			src=$(get "$R/$d.json" "data.report.recommendations.$k.source")
	done
	[ "$src" = "$line" ] && pass "$d: the finding names $line" || fail "$d: the finding names $line (got '$src')"
	if ! capture "$c" "$ck" -- "$@"; then
		fail "$c: run exited non-zero ($(get "$R/$c.json" error.code))"
		return
	fi
	rules "$c" | grep -qx "$rule" && fail "control $c gets $rule" || pass "control $c does not get $rule"
}
CU=/src/nvk/defects.cu
PY=/src/nvk/defects.py
P=/src/nvk/defects
pair cu_copy_strided copy_strided cu_copy_coalesced copy_coalesced ncu_uncoalesced_global "$CU:14" -- $P
pair cu_transpose_conflict transpose_conflict cu_transpose_padded transpose_padded ncu_shared_bank_conflicts "$CU:34" -- $P
pair cu_branch_divergent branch_divergent cu_branch_uniform branch_uniform ncu_divergence "$CU:94" -- $P
pair cu_local_indexed local_indexed cu_local_static local_static ncu_local_memory "$CU:125" -- $P
pair cu_regs_heavy regs_heavy cu_regs_light regs_light ncu_occupancy_registers "$CU:69" -- $P
pair tr_copy_cols copy_cols tr_copy_rows copy_rows ncu_uncoalesced_global "$PY:39" -- python3 $PY
pair tr_gemm_one_stage gemm_one_stage tr_gemm_pipelined gemm_pipelined ncu_no_software_pipelining "$PY:17" -- python3 $PY
# the small grid is the first launch of saxpy_grid, the full grid the second (--launch-skip 1)
if capture cu_saxpy_small_grid saxpy_grid -- $P; then
	rules cu_saxpy_small_grid | head -2 | grep -qx ncu_grid_too_small && pass "cu_saxpy_small_grid: ncu_grid_too_small at rank 1 or 2" ||
		fail "cu_saxpy_small_grid: ncu_grid_too_small at rank 1 or 2 (got $(rules cu_saxpy_small_grid | head -2 | tr '\n' ' '))"
else
	fail "cu_saxpy_small_grid: run exited non-zero"
fi
if capture cu_saxpy_full_grid saxpy_grid --launch-skip 1 -- $P; then
	rules cu_saxpy_full_grid | grep -qx ncu_grid_too_small && fail "control cu_saxpy_full_grid gets ncu_grid_too_small" ||
		pass "control cu_saxpy_full_grid does not get ncu_grid_too_small"
else
	fail "cu_saxpy_full_grid: run exited non-zero"
fi

# the bundles written live are read again without the GPU: report, diff of defect and control
for n in cu_transpose_conflict tr_copy_cols; do
	"$FP" report --bundle "$R/$n" --out "$R/$n.again" -f json >"$R/$n.again.json" 2>&1 &&
		pass "$n: report reads the live bundle again" || fail "$n: report reads the live bundle again"
done
"$FP" diff --before "$R/cu_transpose_conflict" --after "$R/cu_transpose_padded" -f json >"$R/diff.json" 2>&1
[ "$(get "$R/diff.json" ok)" = True ] && pass "diff defect -> control on live NVIDIA bundles" ||
	fail "diff defect -> control ($(get "$R/diff.json" error.code))"

# failure modes: typed envelopes
capture nomatch no_such_kernel -- $P
[ "$(get "$R/nomatch.json" error.code)" = KERNEL_NOT_MATCHED ] && pass "a filter matching nothing: KERNEL_NOT_MATCHED" ||
	fail "a filter matching nothing: got $(get "$R/nomatch.json" error.code)"
capture false copy_strided -- /bin/false
[ "$(get "$R/false.json" error.code)" = PROGRAM_FAILED ] && pass "a failing program: PROGRAM_FAILED" ||
	fail "a failing program: got $(get "$R/false.json" error.code)"

# overhead: flyprof run against the same ncu profile pass alone
t0=$EPOCHREALTIME
(cd /src/nvk && ncu --clock-control none --section SourceCounters --section WarpStateStats --section SpeedOfLight \
	--section Occupancy --section LaunchStats --section MemoryWorkloadAnalysis --section ComputeWorkloadAnalysis \
	--section SchedulerStats --import-source yes -k transpose_conflict -c 1 -f -o "$R/plain" $P) >"$R/plain.log" 2>&1
echo "ncu alone (transpose_conflict) wall=$(since "$t0")" | tee -a "$R/timings.txt"
grep -E "^cu_transpose_conflict " "$R/timings.txt"
echo "verify-h200-run: $PASS passed, $FAIL failed"
[ "$FAIL" = 0 ]
