# `bubbles`: every bundle kind, artifacts only where flyprof may write, --out, --detail, --top/
# --all truncation, determinism across runs and thread counts, typed errors on corrupt copies.
fly "bubbles without --bundle is BAD_ARGS" 78 bubbles
# The synthetic generator (bench/gen_att, used by the README demo) makes a self-consistent
# flyprof bundle: bubbles reproduces its code.json from its waves and writes into it.
if "$BUILD_DIR/bench/gen_att" --out "$E2E_TMP/syn" --waves 40 --iters 3 >/dev/null 2>&1; then
	fly "bubbles on a generated bundle" 0 bubbles --bundle "$E2E_TMP/syn" --format json
	expect "generated: no warning" "$(field warnings.0)" ""
	expect "generated: waves" "$(field data.totals.waves)" "40"
	expect "generated: wave check" "$(field data.wave_check.idle_match)" "true"
	expect "generated: waits attributed from producers" "$(field data.waits.0.split_method)" "producers"
	expect "generated: kernel" "$(field data.dispatch.kernel)" "synth_gemm_kernel_0"
	[ -f "$E2E_TMP/syn/bubbles.json" ] && ok "generated: bubbles.json in the bundle" ||
		notok "generated: bubbles.json in the bundle"
	grep -q '"synthetic": true' "$E2E_TMP/syn/manifest.json" && ok "generated: manifest says synthetic" ||
		notok "generated: manifest says synthetic"
else
	notok "bench/gen_att makes a bundle"
fi
rm -rf "$E2E_TMP/syn"
if [ -z "$CORPUS" ]; then
	echo "ok - bubbles corpus checks # SKIP FLYPROF_CORPUS not set"
	SKIP=$((SKIP + 1))
else
	bdisp=$(ls -d "$CORPUS"/hgemm_splitk/att/big/ui_output_agent_*_dispatch_* | head -1)
	fly "bubbles on a raw dispatch dir" 0 bubbles --bundle "$bdisp" --format json
	expect "raw dispatch: nothing written" "$(field data.artifact)" ""
	expect "raw dispatch: totals.hits" "$(field data.totals.hits)" "3596"
	expect "raw dispatch: wave check" "$(field data.wave_check.stall_match)" "true"
	expect "default top cuts hotspots" "$(field truncated.hotspots.shown)" "10"
	fly "bubbles on a capture dir" 0 bubbles --bundle "$CORPUS/hgemm_splitk" --all --format json
	expect "capture: selection recorded" "$(field data.dispatch.id)" "${bdisp##*_}"
	expect "--all: no truncation" "$(field truncated.hotspots)" ""
	cp "$OUT" "$E2E_TMP/b_all_1.json"
	fly "bubbles single-threaded" 0 bubbles --bundle "$CORPUS/hgemm_splitk" --all --threads 1 --format json
	if cmp -s "$OUT" "$E2E_TMP/b_all_1.json"; then ok "output independent of threads"; else notok "output independent of threads"; fi
	fly "bubbles --out into a new dir" 0 bubbles --bundle "$bdisp" --out "$E2E_TMP/bo" --format json
	[ -f "$E2E_TMP/bo/bubbles.json" ] && ok "--out wrote bubbles.json" || notok "--out wrote bubbles.json"
	expect "--out envelope bundle path" "$(field bundle)" "$E2E_TMP/bo"
	fly "bubbles --out again (reopen)" 0 bubbles --bundle "$bdisp" --out "$E2E_TMP/bo" --format json
	mkdir -p "$E2E_TMP/foreign" && echo x >"$E2E_TMP/foreign/notes.txt"
	fly "bubbles --out foreign dir is NOT_A_BUNDLE" 78 bubbles --bundle "$bdisp" --out "$E2E_TMP/foreign"
	# A flyprof bundle holding a capture: bubbles.json is written into it.
	mkdir -p "$E2E_TMP/fb/att/big"
	cp "$E2E_TMP/bo/manifest.json" "$E2E_TMP/fb/manifest.json"
	cp -r "$bdisp" "$E2E_TMP/fb/att/big/"
	chmod -R u+w "$E2E_TMP/fb"
	fly "bubbles on a flyprof bundle" 0 bubbles --bundle "$E2E_TMP/fb" --format json
	[ -f "$E2E_TMP/fb/bubbles.json" ] && ok "flyprof bundle got bubbles.json" || notok "flyprof bundle got bubbles.json"
	grep -q '"command": "bubbles"' "$E2E_TMP/fb/manifest.json" && ok "manifest records the step" || notok "manifest records the step"
	fly "bubbles --detail" 0 bubbles --bundle "$bdisp" --detail 330 --format json
	expect "--detail per-wave rows" "$(field data.detail.wave_stats.waves)" "8"
	fly "bubbles --detail absent line is NO_MATCH" 66 bubbles --bundle "$bdisp" --detail 100000
	expect "NO_MATCH lists lines" "$(field error.available.0)" "1"
	fly "bubbles --dispatch unknown" 66 bubbles --bundle "$CORPUS/hgemm_splitk" --dispatch 4242
	expect "DISPATCH_OUT_OF_RANGE lists ids" "$(field error.available.0)" "${bdisp##*_}"
	fly "bubbles --top 0 is BAD_ARGS" 78 bubbles --bundle "$bdisp" --top 0
	"$FLYPROF" bubbles --bundle "$bdisp" --format table >"$E2E_TMP/table.txt" 2>/dev/null
	expect "bubbles table rendering exits 0" "$?" "0"
	grep -q 'vmem_wait' "$E2E_TMP/table.txt" && ok "table shows classes" || notok "table shows classes"
	rm -f "$E2E_TMP/table.txt"
	# Corrupt copies: typed BAD_INPUT naming the file and offset; missing optional files warn.
	cp -r "$bdisp" "$E2E_TMP/corrupt" && chmod -R u+w "$E2E_TMP/corrupt"
	rm -f "$E2E_TMP/corrupt/realtime.json"
	fly "missing realtime.json degrades" 0 bubbles --bundle "$E2E_TMP/corrupt" --format json
	expect "missing file warns" "$(field warnings.0 | grep -c realtime.json)" "1"
	head -c 777 "$bdisp/se1_sm2_sl0_wv0.json" >"$E2E_TMP/corrupt/se1_sm2_sl0_wv0.json"
	fly "truncated wave file is BAD_INPUT" 65 bubbles --bundle "$E2E_TMP/corrupt"
	expect "BAD_INPUT names the file" "$(basename "$(field error.file)")" "se1_sm2_sl0_wv0.json"
	expect "BAD_INPUT gives the offset" "$(field error.offset)" "777"
	rm -rf "$E2E_TMP/corrupt" "$E2E_TMP/fb" "$E2E_TMP/bo" "$E2E_TMP/foreign" "$E2E_TMP"/b_all_1.json
fi
