# A scripted walk through the runbooks on a machine without GPU (issue 12 part 5): follow
# flyprof-usage's workflow into flyprof-capture, run each step as the runbook writes it, and
# check that the envelope is the documented one and that the runbook's table says what to do:
# `doctor` answers not-ready with typed blockers whose action is a stop, and `capture` stops
# with a code that flyprof-capture's table lists as a stop.
W="$E2E_TMP/work/walk"
rm -rf "$W" && mkdir -p "$W"
USAGE_MD="$ROOT/skills/flyprof-usage/SKILL.md"
CAPTURE_MD="$ROOT/skills/flyprof-capture/SKILL.md"
# action_of CODE: the action column of flyprof-capture's error table for CODE.
action_of() { awk -F'|' -v c="\`$1\`" '$2 ~ c { gsub(/ /, "", $4); print $4; exit }' "$CAPTURE_MD"; }
exit_of() { awk -F'|' -v c="\`$1\`" '$2 ~ c { gsub(/ /, "", $3); print $3; exit }' "$CAPTURE_MD"; }
# first_cmd FILE VERB: the first code-block line of FILE that runs `flyprof VERB`, comment cut.
first_cmd() { awk -v v="$2" '/^```/ { f = !f; next } f && $1 == "flyprof" && $2 == v { sub(/[ \t]+#.*/, ""); print; exit }' "$1"; }
nogpu=(env PATH=/nonexistent LD_LIBRARY_PATH= ROCM_PATH= ROCPROF_ATT_LIBRARY_PATH=)

step=$(first_cmd "$USAGE_MD" doctor)
expect "walk: flyprof-usage starts with doctor" "$step" "flyprof doctor -f json"
read -r -a argv <<<"${step#flyprof }"
OUT="$E2E_TMP/out.json"
"${nogpu[@]}" "$FLYPROF" "${argv[@]}" >"$OUT" 2>/dev/null </dev/null
rc=$?
"$JCHECK" envelope "$OUT" "$rc" 2>/dev/null && ok "walk: doctor prints one envelope" || notok "walk: doctor prints one envelope"
expect "walk: doctor exits 0 (its answer is the list)" "$rc" "0"
expect "walk: doctor says not-ready" "$(field data.verdict)" "not-ready"
n=0
while code=$(field "data.blockers.$n.code" 2>/dev/null) && [ -n "$code" ]; do
	act=$(action_of "$code")
	expect "walk: blocker $code is in flyprof-capture's table" "$([ -n "$act" ] && echo yes)" "yes"
	expect "walk: blocker $code has the registry's exit status there" "$(exit_of "$code")" "$(field "data.blockers.$n.exitCode")"
	expect "walk: blocker $code means stop" "$act" "stop"
	n=$((n + 1))
done
expect "walk: doctor lists blockers" "$([ $n -gt 0 ] && echo yes)" "yes"

# flyprof-capture step 4 on this machine: the runbook's own capture line, placeholders filled.
step=$(first_cmd "$CAPTURE_MD" capture)
expect "walk: flyprof-capture has a capture step" "$([ -n "$step" ] && echo yes)" "yes"
step=${step//KERNEL/softmax}
step=${step//\"\$W\"/$W/flydsl}
step=${step//\"\$B\"/$W/bundle}
read -r -a argv <<<"${step#flyprof }"
"${nogpu[@]}" "$FLYPROF" "${argv[@]}" >"$OUT" 2>/dev/null </dev/null
rc=$?
"$JCHECK" envelope "$OUT" "$rc" 2>/dev/null && ok "walk: capture prints one envelope" || notok "walk: capture prints one envelope"
expect "walk: capture fails without a GPU" "$(field ok)" "false"
code=$(field error.code)
expect "walk: capture's $code is in flyprof-capture's table" "$([ -n "$(action_of "$code")" ] && echo yes)" "yes"
expect "walk: capture's $code has the envelope's exit status there" "$(exit_of "$code")" "$rc"
expect "walk: the runbook says stop on $code" "$(action_of "$code")" "stop"
