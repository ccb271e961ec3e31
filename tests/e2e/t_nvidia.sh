# NVIDIA backend on the recorded H200 Nsight Compute samples (read in place from
# $FLYPROF_SAMPLES): bubbles, map and report run on the exports like on an ATT dispatch.
if [ -z "${FLYPROF_SAMPLES:-}" ] || [ ! -d "$FLYPROF_SAMPLES/ncu-h200" ]; then
	echo "ok - nvidia # SKIP FLYPROF_SAMPLES not set"
	SKIP=$((SKIP + 1))
else
	NS="$FLYPROF_SAMPLES/ncu-h200"
	fly "nvidia: two captures in one directory ask for one" 66 bubbles --bundle "$NS"
	expect "nvidia: the prefixes are offered" "$(field error.available)" '["cuda","triton"]'
	fly "nvidia: bubbles on the CUDA export" 0 bubbles --bundle "$NS" --dispatch cuda --top 3
	expect "nvidia: backend" "$(field data.backend)" "nvidia"
	expect "nvidia: unit is samples" "$(field data.totals.unit)" "samples"
	expect "nvidia: total samples" "$(field data.totals.latency)" "41146"
	expect "nvidia: largest class" "$(field data.classes.0.class)" "long_scoreboard"
	expect "nvidia: its normalised class" "$(field data.classes.0.normalized)" "memory_dependency"
	expect "nvidia: hot line" "$(field data.hotspots.0.source)" "/src/rowsoftmax/k.cu:9"
	fly "nvidia: bubbles on the Triton export" 0 bubbles --bundle "$NS" --dispatch triton
	expect "nvidia: Triton lines are .py" "$(field data.lines.0.source)" "/src/tritonsoftmax/tsm.py:7"
	fly "nvidia: map on the Triton export" 0 map --bundle "$NS" --dispatch triton --source-line tsm.py:7
	expect "nvidia: map unit" "$(field data.unit)" "samples"
	fly "nvidia: exact line match (tsm.py:70 is not :7)" 66 map --bundle "$NS" --dispatch triton --source-line tsm.py:70
	fly "nvidia: report into --out" 0 report --bundle "$NS" --dispatch cuda --out "$E2E_TMP/nv"
	[ -f "$E2E_TMP/nv/REPORT.md" ] && ok "nvidia: REPORT.md written" || notok "nvidia: REPORT.md written"
	[ ! -e "$NS/bubbles.json" ] && ok "nvidia: nothing written into the samples" || notok "nvidia: nothing written into the samples"
	rm -rf "$E2E_TMP/nv"
fi
