# -f table: every command's view leads with its answer (the first line is "<command>: ..." and
# holds the figure the JSON envelope gives), fits the width ($COLUMNS, 100 without it) and
# keeps the whole data one flag away (--full); --compact prints the envelope on one line.
tb_dir="$E2E_TMP/tb"
rm -rf "$tb_dir" && mkdir -p "$tb_dir"
# table_check NAME COLUMNS FIRST_LINE_PATTERN ARGS...: runs flyprof -f table with COLUMNS
# (empty: unset) and checks the width and the first line.
table_check() {
	local name=$1 cols=$2 pat=$3
	shift 3
	if [ -n "$cols" ]; then
		COLUMNS=$cols "$FLYPROF" "$@" -f table >"$tb_dir/t.txt" 2>/dev/null </dev/null
	else
		env -u COLUMNS "$FLYPROF" "$@" -f table >"$tb_dir/t.txt" 2>/dev/null </dev/null
	fi
	local w limit=${cols:-100}
	w=$(awk '{ n = length($0); if (n > m) m = n } END { print m + 0 }' "$tb_dir/t.txt")
	[ "$w" -le "$limit" ] && ok "table: $name fits $limit columns" ||
		notok "table: $name fits $limit columns" "widest line $w: $(awk -v l="$limit" 'length($0) > l' "$tb_dir/t.txt" | head -3)"
	if head -1 "$tb_dir/t.txt" | grep -qE -- "$pat"; then ok "table: $name leads with its answer"; else
		notok "table: $name leads with its answer" "first line: $(head -1 "$tb_dir/t.txt"); wanted /$pat/"; fi
}
# The views have no corpus dependence of their own: tile and doctor run everywhere.
fly "table: tile json" 0 tile --shape 4096,4096,4096 --dtype bf16 --arch gfx950 -f json
want="^tile: BM=$(field data.recommended.tile.BM) BN=$(field data.recommended.tile.BN) BK=$(field data.recommended.tile.BK),"
table_check "tile" "" "$want" tile --shape 4096,4096,4096 --dtype bf16 --arch gfx950
table_check "tile at 60 columns" 60 "$want" tile --shape 4096,4096,4096 --dtype bf16 --arch gfx950
table_check "doctor" "" "^doctor: (ready|not-ready)" doctor
fly "table: list json" 0 list -f json
table_check "list" "" "^list: [0-9]+ kernel\(s\): $(field data.counts.registry) from the registry" list
grep -q "^  $(field data.kernels.0.name) " "$tb_dir/t.txt" && ok "table: list names the kernels" ||
	notok "table: list names the kernels" "$(head -5 "$tb_dir/t.txt")"
"$FLYPROF" ledger append --ledger "$tb_dir/l.jsonl" --hypothesis h --decision rejected --why w -f json >/dev/null 2>&1
table_check "a command without a view leads with its headline" "" "^ledger: 1 round\(s\): 0 accepted" ledger summary --ledger "$tb_dir/l.jsonl"
table_check "an error" "" "^error bubbles: \[BAD_ARGS\]" bubbles
table_check "a usage error" "" "^error capture: \[USAGE\]" capture
if [ -n "$CORPUS" ]; then
	S="$CORPUS/softmax"
	fly "table: bubbles json" 0 bubbles --bundle "$S" -f json
	big=$(field data.classes.0.class)
	pct=$(printf '%.1f' "$(field data.classes.0.pct_of_stall)")
	table_check "bubbles" "" "^bubbles: .*largest bubble $big = $pct% of stall" bubbles --bundle "$S"
	table_check "bubbles at 72 columns" 72 "^bubbles: " bubbles --bundle "$S"
	n=$(wc -l <"$tb_dir/t.txt")
	[ "$n" -le 60 ] && ok "table: bubbles view is short ($n lines)" || notok "table: bubbles view is short" "$n lines"
	fly "table: map json" 0 map --bundle "$S" -f json
	line=$(basename "$(field data.lines.0.source)")
	table_check "map" "" "^map: hottest line $line = " map --bundle "$S"
	grep -qE '^  > +[0-9]+ \| ' "$tb_dir/t.txt" && ok "table: map shows the hot source line" ||
		notok "table: map shows the hot source line" "$(head -30 "$tb_dir/t.txt")"
	fly "table: report json" 0 report --bundle "$S" --out "$tb_dir/r" -f json
	knob=$(field data.recommendations.0.knob)
	table_check "report" "" "^report: $(field data.kernel): " report --bundle "$S" --out "$tb_dir/r"
	grep -q "^  1\. $knob " "$tb_dir/t.txt" && ok "table: report names rank 1's knob" ||
		notok "table: report names rank 1's knob" "$(head -20 "$tb_dir/t.txt")"
	grep -q '^     change: ' "$tb_dir/t.txt" && ok "table: report says the change to make" ||
		notok "table: report says the change to make" "$(head -20 "$tb_dir/t.txt")"
	table_check "diff" "" "^diff: .*unchanged" diff --before "$S" --after "$S"
	table_check "bundle" "" "^bundle: softmax_kernel_0 kept" bundle --bundle "$S" --out "$tb_dir/b"
	table_check "report on the bundle" "" "^report: " report --bundle "$tb_dir/b"
	# --full: the whole tree, every hotspot of the envelope and keys the view leaves out
	env -u COLUMNS "$FLYPROF" bubbles --bundle "$S" --all -f table --full >"$tb_dir/full.txt" 2>/dev/null
	fly "table: bubbles json (hotspot count)" 0 bubbles --bundle "$S" -f json
	rows=$(grep -cE '^    [0-9]+ +[0-9]+ +0x[0-9a-f]+ ' "$tb_dir/full.txt")
	expect "table: --full lists every hotspot" "$rows" "$(field truncated.hotspots.total)"
	grep -q '^  wave_check:' "$tb_dir/full.txt" && ok "table: --full shows fields the view leaves out" ||
		notok "table: --full shows fields the view leaves out"
else
	echo "ok - table corpus checks # SKIP FLYPROF_CORPUS not set"
	SKIP=$((SKIP + 1))
fi
# --compact: the same envelope on one line.
"$FLYPROF" tile --arch gfx950 -f json --compact >"$tb_dir/c.json" 2>/dev/null
st=$?
"$FLYPROF" tile --arch gfx950 -f json >"$tb_dir/p.json" 2>/dev/null
expect "table: --compact is one line" "$(wc -l <"$tb_dir/c.json")" 1
if "$JCHECK" envelope "$tb_dir/c.json" "$st" && "$JCHECK" equal "$tb_dir/c.json" "$tb_dir/p.json"; then
	ok "table: --compact is the same envelope"
else
	notok "table: --compact is the same envelope"
fi
rm -rf "$tb_dir"
