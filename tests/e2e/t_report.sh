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
			case "$cls" in occupancy | roofline | grid | waves) ;; *) [ -z "$isa" ] || [ "$isa" = null ] && bad="$bad $i" ;; esac
			i=$((i + 1))
		done
		expect "$k: every class recommendation carries ISA evidence" "$bad" ""
		# knobs of GEMM/attention builders (or around MFMA) never go to a kernel without MFMA
		if [ "$(field data.kernel_kind)" = streaming ]; then
			i=0
			gemm=""
			while [ "$i" -lt "$n" ] && [ "$i" -lt 20 ]; do
				case "$(field "data.recommendations.$i.knob")" in
				lds_stage | use_async_copy | preload | sched_group_barrier | s_setprio | mfma_atom | buffer_copy_lds | async_lds_load) gemm="$gemm $i" ;;
				esac
				i=$((i + 1))
			done
			expect "$k (no MFMA): no GEMM-only knob recommended" "$gemm" ""
		fi
		case "$(field data.why_rank_1)" in
		"addresses the largest bubble class"* | *outranks* | *"has no recommendation"* | "no rule fired"*) ok "$k: rank 1 explained" ;;
		*) notok "$k: rank 1 explained" "$(field data.why_rank_1)" ;;
		esac
		fly "report on capture dir of $k" 0 report --bundle "$kdir" --format json
	done
	# rmsnorm: the trace roofline puts it near the HBM roof (rank 1: fewer bytes, gains
	# capped); the hot vmem waits sit on the kernel-entry bucket :115; the actionable line of
	# the vmem_wait advice (rank 2) is the load they wait on (:59), in the envelope and in SARIF.
	d=$(ls -d "$CORPUS"/rmsnorm/att/big/ui_output_* | head -1)
	fly "report on rmsnorm" 0 report --bundle "$d" --sarif "$E2E_TMP/rms.sarif" --format json
	expect "rmsnorm is a streaming kernel" "$(field data.kernel_kind)" "streaming"
	expect "rmsnorm rank 1 knob" "$(field data.recommendations.0.knob)" "fewer_bytes"
	expect "rmsnorm rank 2 knob" "$(field data.recommendations.1.knob)" "loads_in_flight"
	case "$(field data.recommendations.1.source)" in */rmsnorm_kernel.py:59) ok "rmsnorm rank 2 points at the load line" ;; *) notok "rmsnorm rank 2 points at the load line" "$(field data.recommendations.1.source)" ;; esac
	case "$(field data.recommendations.1.entry_bucket_source)" in */rmsnorm_kernel.py:115) ok "rmsnorm names the entry bucket" ;; *) notok "rmsnorm names the entry bucket" ;; esac
	expect "rmsnorm SARIF rank 2 line" "$("$JCHECK" get "$E2E_TMP/rms.sarif" runs.0.results.1.locations.0.physicalLocation.region.startLine)" "59"
	case "$(field data.headline)" in *"kernel-entry bucket"*) ok "rmsnorm headline flags the entry bucket" ;; *) notok "rmsnorm headline flags the entry bucket" "$(field data.headline)" ;; esac
	rm -f "$E2E_TMP/rms.sarif"
	# layernorm: the hot smem wait's line is inside FlyDSL's own package (universal.py:144, a
	# library frame); the loads it waits on sit on the entry bucket, and no other smem wait has
	# a user line, so rank 1 has no actionable line and names the library frame.
	d=$(ls -d "$CORPUS"/layernorm/att/big/ui_output_* | head -1)
	fly "report on layernorm" 0 report --bundle "$d" --out "$E2E_TMP/ln" --format json
	expect "layernorm rank 1 has no actionable line" "$(field data.recommendations.0.source)" "null"
	case "$(field data.recommendations.0.library_frame_source)" in */python_packages/flydsl/expr/rocdl/universal.py:144) ok "layernorm names the library frame" ;; *) notok "layernorm names the library frame" "$(field data.recommendations.0.library_frame_source)" ;; esac
	case "$(field data.headline)" in *"on a library frame "*"universal.py:144 (no attributable source line)"*) ok "layernorm headline flags the library frame" ;; *) notok "layernorm headline flags the library frame" "$(field data.headline)" ;; esac
	grep -q 'universal.py:144 (library frame' "$E2E_TMP/ln/REPORT.md" && ok "layernorm REPORT.md marks the library frame" || notok "layernorm REPORT.md marks the library frame"
	rm -rf "$E2E_TMP/ln"
	# preshuffle GEMM (MFMA, LDS tile loop already multi-buffered: vmcnt(N > 0) in the loop):
	# the ISA's 164 VGPRs hold it at 3 waves/SIMD, which the observed peak reaches, so rank 1 is
	# the VGPR occupancy knob and the double-buffering advice is contradicted
	d=$(ls -d "$CORPUS"/preshuffle_gemm/att/big/ui_output_* | head -1)
	fly "report on preshuffle_gemm" 0 report --bundle "$d" --format json
	expect "preshuffle_gemm is a matrix kernel" "$(field data.kernel_kind)" "matrix"
	expect "preshuffle_gemm rank 1 knob" "$(field data.recommendations.0.knob)" "waves_per_eu"
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
	while [ "$i" -lt 10 ] && [ -z "$("$JCHECK" get "$E2E_TMP/r.sarif" "runs.0.results.$i.locations.0.physicalLocation" 2>/dev/null)" ]; do
		reason=$("$JCHECK" get "$E2E_TMP/r.sarif" "runs.0.results.$i.properties.no_location_reason")
		[ -n "$reason" ] && ok "SARIF result $i without location says why" || notok "SARIF result $i without location says why"
		i=$((i + 1))
	done
	line=$("$JCHECK" get "$E2E_TMP/r.sarif" "runs.0.results.$i.locations.0.physicalLocation.region.startLine")
	[ "${line:-0}" -gt 0 ] 2>/dev/null && ok "SARIF result has a .py line" || notok "SARIF result has a .py line" "$line"
	case "$("$JCHECK" get "$E2E_TMP/r.sarif" "runs.0.results.$i.locations.0.physicalLocation.artifactLocation.uri")" in
	*.py) ok "SARIF uri is the .py file" ;;
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

# NVIDIA (Nsight Compute exports of an H200): the bound comes from the stall reasons, rank 1
# addresses the largest class (long_scoreboard) with a knob of the kernel's own language, the
# numbers say samples, and no FlyDSL knob is recommended (NVIDIA knob ids are cuda_* / triton_*;
# the unit tests keep the vocabularies apart).
if [ -z "${FLYPROF_SAMPLES:-}" ] || [ ! -d "${FLYPROF_SAMPLES:-}/ncu-h200" ]; then
	echo "ok - report NVIDIA sample checks # SKIP FLYPROF_SAMPLES not set"
	SKIP=$((SKIP + 1))
else
	NS="$FLYPROF_SAMPLES/ncu-h200"
	for lang in cuda triton; do
		fly "report on the $lang H200 sample" 0 report --bundle "$NS" --dispatch "$lang" --top 20 \
			--out "$E2E_TMP/nv_$lang" --sarif "$E2E_TMP/nv_$lang.sarif" --format json || continue
		expect "$lang: the trace alone says memory-bound (long_scoreboard)" \
			"$(field data.bound.trace_verdict.bound)" "memory"
		expect "$lang: the bound comes from ncu's speed of light" "$(field data.bound.basis)" \
			"speed_of_light"
		# row softmax: memory 44.8% / SM 36.0% of peak (no roof near), Triton softmax: 81.4%
		[ "$lang" = cuda ] && want=latency || want=memory
		expect "$lang: speed-of-light verdict" "$(field data.bound.bound)" "$want"
		expect "$lang: rank 1 class" "$(field data.recommendations.0.class)" "long_scoreboard"
		case "$(field data.why_rank_1)" in "addresses the largest bubble class long_scoreboard"*) ok "$lang: rank 1 is the largest class" ;; *) notok "$lang: rank 1 is the largest class" "$(field data.why_rank_1)" ;; esac
		n=$(field data.recommendations_total)
		i=0
		bad=""
		while [ "$i" -lt "$n" ] && [ "$i" -lt 20 ]; do
			case "$(field "data.recommendations.$i.knob")" in "${lang}"_*) ;; *) bad="$bad $(field "data.recommendations.$i.knob")" ;; esac
			i=$((i + 1))
		done
		expect "$lang: only $lang knobs (no FlyDSL knob)" "$bad" ""
		case "$(field data.headline)" in *"of warp-state samples"*"of all warp-state samples") ok "$lang: headline in samples" ;; *) notok "$lang: headline in samples" "$(field data.headline)" ;; esac
		grep -q 'cycles' "$E2E_TMP/nv_$lang/headlines.json" && notok "$lang: headlines.json never says cycles" || ok "$lang: headlines.json never says cycles"
		grep -q '^| rank | class | normalised class | stall samples |' "$E2E_TMP/nv_$lang/REPORT.md" && ok "$lang: REPORT.md taxonomy in samples" || notok "$lang: REPORT.md taxonomy in samples"
		case "$("$JCHECK" get "$E2E_TMP/nv_$lang.sarif" runs.0.results.0.message.text)" in *"of all warp-state samples"*) ok "$lang: SARIF gain in samples" ;; *) notok "$lang: SARIF gain in samples" ;; esac
		grep -q '^| theoretical (Theoretical Active Warps per SM) |' "$E2E_TMP/nv_$lang/REPORT.md" && ok "$lang: REPORT.md occupancy in warps per SM" || notok "$lang: REPORT.md occupancy in warps per SM"
		grep -q -e 'waves per SIMD' -e 'Run `flyprof counters`' "$E2E_TMP/nv_$lang/REPORT.md" && notok "$lang: REPORT.md has no AMD occupancy wording" || ok "$lang: REPORT.md has no AMD occupancy wording"
	done
	expect "triton: theoretical warps per SM (details export)" "$("$JCHECK" get "$E2E_TMP/nv_triton/report.json" occupancy.details_export.waves_per_cu)" "40"
	fly "report on the cuda H200 sample (again)" 0 report --bundle "$NS" --dispatch cuda --format json
	expect "cuda: rank 1 knob" "$(field data.recommendations.0.knob)" "cuda_ilp_unroll"
	expect "cuda: rank 1 source" "$(field data.recommendations.0.source)" "/src/rowsoftmax/k.cu:9"
	expect "cuda: rank 1 SASS" "$(field data.recommendations.0.isa)" "FMNMX R0, R5, R0, !PT"
	fly "report on the triton H200 sample (again)" 0 report --bundle "$NS" --dispatch triton --format json
	expect "triton: rank 1 knob" "$(field data.recommendations.0.knob)" "triton_num_warps"
	expect "triton: rank 1 source" "$(field data.recommendations.0.source)" "/src/tritonsoftmax/tsm.py:7"
	rm -rf "$E2E_TMP/nv_cuda" "$E2E_TMP/nv_triton" "$E2E_TMP/nv_cuda.sarif" "$E2E_TMP/nv_triton.sarif"
fi
