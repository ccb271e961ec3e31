# The runbooks agents follow name only commands, flags and error codes the binary has, and every
# registry code is covered by some runbook (scripts/check-skills.sh); the check fails on each kind
# of drift, shown on mutated copies of the runbooks.
SK="$E2E_TMP/work/skills"
mkdir -p "$E2E_TMP/work"
if out=$(FLYPROF="$FLYPROF" "$ROOT/scripts/check-skills.sh" 2>&1); then
	ok "skills: runbooks agree with the binary"
else
	notok "skills: runbooks agree with the binary" "$out"
fi
for s in flyprof-usage flyprof-capture flyprof-analyze flyprof-report flyprof-triage rocm-kda-pilot; do
	f="$ROOT/skills/$s/SKILL.md"
	if [ -s "$f" ] && [ "$(sed -n 1p "$f")" = "---" ] && grep -q "^name: $s\$" "$f" &&
		grep -q '^description: ' "$f" && grep -q '^allowed-tools: ' "$f"; then
		ok "skills: $s has front matter (name, description, allowed-tools)"
	else
		notok "skills: $s has front matter (name, description, allowed-tools)"
	fi
done
for r in bubble-knob-table.md rocprofv3-quirks.md ncu-quirks.md; do
	[ -s "$ROOT/skills/references/$r" ] && ok "skills: reference $r" || notok "skills: reference $r"
done

# mutate NAME LINE [SED]: a fresh copy of the runbooks with LINE appended to flyprof-report (or
# SED applied to every runbook); the check must fail and say why (grep PATTERN).
mutate() {
	rm -rf "$SK" && cp -R "$ROOT/skills" "$SK"
	[ -n "$2" ] && printf '\n%s\n' "$2" >>"$SK/flyprof-report/SKILL.md"
	[ -n "${3:-}" ] && sed -i "$3" "$SK"/*/SKILL.md
	FLYPROF="$FLYPROF" "$ROOT/scripts/check-skills.sh" "$SK" >"$E2E_TMP/cs.txt" 2>&1
}
fails_with() { # NAME PATTERN
	if [ $? -ne 0 ] && grep -q -- "$2" "$E2E_TMP/cs.txt"; then ok "$1"; else notok "$1" "$(cat "$E2E_TMP/cs.txt")"; fi
}
mutate x 'Run `flyprof bubbles --bundle B --no-such-flag`.'
fails_with "skills: an unknown flag in an invocation fails" "bubbles has no such flag"
mutate x 'Then `flyprof diff --gate 2 --top 3 --sarif x`.'
fails_with "skills: a flag of another command fails" "diff --sarif"
mutate x $'```sh\nflyprof report --bundle B \\\n    --bogus-flag 3\n```'
fails_with "skills: a flag on a continuation line of a code block fails" "report --bogus-flag"
mutate x 'Use `flyprof frobnicate`.'
fails_with "skills: an unknown command fails" "frobnicate"
mutate x 'Lift it with `--everything`.'
fails_with "skills: a bare unknown flag fails" "no flyprof command has this flag"
mutate x 'On `KERNEL_EXPLODED` retry.'
fails_with "skills: an unknown error code fails" "KERNEL_EXPLODED"
mutate x '' '/`BUNDLE_LOCKED`/d'
fails_with "skills: a registry code no runbook covers fails" "BUNDLE_LOCKED. is named by no runbook"
mutate x 'Options after `flyprof run KERNEL -- python bench.py --iters 3` belong to the program.'
if [ $? -eq 0 ]; then ok "skills: words after -- are the profiled program's"; else notok "skills: words after -- are the profiled program's" "$(cat "$E2E_TMP/cs.txt")"; fi
mutate x '' 's/^| `CAPTURE_TIMEOUT` | 75 |/| `CAPTURE_TIMEOUT` | 70 |/'
fails_with "skills: a table row with the wrong exit status fails" "CAPTURE_TIMEOUT. exits 75, not 70"
