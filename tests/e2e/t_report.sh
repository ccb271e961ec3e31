# `report`: the rules data (generated knob table in sync, malformed rules typed), every bundle
# kind, evidence on every recommendation, the rank-1 rule, artifacts and SARIF.
"$FLYPROF" --knob-table-md >"$E2E_TMP/knobs.md"
if cmp -s "$E2E_TMP/knobs.md" "$ROOT/skills/references/bubble-knob-table.md"; then
	ok "bubble-knob-table.md matches the rules"
else
	notok "bubble-knob-table.md matches the rules" \
		"regenerate: build/flyprof --knob-table-md > skills/references/bubble-knob-table.md"
fi
mkdir -p "$E2E_TMP/baddata"
sed 's/"class": "lds_wait"/"class": "lds_wiat"/' "$ROOT/data/rules.json" >"$E2E_TMP/baddata/rules.json"
FLYPROF_DATA_DIR="$E2E_TMP/baddata" fly "misspelt rule class is BAD_RULES" 78 report --bundle "$E2E_TMP"
first=$(grep -n '"class": "lds_wait"' "$ROOT/data/rules.json" | head -1 | cut -d: -f1)
idx=$(($(grep -c '"id": ' <(head -n "$first" "$ROOT/data/rules.json")) - 1))
expect "BAD_RULES names the JSON pointer" "$(field error.pointer)" "/rules/$idx/class"
expect "BAD_RULES names the line" "$(field error.line)" "$first"
expect "BAD_RULES names the file" "$(field error.file)" "$E2E_TMP/baddata/rules.json"
FLYPROF_DATA_DIR="$E2E_TMP/baddata" "$FLYPROF" --knob-table-md >/dev/null 2>&1
expect "--knob-table-md on bad rules exits 78" "$?" "78"
rm -rf "$E2E_TMP/baddata"
fly "report without --bundle is BAD_ARGS" 78 report
fly "report on a missing directory is NO_ARTIFACT" 66 report --bundle "$E2E_TMP/none"

if [ -z "$CORPUS" ]; then
	echo "ok - report corpus checks # SKIP FLYPROF_CORPUS not set"
	SKIP=$((SKIP + 1))
else
	# Every corpus kernel, as a raw dispatch directory and as a capture directory.
	for kdir in "$CORPUS"/*/; do
		k=$(basename "$kdir")
		d=$(ls -d "$kdir"att/big/ui_output_* | head -1)
		fly "report on raw dispatch of $k" 0 report --bundle "$d" --top 20 --format json || continue
		n=$(field data.recommendations_total)
		i=0
		bad=""
		while [ "$i" -lt "$n" ] && [ "$i" -lt 20 ]; do
			isa=$(field "data.recommendations.$i.isa")
			cls=$(field "data.recommendations.$i.class")
			case "$cls" in occupancy | roofline) ;; *) [ -z "$isa" ] || [ "$isa" = null ] && bad="$bad $i" ;; esac
			i=$((i + 1))
		done
		expect "$k: every class recommendation carries ISA evidence" "$bad" ""
		case "$(field data.why_rank_1)" in
		"addresses the largest bubble class"* | *outranks* | *"has no recommendation"* | "no rule fired"*) ok "$k: rank 1 explained" ;;
		*) notok "$k: rank 1 explained" "$(field data.why_rank_1)" ;;
		esac
		fly "report on capture dir of $k" 0 report --bundle "$kdir" --format json
	done
	# A read-only input writes nothing; --out gets the three artifacts and SARIF.
	d=$(ls -d "$CORPUS"/hgemm_splitk/att/big/ui_output_* | head -1)
	fly "report --out writes artifacts" 0 report --bundle "$d" --out "$E2E_TMP/rb" --sarif "$E2E_TMP/r.sarif" --format json
	for f in report.json headlines.json REPORT.md manifest.json; do
		[ -s "$E2E_TMP/rb/$f" ] && ok "--out has $f" || notok "--out has $f"
	done
	expect "envelope names REPORT.md" "$(field data.artifacts.report_md)" "$E2E_TMP/rb/REPORT.md"
	grep -q '^## 6. Ranked opportunities' "$E2E_TMP/rb/REPORT.md" && ok "REPORT.md has ranked opportunities" || notok "REPORT.md has ranked opportunities"
	grep -q 'Gain (upper bound):\*\* at most' "$E2E_TMP/rb/REPORT.md" && ok "REPORT.md labels the gain as an upper bound" || notok "REPORT.md labels the gain as an upper bound"
	expect "SARIF version" "$("$JCHECK" get "$E2E_TMP/r.sarif" version)" "2.1.0"
	expect "SARIF tool" "$("$JCHECK" get "$E2E_TMP/r.sarif" runs.0.tool.driver.name)" "flyprof"
	# the first result with a location (whole-kernel findings have none and say why)
	i=0
	while [ "$i" -lt 10 ] && [ -z "$("$JCHECK" get "$E2E_TMP/r.sarif" "runs.0.results.$i.locations" 2>/dev/null)" ]; do
		reason=$("$JCHECK" get "$E2E_TMP/r.sarif" "runs.0.results.$i.properties.no_location_reason")
		[ -n "$reason" ] && ok "SARIF result $i without location says why" || notok "SARIF result $i without location says why"
		i=$((i + 1))
	done
	line=$("$JCHECK" get "$E2E_TMP/r.sarif" "runs.0.results.$i.locations.0.physicalLocation.region.startLine")
	[ "${line:-0}" -gt 0 ] 2>/dev/null && ok "SARIF result has a .py line" || notok "SARIF result has a .py line" "$line"
	case "$("$JCHECK" get "$E2E_TMP/r.sarif" "runs.0.results.$i.locations.0.physicalLocation.artifactLocation.uri")" in
	file://*.py) ok "SARIF uri is the .py file" ;;
	*) notok "SARIF uri is the .py file" ;;
	esac
	expect "headlines.json names the bound" "$("$JCHECK" get "$E2E_TMP/rb/headlines.json" bound)" "memory"
	# A flyprof bundle holding a trace: report writes into it.
	"$FLYPROF" report --bundle "$d" --out "$E2E_TMP/fb" >/dev/null 2>&1
	rm -f "$E2E_TMP/fb/REPORT.md"
	mkdir -p "$E2E_TMP/fb/att/big"
	cp -r "$d" "$E2E_TMP/fb/att/big/"
	fly "report on a flyprof bundle" 0 report --bundle "$E2E_TMP/fb" --format json
	[ -s "$E2E_TMP/fb/REPORT.md" ] && ok "flyprof bundle gets REPORT.md" || notok "flyprof bundle gets REPORT.md"
	case "$(field warnings.0)" in capture.json*) ok "absent capture.json is a warning" ;; *) notok "absent capture.json is a warning" "$(field warnings.0)" ;; esac
	# Two dispatches in one capture: the other is analysed as run-to-run variation.
	mkdir -p "$E2E_TMP/cap/att/big"
	cp -r "$d" "$E2E_TMP/cap/att/big/ui_output_agent_1_dispatch_1"
	cp -r "$d" "$E2E_TMP/cap/att/big/ui_output_agent_1_dispatch_2"
	chmod -R u+w "$E2E_TMP/cap"
	fly "report on a two-dispatch capture" 0 report --bundle "$E2E_TMP/cap" --out "$E2E_TMP/capout" --format json
	expect "variation covers both dispatches" "$("$JCHECK" get "$E2E_TMP/capout/report.json" variation.dispatches)" "2"
	expect "identical dispatches spread 0 pp" "$("$JCHECK" get "$E2E_TMP/capout/report.json" variation.max_spread_pp)" "0"
	fly "diff uses the variation as noise" 0 diff --before "$E2E_TMP/capout" --after "$E2E_TMP/capout" --gate 0 --format json
	case "$(field data.noise.basis)" in largest*) ok "noise basis is the dispatch spread" ;; *) notok "noise basis is the dispatch spread" "$(field data.noise.basis)" ;; esac
	rm -rf "$E2E_TMP/rb" "$E2E_TMP/fb" "$E2E_TMP/r.sarif" "$E2E_TMP/cap" "$E2E_TMP/capout"
fi
rm -f "$E2E_TMP/knobs.md"
