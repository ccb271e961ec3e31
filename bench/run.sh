#!/usr/bin/env bash
# Benchmarks of `bubbles` and `report` (not tests: they print figures and never fail on time).
#   bench/run.sh [BUILD]        (make bench runs it on build/)
# Environment: FLYPROF_CORPUS (default ../shared/corpus), BENCH_DIR (default /tmp), BENCH_SIZES
# (MB of generated traces, default "256 1024 4096"), BENCH_RUNS (best of N, default 5),
# BENCH_PREV (another flyprof binary, e.g. the previous version's: its bubbles and report
# outputs are compared byte for byte with this one's on every trace benchmarked, and on the
# corpus softmax both are timed in the same rounds as this build's), BENCH_DATA
# (a directory where generated traces are kept as g<MB> and reused by later runs: gen_att is
# deterministic, and a 4 GB trace takes minutes to write on a busy machine).
# Prints: the machine; the scanner vs the generic JSON parser; on the page-cached corpus
# softmax trace, bubbles and report against the I/O floor (bench/io_floor: open and read the
# same files, nothing else) at one thread and at all cores, and bubbles --timeline (the
# Perfetto trace events) beside bubbles; bubbles and report on every corpus kernel (with
# BENCH_PREV, report against the previous version's); on generated traces MB/s, the
# ratio to the floor, peak RSS and time per MB, and report's time and peak RSS (one run); on
# generated captures of 10, 100 and 1,000
# dispatch directories, bubbles on one of them (by --dispatch, and by its own path) with the
# other dispatches' wave files poisoned, so that a run that read them would fail. Generated data
# is deleted afterwards. Record the output in bench/RESULTS.md.
#
# Every comparison is made inside one run and interleaved (A B C, A B C, ...), each command's
# best of BENCH_RUNS: on a machine shared with other work absolute wall times drift with the
# load, ratios measured side by side much less. CPU time (user+sys) is printed beside wall.
set -u
BUILD=${1:-build}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
B="$ROOT/$BUILD"
FLY="$B/flyprof"
CORPUS=${FLYPROF_CORPUS:-$ROOT/../shared/corpus}
WORK=${BENCH_DIR:-/tmp}/flyprof-bench.$$
SIZES=${BENCH_SIZES:-256 1024 4096}
RUNS=${BENCH_RUNS:-5}
mkdir -p "$WORK"
trap 'rm -rf "$WORK"' EXIT

# One run of a command (stdout discarded): "WALL CPU" in seconds, CPU = user+sys.
once() {
	local line
	line=$("$B/bench/peak_rss" "$@" 2>&1 >/dev/null | grep wall_s= | tail -1)
	awk -v l="$line" 'BEGIN{
		n = split(l, f, /[ =]/); for (i = 1; i < n; i += 2) v[f[i]] = f[i + 1];
		printf "%s %.3f\n", v["wall_s"], v["user_s"] + v["sys_s"] }'
}
# interleave NAME1 'CMD1' NAME2 'CMD2' ...: runs the commands in turn, RUNS rounds, and sets
# W_<NAME> / C_<NAME> to each one's best wall time and its best CPU time (best of each).
interleave() {
	local r i name w c
	local -a args=("$@")
	for ((i = 0; i < ${#args[@]}; i += 2)); do
		printf -v "W_${args[i]}" '%s' ""
		printf -v "C_${args[i]}" '%s' ""
	done
	for r in $(seq "$RUNS"); do
		for ((i = 0; i < ${#args[@]}; i += 2)); do
			name=${args[i]}
			read -r w c <<<"$(eval "once ${args[i + 1]}")"
			local bw="W_$name" bc="C_$name"
			if [ -z "${!bw}" ] || awk -v a="$w" -v b="${!bw}" 'BEGIN{exit !(a<b)}'; then
				printf -v "$bw" '%s' "$w"
			fi
			if [ -z "${!bc}" ] || awk -v a="$c" -v b="${!bc}" 'BEGIN{exit !(a<b)}'; then
				printf -v "$bc" '%s' "$c"
			fi
		done
	done
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN{printf "%.2f", (b > 0 ? a / b : 0)}'; }
# same_as_prev COMMAND ARGS...: with BENCH_PREV set, whether this flyprof and BENCH_PREV print
# the same document for the same command (a speed-up must not change a byte of output).
same_as_prev() {
	[ -n "${BENCH_PREV:-}" ] || return 0
	"$FLY" "$@" >"$WORK/now.out" 2>/dev/null
	"$BENCH_PREV" "$@" >"$WORK/prev.out" 2>/dev/null
	if cmp -s "$WORK/now.out" "$WORK/prev.out"; then
		echo "output of '$1' equal to BENCH_PREV's: yes"
	else
		echo "output of '$1' equal to BENCH_PREV's: NO"
	fi
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
	echo "== bubbles and report vs the I/O floor on the corpus softmax trace (page-cached, best of $RUNS, interleaved)"
	catall "$soft"
	catall "$soft"
	cores=$(nproc)
	# every report run writes into a directory of its own: report appends a step to an existing
	# bundle's manifest, so runs into one --out would each read and write a longer one
	rep="\"\$(mktemp -u '$WORK/rep.XXXXXX')\""
	# with BENCH_PREV, the previous version's bubbles and report at one thread run in the same
	# rounds, so that the speed-up is a ratio measured side by side
	prev=()
	if [ -n "${BENCH_PREV:-}" ]; then
		prev=(pbub1 "'$BENCH_PREV' bubbles --bundle '$soft' --format json --threads 1"
			prep1 "'$BENCH_PREV' report --bundle '$soft' --out $rep --format json --threads 1"
			ptl1 "'$BENCH_PREV' bubbles --bundle '$soft' --format json --threads 1 --timeline '$WORK/tl_prev.json'")
	fi
	interleave \
		"${prev[@]}" \
		floor1 "'$B/bench/io_floor' '$soft'" \
		bub1 "'$FLY' bubbles --bundle '$soft' --format json --threads 1" \
		rep1 "'$FLY' report --bundle '$soft' --out $rep --format json --threads 1" \
		floorN "'$B/bench/io_floor' --threads $cores '$soft'" \
		bubN "'$FLY' bubbles --bundle '$soft' --format json" \
		repN "'$FLY' report --bundle '$soft' --out $rep --format json" \
		map1 "'$FLY' map --bundle '$soft' --format json" \
		tl1 "'$FLY' bubbles --bundle '$soft' --format json --threads 1 --timeline '$WORK/tl.json'" \
		cat "bash -c \"cd '$soft' && cat -- * >/dev/null\""
	echo "files: $(ls "$soft" | wc -l), $(mb_of "$soft") MB; load average: $(cut -d' ' -f1-3 /proc/loadavg)"
	printf '%-28s %8s %8s %12s %12s\n' command wall_s cpu_s wall/floor cpu/floor
	for t in 1 N; do
		fw="W_floor$t" fc="C_floor$t"
		for k in floor bub rep; do
			w="W_$k$t" c="C_$k$t"
			label="$k"
			[ "$k" = bub ] && label=bubbles
			[ "$k" = floor ] && label=io_floor
			[ "$k" = rep ] && label=report
			printf '%-28s %8s %8s %12s %12s\n' "$label (threads $([ "$t" = N ] && echo "$cores" || echo 1))" \
				"${!w}" "${!c}" "$(ratio "${!w}" "${!fw}")x" "$(ratio "${!c}" "${!fc}")x"
		done
	done
	printf '%-28s %8s %8s %12s %12s\n' "map (threads $cores)" "$W_map1" "$C_map1" \
		"$(ratio "$W_map1" "$W_floorN")x" "$(ratio "$C_map1" "$C_floorN")x"
	printf '%-28s %8s %8s\n' "cat -- * (reference)" "$W_cat" "$C_cat"
	echo "report/bubbles: threads 1 wall $(ratio "$W_rep1" "$W_bub1")x cpu $(ratio "$C_rep1" "$C_bub1")x;" \
		"threads $cores wall $(ratio "$W_repN" "$W_bubN")x cpu $(ratio "$C_repN" "$C_bubN")x"
	echo "map/bubbles (threads $cores): wall $(ratio "$W_map1" "$W_bubN")x cpu $(ratio "$C_map1" "$C_bubN")x"
	# --timeline: the Perfetto trace events of every wave (81 MB on the softmax), written as
	# they are formed; its cost beside bubbles' own is the formatting and the write
	tl_mb=$(du -m --apparent-size "$WORK/tl.json" | cut -f1)
	echo "bubbles --timeline (threads 1): $W_tl1 s wall, $C_tl1 s cpu, ${tl_mb} MB written" \
		"($(awk -v m="$tl_mb" -v t="$W_tl1" 'BEGIN{printf "%.0f", m/t}') MB/s);" \
		"/ bubbles: wall $(ratio "$W_tl1" "$W_bub1")x cpu $(ratio "$C_tl1" "$C_bub1")x;" \
		"peak RSS $(rss_mb "$FLY" bubbles --bundle "$soft" --format json --threads 1 \
			--timeline "$WORK/tl.json") MB"
	if [ -n "${BENCH_PREV:-}" ]; then
		echo "BENCH_PREV (threads 1): bubbles $W_pbub1 s wall, $C_pbub1 s cpu; report $W_prep1 s" \
			"wall, $C_prep1 s cpu; bubbles --timeline $W_ptl1 s wall, $C_ptl1 s cpu"
		echo "this build / BENCH_PREV (threads 1): bubbles wall $(ratio "$W_bub1" "$W_pbub1")x" \
			"cpu $(ratio "$C_bub1" "$C_pbub1")x; report wall $(ratio "$W_rep1" "$W_prep1")x" \
			"cpu $(ratio "$C_rep1" "$C_prep1")x; bubbles --timeline wall" \
			"$(ratio "$W_tl1" "$W_ptl1")x cpu $(ratio "$C_tl1" "$C_ptl1")x"
		if cmp -s "$WORK/tl.json" "$WORK/tl_prev.json"; then
			echo "timeline equal to BENCH_PREV's: yes"
		else
			echo "timeline equal to BENCH_PREV's: NO"
		fi
	fi
	echo "bubbles peak RSS: $(rss_mb "$FLY" bubbles --bundle "$soft" --format json) MB"
	same_as_prev bubbles --bundle "$soft" --format json --all
	same_as_prev report --bundle "$soft" --out "$WORK/rep_cmp" --format json
else
	echo "== corpus not found at $CORPUS: softmax comparison skipped"
fi

# report's fixed costs (the kernel-trace CSV, the artifacts, the rules) show on the small
# kernels, where the trace itself is a few MB: bubbles and report on every corpus kernel
echo "== bubbles and report on each corpus kernel (threads 1, best of $RUNS, interleaved)"
printf '%-22s %6s %9s %9s %14s %13s\n' kernel MB bubbles_s report_s report/bubbles report/prev
for kdir in "$CORPUS"/*/; do
	k=$(basename "$kdir")
	d=$(ls -d "$kdir"att/big/ui_output_agent_*_dispatch_* 2>/dev/null | head -1)
	[ -n "$d" ] || continue
	rep="\"\$(mktemp -u '$WORK/krep.XXXXXX')\""
	kprev=()
	[ -n "${BENCH_PREV:-}" ] &&
		kprev=(kp "'$BENCH_PREV' report --bundle '$d' --out $rep --format json --threads 1")
	interleave kb "'$FLY' bubbles --bundle '$d' --format json --threads 1" \
		kr "'$FLY' report --bundle '$d' --out $rep --format json --threads 1" "${kprev[@]}"
	printf '%-22s %6s %9s %9s %13sx %12s\n' "$k" "$(mb_of "$d")" "$W_kb" "$W_kr" \
		"$(ratio "$W_kr" "$W_kb")" \
		"$([ -n "${BENCH_PREV:-}" ] && echo "$(ratio "$W_kr" "$W_kp")x" || echo -)"
	rm -rf "$WORK"/krep.*
done

echo "== generated traces ($WORK)"
df -h "$(dirname "$WORK")" | tail -1
printf '%8s %6s %6s %7s %7s %7s %8s %8s %9s %9s %7s\n' size_MB files gen_s floor_s wall_s cpu_s \
	MB_per_s cpu_MB_s wall/floor ms_per_MB RSS_MB
for size in $SIZES; do
	need=$((size * 2))
	avail=$(df -m --output=avail "$WORK" | tail -1 | tr -d ' ')
	if [ "$avail" -lt "$need" ]; then
		echo "$size MB: skipped ($avail MB free, want $need)"
		continue
	fi
	d="${BENCH_DATA:-$WORK}/g$size"
	g0=$(date +%s.%N)
	gs=kept
	if ! [ -f "$d/code.json" ]; then
		rm -rf "$d"
		"$B/bench/gen_att" --out "$d" --raw --waves 2048 --size-mb "$size" >/dev/null \
			2>"$WORK/gen.log" || {
			cat "$WORK/gen.log"
			continue
		}
		gs=$(awk -v a="$g0" -v b="$(date +%s.%N)" 'BEGIN{printf "%.1f", b-a}')
	fi
	mb=$(mb_of "$d")
	catall "$d"
	interleave floor "'$B/bench/io_floor' --threads $(nproc) '$d'" \
		bub "'$FLY' bubbles --bundle '$d' --format json"
	r=$(rss_mb "$FLY" bubbles --bundle "$d" --format json)
	# cpu_MB_s: MB per CPU second times the cores, the rate the same work reaches on this many
	# otherwise idle cores; the wall rate is what the shared machine gave.
	printf '%8s %6s %6s %7s %7s %7s %8s %8s %9s %9s %7s\n' "$mb" "$(ls "$d" | wc -l)" "$gs" \
		"$W_floor" "$W_bub" "$C_bub" \
		"$(awk -v m="$mb" -v t="$W_bub" 'BEGIN{printf "%.0f", m/t}')" \
		"$(awk -v m="$mb" -v t="$C_bub" -v n="$(nproc)" 'BEGIN{printf "%.0f", n*m/t}')" \
		"$(ratio "$W_bub" "$W_floor")x" \
		"$(awk -v m="$mb" -v t="$W_bub" 'BEGIN{printf "%.3f", 1000*t/m}')" "$r"
	same_as_prev bubbles --bundle "$d" --format json --all
	# report on the same trace, one run: it holds one SIMD group's records per worker (exposed
	# stall merges a SIMD's waves), so its memory follows the largest group, not the trace as
	# bubbles' does; its peak RSS is printed beside bubbles'.
	rl=$("$B/bench/peak_rss" "$FLY" report --bundle "$d" --out "$WORK/rep_gen" --format json \
		2>&1 >/dev/null | grep wall_s= | tail -1)
	awk -v l="$rl" -v m="$mb" -v rb="$r" 'BEGIN{
		n = split(l, f, /[ =]/); for (i = 1; i < n; i += 2) v[f[i]] = f[i + 1];
		printf "  report on %s MB (one run): wall %s s, cpu %.3f s, peak RSS %.1f MB (bubbles %s MB)\n",
			m, v["wall_s"], v["user_s"] + v["sys_s"], v["maxrss_kb"] / 1024, rb }'
	rm -rf "$WORK/rep_gen"
	[ -n "${BENCH_DATA:-}" ] || rm -rf "$d"
done

# A capture of n dispatch directories (att/big/ui_output_agent_1_dispatch_<i>): dispatch 1 is a
# real small trace, every other one the same files with poisoned wave files, written by the
# shell itself (a process per copy takes minutes here). bubbles on dispatch 1 must succeed and
# so cannot have read another dispatch's wave files; choosing by --dispatch still reads every
# candidate's code.json (dispatch.candidates lists them all), so that time grows with n.
make_capture() {
	local cap=$1 n=$2 tag="$1/att/big" i k
	local -a names=() contents=() dirs=()
	mkdir -p "$tag"
	cp -R "$WORK/one" "$tag/ui_output_agent_1_dispatch_1"
	for f in "$WORK/poison"/*; do
		names+=("${f##*/}")
		IFS= read -r -d '' c <"$f"
		contents+=("$c")
	done
	for ((i = 2; i <= n; i++)); do dirs+=("$tag/ui_output_agent_1_dispatch_$i"); done
	[ ${#dirs[@]} -gt 0 ] && mkdir "${dirs[@]}"
	for d in "${dirs[@]}"; do
		for k in "${!names[@]}"; do printf '%s' "${contents[k]}" >"$d/${names[k]}"; done
	done
}

echo "== captures of many dispatch directories: bubbles on one of them (best of $RUNS)"
if "$B/bench/gen_att" --out "$WORK/one" --raw --waves 4 --iters 3 >/dev/null 2>&1 &&
	"$B/bench/gen_att" --out "$WORK/poison" --raw --waves 4 --iters 2 >/dev/null 2>&1; then
	for f in "$WORK"/poison/se*_wv*.json; do printf '{"wave": {"begin": 1, "instructions": [[' >"$f"; done
	printf '%10s %12s %12s %14s %14s %8s\n' dispatches dispatch_s dispatch_cpu own_path_s own_path_cpu ok
	for n in 10 100 1000; do
		cap="$WORK/cap$n"
		make_capture "$cap" "$n"
		one="$cap/att/big/ui_output_agent_1_dispatch_1"
		catall "$cap"
		interleave byid "'$FLY' bubbles --bundle '$cap' --dispatch 1 --format json" \
			bydir "'$FLY' bubbles --bundle '$one' --format json"
		ok=yes
		"$FLY" bubbles --bundle "$cap" --dispatch 1 --format json >/dev/null 2>&1 || ok=NO
		"$FLY" bubbles --bundle "$one" --format json >/dev/null 2>&1 || ok=NO
		printf '%10s %12s %12s %14s %14s %8s\n' "$n" "$W_byid" "$C_byid" "$W_bydir" "$C_bydir" "$ok"
		rm -rf "$cap"
	done
	echo "ok: both succeed with every other dispatch's wave files poisoned (none of them was read)"
else
	echo "bench/gen_att failed: dispatch scaling skipped"
fi
