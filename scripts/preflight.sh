#!/usr/bin/env bash
# preflight.sh [--backend amd|nvidia] [--worktree W] [--skills-dir DIR]: is this machine ready for
# an optimisation task? Checks that flyprof runs, that the six runbooks are installed, and that
# `flyprof doctor` says ready (for the backend, when given). Exit 0 when ready; otherwise exit 1
# and one line per missing piece, each saying what to do. FLYPROF names the binary (default:
# flyprof on PATH).
set -uo pipefail
backend=""
worktree=""
skills_dir="$HOME/.claude/skills"
while [ $# -gt 0 ]; do
	case $1 in
	--backend) backend=${2:?--backend needs amd or nvidia}; shift 2 ;;
	--worktree) worktree=${2:?--worktree needs a path}; shift 2 ;;
	--skills-dir) skills_dir=${2:?--skills-dir needs a directory}; shift 2 ;;
	-h | --help) sed -n '2,6p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) echo "preflight: unknown argument '$1' (see --help)" >&2; exit 64 ;;
	esac
done
case $backend in "" | amd | nvidia) ;; *) echo "preflight: --backend must be amd or nvidia" >&2; exit 64 ;; esac
fail=0
missing() { echo "preflight: not ready: $*"; fail=1; }

fp=${FLYPROF:-$(command -v flyprof || true)}
if [ -z "$fp" ] || ! "$fp" --version >/dev/null 2>&1; then
	missing "flyprof is not installed or does not run (run scripts/bootstrap.sh)"
	exit 1
fi
for s in flyprof-usage flyprof-capture flyprof-analyze flyprof-report flyprof-triage rocm-kda-pilot; do
	[ -r "$skills_dir/$s/SKILL.md" ] ||
		missing "runbook $s is not in $skills_dir (run scripts/bootstrap.sh)"
done
args=(doctor -f json)
[ -n "$worktree" ] && args+=(--worktree "$worktree")
env=$("$fp" "${args[@]}" 2>/dev/null)
rc=$?
if [ $rc -ne 0 ] || ! grep -q '"ok": true' <<<"$env"; then
	missing "flyprof doctor failed (exit $rc)"
else
	ready=$(sed -n '/"ready_backends"/,/]/p' <<<"$env" | grep -oE '"(amd|nvidia)"' | tr -d '"' | tr '\n' ' ')
	if [ -z "$ready" ] || { [ -n "$backend" ] && ! grep -qw "$backend" <<<"$ready"; }; then
		blockers=$(grep -oE '"code": "[A-Z0-9_]+"' <<<"$env" | sort -u | sed 's/"code": //' | tr -d '"' | tr '\n' ' ')
		missing "flyprof doctor: no ready ${backend:-capture} backend; blockers: ${blockers% }"
	fi
fi
[ $fail -eq 0 ] && echo "preflight: ready (${ready% })"
exit $fail
