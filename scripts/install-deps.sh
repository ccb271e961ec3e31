#!/usr/bin/env bash
# Installs the Debian 12 packages flyprof needs. Idempotent: packages already present are
# skipped, so a second run does nothing and needs no network.
#   scripts/install-deps.sh tool   what building and running flyprof needs (make deps)
#   scripts/install-deps.sh test   what the test suite adds: clang/LLVM for test-time code
#                                  objects and fuzzing, clang-format, chromium (make test-deps)
#   scripts/install-deps.sh        both
set -euo pipefail
tool=(
	build-essential pkg-config make git
	libelf-dev libdw-dev      # AMDGPU code objects: ELF and DWARF line tables
	zlib1g-dev liblzma-dev libbz2-dev # libdw's decompressors, linked statically with it
	libmsgpack-dev            # AMDGPU metadata note is MessagePack
	libmd-dev                 # SHA-256 of bundle artifacts
)
test=(
	clang lld llvm            # test-time AMDGPU code objects, llvm-dwarfdump/readelf as oracles, fuzzing
	clang-format              # formatting check
	chromium fonts-dejavu-core # headless-browser test of REPORT.html (tests/e2e/t_html.sh)
)
case "${1:-all}" in
tool) pkgs=("${tool[@]}") ;;
test) pkgs=("${test[@]}") ;;
all) pkgs=("${tool[@]}" "${test[@]}") ;;
*)
	echo "usage: $0 [tool|test|all]" >&2
	exit 64
	;;
esac
missing=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
	echo "install-deps: all ${#pkgs[@]} packages present"
	exit 0
fi
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
echo "install-deps: installed ${missing[*]}"
