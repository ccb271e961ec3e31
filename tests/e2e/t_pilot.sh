# The pilot's scripts (issue 12 parts 3 and 5) in a temporary HOME and temporary git repositories:
# bootstrap installs and links the runbooks idempotently without clobbering; preflight fails for
# each missing piece with its reason and passes on a ready (stand-in) machine; new_flydsl_task
# makes the worktree, branch and draft and refuses to clobber either.
P="$E2E_TMP/work/pilot"
rm -rf "$P" && mkdir -p "$P/home"
H="$P/home"
SYS=/usr/bin:/bin
rel_build=${BUILD_DIR#"$ROOT"/}
run_in() { env -i HOME="$H" PATH="$SYS" BUILD="$rel_build" "$@"; }
skills="flyprof-usage flyprof-capture flyprof-analyze flyprof-report flyprof-triage rocm-kda-pilot"

# bootstrap
run_in "$ROOT/scripts/bootstrap.sh" --no-build --prefix "$P/prefix" >"$P/b1.txt" 2>&1
expect "bootstrap: first run succeeds" "$?" "0"
expect "bootstrap: installed binary runs" "$("$P/prefix/bin/flyprof" --version | cut -d' ' -f1)" "flyprof"
linked=""
for s in $skills; do [ -r "$H/.claude/skills/$s/SKILL.md" ] && linked="$linked $s"; done
expect "bootstrap: the six runbooks linked into ~/.claude/skills" "$linked" " $(echo $skills)"
expect "bootstrap: references linked" "$(ls "$H/.claude/skills/flyprof-references/" | grep -c quirks)" "2"
before=$(ls -l "$H/.claude/skills" | md5sum)
run_in "$ROOT/scripts/bootstrap.sh" --no-build --prefix "$P/prefix" >"$P/b2.txt" 2>&1
expect "bootstrap: second run succeeds" "$?" "0"
expect "bootstrap: second run changes no link" "$(ls -l "$H/.claude/skills" | md5sum)" "$before"
expect "bootstrap: second run says already linked" "$(grep -c 'already linked' "$P/b2.txt")" "7"
rm "$H/.claude/skills/flyprof-report" && mkdir "$H/.claude/skills/flyprof-report" && echo mine >"$H/.claude/skills/flyprof-report/SKILL.md"
run_in "$ROOT/scripts/bootstrap.sh" --no-build --prefix "$P/prefix" >"$P/b3.txt" 2>&1
expect "bootstrap: a real directory in the way is refused (exit 1)" "$?" "1"
expect "bootstrap: the user's directory is left alone" "$(cat "$H/.claude/skills/flyprof-report/SKILL.md")" "mine"
run_in "$ROOT/scripts/bootstrap.sh" --frobnicate >/dev/null 2>&1
expect "bootstrap: unknown argument is a usage error" "$?" "64"
rm -rf "$H/.claude/skills/flyprof-report"
run_in "$ROOT/scripts/bootstrap.sh" --no-build --prefix "$P/prefix" >/dev/null 2>&1

# preflight
run_in "$ROOT/scripts/preflight.sh" >"$P/p1.txt" 2>&1
expect "preflight: without flyprof fails" "$?" "1"
expect "preflight: says to bootstrap" "$(grep -c 'flyprof is not installed' "$P/p1.txt")" "1"
FP="$P/prefix/bin/flyprof"
run_in FLYPROF="$FP" "$ROOT/scripts/preflight.sh" --skills-dir "$P/none" >"$P/p2.txt" 2>&1
expect "preflight: missing runbooks fail" "$?" "1"
expect "preflight: each missing runbook named" "$(grep -c 'is not in' "$P/p2.txt")" "6"
run_in FLYPROF="$FP" "$ROOT/scripts/preflight.sh" >"$P/p3.txt" 2>&1
expect "preflight: no GPU tools fails" "$?" "1"
expect "preflight: names doctor's blockers" "$(grep -c 'blockers: .*ROCPROFV3_MISSING' "$P/p3.txt")" "1"
mkdir -p "$P/lib" "$P/wt/build-fly/python_packages/flydsl/_mlir" && : >"$P/lib/librocprof-trace-decoder.so"
amd=(FLYPROF="$FP" FLYPROF_ROCPROFV3="$FAKE_DIR/rocprofv3" FLYPROF_ROCMINFO="$FAKE_DIR/rocminfo" FLYPROF_DECODER_PATH="$P/lib")
run_in "${amd[@]}" "$ROOT/scripts/preflight.sh" --backend amd --worktree "$P/wt" >"$P/p4.txt" 2>&1
expect "preflight: ready with the AMD stand-ins" "$?" "0"
expect "preflight: says ready" "$(cat "$P/p4.txt")" "preflight: ready (amd)"
run_in "${amd[@]}" "$ROOT/scripts/preflight.sh" --backend nvidia --worktree "$P/wt" >"$P/p5.txt" 2>&1
expect "preflight: asked for nvidia on an AMD machine fails" "$?" "1"
run_in "${amd[@]}" "$ROOT/scripts/preflight.sh" --backend amd >"$P/p6.txt" 2>&1
expect "preflight: without a build tree fails" "$?" "1"
expect "preflight: names BUILD_TREE_MISSING" "$(grep -c BUILD_TREE_MISSING "$P/p6.txt")" "1"

# new_flydsl_task
G="$P/FlyDSL"
mkdir -p "$G" && git -C "$G" init -q && git -C "$G" -c user.email=t@t -c user.name=t commit -q --allow-empty -m base
nt() { run_in "$ROOT/scripts/new_flydsl_task.sh" "$@"; }
nt --template fp8 fa-fp8 --flydsl "$G" >"$P/n1.txt" 2>&1
expect "new task: created" "$?" "0"
expect "new task: branch rlcr/fa-fp8" "$(git -C "$G" for-each-ref --format='%(refname:short)' refs/heads/rlcr/)" "rlcr/fa-fp8"
D="$P/flydsl-tasks/fa-fp8"
expect "new task: worktree on the branch" "$(git -C "$D" rev-parse --abbrev-ref HEAD 2>/dev/null)" "rlcr/fa-fp8"
expect "new task: draft from the fp8 template" "$(grep -c 'max_err < 5e-2 and min_cos > 0.98' "$D/.humanize/kernel-agent/draft.md")" "1"
expect "new task: slug filled in" "$(head -1 "$D/.humanize/kernel-agent/draft.md" | grep -c 'fa-fp8$')" "1"
echo "my notes" >>"$D/.humanize/kernel-agent/draft.md"
nt --template fp8 fa-fp8 --flydsl "$G" >"$P/n2.txt" 2>&1
expect "new task: second run refuses (exit 1)" "$?" "1"
expect "new task: refusal names the branch" "$(grep -c 'branch rlcr/fa-fp8 already exists' "$P/n2.txt")" "1"
expect "new task: the draft is untouched" "$(tail -1 "$D/.humanize/kernel-agent/draft.md")" "my notes"
mkdir -p "$P/flydsl-tasks/other"
nt --template mxfp4 other --flydsl "$G" >"$P/n3.txt" 2>&1
expect "new task: an existing directory is refused" "$?" "1"
expect "new task: no branch made when refused" "$(git -C "$G" branch --list 'rlcr/other' | wc -l | tr -d ' ')" "0"
nt --template gemm x --flydsl "$G" >/dev/null 2>&1
expect "new task: unknown template is a usage error" "$?" "64"
nt --template flashattn '../escape' --flydsl "$G" >/dev/null 2>&1
expect "new task: a slug with a path is refused" "$?" "64"
nt --template flashattn fa --flydsl "$P/home" >/dev/null 2>&1
expect "new task: not a git checkout" "$?" "1"
(cd "$G" && run_in "$ROOT/scripts/new_flydsl_task.sh" --template flashattn-deep fa-deep --tasks-dir "$P/t2") >/dev/null 2>&1
expect "new task: the current directory as the checkout" "$(git -C "$P/t2/fa-deep" rev-parse --abbrev-ref HEAD 2>/dev/null)" "rlcr/fa-deep"
for t in flashattn flashattn-deep fp8 mxfp4; do
	nt --template "$t" "t-$t" --flydsl "$G" --tasks-dir "$P/t3" >/dev/null 2>&1
	grep -q 'TODO' "$P/t3/t-$t/.humanize/kernel-agent/draft.md" 2>/dev/null &&
		ok "new task: template $t gives a draft to fill" || notok "new task: template $t gives a draft to fill"
done
