#!/usr/bin/env bash
# Regenerates the committed example bundle examples/synth_gemm/ (or OUT) from flyprof's own
# trace generator: a synthetic ATT dispatch (bench/gen_att: 16 waves x 8 iterations of a
# GEMM-like loop, seed 1), a FlyDSL-like source file for its .py lines (placed as the decoder's
# snapshot copy), then `flyprof bundle` makes it an example bundle (manifest "synthetic": true).
# The source file is kept once, where the decoder stores it: SOURCE below, inside the committed
# example; edit it there and rerun this script.
#
#   scripts/make-example.sh [BUILD_DIR [OUT]]      defaults: build examples/synth_gemm
#
# Deterministic: every file but manifest.json (times, durations, the temporary source path)
# comes out byte-identical on every run; tests/e2e/t_demo.sh checks the committed copy.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${1:-build}
OUT=${2:-$ROOT/examples/synth_gemm}
case "$BUILD" in /*) ;; *) BUILD=$ROOT/$BUILD ;; esac
SOURCE=$ROOT/examples/synth_gemm/att/big/ui_output_agent_1_dispatch_1/source_0_synth_gemm.py
for exe in "$BUILD/flyprof" "$BUILD/bench/gen_att"; do
	[ -x "$exe" ] || { echo "make-example: $exe missing; run make first" >&2; exit 78; }
done
WORK=$(mktemp -d "${TMPDIR:-/tmp}/flyprof-example-XXXXXX")
trap 'rm -rf "$WORK"' EXIT

"$BUILD/bench/gen_att" --out "$WORK/gen" --waves 16 --iters 8 --seed 1 >/dev/null 2>"$WORK/gen.log"
disp="$WORK/gen/att/big/ui_output_agent_1_dispatch_1"
# What rocprofv3's decoder writes for each source file it saw: a local copy and the index.
cp "$SOURCE" "$disp/source_0_synth_gemm.py"
printf '{"/":{"synthetic":{"kernels":{"synth_gemm.py":"source_0_synth_gemm.py"}}}}' >"$disp/snapshots.json"
# The kernel-trace row rocprofv3 would record for the dispatch (invented resources of a
# 256-thread bf16 GEMM), so the report can show the theoretical occupancy model too.
mkdir -p "$WORK/gen/rocprofv3"
{
	echo '"Kind","Agent_Id","Queue_Id","Stream_Id","Thread_Id","Dispatch_Id","Kernel_Id","Kernel_Name","Correlation_Id","Start_Timestamp","End_Timestamp","LDS_Block_Size","Scratch_Size","VGPR_Count","Accum_VGPR_Count","SGPR_Count","Workgroup_Size_X","Workgroup_Size_Y","Workgroup_Size_Z","Grid_Size_X","Grid_Size_Y","Grid_Size_Z"'
	echo '"KERNEL_DISPATCH","Agent 1",1,0,1,1,1,"synth_gemm_kernel_0",1,1000000000,1000052000,16384,0,128,32,48,256,1,1,262144,1,1'
} >"$WORK/gen/rocprofv3/kernel_trace.csv"

FLYPROF_FORMAT=json "$BUILD/flyprof" bundle --bundle "$WORK/gen" --out "$OUT" --arch gfx950 \
	>"$WORK/bundle.json" || { cat "$WORK/bundle.json" >&2; exit 1; }
echo "example bundle: $OUT"
