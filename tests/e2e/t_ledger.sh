# `ledger append|list|summary` (issue 12 part 4): the round-trip, numbering, the correctness
# discipline, a diff envelope as evidence, malformed and torn lines reported with their line
# number, and concurrent appenders that lose no round and share no number.
L="$E2E_TMP/work/ledger/task.jsonl"
# rounds_in PATH: how many rounds the array at PATH of the last envelope holds.
rounds_in() { field "$1" | grep -o '"round":[0-9]' | wc -l | tr -d ' '; }
rm -rf "$(dirname "$L")" && mkdir -p "$(dirname "$L")"

fly "ledger: no action" 64 ledger --ledger "$L" -f json
expect "ledger: actions listed" "$(field error.available.1)" "list"
fly "ledger: unknown action" 64 ledger frobnicate --ledger "$L" -f json
fly "ledger: append needs --hypothesis" 64 ledger append --ledger "$L" --decision accepted --why x -f json
fly "ledger: append needs --why" 64 ledger append --ledger "$L" --hypothesis h --decision accepted -f json
fly "ledger: unknown decision" 78 ledger append --ledger "$L" --hypothesis h --decision maybe --why x -f json
fly "ledger: list of a missing ledger" 0 ledger list --ledger "$L" -f json
expect "ledger: missing ledger warns" "$(field warnings.0)" "$L does not exist yet: no rounds recorded"
expect "ledger: nothing created by list" "$(ls -A "$(dirname "$L")")" ""

fly "ledger: append round 1" 0 ledger append --ledger "$L" --task fa-fp8 --hypothesis "BK 64 halves LDS waits" \
	--rule lds_wait_dominant --knob bk --before b0 --after b1 --verdict improved \
	--correctness pass --correctness-detail "max_err=0.011 min_cos=0.9993" --benchmark "412 TFLOP/s" \
	--speedup 1.08 --decision accepted --why "lds_wait -12 pp, 1.08x" -f json
expect "ledger: first round is 1" "$(field data.round.round)" "1"
expect "ledger: time stamped" "$(field data.round.time | grep -cE '^20[0-9]{2}-[0-9]{2}-[0-9]{2}T[0-9:]{8}Z$')" "1"
fly "ledger: accepting a failed gate is refused" 78 ledger append --ledger "$L" --hypothesis h \
	--correctness fail --decision accepted --why x -f json
expect "ledger: the refusal wrote nothing" "$(wc -l <"$L" | tr -d ' ')" "1"
FLYPROF_TASK=fa-fp8 fly "ledger: append round 2 (task from the environment)" 0 ledger append --ledger "$L" \
	--hypothesis "2 waves per SIMD" --rule occupancy_low --correctness pass --verdict regressed \
	--speedup 0.93 --decision rejected --why "slower and vmem_wait grew" -f json
expect "ledger: second round is 2" "$(field data.round.round)" "2"
expect "ledger: task from FLYPROF_TASK" "$(field data.round.task)" "fa-fp8"

fly "ledger: list" 0 ledger list --ledger "$L" -f json
expect "ledger: list count" "$(rounds_in data.rounds)" "2"
expect "ledger: round-trip hypothesis" "$(field data.rounds.0.hypothesis)" "BK 64 halves LDS waits"
expect "ledger: round-trip correctness detail" "$(field data.rounds.0.correctness.detail)" "max_err=0.011 min_cos=0.9993"
expect "ledger: round-trip diff outcome" "$(field data.rounds.1.diff.outcome)" "regressed"
expect "ledger: round-trip speedup" "$(field data.rounds.1.benchmark.speedup)" "0.93"
fly "ledger: list --last 1" 0 ledger list --ledger "$L" --last 1 -f json
expect "ledger: --last keeps the newest" "$(field data.rounds.0.round)" "2"
expect "ledger: --last says what was cut" "$(field truncated.rounds.total)" "2"

fly "ledger: summary" 0 ledger summary --ledger "$L" -f json
expect "ledger: summary counts" "$(field data.accepted)/$(field data.rejected)" "1/1"
expect "ledger: best accepted round" "$(field data.best_accepted.round)" "1"
expect "ledger: rule memory" "$(field data.rules.occupancy_low.tried)/$(field data.rules.occupancy_low.accepted)" "1/0"

# A saved `flyprof diff` envelope is evidence the round can cite.
EX="$ROOT/examples/synth_gemm"
if [ -d "$EX" ]; then
	"$FLYPROF" diff --before "$EX" --after "$EX" -f json >"$E2E_TMP/diff.json" 2>/dev/null </dev/null
	want=$("$JCHECK" get "$E2E_TMP/diff.json" data.verdict.outcome)
	fly "ledger: --diff takes the verdict of a diff envelope" 0 ledger append --ledger "$L" \
		--hypothesis "no change" --diff "$E2E_TMP/diff.json" --decision rejected --why "same kernel" -f json
	expect "ledger: verdict copied from the diff" "$(field data.round.diff.outcome)" "$want"
	fly "ledger: --diff on something else" 65 ledger append --ledger "$L" --hypothesis h \
		--diff "$L" --decision rejected --why x -f json
	fly "ledger: --diff and --verdict together" 64 ledger append --ledger "$L" --hypothesis h \
		--diff "$E2E_TMP/diff.json" --verdict improved --decision rejected --why x -f json
fi

# Concurrent appenders: every round lands once, numbers are 1..N without gaps or repeats.
C="$E2E_TMP/work/ledger/concurrent.jsonl"
for i in $(seq 1 24); do
	"$FLYPROF" ledger append --ledger "$C" --hypothesis "h$i" --decision rejected --why "w$i" \
		-f json >/dev/null 2>&1 </dev/null &
done
wait
fly "ledger: concurrent appends read back" 0 ledger list --ledger "$C" -f json
expect "ledger: 24 concurrent rounds kept" "$(rounds_in data.rounds)" "24"
expect "ledger: numbers 1..24, each once" \
	"$(for i in $(seq 0 23); do field data.rounds.$i.round; done | sort -n | uniq | tr '\n' ' ')" \
	"$(seq 1 24 | tr '\n' ' ')"

# Malformed data is reported with its line, and an append refuses to build on it.
B="$E2E_TMP/work/ledger/bad.jsonl"
head -n 2 "$L" >"$B"
printf '{"round": 3, "hypothesis": "x", "correctness": {"result": "pass"}, "decision": "kept", "why": "y"}\n' >>"$B"
fly "ledger: unknown decision in the file" 65 ledger list --ledger "$B" -f json
expect "ledger: bad line number" "$(field error.line)" "3"
expect "ledger: bad line file" "$(field error.file)" "$B"
fly "ledger: append onto a malformed ledger" 65 ledger append --ledger "$B" --hypothesis h --decision rejected --why x -f json
expect "ledger: malformed ledger untouched" "$(wc -l <"$B" | tr -d ' ')" "3"
head -n 2 "$L" >"$B"
printf '{"round": 3, "hypo' >>"$B"
fly "ledger: torn last line" 65 ledger summary --ledger "$B" -f json
expect "ledger: torn line number" "$(field error.line)" "3"
printf '\n' >>"$B"
fly "ledger: broken JSON" 65 ledger list --ledger "$B" -f json
expect "ledger: broken JSON line and column" "$(field error.line):$(field error.column)" "3:19"
"$FLYPROF" ledger summary --ledger "$L" -f table >"$E2E_TMP/t.txt" 2>&1 </dev/null
expect "ledger: table view leads with the answer" "$(head -n 2 "$E2E_TMP/t.txt" | grep -c 'round(s)')" "1"
