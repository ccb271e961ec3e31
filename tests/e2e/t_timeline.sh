# bubbles --timeline: Chrome trace-event JSON of every traced wave, checked by tests/tools/tlcheck
# against the trace-event format and the wave files (one track per wave slot, one wave slice
# per file with its begin and length, state slices adding up to each wave's timeline).
TLCHECK="$BUILD_DIR/tools/tlcheck"
tl_dir="$E2E_TMP/tl"
rm -rf "$tl_dir" && mkdir -p "$tl_dir"
cp -R "$ROOT/examples/synth_gemm/att/big/ui_output_agent_1_dispatch_1" "$tl_dir/d"
fly "timeline: synthetic dispatch" 0 bubbles --bundle "$tl_dir/d" --timeline "$tl_dir/t.json" --top 3
expect "timeline: written" "$(field data.timeline.written)" "true"
expect "timeline: every wave file" "$(field data.timeline.waves)" "$(ls "$tl_dir/d" | grep -c '^se.*_wv.*\.json$')"
expect "timeline: hot lines = --top" "$(field data.timeline.hot_lines)" 3
expect "timeline: realtime clock" "$(field data.timeline.clock)" "realtime"
if "$TLCHECK" "$tl_dir/t.json" "$tl_dir/d" >"$E2E_TMP/tl.txt" 2>&1; then ok "timeline: valid and faithful (synthetic)"; else notok "timeline: valid and faithful (synthetic)" "$(cat "$E2E_TMP/tl.txt")"; fi
# The checker can fail: a wave slice one cycle short no longer matches its wave file.
sed 's/"cycles":\([0-9]*\),"begin_cycle"/"cycles":1\1,"begin_cycle"/' "$tl_dir/t.json" >"$tl_dir/bad.json"
if "$TLCHECK" "$tl_dir/bad.json" "$tl_dir/d" >/dev/null 2>&1; then notok "timeline: tlcheck rejects a tampered timeline"; else ok "timeline: tlcheck rejects a tampered timeline"; fi
rm "$tl_dir/d/realtime.json"
fly "timeline: without realtime.json" 0 bubbles --bundle "$tl_dir/d" --timeline "$tl_dir/t2.json"
expect "timeline: cycle clock without realtime.json" "$(field data.timeline.clock)" "cycles"
grep -q '"clock":"no realtime.json' "$tl_dir/t2.json" && ok "timeline: says its clock" || notok "timeline: says its clock"
w=$(ls "$tl_dir/d" | grep '^se.*_wv.*\.json$' | head -1)
printf '{"wave": {"begin": 1, "end": ' >"$tl_dir/d/$w"
fly "timeline: malformed wave file is BAD_INPUT" 65 bubbles --bundle "$tl_dir/d" --timeline "$tl_dir/t3.json"
[ -e "$tl_dir/t3.json" ] && notok "timeline: nothing written on error" || ok "timeline: nothing written on error"
if [ -n "$CORPUS" ]; then
	for k in hgemm_splitk quant pa; do
		d=$(ls -d "$CORPUS/$k"/att/big/ui_output_agent_*_dispatch_* | head -1)
		fly "timeline: $k" 0 bubbles --bundle "$d" --timeline "$tl_dir/$k.json"
		if "$TLCHECK" "$tl_dir/$k.json" "$d" >"$E2E_TMP/tl.txt" 2>&1; then ok "timeline: $k valid and faithful"; else notok "timeline: $k valid and faithful" "$(cat "$E2E_TMP/tl.txt")"; fi
	done
else
	echo "ok - timeline corpus checks # SKIP FLYPROF_CORPUS not set"
	SKIP=$((SKIP + 1))
fi
if [ -n "${FLYPROF_SAMPLES:-}" ] && [ -d "$FLYPROF_SAMPLES/ncu-h200" ]; then
	mkdir -p "$tl_dir/ncu" && cp "$FLYPROF_SAMPLES"/ncu-h200/cuda_* "$tl_dir/ncu/"
	fly "timeline: NVIDIA input answers without a file" 0 bubbles --bundle "$tl_dir/ncu" --timeline "$tl_dir/n.json"
	expect "timeline: NVIDIA written false" "$(field data.timeline.written)" "false"
	grep -q 'not a per-warp' "$OUT" && ok "timeline: NVIDIA says why" || notok "timeline: NVIDIA says why" "$(head -c 600 "$OUT")"
else
	echo "ok - timeline NVIDIA check # SKIP FLYPROF_SAMPLES not set"
	SKIP=$((SKIP + 1))
fi
rm -rf "$tl_dir"
