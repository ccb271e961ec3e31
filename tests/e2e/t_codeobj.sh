# AMDGPU code objects compiled at test time from tests/fixtures/fake_kernel.cl: flyprof's
# line table is compared row by row with llvm-dwarfdump --debug-line, its resources with
# llvm-readelf --notes; truncated/corrupted copies must be BAD_INPUT; a dispatch whose
# code.json lacks sources gets them from the code object saved beside it.
CO_DIR="$E2E_TMP/codeobj"
co_tools_ok() {
	command -v llvm-dwarfdump >/dev/null 2>&1 && command -v llvm-readelf >/dev/null 2>&1 &&
		"$ROOT/tests/fixtures/build-codeobj.sh" "$CO_DIR" >/dev/null 2>&1
}

# Prints "addr line col end|-" for each llvm-dwarfdump row, and "file path" lines resolving
# each file index against include_directories (relative ones under directory 0).
dwarfdump_rows() {
	llvm-dwarfdump --debug-line "$1" | while read -r a b c d rest; do
		case "$a" in
		0x*) e=-; case "$rest" in *end_sequence*) e=end ;; esac
			echo "$((a)) $b $c $d $e" ;;
		esac
	done
}
dwarfdump_files() {
	local dirs=() idx=-1 name
	while IFS= read -r l; do
		case "$l" in
		include_directories*) dirs+=("$(sed -E 's/.*= "(.*)"/\1/' <<<"$l")") ;;
		*"name: "*) name=$(sed -E 's/.*name: "(.*)"/\1/' <<<"$l") ;;
		*"dir_index: "*)
			idx=$((idx + 1))
			local d=${dirs[${l##* }]}
			[ "${d:0:1}" = / ] || d="${dirs[0]}/$d"
			[ "${name:0:1}" = / ] && echo "$idx $name" || echo "$idx $d/$name" ;;
		esac
	done < <(llvm-dwarfdump --debug-line "$1")
}

if ! co_tools_ok; then
	echo "ok - code objects # SKIP clang, ld.lld or llvm tools for amdgcn not available"
	SKIP=$((SKIP + 1))
else
	HS="$CO_DIR/fake_kernel.hsaco"
	fly "map --code-object lists a compiled code object" 0 map --code-object "$HS" --all --format json
	cp "$OUT" "$E2E_TMP/co.json"
	expect "code object arch from amdhsa.target" "$(field data.code_object.arch)" "gfx90a"
	expect "code object has a line table" "$(field data.code_object.debug_line)" "true"

	# Line table, row by row.
	dwarfdump_rows "$HS" >"$E2E_TMP/want_rows.txt"
	dwarfdump_files "$HS" >"$E2E_TMP/want_files.txt"
	: >"$E2E_TMP/got_rows.txt"
	: >"$E2E_TMP/want_rows_named.txt"
	n=$("$JCHECK" get "$E2E_TMP/co.json" data.line_table.rows)
	for ((i = 0; i < n; i++)); do
		r="data.line_table.entries.$i"
		e=-
		[ "$("$JCHECK" get "$E2E_TMP/co.json" "$r.end_sequence")" = true ] && e=end
		echo "$("$JCHECK" get "$E2E_TMP/co.json" "$r.addr") $("$JCHECK" get "$E2E_TMP/co.json" "$r.line") $("$JCHECK" get "$E2E_TMP/co.json" "$r.col") $("$JCHECK" get "$E2E_TMP/co.json" "$r.file") $e" >>"$E2E_TMP/got_rows.txt"
	done
	while read -r a l c f e; do
		echo "$a $l $c $(awk -v i="$f" '$1 == i { print $2 }' "$E2E_TMP/want_files.txt") $e"
	done <"$E2E_TMP/want_rows.txt" >"$E2E_TMP/want_rows_named.txt"
	expect "line table has llvm-dwarfdump's row count" "$n" "$(wc -l <"$E2E_TMP/want_rows.txt" | tr -d ' ')"
	if [ "$n" -gt 5 ] && cmp -s "$E2E_TMP/got_rows.txt" "$E2E_TMP/want_rows_named.txt"; then
		ok "line table rows equal llvm-dwarfdump --debug-line (addr line col file end)"
	else
		notok "line table rows equal llvm-dwarfdump --debug-line" "$(diff "$E2E_TMP/want_rows_named.txt" "$E2E_TMP/got_rows.txt" | head -20)"
	fi
	grep -q '/kernels/fake_kernel.py' "$E2E_TMP/got_rows.txt" && ok "line table names the .py file" || notok "line table names the .py file"
	expect "inlined helper call site" "$("$JCHECK" get "$E2E_TMP/co.json" data.inlined.0.call_line)" "23"

	# Resources, kernel by kernel, against the YAML llvm-readelf prints for the note.
	llvm-readelf --notes "$HS" | awk '
		/^  - / { k++ }
		/^    \.[a-z_]+:/ { key = $1; sub(":", "", key); v[k, key] = $2 }
		END { for (i = 1; i <= k; i++) if (v[i, ".name"] != "")
			print v[i, ".name"], v[i, ".vgpr_count"], v[i, ".sgpr_count"], v[i, ".group_segment_fixed_size"], v[i, ".private_segment_fixed_size"], v[i, ".wavefront_size"], v[i, ".max_flat_workgroup_size"], v[i, ".kernarg_segment_size"] }' |
		sort >"$E2E_TMP/want_res.txt"
	for i in 0 1; do
		k="data.kernels.$i"
		g() { "$JCHECK" get "$E2E_TMP/co.json" "$k.$1"; }
		echo "$(g name) $(g resources.vgpr_count) $(g resources.sgpr_count) $(g resources.lds_bytes) $(g resources.scratch_bytes) $(g resources.wavefront_size) $(g resources.max_flat_workgroup_size) $(g resources.kernarg_segment_size)"
	done | sort >"$E2E_TMP/got_res.txt"
	if [ -s "$E2E_TMP/want_res.txt" ] && cmp -s "$E2E_TMP/got_res.txt" "$E2E_TMP/want_res.txt"; then
		ok "resources equal llvm-readelf --notes (vgpr sgpr lds scratch wave wg kernarg)"
	else
		notok "resources equal llvm-readelf --notes" "$(diff "$E2E_TMP/want_res.txt" "$E2E_TMP/got_res.txt")"
	fi
	expect "descriptor LDS agrees with the note" "$("$JCHECK" get "$E2E_TMP/co.json" data.kernels.0.descriptor.group_segment_fixed_size)" "$("$JCHECK" get "$E2E_TMP/co.json" data.kernels.0.resources.lds_bytes)"

	fly "code object without debug info" 0 map --code-object "$CO_DIR/fake_kernel_nodebug.hsaco" --format json
	expect "no rows without -g" "$(field data.line_table.rows)" "0"
	expect "no -g is a warning" "$(field warnings.0 | grep -c 'no .debug_line')" "1"

	# Malformed copies.
	size=$(wc -c <"$HS")
	head -c $((size / 2)) "$HS" >"$E2E_TMP/cut.hsaco"
	fly "truncated code object is BAD_INPUT" 65 map --code-object "$E2E_TMP/cut.hsaco" --format json
	expect "truncated: error names the file" "$(field error.file)" "$E2E_TMP/cut.hsaco"
	printf 'not an elf at all\n' >"$E2E_TMP/text.hsaco"
	fly "text file is BAD_INPUT" 65 map --code-object "$E2E_TMP/text.hsaco" --format json
	expect "text file: offset 0" "$(field error.offset)" "0"
	note_off=$(llvm-readelf -S "$HS" | awk '{ for (i = 1; i < NF; i++) if ($i == ".note") print $(i + 3) }')
	cp "$HS" "$E2E_TMP/badnote.hsaco"
	printf '\xc1' | dd of="$E2E_TMP/badnote.hsaco" bs=1 seek=$((16#$note_off + 20)) conv=notrunc 2>/dev/null
	fly "corrupted metadata note is BAD_INPUT" 65 map --code-object "$E2E_TMP/badnote.hsaco" --format json
	expect "corrupted note: offset of the descriptor" "$(field error.offset)" "$((16#$note_off + 20))"
	fly "missing code object is NO_ARTIFACT" 66 map --code-object "$E2E_TMP/nope.hsaco" --format json

	# A dispatch whose code.json has no sources: filled from <prefix>_code_object_id_1.out.
	cap="$E2E_TMP/cap/att/big"
	disp="$cap/ui_output_agent_1_dispatch_3"
	mkdir -p "$disp" "$cap/host"
	cp "$HS" "$cap/host/123_gfx90a_code_object_id_1.out"
	kaddr=$("$JCHECK" get "$E2E_TMP/co.json" data.kernels.0.address)
	{
		printf '{"code":[["; fake_kernel",0,0,"",1,%s,0,0,0,0]' "$kaddr"
		line=1
		# Addresses whose effective row (the last one at that address) has a line.
		for a in $(awk '{ last[$1] = $2 " " $5 } END { for (a in last) { split(last[a], f, " "); if (f[1] > 0 && f[2] == "-") print a } }' "$E2E_TMP/got_rows.txt" | sort -n); do
			printf ',["s_nop 0",0,%d,"",1,%s,4,%d,%d,0]' "$line" "$a" $((line * 10)) "$line"
			line=$((line + 1))
		done
		printf ',["s_endpgm",0,%d,"",1,999999,0,0,0,0]' "$line"
		printf '],"version":"3.0.0","header":"ISA, _, LineNumber, Source, Codeobj, Vaddr, Hit, Latency, Stall, Idle"}\n'
	} >"$disp/code.json"
	# A dispatch counts as non-empty with one wave file (map itself reads only code.json).
	printf '{"name":"SE0","duration":0,"begin":0,"end":0,"instructions":[],"timeline":[],"waitcnt":[]}\n' >"$disp/se0_sm0_sl0_wv0.json"
	fly "map fills sources from the saved code object" 0 map --bundle "$disp" --all --format json \
		--folded "$E2E_TMP/fill.folded" --speedscope "$E2E_TMP/fill.speedscope.json"
	expect "sources origin" "$(field data.sources.origin)" "code_object"
	expect "code object found" "$(field data.sources.code_objects.0.path)" "$cap/host/123_gfx90a_code_object_id_1.out"
	filled=$(field data.sources.filled_from_code_object)
	total=$(field data.totals.instructions)
	expect "every address with a row got a source; the one past the code did not" "$filled" "$((total - 1))"
	expect "unmapped instruction counted" "$(field data.unmapped.instructions)" "1"
	expect "resources from the metadata note" "$(field data.resources.lds_bytes)" "256"
	expect "resources source" "$(field data.resources.source)" "metadata"
	grep -q 'fake_kernel.py:2[0-9]' "$E2E_TMP/fill.folded" && ok "folded stacks name .py lines" || notok "folded stacks name .py lines" "$(head -5 "$E2E_TMP/fill.folded")"
	fsum=$(awk '{ s += $NF } END { print s }' "$E2E_TMP/fill.folded")
	expect "folded weights sum to the total stall" "$fsum" "$(field data.totals.stall)"
	expect "speedscope has two profiles" "$("$JCHECK" get "$E2E_TMP/fill.speedscope.json" profiles.1.type)" "sampled"
	expect "speedscope stall profile end value" "$("$JCHECK" get "$E2E_TMP/fill.speedscope.json" profiles.0.endValue)" "$(field data.totals.stall)"
	fly "an inlined helper gets its call chain" 0 map --bundle "$disp" --source-line kernels/fake_kernel.py:23 --all --format json
	if grep -q '"source": "[^"]*/flydsl/expr/helper.py:5 -> [^"]*/kernels/fake_kernel.py:23"' "$OUT"; then
		ok "call chain innermost first"
	else
		notok "call chain innermost first" "$(grep '"source"' "$OUT" | head -5)"
	fi
	fly "the call-site line is queryable" 0 map --bundle "$disp" --source-line flydsl/expr/helper.py:5 --format json

	# The readers under fuzz-replay, seeded with the compiled objects and their note.
	llvm-objcopy -O binary --only-section=.note "$HS" "$E2E_TMP/note.sec" 2>/dev/null &&
		tail -c +21 "$E2E_TMP/note.sec" >"$E2E_TMP/note.bin"
	printf 'elf %s\nelf %s\ndwarf %s\nnote %s\n' "$HS" "$CO_DIR/fake_kernel_nodebug.hsaco" "$HS" "$E2E_TMP/note.bin" >"$E2E_TMP/co_seeds.txt"
	if "$BUILD_DIR/fuzz-replay" "$E2E_TMP/co_seeds.txt" 500 >"$E2E_TMP/fuzz.txt" 2>&1; then
		ok "elf/dwarf/note fuzz targets survive mutations of compiled code objects"
	else
		notok "elf/dwarf/note fuzz targets survive mutations of compiled code objects" "$(tail -5 "$E2E_TMP/fuzz.txt")"
	fi
	rm -rf "$CO_DIR" "$E2E_TMP/cap" "$E2E_TMP"/*.hsaco "$E2E_TMP"/co*.txt "$E2E_TMP"/*rows*.txt \
		"$E2E_TMP"/*_res.txt "$E2E_TMP"/want_files.txt "$E2E_TMP"/fill.* "$E2E_TMP"/note.* \
		"$E2E_TMP/co.json" "$E2E_TMP/fuzz.txt"
fi
