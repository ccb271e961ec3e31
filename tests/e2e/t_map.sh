# `map` on real traces of the corpus. Expected numbers were computed independently from
# code.json (Python over the raw rows: per-line sums of column 8, row counts).
if [ -z "$CORPUS" ]; then
	echo "ok - map on the corpus # SKIP FLYPROF_CORPUS not set"
	SKIP=$((SKIP + 1))
else
	SM=$(ls -d "$CORPUS"/softmax/att/big/ui_output_agent_*_dispatch_* | head -1)
	fly "map softmax" 0 map --bundle "$SM" --format json
	expect "total stall" "$(field data.totals.stall)" "31799432"
	expect "every instruction mapped" "$(field data.mapped.by_instructions.pct)" "100"
	expect "mapped share names its denominator" "$(field data.mapped.by_latency.denominator)" "latency cycles of all instructions"
	expect "unmapped counted (none here)" "$(field data.unmapped.instructions)" "0"
	expect "hottest line" "$(field data.lines.0.source)" "/sgl-workspace/FlyDSL-lab/kernels/softmax_kernel.py:186"
	expect "hottest line stall" "$(field data.lines.0.stall)" "14746148"
	expect "decorator line is the entry bucket" "$(field data.entry_buckets.0.line)" "41"
	expect "entry bucket instructions" "$(field data.entry_buckets.0.instructions)" "612"
	expect "hottest instruction" "$(field data.hotspots.0.code_line)" "10"
	expect "hotspot snippet marks the hot line" "$(field data.hotspots.0.snippet.lines.3.hot)" "true"
	expect "hotspot snippet text" "$(field data.hotspots.0.snippet.lines.3.text)" "                fx.copy_atom_call(copy_atom_s, view, r)"
	expect "snippet confidence" "$(field data.hotspots.0.confidence)" "exact"
	expect "hotspots cut to --top" "$(field truncated.hotspots.shown)" "10"

	fly "--source-line is exact" 0 map --bundle "$SM" --source-line kernels/softmax_kernel.py:194 --all --format json
	expect "line 194 instructions" "$(field data.totals.instructions)" "54"
	expect "line 194 stall" "$(field data.totals.stall)" "4671284"
	expect "query snippet is the queried line" "$(field data.snippet.line)" "194"
	fly "x.py:19 never matches x.py:194" 66 map --bundle "$SM" --source-line kernels/softmax_kernel.py:19 --format json
	expect "no match code" "$(field error.code)" "NO_MATCH"
	expect "no match lists lines" "$(field error.available.0)" "/sgl-workspace/FlyDSL-lab/kernels/softmax_kernel.py:186"
	fly "paths match on whole components" 66 map --bundle "$SM" --source-line mykernels/softmax_kernel.py:194 --format json
	fly "malformed --source-line is BAD_ARGS" 78 map --bundle "$SM" --source-line softmax_kernel.py --format json
	fly "--code-line" 0 map --bundle "$SM" --code-line 10 --format json
	expect "code line ISA" "$(field data.matches.0.isa)" "buffer_load_ushort v2, v1, s[12:15], 0 offen"
	fly "unknown --code-line is NO_MATCH" 66 map --bundle "$SM" --code-line 999999 --format json

	fly "map writes flame graphs" 0 map --bundle "$SM" --format json --folded "$E2E_TMP/sm.folded" \
		--folded-weight latency --speedscope "$E2E_TMP/sm.speedscope.json"
	expect "folded latency sums to total latency" "$(awk '{ s += $NF } END { print s }' "$E2E_TMP/sm.folded")" "$(field data.totals.latency)"
	expect "folded stack shape (kernel root first)" "$(grep -c '^softmax_kernel_0;/sgl-workspace/FlyDSL-lab/kernels/softmax_kernel.py;softmax_kernel.py:186;vmem_issue ' "$E2E_TMP/sm.folded")" "1"
	expect "every folded stack starts at the kernel" "$(grep -vc '^softmax_kernel_0;' "$E2E_TMP/sm.folded")" "0"
	fly "map --svg" 0 map --bundle "$SM" --format json --svg "$E2E_TMP/sm.svg"
	total=$(field data.totals.stall)
	expect "svg: an SVG document" "$(head -2 "$E2E_TMP/sm.svg" | grep -c '<svg xmlns="http://www.w3.org/2000/svg"')" 1
	expect "svg: root frame holds the total stall" "$(grep -c "<title>all ($total stall cycles, 100.00% of all)" "$E2E_TMP/sm.svg")" 1
	expect "svg: kernel frame holds it too" "$(grep -c "<title>softmax_kernel_0 ($total stall cycles, 100.00% of all)" "$E2E_TMP/sm.svg")" 1
	expect "svg: balanced groups" "$(grep -c '<g>' "$E2E_TMP/sm.svg")" "$(grep -c '</g>' "$E2E_TMP/sm.svg")"
	expect "svg: envelope names it" "$(field data.flame.svg.total)" "$total"
	expect "speedscope schema" "$("$JCHECK" get "$E2E_TMP/sm.speedscope.json" '$schema')" "https://www.speedscope.app/file-format-schema.json"
	expect "speedscope latency profile" "$("$JCHECK" get "$E2E_TMP/sm.speedscope.json" profiles.1.endValue)" "$(field data.totals.latency)"

	fly "map on a capture directory" 0 map --bundle "$CORPUS/softmax" --tag big --top 1 --format json
	expect "capture: tag recorded" "$(field data.dispatch.tag)" "big"
	expect "capture: same dispatch" "$(field data.totals.stall)" "31799432"

	fly "map --out writes map.json" 0 map --bundle "$SM" --out "$E2E_TMP/mapout" --format json
	expect "map.json holds the data" "$("$JCHECK" get "$E2E_TMP/mapout/map.json" totals.stall)" "31799432"
	expect "nothing written into the corpus" "$(ls "$SM" | grep -c map.json)" "0"

	# Every corpus kernel maps completely and its line roll-up adds up to the total stall.
	for k in "$CORPUS"/*/att/big/ui_output_agent_*_dispatch_*; do
		name=$(basename "$(dirname "$(dirname "$(dirname "$k")")")")
		fly "map $name" 0 map --bundle "$k" --all --format json || continue
		tot=$(field data.totals.stall)
		sum=$("$JCHECK" get "$OUT" data.lines | grep -o '"stall":[0-9]*' | awk -F: '{ s += $2 } END { print s + 0 }')
		expect "$name: per-line stall adds up to the total" "$sum" "$tot"
	done
	# Hostile snapshots.json entries are refused with a warning; the mapping still works.
	VA=$(ls -d "$CORPUS"/vec_add/att/big/ui_output_agent_*_dispatch_* | head -1)
	hd="$E2E_TMP/hostile/ui_output_agent_1_dispatch_1"
	mkdir -p "$hd"
	cp "$VA/code.json" "$hd/"
	cp "$(ls "$VA"/se*_sm*_sl*_wv*.json | head -1)" "$hd/"
	ln -s /etc/passwd "$hd/source_0_evil.py"
	printf '{"/":{"a":{"up.py":"../../x.py","abs.py":"/etc/passwd","ln.py":"source_0_evil.py"}}}' >"$hd/snapshots.json"
	fly "map with hostile snapshots" 0 map --bundle "$hd" --format json
	expect "three refusals warned" "$(grep -c 'snapshot entry refused' "$OUT")" "3"
	expect "symlink refused" "$(grep -c 'source_0_evil.py: symbolic link' "$OUT")" "1"
	expect "no snippet from a refused entry" "$(field data.hotspots.0.confidence)" "no_snapshot"
	printf '{"/":{"a":[1]}}' >"$hd/snapshots.json"
	fly "malformed snapshots.json only costs the snippets" 0 map --bundle "$hd" --format json
	expect "malformed snapshots warned" "$(grep -c 'snapshots.json unusable' "$OUT")" "1"
	rm -rf "$E2E_TMP/mapout" "$E2E_TMP"/sm.* "$E2E_TMP/hostile"
fi
