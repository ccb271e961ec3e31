# The AMD front door (issue 11): `list`, `capture`, `counters` and `run` against the stand-in
# rocprofv3 ($FAKE_DIR/rocprofv3, tests/fake/rocprofv3.c), which replays the corpus recordings.
# Every failure mode must give its typed envelope and exit status and leave no process behind.
# Scratch files live under $E2E_TMP/work (t_envelope.sh checks nothing else appears).
F="$E2E_TMP/work/front"
rm -rf "$F" && mkdir -p "$F"

# A FlyDSL worktree as far as flyprof can tell: a build tree and the June-era harnesses, plus one
# harness no recipe names (synthesized by `list`) in the domain-folder layout.
WT="$F/wt"
mkdir -p "$WT/build-fly/python_packages/flydsl/_mlir" "$WT/tests/kernels" "$WT/kernels/norm"
for k in softmax rmsnorm layernorm topk_gating_softmax quant fused_rope_cache pa hgemm_splitk \
	preshuffle_gemm moe_gemm vec_add; do
	: >"$WT/tests/kernels/test_$k.py"
done
printf 'shapes = os.environ.get("ROCDSL_NEWNORM_SHAPES", "8,8,bf16")\n' >"$WT/tests/kernels/test_newnorm.py"
: >"$WT/kernels/norm/newnorm_kernel.py"

fly "list: registry only" 0 list -f json
expect "list: registry covers the corpus kernels" "$(field data.counts.registry)" "11"
expect "list: registry origin" "$(field data.registry)" "<embedded>/recipes.json"
expect "list: no worktree, harness unknown" "$(field data.kernels.0.test_present)" "null"
fly "list: with a worktree" 0 list --worktree "$WT" -f json
expect "list: synthesized from the worktree" "$(field data.counts.worktree)" "1"
expect "list: harnesses present" "$(field data.counts.harness_present)" "12"
expect "list: synthesized name" "$(field data.kernels.11.name)" "newnorm"
expect "list: synthesized from" "$(field data.kernels.11.from)" "worktree"
expect "list: shape variable read from the harness" "$(field data.kernels.11.shape_var)" "ROCDSL_NEWNORM_SHAPES"
expect "list: kernel source in the domain layout" "$(field data.kernels.11.kernel_source)" "kernels/norm/newnorm_kernel.py"
expect "list: registry recipe has its shape env" "$(field data.kernels.0.env.0)" "ROCDSL_SOFTMAX_SHAPES=32768,8192,bf16"
fly "list: missing worktree is BAD_ARGS" 78 list --worktree "$F/nope" -f json
printf '[{"test_file": "/sgl-workspace/FlyDSL-lab/tests/kernels/test_softmax.py", "kernels": ["softmax_kernel"],
  "kernel_name_hint": "softmax_kernel (row softmax)", "invocation": "python tests/kernels/test_softmax.py",
  "shape_env": {"ROCDSL_SOFTMAX_SHAPES": "M,N,dtype format; e.g. 32768,8192,bf16"}}]\n' >"$F/hub.json"
FLYPROF_RECIPES="$F/hub.json" fly "list: a hub-format registry" 0 list --worktree "$WT" -f json
expect "list: hub recipe named from its test file" "$(field data.kernels.0.name)" "softmax"
expect "list: hub hint's first token is the pattern" "$(field data.kernels.0.kernel_regex)" "softmax_kernel"
expect "list: hub shape description is not a value" "$(field data.kernels.0.env.0)" ""
expect "list: hub absolute test path found in the worktree" "$(field data.kernels.0.test_present)" "true"
printf '{"kernels": [{"name": "x"}]}' >"$F/bad.json"
FLYPROF_RECIPES="$F/bad.json" fly "list: a recipe without invocation is BAD_INPUT" 65 list -f json
expect "list: BAD_INPUT names the registry" "$(field error.file)" "$F/bad.json"
printf '{"kernels": [' >"$F/trunc.json"
FLYPROF_RECIPES="$F/trunc.json" fly "list: truncated registry is BAD_INPUT" 65 list -f json

# ---- capture / counters against the stand-in ----------------------------------------------
if [ -z "$CORPUS" ]; then
	echo "ok - capture/counters/run # SKIP FLYPROF_CORPUS not set (the stand-in replays the corpus)"
	SKIP=$((SKIP + 1))
	return 0 2>/dev/null || exit 0
fi
mkdir -p "$F/lib" && : >"$F/lib/librocprof-trace-decoder.so"
LOG="$F/rocprofv3.log"
PIDS="$F/pids"
export FLYPROF_ROCPROFV3="$FAKE_DIR/rocprofv3" FAKE_ROCPROFV3_CORPUS="$CORPUS" \
	FLYPROF_DECODER_PATH="$F/lib" FAKE_ROCPROFV3_LOG="$LOG" FAKE_ROCPROFV3_PIDS="$PIDS"

# running PID: the process exists and is not a zombie (a killed child whose parent died is
# reaped by init a moment later; until then it is dead but still listed).
running() { [ -r "/proc/$1/stat" ] && ! grep -q '^[0-9]* ([^)]*) Z' "/proc/$1/stat" 2>/dev/null; }
# no_orphans NAME: the processes a hanging stand-in wrote to $PIDS are gone.
no_orphans() {
	local alive=""
	if [ ! -s "$PIDS" ]; then notok "$1" "the stand-in wrote no pids"; return; fi
	for p in $(cat "$PIDS"); do running "$p" && alive="$alive $p"; done
	if [ -z "$alive" ]; then ok "$1"; else notok "$1" "still running:$alive"; kill -9 $alive 2>/dev/null; fi
	rm -f "$PIDS"
}
# last_call FIELD: a field of the last stand-in invocation that was not --version.
last_call() { grep -v '"--version"' "$LOG" | tail -1 >"$F/call.json"; "$JCHECK" get "$F/call.json" "$1"; }
# interrupt PASS ARGS: runs flyprof ARGS with the stand-in hanging in PASS (att, pmc), sends
# SIGINT once the hanging stand-in has written $PIDS, and waits: status in $ST, envelope in $OUT.
interrupt() {
	local pass=$1 pid
	shift
	FAKE_ROCPROFV3_MODE=hang:$pass "$FLYPROF" "$@" -f json >"$F/int.json" 2>/dev/null &
	pid=$!
	for _ in $(seq 200); do [ -s "$PIDS" ] && break; sleep 0.1; done
	kill -INT "$pid"
	wait "$pid"
	ST=$?
	OUT="$F/int.json"
}

B="$F/b-hgemm"
rm -f "$LOG"
fly "capture hgemm_splitk" 0 capture hgemm_splitk --worktree "$WT" --bundle "$B" --gpu 1 -f json
expect "capture: JIT kernel chosen" "$(field data.capture.kernel)" "hgemm_bf16_32x64x256_W1x2x2_S2_BT_BLDS1_AS1_SPK14_0"
expect "capture: matched by the recipe regex" "$(field data.capture.match_confidence)" "exact"
expect "capture: calls from the discovery pass" "$(field data.capture.calls)" "55"
expect "capture: automatic iteration range" "$(field data.capture.iter_range)" "[6, 8]"
expect "capture: kept the recorded dispatch" "$(field data.capture.tags.big.kept_dir)" "att/big/ui_output_agent_4716_dispatch_319"
expect "capture: inventory holds the empty shell too" "$(field data.capture.tags.big.inventory.1.empty)" "true"
expect "capture: waves of the kept dispatch" "$(field data.capture.tags.big.waves)" "8"
expect "capture: every instruction mapped" "$(field data.capture.tags.big.mapped_pct)" "100"
expect "capture: arch from the agent table" "$(field data.capture.arch)" "gfx950"
expect "capture: LDS from the kernel trace" "$(field data.capture.resources.lds_bytes)" "98304"
expect "capture: bundle in the envelope" "$(field bundle)" "$B"
[ -f "$B/capture.json" ] && ok "capture: capture.json written" || notok "capture: capture.json written"
[ -f "$B/rocprofv3/discover_kernel_stats.csv" ] && ok "capture: discovery CSVs kept" || notok "capture: discovery CSVs kept"
[ -s "$B/logs/att_big.log" ] || [ -f "$B/logs/att_big.log" ] && ok "capture: pass log kept" || notok "capture: pass log kept"
ls -a "$B" | grep -q '^\.incoming' && notok "capture: no temporary directory left" || ok "capture: no temporary directory left"
"$JCHECK" get "$B/manifest.json" kernel >"$F/k.txt"
expect "capture: manifest names the kernel" "$(cat "$F/k.txt")" "hgemm_splitk"
"$JCHECK" get "$B/jobs/input_att_big.json" jobs.0.kernel_include_regex >"$F/k.txt"
expect "capture: ATT job regex anchored" "$(cat "$F/k.txt")" '^hgemm_bf16_32x64x256_W1x2x2_S2_BT_BLDS1_AS1_SPK14_0$'
"$JCHECK" get "$B/jobs/input_att_big.json" jobs.0.att_library_path.0 >"$F/k.txt"
expect "capture: decoder directory passed" "$(cat "$F/k.txt")" "$F/lib"
expect "capture: ATT pass ran from the job file" "$(last_call argv.1)" "-i"
expect "capture: child cwd is the worktree" "$(last_call cwd)" "$WT"
expect "capture: --gpu becomes HIP_VISIBLE_DEVICES" "$(last_call env.HIP_VISIBLE_DEVICES)" "1"
expect "capture: FlyDSL debug info on" "$(last_call env.FLYDSL_DEBUG_ENABLE_DEBUG_INFO)" "1"
expect "capture: AIter comparison off" "$(last_call env.ROCDSL_COMPARE_AITER)" "0"
expect "capture: fresh JIT cache per pass" "$(last_call env.FLYDSL_RUNTIME_CACHE_DIR)" "$B/.cache_att_big"
expect "capture: build tree on PYTHONPATH" "$(last_call env.PYTHONPATH | cut -d: -f1)" "$WT/build-fly/python_packages"
expect "capture: interpreter replaces python" "$(last_call argv.4)" "python3"
grep '"--kernel-trace"' "$LOG" | grep -q '"--stats"' && ok "capture: discovery pass is --kernel-trace --stats" ||
	notok "capture: discovery pass is --kernel-trace --stats"

for k in pa vec_add; do
	fly "capture $k" 0 capture "$k" --worktree "$WT" --bundle "$F/b-$k" -f json
	expect "capture $k: exact match" "$(field data.capture.match_confidence)" "exact"
	[ -n "$(field data.capture.tags.big.kept_dir)" ] && ok "capture $k: a dispatch kept" || notok "capture $k: a dispatch kept"
done
expect "capture pa: the recipe's iteration range" "$(field data.capture.iter_range)" "[6, 8]"
"$JCHECK" get "$F/b-pa/capture.json" iter_range >"$F/k.txt"
expect "capture pa: recipe range recorded" "$(cat "$F/k.txt")" "[5, [6-6]]"
expect "capture vec_add: shape variable unset for vec_add" "$(field data.capture.tags.big.shape)" "null"
fly "capture softmax --shape: shape reaches the harness" 0 capture topk_gating_softmax --worktree "$WT" \
	--bundle "$F/b-topk" --shape 512,8,2,f32 --tag both -f json
expect "capture --tag both: small shape shrunk" "$(field data.capture.tags.small.shape)" "256,8,2,f32"
expect "capture --tag both: big shape" "$(field data.capture.tags.big.shape)" "512,8,2,f32"
expect "capture --shape: env of the last pass" "$(last_call env.ROCDSL_TOPK_GATING_SHAPES)" "512,8,2,f32"
[ -d "$F/b-topk/att/small" ] && [ -d "$F/b-topk/att/big" ] && ok "capture --tag both: both tags in the bundle" ||
	notok "capture --tag both: both tags in the bundle"
fly "capture --iter-range override" 0 capture hgemm_splitk --worktree "$WT" --bundle "$F/b-iter" --iter-range "[2-3]" -f json
expect "capture --iter-range: used as given" "$(field data.capture.iter_range_source)" "--iter-range"
expect "capture --iter-range: two dispatches seen" "$(field data.capture.tags.big.inventory.1.dispatch)" "316"
fly "capture with a foreign invocation: heuristic" 0 capture softmax --worktree "$WT" --bundle "$F/b-heur" \
	--invocation "python tests/kernels/test_vec_add.py" -f json
expect "capture heuristic: confidence" "$(field data.capture.match_confidence)" "heuristic"
expect "capture heuristic: recipe source" "$(field data.capture.recipe_source)" "invocation-override"
grep -q heuristic "$OUT" && ok "capture heuristic: warned" || notok "capture heuristic: warned"
[ "$(field data.capture.candidates.0.match)" = "none" ] && ok "capture heuristic: candidates listed" ||
	notok "capture heuristic: candidates listed"

# failure modes: typed envelope and exit status
FLYPROF_ROCPROFV3="$F/nope" fly "capture: rocprofv3 missing" 69 capture vec_add --worktree "$WT" --bundle "$F/x1" -f json
expect "capture: ROCPROFV3_MISSING" "$(field error.code)" "ROCPROFV3_MISSING"
fly "capture: no worktree" 78 capture vec_add --bundle "$F/x2" -f json
expect "capture: BUILD_TREE_MISSING without worktree" "$(field error.code)" "BUILD_TREE_MISSING"
mkdir -p "$F/bare/tests/kernels"
fly "capture: worktree without build tree" 78 capture vec_add --worktree "$F/bare" --bundle "$F/x3" -f json
expect "capture: BUILD_TREE_MISSING without build-fly" "$(field error.code)" "BUILD_TREE_MISSING"
fly "capture: unknown kernel" 66 capture sofmax --worktree "$WT" --bundle "$F/x4" -f json
expect "capture: KERNEL_NOT_FOUND" "$(field error.code)" "KERNEL_NOT_FOUND"
expect "capture: nearest name first" "$(field error.available.0)" "softmax"
[ ! -e "$F/x4" ] && ok "capture: a refused capture leaves no bundle" || notok "capture: a refused capture leaves no bundle"
rm "$WT/tests/kernels/test_quant.py"
fly "capture: harness missing from the worktree" 66 capture quant --worktree "$WT" --bundle "$F/x5" -f json
expect "capture: missing harness is KERNEL_NOT_FOUND" "$(field error.code)" "KERNEL_NOT_FOUND"
: >"$WT/tests/kernels/test_quant.py"
fly "capture: a backend without capture slots" 78 capture vec_add --backend ncu --worktree "$WT" -f json
expect "capture: backends that capture" "$(field error.available.0)" "rocprofv3"
fly "capture: no kernel argument" 64 capture --worktree "$WT" -f json
fly "capture: --out refused" 78 capture vec_add --worktree "$WT" --out "$F/x6" -f json
fly "capture: unterminated quote in the invocation" 78 capture vec_add --worktree "$WT" --bundle "$F/x7" \
	--invocation "python 'tests/kernels/test_vec_add.py" -f json
mkdir -p "$F/foreign" && : >"$F/foreign/file"
fly "capture: refuses a foreign directory" 78 capture vec_add --worktree "$WT" --bundle "$F/foreign" -f json
expect "capture: NOT_A_BUNDLE" "$(field error.code)" "NOT_A_BUNDLE"
FAKE_ROCPROFV3_MODE=fail:discover fly "capture: profiler fails" 70 capture vec_add --worktree "$WT" --bundle "$F/x8" -f json
expect "capture: PROFILER_FAILED" "$(field error.code)" "PROFILER_FAILED"
expect "capture: log named" "$(field error.log)" "$F/x8/logs/discover.log"
field error.log_tail | grep -q "simulated failure" && ok "capture: log tail in the envelope" || notok "capture: log tail in the envelope"
FAKE_ROCPROFV3_MODE=crash:att fly "capture: profiler crashes" 70 capture vec_add --worktree "$WT" --bundle "$F/x9" -f json
expect "capture: crash status" "$(field error.status)" "signaled"
FAKE_ROCPROFV3_MODE=nodecoder:att fly "capture: decoder missing" 69 capture vec_add --worktree "$WT" --bundle "$F/x10" -f json
expect "capture: DECODER_MISSING" "$(field error.code)" "DECODER_MISSING"
FAKE_ROCPROFV3_MODE=empty:att fly "capture: only empty dispatches" 66 capture vec_add --worktree "$WT" --bundle "$F/x11" -f json
expect "capture: EMPTY_ATT" "$(field error.code)" "EMPTY_ATT"
expect "capture: EMPTY_ATT carries the inventory" "$(field error.inventory.big.0.empty)" "true"
[ ! -e "$F/x11/capture.json" ] && ok "capture: no capture.json for an empty trace" || notok "capture: no capture.json for an empty trace"
FAKE_ROCPROFV3_MODE=nokernel:discover fly "capture: nothing discovered" 66 capture vec_add --worktree "$WT" --bundle "$F/x12" -f json
expect "capture: NO_KERNEL_DISCOVERED" "$(field error.code)" "NO_KERNEL_DISCOVERED"
FAKE_ROCPROFV3_MODE=flood:att fly "capture: a flood of profiler output stays in the log" 0 capture vec_add \
	--worktree "$WT" --bundle "$F/x13" -f json
[ "$(stat -c %s "$F/x13/logs/att_big.log")" -ge 16777216 ] && ok "capture: flood logged" || notok "capture: flood logged"

start=$(date +%s)
FAKE_ROCPROFV3_MODE=hang:att fly "capture: deadline" 75 capture vec_add --worktree "$WT" --bundle "$F/x14" --timeout 1 -f json
expect "capture: CAPTURE_TIMEOUT" "$(field error.code)" "CAPTURE_TIMEOUT"
no_orphans "capture: no process left after the deadline"
FAKE_ROCPROFV3_MODE=ignore-term:discover fly "capture: deadline, SIGTERM ignored" 75 capture vec_add --worktree "$WT" \
	--bundle "$F/x15" --timeout 1 -f json
no_orphans "capture: SIGKILL reaches a profiler that ignores SIGTERM"
elapsed=$(($(date +%s) - start))
[ "$elapsed" -lt 15 ] && ok "capture: deadlines bounded (${elapsed}s)" || notok "capture: deadlines bounded" "${elapsed}s"

# interrupted: the earlier capture of $B is left intact
sum_before=$(cat "$B/capture.json" "$B"/att/big/*/code.json | md5sum)
interrupt att capture hgemm_splitk --worktree "$WT" --bundle "$B"
expect "capture interrupted exits 130" "$ST" "130"
expect "capture interrupted: INTERRUPTED" "$(field error.code)" "INTERRUPTED"
no_orphans "capture interrupted: no process left"
expect "capture interrupted: earlier artifacts intact" "$(cat "$B/capture.json" "$B"/att/big/*/code.json | md5sum)" "$sum_before"

# shell metacharacters are passed literally, never to a shell
rm -f "$LOG"
fly "capture: metacharacters in the invocation" 0 capture vec_add --worktree "$WT" --bundle "$F/x16" \
	--invocation 'python tests/kernels/test_vec_add.py --tag "a;b|c" $(touch '"$F"'/pwned) `id` * >out' -f json
expect "capture: quoted word kept whole" "$(last_call argv.7)" "a;b|c"
expect "capture: command substitution literal" "$(last_call argv.8)" '$(touch'
expect "capture: backquotes literal" "$(last_call argv.10)" '`id`'
expect "capture: glob literal" "$(last_call argv.11)" '*'
[ ! -e "$F/pwned" ] && ok "capture: no shell ran the invocation" || notok "capture: no shell ran the invocation"
fly "capture: metacharacters in a kernel name" 66 capture 'vec;add$(id)' --worktree "$WT" -f json
expect "capture: odd kernel name is KERNEL_NOT_FOUND" "$(field error.code)" "KERNEL_NOT_FOUND"

# counters
fly "counters hgemm_splitk" 0 counters hgemm_splitk --worktree "$WT" --bundle "$B" -f json
expect "counters: kernel from capture.json" "$(field data.counters.kernel_from)" "capture.json"
expect "counters: passes fit the hardware" "$(field data.counters.passes.1.counters.0)" "GRBM_GUI_ACTIVE"
expect "counters: dispatches per pass" "$(field data.counters.passes.0.dispatches)" "2"
expect "counters: per-XCD normalised" "$(field data.counters.per_xcd.normalised)" "true"
expect "counters: bandwidth never calibrated" "$(field data.counters.memory.calibrated)" "false"
expect "counters: bound from counters" "$(field data.bound.basis)" "counters"
expect "counters: roofline product" "$(field data.counters.roofline.product)" "MI350X"
[ -f "$B/counters.json" ] && ok "counters: counters.json written" || notok "counters: counters.json written"
fly "counters: kernel taken from the bundle" 0 counters --worktree "$WT" --bundle "$B" -f json
expect "counters: recipe kernel from capture.json" "$(field data.counters.recipe_kernel)" "hgemm_splitk"
FAKE_ROCPROFV3_COUNTERS="SQ_LDS_BANK_CONFLICT=500,SQ_LDS_IDX_ACTIVE=1000" fly "counters: bank conflicts" 0 counters \
	vec_add --worktree "$WT" --bundle "$F/c-vec" -f json
expect "counters: bank-conflict rate over LDS-active cycles" "$(field data.counters.lds.bank_conflict_pct)" "50"
expect "counters: own discovery without capture.json" "$(field data.counters.kernel_from)" "exact"
fly "counters: unknown arch" 78 counters vec_add --worktree "$WT" --bundle "$F/c-vec" --arch gfx90a -f json
expect "counters: arches available" "$(field error.available.0)" "gfx950"
sum_before=$(md5sum <"$B/counters.json")
FAKE_ROCPROFV3_MODE=hang:pmc fly "counters: deadline" 75 counters hgemm_splitk --worktree "$WT" --bundle "$B" --timeout 1 -f json
no_orphans "counters: no process left after the deadline"
expect "counters: earlier counters.json intact" "$(md5sum <"$B/counters.json")" "$sum_before"
FAKE_ROCPROFV3_MODE=nokernel:pmc fly "counters: no dispatch recorded" 66 counters vec_add --worktree "$WT" --bundle "$F/c-vec" -f json
expect "counters: NO_ARTIFACT" "$(field error.code)" "NO_ARTIFACT"
fly "report after counters" 0 report --bundle "$B" -f json
expect "report: bound is counter-based" "$(field data.bound.basis)" "counters"

# run: the whole pipeline, then the example re-analysed with no GPU, profiler or worktree
export FLYPROF_ROCMINFO="$FAKE_DIR/rocminfo"
R="$F/run-hgemm"
fly "run hgemm_splitk" 0 run hgemm_splitk --worktree "$WT" --bundle "$R" -f json
expect "run: bound from counters" "$(field data.bound.basis)" "counters"
expect "run: eight steps recorded" "$(field data.steps.7.step)" "bundle"
expect "run: doctor gate passed" "$(field data.steps.0.summary)" "amd ready"
expect "run: tile skipped without --shape" "$(field data.steps.1.status)" "skipped"
expect "run: every other step ok" "$(grep -c '"status": "failed"' "$OUT")" "0"
expect "run: REPORT.md" "$(field data.outputs.report_md)" "$R/REPORT.md"
expect "run: example beside the bundle" "$(field data.outputs.example)" "$R.example"
for a in capture.json counters.json bubbles.json map.json report.json REPORT.md run.json; do
	[ -f "$R/$a" ] || notok "run: $a written"
done
ok "run: every artifact written"
grep -q "memory-bound (counters" "$R/REPORT.md" && ok "run: REPORT.md headline is counter-based" ||
	notok "run: REPORT.md headline is counter-based"
"$JCHECK" get "$R/run.json" stopped_in >"$F/k.txt"
expect "run: run.json complete" "$(cat "$F/k.txt")" "null"
for c in bubbles map report; do
	(cd "$R.example" && env -i PATH=/usr/bin:/bin "$FLYPROF" "$c" --bundle . --out "$F/ro-$c" -f json \
		>"$F/ro-$c.json" 2>/dev/null)
	expect "run example: $c without GPU, profiler or worktree" "$?" "0"
done
OUT="$F/ro-report.json"
expect "run example: report keeps the counter bound" "$(field data.bound.basis)" "counters"

FLYPROF_ROCMINFO="$F/nope" fly "run: doctor gate" 69 run vec_add --worktree "$WT" --bundle "$F/run-x1" -f json
expect "run gate: NO_GPU" "$(field error.code)" "NO_GPU"
expect "run gate: stopped in doctor" "$(field error.step)" "doctor"
[ ! -e "$F/run-x1" ] && ok "run gate: nothing written" || notok "run gate: nothing written"
FAKE_ROCPROFV3_MODE=fail:pmc fly "run: counters fail soft" 0 run vec_add --worktree "$WT" --bundle "$F/run-x2" -f json
expect "run soft: counters step failed" "$(field data.steps.3.status)" "failed"
expect "run soft: bound from the trace" "$(field data.bound.basis)" "trace"
grep -q "step counters skipped: PROFILER_FAILED" "$OUT" && ok "run soft: warning names the failure" ||
	notok "run soft: warning names the failure"
fly "run: a bundle captured before" 0 capture vec_add --worktree "$WT" --bundle "$F/run-x3" -f json
FAKE_ROCPROFV3_MODE=empty:att fly "run: capture failure stops the run" 66 run vec_add --worktree "$WT" \
	--bundle "$F/run-x3" -f json
expect "run stop: step named" "$(field error.step)" "capture"
"$JCHECK" get "$F/run-x3/run.json" stopped_in >"$F/k.txt"
expect "run stop: run.json says where" "$(cat "$F/k.txt")" "capture"
interrupt att run vec_add --worktree "$WT" --bundle "$F/run-x4"
expect "run interrupted exits 130" "$ST" "130"
expect "run interrupted: INTERRUPTED" "$(field error.code)" "INTERRUPTED"
expect "run interrupted: in capture" "$(field error.step)" "capture"
no_orphans "run interrupted: no process left"
# the interruption model (docs/security.md): what the interrupted run created is rolled back;
# the earlier capture of run-x3 stays as it was
interrupt att run vec_add --worktree "$WT" --bundle "$F/run-x3"
no_orphans "run interrupted on an existing bundle: no process left"
"$JCHECK" get "$F/run-x3/capture.json" recipe_kernel >"$F/k.txt"
expect "run interrupted: the earlier capture intact" "$(cat "$F/k.txt")" "vec_add"
fly "run: no kernel" 64 run --worktree "$WT" -f json

# A failure that leaves evidence keeps the fresh bundle: the log the error names is there, the
# manifest records the failed step, and a retry works in place (no NOT_A_BUNDLE).
FAKE_ROCPROFV3_MODE=fail:att fly "capture fails in a fresh bundle" 70 capture vec_add --worktree "$WT" \
	--bundle "$F/keep" -f json
[ -f "$(field error.log)" ] && ok "failed capture: the log it names exists" || notok "failed capture: the log it names exists"
"$JCHECK" get "$F/keep/manifest.json" steps.0.exit >"$F/k.txt" 2>&1
expect "failed capture: the manifest records the failed step" "$(cat "$F/k.txt")" "70"
fly "failed capture: a retry in the same bundle" 0 capture vec_add --worktree "$WT" --bundle "$F/keep" -f json
# An interrupted capture into a fresh bundle removes it whole, profiler output and logs too.
interrupt att capture vec_add --worktree "$WT" --bundle "$F/gone"
expect "capture interrupted in a fresh bundle exits 130" "$ST" "130"
no_orphans "capture interrupted in a fresh bundle: no process left"
[ ! -e "$F/gone" ] && ok "capture interrupted in a fresh bundle: nothing left" ||
	notok "capture interrupted in a fresh bundle: nothing left" "$(find "$F/gone" | head -5)"
# An interruption after the new trace was moved into place (run: counters hang after capture)
# puts the earlier trace back: the tree it replaced was kept aside, not deleted.
: >"$R/att/big/earlier-marker"
interrupt pmc run hgemm_splitk --worktree "$WT" --bundle "$R"
expect "run interrupted in counters exits 130" "$ST" "130"
no_orphans "run interrupted in counters: no process left"
[ -f "$R/att/big/earlier-marker" ] && ok "run interrupted after the trace moved in: the earlier trace restored" ||
	notok "run interrupted after the trace moved in: the earlier trace restored"
[ -z "$(find "$R" -maxdepth 3 -name '*.replaced.*')" ] && ok "run interrupted: nothing set aside is left over" ||
	notok "run interrupted: nothing set aside is left over" "$(find "$R" -maxdepth 3 -name '*.replaced.*')"
