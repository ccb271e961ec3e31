#!/usr/bin/env bash
# Benchmarks of `bubbles` (not tests: they print figures and never fail on time).
#   bench/run.sh [BUILD]        (make bench runs it on build/)
# Environment: FLYPROF_CORPUS (default ../shared/corpus), BENCH_DIR (default /tmp), BENCH_SIZES
# (MB of generated traces, default "256 1024 4096"), BENCH_RUNS (best of N, default 3).
# Prints: the machine; the scanner vs the generic JSON parser; bubbles vs `cat` on the page-
# cached corpus softmax trace; MB/s, peak RSS and time per MB on generated traces. Generated
# data is deleted afterwards. Record the output in bench/RESULTS.md.
set -u
BUILD=${1:-build}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
B="$ROOT/$BUILD"
FLY="$B/flyprof"
CORPUS=${FLYPROF_CORPUS:-$ROOT/../shared/corpus}
WORK=${BENCH_DIR:-/tmp}/flyprof-bench.$$
SIZES=${BENCH_SIZES:-256 1024 4096}
RUNS=${BENCH_RUNS:-3}
mkdir -p "$WORK"
trap 'rm -rf "$WORK"' EXIT

# "WALL CPU": the best wall time of RUNS runs of a command (stdout discarded) and the CPU time
# (user+sys) of that run, in seconds. CPU time is the steadier figure on a shared machine.
best() {
	local b="" c="" line t u s
	for _ in $(seq "$RUNS"); do
		line=$("$B/bench/peak_rss" "$@" 2>&1 >/dev/null | grep wall_s= | tail -1)
		t=$(sed -n 's/.*wall_s=\([0-9.]*\).*/\1/p' <<<"$line")
		u=$(sed -n 's/.*user_s=\([0-9.]*\).*/\1/p' <<<"$line")
		s=$(sed -n 's/.*sys_s=\([0-9.]*\).*/\1/p' <<<"$line")
		if [ -z "$b" ] || awk -v t="$t" -v b="$b" 'BEGIN{exit !(t<b)}'; then
			b=$t
			c=$(awk -v u="$u" -v s="$s" 'BEGIN{printf "%.3f", u+s}')
		fi
	done
	echo "$b $c"
}
# peak RSS in MB of one run.
rss_mb() {
	"$B/bench/peak_rss" "$@" 2>&1 >/dev/null | sed -n 's/.*maxrss_kb=\([0-9]*\).*/\1/p' |
		tail -1 | awk '{printf "%.1f", $1/1024}'
}
mb_of() { du -sm --apparent-size "$1" | cut -f1; }
catall() { find "$1" -type f -print0 | xargs -0 cat >/dev/null; }

echo "== machine"
echo "$(uname -srm); $(nproc) cores; $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
echo "memory: $(free -g | awk '/^Mem:/{print $2}') GiB; flyprof $("$FLY" --version | cut -d' ' -f2)"

soft=$(ls -d "$CORPUS"/softmax/att/big/ui_output_agent_*_dispatch_* 2>/dev/null | head -1)
if [ -n "$soft" ]; then
	echo "== scanner vs generic parser (softmax wave files, one thread, in memory)"
	"$B/bench/parse_cmp" "$soft"
	echo "== bubbles vs cat on the corpus softmax trace (page-cached, best of $RUNS)"
	catall "$soft"
	catall "$soft"
	read -r tc cc <<<"$(best bash -c "cd '$soft' && cat -- * >/dev/null")"
	read -r tb cb <<<"$(best "$FLY" bubbles --bundle "$soft" --format json)"
	read -r t1 c1 <<<"$(best "$FLY" bubbles --bundle "$soft" --format json --threads 1)"
	echo "files: $(ls "$soft" | wc -l), $(mb_of "$soft") MB; load average: $(cut -d' ' -f1-3 /proc/loadavg)"
	echo "cat: wall ${tc} s (cpu ${cc} s)   bubbles: wall ${tb} s (cpu ${cb} s)   bubbles --threads 1: wall ${t1} s (cpu ${c1} s)"
	echo "ratio bubbles/cat: wall $(awk -v a="$tb" -v c="$tc" 'BEGIN{printf "%.2f", a/c}')x, cpu $(awk -v a="$cb" -v c="$cc" 'BEGIN{printf "%.2f", a/c}')x"
	echo "bubbles peak RSS: $(rss_mb "$FLY" bubbles --bundle "$soft" --format json) MB"
else
	echo "== corpus not found at $CORPUS: softmax comparison skipped"
fi

echo "== generated traces ($WORK)"
df -h "$(dirname "$WORK")" | tail -1
printf '%8s %8s %8s %8s %8s %9s %9s %9s %8s\n' size_MB waves files gen_s wall_s cpu_s MB_per_s ms_per_MB RSS_MB
for size in $SIZES; do
	need=$((size * 2))
	avail=$(df -m --output=avail "$WORK" | tail -1 | tr -d ' ')
	if [ "$avail" -lt "$need" ]; then
		echo "$size MB: skipped ($avail MB free, want $need)"
		continue
	fi
	d="$WORK/g$size"
	g0=$(date +%s.%N)
	"$B/bench/gen_att" --out "$d" --raw --waves 2048 --size-mb "$size" >/dev/null 2>"$WORK/gen.log" || {
		cat "$WORK/gen.log"
		continue
	}
	gs=$(awk -v a="$g0" -v b="$(date +%s.%N)" 'BEGIN{printf "%.1f", b-a}')
	mb=$(mb_of "$d")
	catall "$d"
	read -r t c <<<"$(best "$FLY" bubbles --bundle "$d" --format json)"
	r=$(rss_mb "$FLY" bubbles --bundle "$d" --format json)
	printf '%8s %8s %8s %8s %8s %9s %9s %9s %8s\n' "$mb" 2048 "$(ls "$d" | wc -l)" "$gs" "$t" "$c" \
		"$(awk -v m="$mb" -v t="$t" 'BEGIN{printf "%.0f", m/t}')" \
		"$(awk -v m="$mb" -v t="$t" 'BEGIN{printf "%.3f", 1000*t/m}')" "$r"
	rm -rf "$d"
done
