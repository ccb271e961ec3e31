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

HOSTILE_TIMEOUT=${HOSTILE_TIMEOUT:-30}
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
	t=$(<"${OUTF:-$C/out.json}")
	[[ $t =~ \"code\":\ \"([A-Z_]+)\" ]] && echo "${BASH_REMATCH[1]}"
}

small() { [ "$(stat -c %s "$1")" -lt "$2" ]; } # FILE BYTES: FILE is smaller than BYTES
not_asan() { # a case that needs ulimit -v cannot run under AddressSanitizer (huge shadow map)
	if grep -q -a __asan_init "$FLYPROF"; then
		echo "needs a build without AddressSanitizer"
		return 77
	fi
}
# many_kernels N: $M, a dispatch of N one-instruction kernels (each with its own entry line)
many_kernels() {
	M="$C/many/att/big/ui_output_agent_1_dispatch_1"
	mkdir -p "$M"
	awk -v n="$1" 'BEGIN {
		printf "{\"code\":["
		for (i = 0; i < n; i++) {
			if (i) printf ","
			printf "[\"; k%d\",0,%d,\"\",1,%d,0,0,0,0],", i, 2 * i, 4096 + 16 * i
			printf "[\"s_load_dwordx2 s[0:1], s[2:3], 0x0\",0,%d,\"/k/many.py:%d\",1,%d,4,40,8,0]", 2 * i + 1, i + 1, 4104 + 16 * i
		}
		printf "],\"header\":\"ISA, _, LineNumber, Source, Codeobj, Vaddr, Hit, Latency, Stall, Idle\",\"version\":\"3.0.0\"}\n"
	}' >"$M/code.json"
	printf '{"duration":10,"name":"SE0","num_insts":1,"num_stitched":1,"wave":{"begin":0,"cu":0,"end":10,"id":0,"instructions":[[0,1,0,4,1]],"timeline":[],"waitcnt":[]}}\n' >"$M/se0_sm0_sl0_wv0.json"
}
# many_exports N: $C/ncu holding N Nsight Compute export names (empty files)
many_exports() {
	mkdir -p "$C/ncu"
	(cd "$C/ncu" && seq "$1" | sed 's/.*/p&_src_sass.csv/' | xargs touch)
}
# ncu_exports DIR: one export set with prefix p0 (enough to be recognised)
ncu_exports() { mkdir -p "$1" && : >"$1/p0_src_sass.csv"; }
# long_line BYTES: line 20 of the example's source copy (inside every hot snippet) made BYTES long
long_line() {
	local f="$D/source_0_synth_gemm.py"
	{
		head -n 19 "$f"
		head -c "$1" /dev/zero | tr '\0' x
		echo
		tail -n +21 "$f"
	} >"$f.new" && mv "$f.new" "$f"
}
# big_code: $B, a dispatch whose 300,000-instruction code.json takes a good part of a second to
# read and map (made once per run, read-only afterwards)
big_code() {
	B="$E2E_TMP/hostile-big/att/big/ui_output_agent_1_dispatch_1"
	if [ ! -d "$B" ]; then
		mkdir -p "$B.part"
		awk -v n=400000 'BEGIN {
			printf "{\"code\":[[\"; big_kernel\",0,0,\"\",1,4096,0,0,0,0]"
			for (i = 1; i <= n; i++)
				printf ",[\"v_add_u32_e32 v1, 0x800, v1\",0,%d,\"/k/big.py:%d\",1,%d,4,%d,%d,0]", i, 10 + i % 500, 4096 + 8 * i, 20 + i % 7, i % 5
			printf "],\"header\":\"ISA, _, LineNumber, Source, Codeobj, Vaddr, Hit, Latency, Stall, Idle\",\"version\":\"3.0.0\"}\n"
		}' >"$B.part/code.json"
		printf '{"duration":10,"name":"SE0","num_insts":1,"num_stitched":1,"wave":{"begin":0,"cu":0,"end":10,"id":0,"instructions":[[0,1,0,4,1]],"timeline":[],"waitcnt":[]}}\n' >"$B.part/se0_sm0_sl0_wv0.json"
		mv "$B.part" "$B"
	fi
}
# big_bundle: $BX, the example bundle with its dispatch's code.json replaced by $B's
big_bundle() {
	BX="$X"
	rm -f "$D"/se*.json
	cp "$B/code.json" "$B/se0_sm0_sl0_wv0.json" "$D/"
	snap "$BX"
}
# hold_lock DIR: a background process holds DIR/.flyprof.lock for a few seconds
hold_lock() {
	flock -n "$1/.flyprof.lock" sleep 8 </dev/null >/dev/null 2>&1 &
	sleep 0.3
}
same_manifest() { cmp -s "$1/manifest.json" "$ROOT/examples/synth_gemm/manifest.json"; }
# fly_quiet ARGS: flyprof run as setup (its envelope is not the case's)
fly_quiet() { "$FLYPROF" "$@" >/dev/null 2>&1 </dev/null; }
# both envelopes of fly_pair: one OK, the other BUNDLE_LOCKED
pair_one_locked() {
	local a b
	a=$(code)
	b=$(OUTF="$C/out2.json" code)
	[ "${a:-OK}/${b:-OK}" = "OK/BUNDLE_LOCKED" ] || [ "${a:-OK}/${b:-OK}" = "BUNDLE_LOCKED/OK" ]
}
bundle_ok() { "$BUILD_DIR/tools/bundle_verify" "$1" >/dev/null; }

# --- run helpers --------------------------------------------------------------------------
# fly ARGS: runs flyprof with a deadline; envelope in $C/out.json, status in $ST.
fly() {
	timeout -k 2 "$HOSTILE_TIMEOUT" "$FLYPROF" "$@" >"$C/out.json" 2>"$C/err.txt" </dev/null
	ST=$?
}
# fly_signal DELAY SIGNAL ARGS: starts flyprof, waits until it has installed its signal
# handlers (SigCgt in /proc/PID/status shows SIGINT caught: a signal before that would kill it
# by default action, which says nothing about flyprof), then waits a random moment of up to
# DELAY seconds and sends SIGNAL.
fly_signal() {
	local delay=$1 sig=$2
	shift 2
	"$FLYPROF" "$@" >"$C/out.json" 2>"$C/err.txt" </dev/null &
	local pid=$! n=0 mask
	(
		trap 'kill "$s" 2>/dev/null; exit 0' TERM
		sleep "$HOSTILE_TIMEOUT" &
		s=$!
		wait "$s" && kill -9 "$pid"
	) 2>/dev/null &
	local wd=$!
	while [ "$n" -lt 2000 ]; do
		mask=$(awk '/^SigCgt:/ { print $2 }' "/proc/$pid/status" 2>/dev/null)
		[ -z "$mask" ] && break # already gone
		(((16#$mask & 2) != 0)) && break
		n=$((n + 1))
	done
	local ms=${delay/0./}
	ms=$((10#${ms}00 / 10 ** (${#ms} - 1))) # seconds with up to 3 decimals -> ms
	sleep "$(printf '0.%03d' $((RANDOM % (ms + 1))))"
	kill -"$sig" "$pid" 2>/dev/null
	wait "$pid"
	ST=$?
	kill "$wd" 2>/dev/null
	wait "$wd" 2>/dev/null
	[ "$ST" = 137 ] && ST=124 # the watchdog's kill: no result in time
}
# fly_pair ARGS: two flyprof processes with the same arguments, the second started while the
# first holds the lock of the --out it writes ($C/o): the second must fail at once with
# BUNDLE_LOCKED. Envelopes in $C/out.json (second) / $C/out2.json (first), statuses $ST / $ST2.
# lock_held_by_other FILE: some process holds a flock on FILE (its inode is in /proc/locks)
lock_held_by_other() {
	local ino
	ino=$(stat -c %i "$1" 2>/dev/null) || return 1
	grep -q ":$ino " /proc/locks
}

fly_pair() {
	timeout -k 2 "$HOSTILE_TIMEOUT" "$FLYPROF" "$@" >"$C/out2.json" 2>"$C/err2.txt" </dev/null &
	local pid=$! n=0
	# wait until the lock file exists and is held, or the first has ended. Held is read from
	# /proc/locks, not probed with flock(1): a probe holds the lock for a moment, and a first
	# writer that tried then was refused BUNDLE_LOCKED, leaving the second to work (a flake).
	while kill -0 "$pid" 2>/dev/null && [ "$n" -lt 3000 ]; do
		lock_held_by_other "$C/o/.flyprof.lock" && break
		n=$((n + 1))
	done
	timeout -k 2 "$HOSTILE_TIMEOUT" "$FLYPROF" "$@" >"$C/out.json" 2>"$C/err.txt" </dev/null
	ST=$?
	wait "$pid"
	ST2=$?
}

# generated_input NAME ITERS: a generated dispatch of 32 waves x ITERS loop iterations in
# $E2E_TMP/NAME (made once per run, read-only afterwards); SLOW is its dispatch directory.
generated_input() {
	if [ ! -d "$E2E_TMP/$1" ]; then
		"$BUILD_DIR/bench/gen_att" --out "$E2E_TMP/$1" --waves 32 --iters "$2" --seed 7 >/dev/null 2>&1
		cp -r "$ROOT/examples/synth_gemm/rocprofv3" "$E2E_TMP/$1/"
	fi
	SLOW=$(echo "$E2E_TMP/$1"/att/big/ui_output_*)
}
# The slow input signal and concurrency cases need: a dispatch large enough that its analysis
# takes a good fraction of a second.
slow_input() { generated_input hostile-slow 1500; }
# `bubbles`, `report` and `bundle` (report reads the wave files once, in the bubbles pass) read
# the slow input in about 0.1 s, no more than the random delay of a signal case and, under load, than it
# takes to start a second process: their signal and lock-pair cases need a dispatch about five
# times larger (0.3-0.7 s at one thread here), so that the signal or the second writer always
# comes while they work.
slower_input() { generated_input hostile-slower 8000; }
# bubbles at one thread read the slower input in about 0.12 s once its start-up and output got
# faster (static libraries, a huge-page heap): a signal sent up to 0.1 s after it installs its
# handler then sometimes came after the result was committed. Its signal cases read twice as
# much (about 0.26 s at one thread here). The lock-pair and bundle cases keep the slower input:
# bundle copies what it reads, and twice as much takes more than their deadline under ASan.
slowest_input() { generated_input hostile-slowest 16000; }

hostile_case() { # id kind setup run want post
	local id=$1 kind=$2 setup=$3 run=$4 want=$5 post=$6
	C="$E2E_TMP/hostile/$id"
	rm -rf "$C"
	mkdir -p "$C"
	X="$C/x"
	cp -r "$ROOT/examples/synth_gemm" "$X"
	D="$X/att/big/ui_output_agent_1_dispatch_1"
	HOSTILE_KIND_CASES[$kind]=$((${HOSTILE_KIND_CASES[$kind]:-0} + 1))
	local why="" skip=""
	if [ "$setup" != - ]; then
		# setup runs in this shell (in $C) so that the variables it sets reach `run`
		local here=$PWD
		cd "$C" || return
		eval "$setup" >"$C/setup.txt" 2>&1
		local rc=$?
		cd "$here" || return
		[ "$rc" = 77 ] && skip=$(head -c 200 "$C/setup.txt")
		[ "$rc" != 0 ] && [ "$rc" != 77 ] && why="setup failed: $(head -c 300 "$C/setup.txt")"
	fi
	if [ -n "$skip" ]; then
		ok "hostile $id # SKIP $skip"
		rm -rf "$C"
		return
	fi
	if [ -z "$why" ]; then
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
			if [[ "|$want|" != *"|$got|"* ]]; then
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
	export C X D M B BX SLOW FLYPROF JCHECK
	while IFS=$'\t' read -r id kind setup run want post; do
		case "$id" in '' | '#'*) continue ;; esac
		hostile_case "$id" "$kind" "$setup" "$run" "$want" "${post:--}"
	done <"$1"
}
