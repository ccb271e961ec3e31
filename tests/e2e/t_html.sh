# REPORT.html in headless Chromium (Debian's chromium, scripts/install-deps.sh test): the page
# is self-contained, has every section, an anchor per shown source line, findings that link to
# lines that exist, the hottest line in view of a 1280x800 window on load, and a screenshot
# (kept under build/e2e-artifacts/ for people to look at).
CHROMIUM=$(command -v chromium || command -v chromium-browser || true)
ht_dir="$E2E_TMP/html"
rm -rf "$ht_dir" && mkdir -p "$ht_dir"
SHOTS="$BUILD_DIR/e2e-artifacts"
mkdir -p "$SHOTS"
# The probe appended to a copy of the page: what the browser laid out, as one line in the DOM.
probe='<script>(function(){var q=function(s){return document.querySelectorAll(s)};
var ids=["summary","source","findings","classes","flame","timeline","occupancy","roofline"];
var miss=ids.filter(function(i){return !document.getElementById(i)});
var bad=[].filter.call(q("#findings a.to-line"),function(a){return !document.getElementById(a.getAttribute("href").slice(1))});
var h=document.querySelector("#source tr.hottest"),r=h?h.getBoundingClientRect():null;
var p=document.createElement("pre");p.id="probe";
p.textContent="PROBE sections-missing="+miss.join(",")+" anchors="+q("#source tr[id^=L]").length+
" hottest="+(h?h.id:"none")+" in-view="+(r&&r.top>=0&&r.bottom<=innerHeight&&r.left>=0&&r.right<=innerWidth)+
" dead-links="+bad.length+" links="+q("#findings a.to-line").length+" heat="+q("#source td.heat i").length+
" flame="+q("#flame svg").length+" width="+innerWidth+"x"+innerHeight;document.body.appendChild(p);})();</script>'
# html_check NAME DIR HOT_LINE: checks DIR/REPORT.html; HOT_LINE is the number the hottest line
# must have.
html_check() {
	local name=$1 d=$2 hot=$3 f="$2/REPORT.html"
	[ -s "$f" ] && ok "html: $name REPORT.html written" || { notok "html: $name REPORT.html written"; return; }
	if grep -qiE '(src|href)="(https?:)?//|@import|url\(' "$f"; then
		notok "html: $name self-contained" "$(grep -oiE '(src|href)="(https?:)?//[^"]*|@import|url\([^)]*' "$f" | head -3)"
	else
		ok "html: $name self-contained"
	fi
	cp "$f" "$ht_dir/probe.html"
	printf '%s\n' "$probe" >>"$ht_dir/probe.html"
	timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu --hide-scrollbars \
		--window-size=1280,800 --virtual-time-budget=3000 --dump-dom "file://$ht_dir/probe.html" \
		>"$ht_dir/dom.html" 2>"$ht_dir/chromium.log"
	local line
	line=$(grep -o '<pre id="probe">PROBE [^<]*' "$ht_dir/dom.html" | sed 's/^<pre id="probe">//')
	[ -n "$line" ] || { notok "html: $name opens in Chromium" "$(tail -5 "$ht_dir/chromium.log")"; return; }
	ok "html: $name opens in Chromium"
	expect "html: $name has every section" "$(grep -o 'sections-missing=[^ ]*' <<<"$line")" "sections-missing="
	local anchors
	anchors=$(grep -oE 'anchors=[0-9]+' <<<"$line" | cut -d= -f2)
	[ "${anchors:-0}" -gt 0 ] && ok "html: $name line anchors ($anchors)" || notok "html: $name line anchors" "$line"
	grep -qE "hottest=L[0-9]+-$hot " <<<"$line" && ok "html: $name hottest line is $hot" ||
		notok "html: $name hottest line is $hot" "$line"
	grep -q 'in-view=true' <<<"$line" && ok "html: $name hottest line in view at 1280x800" ||
		notok "html: $name hottest line in view at 1280x800" "$line"
	grep -q 'dead-links=0 ' <<<"$line" && ! grep -q ' links=0 ' <<<"$line" &&
		ok "html: $name findings link to shown lines" || notok "html: $name findings link to shown lines" "$line"
	grep -q 'flame=1 ' <<<"$line" && ok "html: $name flame graph" || notok "html: $name flame graph" "$line"
	rm -f "$SHOTS/report-$name.png"
	timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu --hide-scrollbars \
		--window-size=1280,800 --virtual-time-budget=3000 --screenshot="$SHOTS/report-$name.png" \
		"file://$f" >/dev/null 2>&1
	# PNG signature, then IHDR width and height (big-endian) at bytes 16..23
	local sig dims
	sig=$(od -An -tx1 -N8 "$SHOTS/report-$name.png" 2>/dev/null | tr -d ' \n')
	dims=$(od -An -tu1 -j16 -N8 "$SHOTS/report-$name.png" 2>/dev/null |
		awk '{ printf "%dx%d", (($1*256+$2)*256+$3)*256+$4, (($5*256+$6)*256+$7)*256+$8 }')
	expect "html: $name screenshot is a 1280x800 PNG" "$sig $dims" "89504e470d0a1a0a 1280x800"
}
if [ -z "$CHROMIUM" ]; then
	echo "ok - html checks # SKIP chromium not installed (scripts/install-deps.sh test)"
	SKIP=$((SKIP + 1))
else
	if [ -n "$CORPUS" ]; then
		fly "html: report softmax" 0 report --bundle "$CORPUS/softmax" --out "$ht_dir/softmax" -f json
		expect "html: envelope names REPORT.html" "$(field data.artifacts.report_html)" "$ht_dir/softmax/REPORT.html"
		[ -e "$ht_dir/softmax/.flyprof.lock" ] && notok "html: no .flyprof.lock left behind" ||
			ok "html: no .flyprof.lock left behind"
		# SARIF: every result located (a line under SRCROOT, or the kernel), line results with
		# their source text as snippet
		"$FLYPROF" report --bundle "$CORPUS/softmax" --out "$ht_dir/sf" --sarif "$ht_dir/s.sarif" >/dev/null 2>&1
		n=0 unlocated=0 nosnip=0
		while [ -n "$("$JCHECK" get "$ht_dir/s.sarif" "runs.0.results.$n.ruleId" 2>/dev/null)" ]; do
			r="runs.0.results.$n.locations.0"
			if [ -n "$("$JCHECK" get "$ht_dir/s.sarif" "$r.physicalLocation" 2>/dev/null)" ]; then
				[ "$("$JCHECK" get "$ht_dir/s.sarif" "$r.physicalLocation.artifactLocation.uriBaseId")" = SRCROOT ] || unlocated=$((unlocated + 1))
				[ -n "$("$JCHECK" get "$ht_dir/s.sarif" "$r.physicalLocation.region.snippet.text" 2>/dev/null)" ] || nosnip=$((nosnip + 1))
			elif [ -z "$("$JCHECK" get "$ht_dir/s.sarif" "$r.logicalLocations.0.name" 2>/dev/null)" ]; then
				unlocated=$((unlocated + 1))
			fi
			n=$((n + 1))
		done
		[ "$n" -gt 0 ] && ok "html: SARIF has results ($n)" || notok "html: SARIF has results"
		expect "html: every SARIF result located (SRCROOT or the kernel)" "$unlocated" 0
		expect "html: every SARIF line result has its snippet" "$nosnip" 0
		hot=$("$JCHECK" get "$ht_dir/softmax/report.json" lines.0.line)
		html_check softmax "$ht_dir/softmax" "$hot"
		grep -q 'id="timeline"><h2>Wave timeline</h2><svg' "$ht_dir/softmax/REPORT.html" &&
			ok "html: softmax wave timeline drawn" || notok "html: softmax wave timeline drawn"
		# vec_add moves bytes only: the roofline is the bandwidth picture, as a file and inline
		fly "html: report vec_add" 0 report --bundle "$CORPUS/vec_add" --out "$ht_dir/va" -f json
		expect "html: roofline.svg named" "$(field data.artifacts.roofline_svg)" "$ht_dir/va/roofline.svg"
		pct=$("$JCHECK" get "$ht_dir/va/report.json" roofline.pct_of_hbm_peak)
		grep -q "of peak</text>" "$ht_dir/va/roofline.svg" && grep -q "= $pct% of peak" "$ht_dir/va/roofline.svg" &&
			ok "html: roofline.svg draws the report's bandwidth ($pct%)" ||
			notok "html: roofline.svg draws the report's bandwidth" "$(head -c 600 "$ht_dir/va/roofline.svg")"
		grep -q 'id="roofline"><h2>Roofline</h2><svg' "$ht_dir/va/REPORT.html" &&
			ok "html: roofline inline in REPORT.html" || notok "html: roofline inline in REPORT.html"
	else
		echo "ok - html corpus checks # SKIP FLYPROF_CORPUS not set"
		SKIP=$((SKIP + 1))
	fi
	if [ -n "${FLYPROF_SAMPLES:-}" ] && [ -d "$FLYPROF_SAMPLES/ncu-h200" ]; then
		mkdir -p "$ht_dir/ncu" && cp "$FLYPROF_SAMPLES"/ncu-h200/triton_* "$ht_dir/ncu/"
		fly "html: report NVIDIA triton" 0 report --bundle "$ht_dir/ncu" --out "$ht_dir/triton" -f json
		hot=$("$JCHECK" get "$ht_dir/triton/report.json" lines.0.line)
		html_check nvidia-triton "$ht_dir/triton" "$hot"
		grep -q 'no per-warp timeline' "$ht_dir/triton/REPORT.html" &&
			ok "html: NVIDIA says there is no per-warp timeline" ||
			notok "html: NVIDIA says there is no per-warp timeline"
		grep -q 'x = tl.load(in_ptr' "$ht_dir/triton/REPORT.html" &&
			ok "html: NVIDIA source text from the correlated export" ||
			notok "html: NVIDIA source text from the correlated export"
	else
		echo "ok - html NVIDIA checks # SKIP FLYPROF_SAMPLES not set"
		SKIP=$((SKIP + 1))
	fi
fi
rm -rf "$ht_dir"
