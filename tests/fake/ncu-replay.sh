#!/usr/bin/env bash
# Stand-in for Nsight Compute's `ncu` in tests without a GPU: a profile run executes the
# program (so its failures are real), then "profiles" by writing a report file that names the
# case directory; `ncu -i` exports replay that case's committed H200 exports
# (tests/nvidia-kernels/cases/<case>/ncu/*.csv). The messages are ncu 2025.3's, as seen on the
# H200 (docs/nvidia.md). FAKE_NCU_CASE: the case directory; FAKE_NCU_MODE: ok (default),
# nomatch, denied, hang.
if [ "${1:-}" = --version ]; then
	printf 'NVIDIA (R) Nsight Compute Command Line Profiler\nVersion 2025.3.1.0 (stand-in)\n'
	exit 0
fi
if [ "${1:-}" = -i ]; then
	rep=$2 page="" src=""
	while [ $# -gt 0 ]; do
		case $1 in --page) page=$2; shift ;; --print-source) src=$2; shift ;; esac
		shift
	done
	case "$page/$src" in
	source/sass) f=source_sass.csv ;; source/cuda,sass) f=source_correlated.csv ;;
	details/) f=details.csv ;; raw/) f=raw.csv ;; *) echo "==ERROR== bad export" >&2; exit 1 ;;
	esac
	exec cat "$(cat "$rep")/ncu/$f"
fi
out=""
while [ $# -gt 0 ]; do
	case $1 in
	-o) out=$2; shift 2 ;;
	--section | -k | -s | -c | --clock-control | --import-source) shift 2 ;;
	-f) shift ;;
	*) break ;;
	esac
done
case ${FAKE_NCU_MODE:-ok} in
denied)
	echo "==ERROR== ERR_NVGPUCTRPERM - The user does not have permission to access NVIDIA GPU Performance Counters on the target device 0."
	exit 1 ;;
hang) sleep 60 ;;
esac
if [ ! -x "$1" ] && ! command -v "$1" >/dev/null; then
	echo "==ERROR== '$1' does not exist or is not an executable. Please make sure to specify the absolute path to '$1' if the executable is not in the local directory."
	exit 1
fi
"$@"
rc=$?
if [ "${FAKE_NCU_MODE:-ok}" = nomatch ]; then
	printf '==WARNING== No kernels were profiled.\nAvailable Kernels:\n1. copy_strided\n2. transpose_conflict\n'
	exit 0
fi
if [ $rc -ne 0 ]; then
	echo "==ERROR== The application returned an error code ($rc)."
	exit $rc
fi
echo "$FAKE_NCU_CASE" >"$out.ncu-rep"
