#!/usr/bin/env bash
# Verification of the NVIDIA backend on a machine with a GPU and Nsight Compute (run on the
# project's H200; results in docs/nvidia.md). For each sample program it captures one kernel
# with ncu, exports the three pages flyprof reads into <results>/<name>/ncu/ under the
# documented names, and runs flyprof bubbles, map and report on them.
#
#   scripts/verify-h200.sh FLYPROF SOURCES_DIR RESULTS_DIR
# SOURCES_DIR holds k.cu (CUDA row softmax) and tsm.py (Triton softmax), e.g. a copy of
# ../shared/samples/ncu-h200. Nothing is written outside RESULTS_DIR (k is built there).
set -u
FLYPROF=$1
SRC=$2
R=$3
mkdir -p "$R"
SECS=(--section SourceCounters --section WarpStateStats --section SpeedOfLight --section Occupancy
	--section LaunchStats --section MemoryWorkloadAnalysis --section ComputeWorkloadAnalysis
	--section SchedulerStats)
"$FLYPROF" --version
nvidia-smi -L
ncu --version | tail -1

# capture NAME KERNEL_FILTER COMMAND...
capture() {
	local n=$1 k=$2
	shift 2
	local b="$R/$n"
	mkdir -p "$b/ncu"
	ncu --clock-control none "${SECS[@]}" --import-source yes -k "$k" -c 1 -f \
		-o "$b/ncu/report" "$@" >"$R/$n.capture.log" 2>&1 || return 1
	ncu -i "$b/ncu/report.ncu-rep" --page source --csv --print-source sass >"$b/ncu/source_sass.csv"
	# cuda,sass for Triton too: ncu has no "py" source name.
	ncu -i "$b/ncu/report.ncu-rep" --page source --csv --print-source cuda,sass \
		>"$b/ncu/source_correlated.csv"
	ncu -i "$b/ncu/report.ncu-rep" --page details --csv >"$b/ncu/details.csv"
	"$FLYPROF" bubbles --bundle "$b" -f json >"$R/$n.bubbles.json"
	echo "$n: bubbles exit $?"
	"$FLYPROF" map --bundle "$b" --top 5 -f json >"$R/$n.map.json"
	echo "$n: map exit $?"
	"$FLYPROF" report --bundle "$b" --out "$R/$n-analysis" -f json >"$R/$n.report.json"
	echo "$n: report exit $?"
}

nvcc -O3 -lineinfo -arch=sm_90 -o "$R/k" "$SRC/k.cu" && capture cuda row_softmax "$R/k"
capture triton regex:softmax python3 "$SRC/tsm.py"
