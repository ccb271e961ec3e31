#!/usr/bin/env bash
# `make demo` (the README's main job): the full GPU-free pipeline on committed example bundles
# (examples/README.md): first a real one, examples/h200_cuda_transpose (a CUDA transpose with
# an unpadded shared tile, captured by `flyprof run --backend ncu` on an H200), then
# examples/synth_gemm (a SYNTHETIC AMD trace from flyprof's own generator). Runs doctor
# (informational, never a gate), then bubbles, map and report with --out into a fresh
# temporary directory, so the committed examples are never written, and prints the headlines
# and the paths of REPORT.md.
#
#   scripts/demo.sh [BUILD_DIR [OUT_DIR]]      defaults: build, a new mktemp directory
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${1:-build}
case "$BUILD" in /*) ;; *) BUILD=$ROOT/$BUILD ;; esac
FLYPROF="$BUILD/flyprof"
JCHECK="$BUILD/tools/jcheck"
EXAMPLE=$ROOT/examples/synth_gemm
WORK=${2:-$(mktemp -d "${TMPDIR:-/tmp}/flyprof-demo-XXXXXX")}
OUT=$WORK/synth_gemm
mkdir -p "$WORK"
for exe in "$FLYPROF" "$JCHECK"; do
	[ -x "$exe" ] || { echo "demo: $exe missing; run make first" >&2; exit 78; }
done
# The demo's own settings, not the caller's FLYPROF_* environment.
for v in $(env | grep -o '^FLYPROF_[A-Z_]*'); do unset "$v"; done

get() { "$JCHECK" get "$WORK/$1.json" "$2"; }

# bubbles, map and report on bundle $1 with --out $2; each envelope goes to $WORK/$3<step>.json.
pipeline() {
	local step
	for step in bubbles map report; do
		if ! "$FLYPROF" "$step" --bundle "$1" --out "$2" --format json >"$WORK/$3$step.json"; then
			echo "demo: \`flyprof $step\` on $1 failed:" >&2
			cat "$WORK/$3$step.json" >&2
			exit 1
		fi
	done
}

echo "== flyprof doctor (what this machine can do; informational)"
"$FLYPROF" doctor --format table || true
echo
H200=$ROOT/examples/h200_cuda_transpose
echo "== a real H200 capture: $H200 (captured by flyprof run --backend ncu; ncu $("$JCHECK" get "$H200/capture.json" version))"
pipeline "$H200" "$WORK/h200" h200-
hget() { "$JCHECK" get "$WORK/h200-$1.json" "$2"; }
echo "nvidia bubbles: largest class $(hget bubbles data.classes.0.class) = $(hget bubbles data.classes.0.pct_of_stall)% of stall samples"
echo "nvidia report:  rank 1: $(hget report data.recommendations.0.knob) ($(hget report data.recommendations.0.rule)) at $(hget report data.recommendations.0.source): $(hget report data.recommendations.0.isa)"
echo "nvidia headline: $(hget report data.headline)"
echo "nvidia REPORT.md: $(hget report data.artifacts.report_md)"
echo
echo "== the GPU-free pipeline on $EXAMPLE (synthetic: $("$JCHECK" get "$EXAMPLE/manifest.json" synthetic))"
pipeline "$EXAMPLE" "$OUT" ""
echo "bubbles: largest class $(get bubbles data.classes.0.class) = $(get bubbles data.classes.0.pct_of_stall)% of stall cycles" \
	"($(get bubbles data.totals.waves) waves, stall $(get bubbles data.totals.stall_pct_of_latency)% of latency)"
echo "map:     $(get map data.mapped.by_stall.pct)% of stall cycles mapped to source lines;" \
	"hottest line $(get map data.lines.0.source)"
where=$(get report data.recommendations.0.source)
[ "$where" = null ] && where="the whole kernel"
echo "report:  rank 1: $(get report data.recommendations.0.knob) ($(get report data.recommendations.0.rule)) for $where"
echo
echo "headline: $(get report data.headline)"
echo "REPORT.md: $(get report data.artifacts.report_md)"
