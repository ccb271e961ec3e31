#!/usr/bin/env bash
# new_flydsl_task.sh --template flashattn|flashattn-deep|fp8|mxfp4 SLUG [--flydsl DIR]
#                    [--tasks-dir DIR] [--base REF]
# Starts an optimisation task: a git worktree of the FlyDSL checkout (--flydsl, else $FLYDSL_DIR,
# else the current directory) on a new branch rlcr/SLUG, at TASKS_DIR/SLUG (default: a
# flydsl-tasks directory beside the checkout), with .humanize/kernel-agent/draft.md written from
# the template. Refuses (exit 1, nothing changed) when the branch or the directory exists.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd -P)
TEMPLATES=${FLYPROF_TEMPLATES:-$ROOT/templates}
template=""
slug=""
flydsl=${FLYDSL_DIR:-$PWD}
tasks_dir=""
base=HEAD
usage() { sed -n '2,7p' "$0" | sed 's/^# \{0,1\}//'; }
while [ $# -gt 0 ]; do
	case $1 in
	--template) template=${2:-}; shift 2 || { usage >&2; exit 64; } ;;
	--flydsl) flydsl=${2:?--flydsl needs a directory}; shift 2 ;;
	--tasks-dir) tasks_dir=${2:?--tasks-dir needs a directory}; shift 2 ;;
	--base) base=${2:?--base needs a ref}; shift 2 ;;
	-h | --help) usage; exit 0 ;;
	-*) echo "new_flydsl_task: unknown option '$1'" >&2; usage >&2; exit 64 ;;
	*) [ -z "$slug" ] || { echo "new_flydsl_task: one SLUG only" >&2; exit 64; }; slug=$1; shift ;;
	esac
done
case $template in
flashattn) file=flydsl_flashattn_gfx950_contract.md ;;
flashattn-deep) file=flydsl_flashattn_gfx950_deep_contract.md ;;
fp8) file=flydsl_flashattn_fp8_gfx950_contract.md ;;
mxfp4) file=flydsl_mxfp4_moe_gfx950_contract.md ;;
*) echo "new_flydsl_task: --template must be flashattn, flashattn-deep, fp8 or mxfp4" >&2; exit 64 ;;
esac
if ! [[ $slug =~ ^[a-z0-9][a-z0-9._-]{0,63}$ ]] || [[ $slug == *..* ]]; then
	echo "new_flydsl_task: SLUG must be 1-64 of a-z 0-9 . _ - (starting with a letter or digit)" >&2
	exit 64
fi
[ -r "$TEMPLATES/$file" ] || { echo "new_flydsl_task: template $TEMPLATES/$file missing" >&2; exit 1; }
if ! top=$(git -C "$flydsl" rev-parse --show-toplevel 2>/dev/null); then
	echo "new_flydsl_task: $flydsl is not a git checkout (give --flydsl or FLYDSL_DIR)" >&2
	exit 1
fi
[ -n "$tasks_dir" ] || tasks_dir="$(dirname "$top")/flydsl-tasks"
dest="$tasks_dir/$slug"
branch="rlcr/$slug"
if git -C "$top" show-ref --verify --quiet "refs/heads/$branch"; then
	echo "new_flydsl_task: branch $branch already exists: refusing to clobber it" >&2
	exit 1
fi
if [ -e "$dest" ]; then
	echo "new_flydsl_task: $dest already exists: refusing to clobber it" >&2
	exit 1
fi
mkdir -p "$tasks_dir"
git -C "$top" worktree add -q -b "$branch" "$dest" "$base"
mkdir -p "$dest/.humanize/kernel-agent"
sed "s/{{SLUG}}/$slug/g" "$TEMPLATES/$file" >"$dest/.humanize/kernel-agent/draft.md"
echo "new_flydsl_task: worktree $dest on branch $branch"
echo "new_flydsl_task: draft $dest/.humanize/kernel-agent/draft.md (template $file)"
echo "new_flydsl_task: next: fill the draft, have it reviewed (gate 1), then run scripts/preflight.sh"
