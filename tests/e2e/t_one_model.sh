# One model for both vendors (issue 8): bubbles.json of an AMD capture and of an NVIDIA export
# fit one key schema (tests/e2e/bubbles_schema.txt), and map names every instruction with the
# class and address bubbles gives it.

# schema_check NAME VENDOR: the last envelope's data against the schema.
schema_check() {
	local name=$1 vendor=$2 missing="" extra="" p who
	"$JCHECK" keys "$OUT" data | sort -u >"$E2E_TMP/keys.txt"
	while read -r who p; do
		case "$who" in both | "$vendor") grep -qxF "$p" "$E2E_TMP/keys.txt" || missing="$missing $p" ;; esac
	done < <(grep -v '^#' "$ROOT/tests/e2e/bubbles_schema.txt")
	while read -r p; do
		awk -v p="$p" -v v="$vendor" '
			($1 == "both" || $1 == v) && $2 == p { found = 1 }
			$1 == "any" && (p == $2 || index(p, $2 ".") == 1 || index(p, $2 "[]") == 1) { found = 1 }
			END { exit !found }' "$ROOT/tests/e2e/bubbles_schema.txt" || extra="$extra $p"
	done <"$E2E_TMP/keys.txt"
	if [ -z "$missing$extra" ]; then ok "$name"; else notok "$name" "missing:$missing; not in the schema:$extra"; fi
}

# same_class NAME: every hotspot of `map --all` has the class and vaddr bubbles gives it.
same_class() {
	local name=$1 bad="" i line cls va
	declare -A want_class want_vaddr
	for i in $(seq 0 9); do
		line=$("$JCHECK" get "$E2E_TMP/bub.json" "data.hotspots.$i.code_line") || break
		want_class[$line]=$("$JCHECK" get "$E2E_TMP/bub.json" "data.hotspots.$i.class")
		want_vaddr[$line]=$("$JCHECK" get "$E2E_TMP/bub.json" "data.hotspots.$i.vaddr")
	done
	for i in $(seq 0 9); do
		line=$(field "data.hotspots.$i.code_line") || break
		[ -n "${want_class[$line]:-}" ] || continue
		cls=$(field "data.hotspots.$i.class")
		va=$(field "data.hotspots.$i.vaddr")
		[ "$cls" = "${want_class[$line]}" ] || bad="$bad line $line: map $cls, bubbles ${want_class[$line]};"
		[ "$va" = "${want_vaddr[$line]}" ] || bad="$bad line $line: map vaddr $va, bubbles ${want_vaddr[$line]};"
	done
	if [ -z "$bad" ]; then ok "$name"; else notok "$name" "$bad"; fi
}

if [ -z "$CORPUS" ]; then
	echo "ok - one model: AMD # SKIP FLYPROF_CORPUS not set"
	SKIP=$((SKIP + 1))
else
	fly "one model: AMD bubbles (pa)" 0 bubbles --bundle "$CORPUS/pa" --all && schema_check "one model: AMD bubbles.json fits the schema" amd
	fly "one model: AMD bubbles (hgemm)" 0 bubbles --bundle "$CORPUS/hgemm_splitk" --all && schema_check "one model: AMD hgemm fits the schema" amd
	cp "$OUT" "$E2E_TMP/bub.json"
	fly "one model: AMD map" 0 map --bundle "$CORPUS/hgemm_splitk" --all
	same_class "one model: map classes and vaddrs are bubbles' (s_waitcnt lgkmcnt on s_load is smem_wait in both)"
	fly "one model: AMD folded stacks" 0 map --bundle "$CORPUS/hgemm_splitk" --folded "$E2E_TMP/amd.folded"
	grep -q ';smem_wait ' "$E2E_TMP/amd.folded" && ok "one model: folded stacks carry the attributed wait class" ||
		notok "one model: folded stacks carry the attributed wait class" "$(head -5 "$E2E_TMP/amd.folded")"
fi

if [ -z "${FLYPROF_SAMPLES:-}" ] || [ ! -d "$FLYPROF_SAMPLES/ncu-h200" ]; then
	echo "ok - one model: NVIDIA # SKIP FLYPROF_SAMPLES not set"
	SKIP=$((SKIP + 1))
else
	NS="$FLYPROF_SAMPLES/ncu-h200"
	fly "one model: NVIDIA bubbles (cuda)" 0 bubbles --bundle "$NS" --dispatch cuda --all && schema_check "one model: NVIDIA bubbles.json fits the schema" nvidia
	fly "one model: NVIDIA bubbles (triton)" 0 bubbles --bundle "$NS" --dispatch triton --all && schema_check "one model: NVIDIA triton fits the schema" nvidia
	cp "$OUT" "$E2E_TMP/bub.json"
	fly "one model: NVIDIA map" 0 map --bundle "$NS" --dispatch triton --all
	same_class "one model: NVIDIA map classes are the stall reasons bubbles gives"
	fly "one model: NVIDIA folded stacks" 0 map --bundle "$NS" --dispatch cuda --folded "$E2E_TMP/nv.folded"
	grep -q ';long_scoreboard ' "$E2E_TMP/nv.folded" && ok "one model: NVIDIA flame graph keeps the stall reason" ||
		notok "one model: NVIDIA flame graph keeps the stall reason" "$(head -5 "$E2E_TMP/nv.folded")"
fi
