#!/usr/bin/env bash
# What `flyprof run --backend ncu` costs beyond Nsight Compute's own profile pass, on a machine
# with an NVIDIA GPU, ncu and nvcc (the project's H200; results in bench/RESULTS.md). Builds
# tests/nvidia-kernels/src/defects.cu in /src/nvk and, interleaved RUNS times, times the same
# ncu profile command flyprof issues (the sections of docs/facts-nvidia.md#ncu-capture) against
# `flyprof run` of the same kernel, and prints each pair and their ratio, then the split of one
# flyprof run from its manifest (capture step vs the rest).
#
#   bench/ncu_overhead.sh FLYPROF [KERNEL] [RUNS]
set -u
FP=$1
K=${2:-transpose_conflict}
RUNS=${3:-3}
HERE=$(cd "$(dirname "$0")/.." && pwd)
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
mkdir -p /src/nvk
cp "$HERE/tests/nvidia-kernels/src/defects.cu" /src/nvk/
(cd /src/nvk && nvcc -O3 -lineinfo -arch=sm_90 -o defects defects.cu) || exit 1
SECS=(--section SourceCounters --section WarpStateStats --section SpeedOfLight --section Occupancy
	--section LaunchStats --section MemoryWorkloadAnalysis --section ComputeWorkloadAnalysis
	--section SchedulerStats)
secs() { python3 -c 'import sys; print(f"{float(sys.argv[2]) - float(sys.argv[1]):.2f}")' "$1" "$2"; }
echo "== flyprof run --backend ncu vs ncu alone, kernel $K, $RUNS interleaved runs"
for i in $(seq "$RUNS"); do
	t0=$EPOCHREALTIME
	(cd /src/nvk && ncu --clock-control none "${SECS[@]}" --import-source yes -k "$K" -c 1 -f \
		-o "$W/plain$i" ./defects) >/dev/null 2>&1
	t1=$EPOCHREALTIME
	(cd /src/nvk && "$FP" run "$K" --backend ncu --bundle "$W/b$i" -f json -- ./defects) \
		>"$W/b$i.json" 2>/dev/null
	t2=$EPOCHREALTIME
	a=$(secs "$t0" "$t1") b=$(secs "$t1" "$t2")
	echo "run $i: ncu alone $a s, flyprof run $b s, ratio $(python3 -c "print(f'{$b/$a:.2f}')")"
done
python3 - "$W/b$RUNS/manifest.json" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
for s in m["steps"]:
    print(f"  step {s['command']}: {s['seconds']} s")
PY
