# The envelope contract (docs/architecture.md#envelope): one JSON object on stdout for every invocation, exit
# status bound to error.code, nothing written outside --bundle/--out.
cd "$E2E_TMP" || exit 1
fly "no command is USAGE" 64
fly "unknown command is USAGE" 64 frobnicate
expect "unknown command lists commands" "$(field error.available.0)" "list"
fly "unknown flag is USAGE" 64 bubbles --no-such-flag
fly "mistyped command is USAGE" 64 reprot
expect "mistyped command: did you mean" "$(field error.suggestion)" "report"
fly "mistyped flag is USAGE" 64 bubbles --dispach 3
grep -q "did you mean --dispatch?" "$OUT" && ok "mistyped flag: did you mean" || notok "mistyped flag: did you mean" "$(cat "$OUT")"
"$FLYPROF" help tile >"$E2E_TMP/h.txt"; rc=$?
expect "help <command> exits 0" "$rc" 0
expect "help <command> is that command's --help" "$(cat "$E2E_TMP/h.txt")" "$("$FLYPROF" tile --help)"
fly "help on an unknown command is USAGE" 64 help reprot
expect "help <unknown>: did you mean" "$(field error.suggestion)" "report"
fly "flag before command is accepted" 64 --format json frobnicate
fly "missing value is USAGE" 64 bubbles --top
fly "bad integer is BAD_ARGS" 78 bubbles --top many
fly "bad choice is BAD_ARGS" 78 bubbles --format xml
fly "extra positional is USAGE" 64 bubbles one two
FLYPROF_TOP=zz fly "bad environment value is BAD_ARGS" 78 bubbles
for c in capture counters run; do
	fly "$c without a kernel is typed USAGE" 64 "$c"
	expect "$c error code" "$(field error.code)" "USAGE"
done
"$FLYPROF" --version >"$E2E_TMP/v.txt"
expect "--version is plain text" "$(cut -d' ' -f1 "$E2E_TMP/v.txt")" "flyprof"
"$FLYPROF" bubbles --help >"$E2E_TMP/h.txt"; rc=$?
expect "command --help exits 0" "$rc" "0"
grep -q -- '--top N' "$E2E_TMP/h.txt" && ok "command --help lists options" || notok "command --help lists options"
"$FLYPROF" --errors-md >"$E2E_TMP/errors.md"
if cmp -s "$E2E_TMP/errors.md" "$ROOT/docs/errors.md"; then ok "docs/errors.md matches the registry"; else notok "docs/errors.md matches the registry" "regenerate: build/flyprof --errors-md > docs/errors.md"; fi
"$FLYPROF" --config-md >"$E2E_TMP/config.md"
if cmp -s "$E2E_TMP/config.md" "$ROOT/docs/config.md"; then ok "docs/config.md matches the option tables"; else notok "docs/config.md matches the option tables" "regenerate: build/flyprof --config-md > docs/config.md"; fi
left=$(ls -A "$E2E_TMP" | grep -v -E '^(out.json|err.txt|why.txt|v.txt|h.txt|errors.md|config.md|golden\..*|work)$' || true)
expect "nothing written outside --bundle/--out" "$left" ""
cd "$ROOT" || exit 1
# Missing and foreign bundles: one envelope, typed, for every command that reads one.
for c in bubbles map report; do
	fly "$c without --bundle is BAD_ARGS" 78 "$c"
	fly "$c on a missing bundle is NO_ARTIFACT" 66 "$c" --bundle "$E2E_TMP/no-such-bundle"
	mkdir -p "$E2E_TMP/foreign" && : >"$E2E_TMP/foreign/notes.txt"
	fly "$c on a foreign directory is NOT_A_BUNDLE" 78 "$c" --bundle "$E2E_TMP/foreign"
	expect "$c foreign error code" "$(field error.code)" "NOT_A_BUNDLE"
	rm -rf "$E2E_TMP/foreign"
done
fly "diff on missing bundles is typed" 66 diff --before "$E2E_TMP/no-a" --after "$E2E_TMP/no-b"
fly "bundle into a missing source is typed" 66 bundle --bundle "$E2E_TMP/no-such-bundle" --out "$E2E_TMP/ex"
[ ! -e "$E2E_TMP/ex" ] && ok "failed bundle leaves no output" || notok "failed bundle leaves no output"
