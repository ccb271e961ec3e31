# The hostile-input suite's engine (sourced by tests/e2e/t_hostile.sh and scripts/hostile-proof.sh).
#
# tests/hostile/cases.tsv holds one case per line, tab-separated:
#   id  kind  setup  run  want  post
#   id     unique name
#   kind   the failure kind of issue 14 it covers (1-10, see docs/security.md) or r for a
#          reader-robustness case (the kind of input that parsers already handled)
#   setup  shell run in a fresh case directory $C holding $X (a copy of the example bundle
#          examples/synth_gemm) and $D (its dispatch directory); "-" for none
#   run    shell that runs flyprof through `fly ARGS` (or fly_signal / fly_pair below)
#   want   the expected error.code, or OK
#   post   shell that must succeed afterwards (what must not have happened); "-" for none
# Every case also checks that flyprof ended within HOSTILE_TIMEOUT seconds and printed exactly
# one envelope whose exit status matches (tests/tools/jcheck envelope).
#
# Needs FLYPROF, JCHECK, ROOT, BUILD_DIR, E2E_TMP and the ok/notok counters of tests/e2e/lib.sh.
# hostile_run prints one TAP line per case and fills HOSTILE_FAILED_KINDS (kind -> count).

HOSTILE_TIMEOUT=${HOSTILE_TIMEOUT:-10}
declare -A HOSTILE_FAILED_KINDS=() HOSTILE_KIND_CASES=()

# --- setup helpers ------------------------------------------------------------------------
fifo() { rm -rf "$1" && mkfifo "$1"; }                # FILE: replaced by a FIFO with no writer
sparse() { rm -rf "$1" && truncate -s "$2" "$1"; }    # FILE SIZE: a sparse file of SIZE
lnk() { rm -rf "$2" && ln -s "$1" "$2"; }            # TARGET LINK
adir() { rm -rf "$1" && mkdir -p "$1"; }               # FILE: replaced by a directory
sock() { # FILE: replaced by a listening UNIX socket (a regular file's name, another type)
	rm -rf "$1"
	"$BUILD_DIR/tools/mksock" "$1" 2>/dev/null || mkfifo "$1"
}
chardev() { # FILE: a character device node (/dev/null's numbers) when root may make one,
	rm -rf "$1" # else a link to /dev/null (same type once opened)
	mknod "$1" c 1 3 2>/dev/null || ln -s /dev/null "$1"
}
# The list of every path under a tree with type, size and content hash, to compare later.
tree_state() { (cd "$1" && find . -printf '%y %p %s %l\n' | LC_ALL=C sort && find . -type f -exec md5sum {} + 2>/dev/null | LC_ALL=C sort); }
snap() { tree_state "$1" >"$C/state.$(basename "$1")"; } # DIR: remember its state
same() { tree_state "$1" | cmp -s - "$C/state.$(basename "$1")"; } # DIR: unchanged since snap
# error.code of the last envelope, read without starting a process (the suite runs ~200 cases)
code() {
	local t
	t=$(<"$C/out.json")
	[[ $t =~ \"code\":\ \"([A-Z_]+)\" ]] && echo "${BASH_REMATCH[1]}"
}

# --- run helpers --------------------------------------------------------------------------
# fly ARGS: runs flyprof with a deadline; envelope in $C/out.json, status in $ST.
fly() {
	timeout -k 2 "$HOSTILE_TIMEOUT" "$FLYPROF" "$@" >"$C/out.json" 2>"$C/err.txt" </dev/null
	ST=$?
}
# fly_signal DELAY SIGNAL ARGS: sends SIGNAL DELAY seconds after the start (plus up to 50 ms of
# jitter, so the moment differs from run to run), then waits.
fly_signal() {
	local delay=$1 sig=$2
	shift 2
	timeout -k 2 "$HOSTILE_TIMEOUT" "$FLYPROF" "$@" >"$C/out.json" 2>"$C/err.txt" </dev/null &
	local pid=$!
	sleep "$delay"
	sleep "0.0$((RANDOM % 5))"
	# timeout forwards the signal to flyprof (its child) and exits with flyprof's status
	kill -"$sig" "$pid" 2>/dev/null
	wait "$pid"
	ST=$?
}
# fly_pair ARGS: two flyprof processes with the same arguments at once; envelopes in
# $C/out.json / $C/out2.json, statuses $ST / $ST2.
fly_pair() {
	timeout -k 2 "$HOSTILE_TIMEOUT" "$FLYPROF" "$@" >"$C/out2.json" 2>"$C/err2.txt" </dev/null &
	local pid=$!
	timeout -k 2 "$HOSTILE_TIMEOUT" "$FLYPROF" "$@" >"$C/out.json" 2>"$C/err.txt" </dev/null
	ST=$?
	wait "$pid"
	ST2=$?
}

# The slow input signal and concurrency cases need: a generated dispatch large enough that
# its analysis takes a good fraction of a second (made once per run, read-only afterwards).
slow_input() {
	if [ ! -d "$E2E_TMP/hostile-slow" ]; then
		"$BUILD_DIR/bench/gen_att" --out "$E2E_TMP/hostile-slow" --waves 32 --iters 1500 \
			--seed 7 >/dev/null 2>&1
		cp -r "$ROOT/examples/synth_gemm/rocprofv3" "$E2E_TMP/hostile-slow/"
	fi
	SLOW=$(echo "$E2E_TMP"/hostile-slow/att/big/ui_output_*)
}

hostile_case() { # id kind setup run want post
	local id=$1 kind=$2 setup=$3 run=$4 want=$5 post=$6
	C="$E2E_TMP/hostile/$id"
	rm -rf "$C"
	mkdir -p "$C"
	X="$C/x"
	cp -r "$ROOT/examples/synth_gemm" "$X"
	D="$X/att/big/ui_output_agent_1_dispatch_1"
	HOSTILE_KIND_CASES[$kind]=$((${HOSTILE_KIND_CASES[$kind]:-0} + 1))
	local why=""
	if [ "$setup" != - ] && ! (cd "$C" && eval "$setup") >"$C/setup.txt" 2>&1; then
		why="setup failed: $(head -c 300 "$C/setup.txt")"
	else
		ST=""
		ST2=""
		(cd "$C" && eval "$run; echo \"\$ST \$ST2\" >\"\$C/status\"")
		read -r ST ST2 <"$C/status"
		if [ "$ST" = 124 ] || [ "$ST" = 137 ]; then
			why="no result within ${HOSTILE_TIMEOUT}s (hang)"
		elif ! "$JCHECK" envelope "$C/out.json" "$ST" 2>"$C/why.txt"; then
			why="no valid envelope (exit $ST): $(cat "$C/why.txt") $(head -c 300 "$C/out.json") $(head -c 300 "$C/err.txt")"
		else
			local got
			got=$(code)
			[ -z "$got" ] && got=OK
			if [ "$got" != "$want" ]; then
				why="got $got (exit $ST), expected $want: $("$JCHECK" get "$C/out.json" error.message 2>/dev/null | head -c 300)"
			elif [ "$post" != - ] && ! (cd "$C" && eval "$post") >"$C/post.txt" 2>&1; then
				why="after-check failed: $post $(head -c 300 "$C/post.txt")"
			fi
		fi
	fi
	if [ -z "$why" ]; then
		ok "hostile $id"
		rm -rf "$C"
	else
		notok "hostile $id" "$why"
		HOSTILE_FAILED_KINDS[$kind]=$((${HOSTILE_FAILED_KINDS[$kind]:-0} + 1))
	fi
}

hostile_run() { # TSV
	local id kind setup run want post
	export C X D FLYPROF JCHECK
	while IFS=$'\t' read -r id kind setup run want post; do
		case "$id" in '' | '#'*) continue ;; esac
		hostile_case "$id" "$kind" "$setup" "$run" "$want" "${post:--}"
	done <"$1"
}
