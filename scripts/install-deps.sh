#!/usr/bin/env bash
# Installs the Debian 12 packages flyprof needs to build and test. Idempotent: packages
# already present are skipped, so a second run does nothing and needs no network.
set -euo pipefail
pkgs=(
	build-essential pkg-config make
	libelf-dev libdw-dev      # AMDGPU code objects: ELF and DWARF line tables
	libmsgpack-dev            # AMDGPU metadata note is MessagePack
	clang lld llvm            # test-time AMDGPU code objects, llvm-dwarfdump/readelf as oracles, fuzzing
	clang-format              # formatting check
)
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
