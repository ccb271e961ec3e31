# `make demo` (scripts/demo.sh) succeeds on a fresh build, prints the headline and a REPORT.md
# path that exists, and never writes into the committed example; the committed example is what
# scripts/make-example.sh generates today (every file but manifest.json byte-identical).
EX="$ROOT/examples/synth_gemm"
DT="$E2E_TMP/demo"
rm -rf "$DT"
mkdir -p "$DT"
VERIFY="$BUILD_DIR/tools/bundle_verify"

"$VERIFY" "$EX" >/dev/null 2>"$DT/why.txt" && ok "committed example verifies against its manifest" ||
	notok "committed example verifies against its manifest" "$(cat "$DT/why.txt")"
expect "committed example is marked synthetic" "$("$JCHECK" get "$EX/manifest.json" synthetic)" "true"
(cd "$EX" && find . -type f | sort | xargs sha256sum) >"$DT/before.txt"

"$ROOT/scripts/demo.sh" "$BUILD_DIR" "$DT/run" >"$DT/out.txt" 2>"$DT/err.txt"
st=$?
expect "demo exits 0" "$st" "0"
md=$(sed -n 's/^REPORT.md: //p' "$DT/out.txt")
[ -n "$md" ] && [ -s "$md" ] && ok "demo prints a REPORT.md path that exists" ||
	notok "demo prints a REPORT.md path that exists" "$(tail -5 "$DT/out.txt"; tail -5 "$DT/err.txt")"
grep -q '^## 6. Ranked opportunities' "$md" 2>/dev/null && ok "demo REPORT.md has recommendations" ||
	notok "demo REPORT.md has recommendations"
hl=$(sed -n 's/^headline: //p' "$DT/out.txt")
case "$hl" in synth_gemm_kernel_0:*bound*) ok "demo prints the headline" ;;
*) notok "demo prints the headline" "$hl" ;;
esac
case "$md" in "$EX"/*) notok "demo writes outside the committed example" "$md" ;;
*) ok "demo writes outside the committed example" ;;
esac
(cd "$EX" && find . -type f | sort | xargs sha256sum) >"$DT/after.txt"
cmp -s "$DT/before.txt" "$DT/after.txt" && ok "demo leaves the committed example unchanged" ||
	notok "demo leaves the committed example unchanged" "$(diff "$DT/before.txt" "$DT/after.txt" | head)"

# Regenerating gives the committed bytes.
if "$ROOT/scripts/make-example.sh" "$BUILD_DIR" "$DT/regen" >/dev/null 2>"$DT/err.txt"; then
	ok "make-example.sh runs"
	(cd "$EX" && find . -type f ! -name manifest.json | sort) >"$DT/a.txt"
	(cd "$DT/regen" && find . -type f ! -name manifest.json | sort) >"$DT/b.txt"
	expect "regenerated example has the same files" "$(diff "$DT/a.txt" "$DT/b.txt")" ""
	differ=""
	while IFS= read -r f; do
		cmp -s "$EX/$f" "$DT/regen/$f" || differ="$differ $f"
	done <"$DT/a.txt"
	expect "committed example is up to date (else run scripts/make-example.sh)" "$differ" ""
	"$JCHECK" get "$EX/manifest.json" artifacts >"$DT/a.txt"
	"$JCHECK" get "$DT/regen/manifest.json" artifacts >"$DT/b.txt"
	cmp -s "$DT/a.txt" "$DT/b.txt" && ok "regenerated manifest lists the same checksums" ||
		notok "regenerated manifest lists the same checksums"
else
	notok "make-example.sh runs" "$(cat "$DT/err.txt")"
fi
rm -rf "$DT"
