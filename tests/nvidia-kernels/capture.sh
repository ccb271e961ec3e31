#!/usr/bin/env bash
# Captures the defect/control kernels of src/ with Nsight Compute on a machine with an NVIDIA
# GPU, one kernel per report, and exports every page flyprof reads into RESULTS/<case>/ncu/
# under the names of docs/nvidia.md. The committed copies under cases/ came from this script
# on the project's H200 (see README.md there). The programs are built and run from /src/nvk so
# the paths inside the exports do not depend on where the repository sits.
#
#   tests/nvidia-kernels/capture.sh RESULTS_DIR
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
R=$1
mkdir -p "$R" /src/nvk
cp "$HERE/src/defects.cu" "$HERE/src/defects.py" /src/nvk/
SECS=(--section SourceCounters --section WarpStateStats --section SpeedOfLight --section Occupancy
	--section LaunchStats --section MemoryWorkloadAnalysis --section ComputeWorkloadAnalysis
	--section SchedulerStats)
{
	ncu --version
	nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv
	nvcc --version | tail -2
	python3 -c 'import triton, torch; print("triton", triton.__version__, "torch", torch.__version__)'
} >"$R/versions.txt" 2>&1
(cd /src/nvk && nvcc -O3 -lineinfo -arch=sm_90 -o defects defects.cu) >"$R/nvcc.log" 2>&1 || echo "nvcc failed"
cuobjdump --dump-resource-usage /src/nvk/defects >"$R/resource_usage.txt" 2>&1

# case NAME KERNEL SKIP COMMAND...
case_() {
	local n=$1 k=$2 s=$3
	shift 3
	local d="$R/$n/ncu"
	mkdir -p "$d"
	local t0=$(date +%s.%N)
	(cd /src/nvk && ncu --clock-control none "${SECS[@]}" --import-source yes -k "$k" -s "$s" -c 1 -f \
		-o "$d/report" "$@") >"$R/$n.capture.log" 2>&1
	echo "rc=$? wall=$(echo "$(date +%s.%N) - $t0" | bc)" >>"$R/$n.capture.log"
	ncu -i "$d/report.ncu-rep" --page source --csv --print-source sass >"$d/source_sass.csv" 2>"$R/$n.export.log"
	ncu -i "$d/report.ncu-rep" --page source --csv --print-source cuda,sass >"$d/source_correlated.csv" 2>>"$R/$n.export.log"
	ncu -i "$d/report.ncu-rep" --page details --csv >"$d/details.csv" 2>>"$R/$n.export.log"
	ncu -i "$d/report.ncu-rep" --page raw --csv >"$d/raw.csv" 2>>"$R/$n.export.log"
	echo "$n: $(wc -c <"$d/source_sass.csv") $(wc -c <"$d/details.csv") $(wc -c <"$d/raw.csv")"
}
P=/src/nvk/defects
case_ cu_copy_strided copy_strided 0 $P
case_ cu_copy_coalesced copy_coalesced 0 $P
case_ cu_transpose_conflict transpose_conflict 0 $P
case_ cu_transpose_padded transpose_padded 0 $P
case_ cu_regs_heavy regs_heavy 0 $P
case_ cu_regs_light regs_light 0 $P
case_ cu_saxpy_small_grid saxpy_grid 0 $P
case_ cu_saxpy_full_grid saxpy_grid 1 $P
case_ cu_branch_divergent branch_divergent 0 $P
case_ cu_branch_uniform branch_uniform 0 $P
case_ cu_local_indexed local_indexed 0 $P
case_ cu_local_static local_static 0 $P
case_ cu_sum_atomic_hot sum_atomic_hot 0 $P
case_ cu_sum_atomic_warp sum_atomic_warp 0 $P
case_ tr_gemm_one_stage gemm_one_stage 0 python3 /src/nvk/defects.py
case_ tr_gemm_pipelined gemm_pipelined 0 python3 /src/nvk/defects.py
case_ tr_copy_cols copy_cols 0 python3 /src/nvk/defects.py
case_ tr_copy_rows copy_rows 0 python3 /src/nvk/defects.py
