#!/usr/bin/env bash
# The README's main job: the GPU-free pipeline on the embedded default. Until example bundles
# exist this runs doctor on this machine.
set -euo pipefail
BUILD=${1:-build}
"$BUILD/flyprof" doctor --format table || true
