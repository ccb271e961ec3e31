#!/usr/bin/env bash
# bootstrap.sh [--prefix DIR] [--skills-dir DIR] [--no-build]: build and install flyprof, then
# link its runbooks into the agent's skills directory. Idempotent: a second run changes nothing.
# Never clobbers: a skills entry that is a real directory, or a link to somewhere else, is left
# alone and reported (exit 1). Defaults: --prefix $HOME/.local, --skills-dir $HOME/.claude/skills.
# BUILD names the build directory (default build), as for make.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd -P)
prefix="$HOME/.local"
skills_dir="$HOME/.claude/skills"
build=1
while [ $# -gt 0 ]; do
	case $1 in
	--prefix) prefix=${2:?--prefix needs a directory}; shift 2 ;;
	--skills-dir) skills_dir=${2:?--skills-dir needs a directory}; shift 2 ;;
	--no-build) build=0; shift ;;
	-h | --help) sed -n '2,7p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) echo "bootstrap: unknown argument '$1' (see --help)" >&2; exit 64 ;;
	esac
done
BUILD=${BUILD:-build}
if [ "$build" = 0 ] && [ ! -x "$ROOT/$BUILD/flyprof" ]; then
	echo "bootstrap: --no-build but $ROOT/$BUILD/flyprof does not exist" >&2
	exit 1
fi
if [ "$build" = 1 ]; then
	make -s -C "$ROOT" BUILD="$BUILD" -j"$(nproc 2>/dev/null || echo 2)" "$BUILD/flyprof"
fi
make -s -C "$ROOT" BUILD="$BUILD" install PREFIX="$prefix" >/dev/null
echo "bootstrap: flyprof installed in $prefix/bin"

mkdir -p "$skills_dir"
refused=0
link() { # link NAME TARGET
	local at="$skills_dir/$1" to=$2
	if [ -L "$at" ]; then
		if [ "$(readlink "$at")" = "$to" ]; then
			echo "bootstrap: $at already linked"
			return
		fi
		echo "bootstrap: $at links to $(readlink "$at"), not $to: left alone" >&2
		refused=1
	elif [ -e "$at" ]; then
		echo "bootstrap: $at exists and is not a link: left alone" >&2
		refused=1
	else
		ln -s "$to" "$at"
		echo "bootstrap: linked $at"
	fi
}
for d in "$prefix"/share/flyprof/skills/*/; do
	name=$(basename "$d")
	if [ -f "$d/SKILL.md" ]; then
		link "$name" "${d%/}"
	elif [ "$name" = references ]; then
		link flyprof-references "${d%/}"
	fi
done
case ":$PATH:" in
*":$prefix/bin:"*) ;;
*) echo "bootstrap: note: $prefix/bin is not on PATH" ;;
esac
exit "$refused"
