# Scaling with the number of dispatches, checked by what is read, never by time (the timings
# are bench/run.sh's): a capture of 1,000 dispatch directories in which every dispatch but one
# has malformed wave files. Analysing the good one, chosen by --dispatch or automatically, must
# succeed, so no other dispatch's wave files were read; analysing a poisoned one must fail, so
# the poison would be noticed. Choosing still looks at every candidate's code.json (the
# automatic choice is by hits, and dispatch.candidates lists them all), which is small.
GEN="$BUILD_DIR/bench/gen_att"
SC="$E2E_TMP/scale"
if "$GEN" --out "$SC/small" --raw --waves 4 --iters 2 >/dev/null 2>&1 &&
	"$GEN" --out "$SC/large" --raw --waves 4 --iters 3 >/dev/null 2>&1; then
	for f in "$SC"/small/se*_wv*.json; do
		printf '{"wave": {"begin": 1, "instructions": [[' >"$f"
	done
	tag="$SC/cap/att/big"
	mkdir -p "$tag"
	cp -R "$SC/large" "$tag/ui_output_agent_1_dispatch_500"
	# 999 copies written by the shell itself (a process per copy takes a minute here).
	names=() contents=() dirs=()
	for f in "$SC"/small/*; do
		names+=("${f##*/}")
		IFS= read -r -d '' c <"$f"
		contents+=("$c")
	done
	for i in $(seq 1 1000); do
		[ "$i" = 500 ] || dirs+=("$tag/ui_output_agent_1_dispatch_$i")
	done
	mkdir "${dirs[@]}"
	for d in "${dirs[@]}"; do
		for k in "${!names[@]}"; do
			printf '%s' "${contents[k]}" >"$d/${names[k]}"
		done
	done
	fly "1,000 dispatches: --dispatch 500" 0 bubbles --bundle "$SC/cap" --dispatch 500 --format json
	expect "--dispatch 500: that dispatch" "$(field data.dispatch.id)" "500"
	expect "--dispatch 500: its 4 wave files only" "$(field data.wave_check.wave_files)" "4"
	expect "--dispatch 500: every candidate listed" "$(field data.dispatch.candidates.999.dir)" \
		"ui_output_agent_1_dispatch_999"
	fly "1,000 dispatches: automatic choice" 0 bubbles --bundle "$SC/cap" --format json
	expect "automatic: the one with the most hits" "$(field data.dispatch.id)" "500"
	fly "1,000 dispatches: a poisoned one is read and rejected" 65 bubbles --bundle "$SC/cap" \
		--dispatch 7 --format json
	expect "poisoned: the error names its wave file" \
		"$(field error.file | grep -c 'dispatch_7/se0_sm0_sl0_wv0.json')" "1"
else
	notok "bench/gen_att makes the dispatches of the scale test"
fi
rm -rf "$SC"
