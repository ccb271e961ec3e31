#!/usr/bin/env bash
# check-skills.sh [SKILLS_DIR]: every command, flag and error code the runbooks (skills/*/SKILL.md)
# name exists in the flyprof binary, and every error code of the registry is named by some
# runbook, so the runbooks agents follow cannot drift from the tool. FLYPROF names the binary
# (default build/flyprof). Prints one line per problem (file:line: what) and exits 1 on any.
#
# What is checked, in the runbooks only (the references quote other tools' flags):
#  * an invocation — a code span or code-block line starting with `flyprof ` (continuation lines
#    ending in \ are joined): its command exists, and each --flag is one that command's --help lists;
#  * a code span that is a bare flag (`--gate`, `--gate 2`): some command lists it;
#  * a table row `| `CODE` | EXIT | ...`: EXIT is the code's exit status in the registry;
#  * a code span in CAPITALS_WITH_UNDERSCORES (or a one-word code such as `USAGE`): a registry code,
#    unless it is an environment variable or in the NOT_CODES list below.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd -P)
SKILLS=${1:-$ROOT/skills}
FLYPROF=${FLYPROF:-$ROOT/build/flyprof}
[ -x "$FLYPROF" ] || { echo "check-skills: $FLYPROF is not an executable (build first)" >&2; exit 2; }
# Capitalised words in runbooks that are not flyprof error codes: other tools' messages.
NOT_CODES="ERR_NVGPUCTRPERM DATA_LOST TODO"

cmds=$("$FLYPROF" --command-names | tr '\n' ' ')
# "CODE:EXIT" pairs from the generated registry table.
codes=$("$FLYPROF" --errors-md | sed -nE 's/^\| `([A-Z0-9_]+)` \| ([0-9]+) \|.*/\1:\2/p' | tr '\n' ' ')
flagmap=""
for c in $cmds; do
	fl=$("$FLYPROF" "$c" --help | grep -oE -- '--[a-z0-9][a-z0-9-]*' | sort -u | tr '\n' ',')
	flagmap="$flagmap$c=-f,-h,--help,$fl;"
done

shopt -s nullglob
files=("$SKILLS"/*/SKILL.md)
[ ${#files[@]} -gt 0 ] || { echo "check-skills: no runbooks under $SKILLS" >&2; exit 2; }
awk -v cmds="$cmds" -v codes="$codes" -v flagmap="$flagmap" -v notcodes="$NOT_CODES" \
    -v root="$ROOT/" '
BEGIN {
	split(cmds, a, " "); for (i in a) if (a[i] != "") iscmd[a[i]] = 1
	iscmd["help"] = 1
	split(codes, a, " ")
	for (i in a) if (split(a[i], ce, ":") == 2) { iscode[ce[1]] = 1; exitof[ce[1]] = ce[2]; ncodes++ }
	split(notcodes, a, " "); for (i in a) notcode[a[i]] = 1
	n = split(flagmap, a, ";")
	for (i = 1; i <= n; i++) {
		if (split(a[i], kv, "=") != 2) continue
		m = split(kv[2], f, ",")
		for (j = 1; j <= m; j++) if (f[j] != "") { hasflag[kv[1] SUBSEP f[j]] = 1; anyflag[f[j]] = 1 }
	}
	bad = 0
}
function where(   fn) { fn = FILENAME; sub("^" root, "", fn); return fn ":" FNR }
function problem(msg) { print where() ": " msg; bad++ }
function invocation(s,   w, n, i, c, t) {
	n = split(s, w, /[ \t]+/)
	c = w[2]
	if (c == "" || c ~ /^[-<]/) return
	if (!(c in iscmd)) { problem("`flyprof " c "`: no such command"); return }
	if (c == "help") return
	for (i = 3; i <= n; i++) {
		t = w[i]
		if (t == "--") break          # what follows is the profiled program
		if (t !~ /^--?[a-z]/) continue
		sub(/=.*/, "", t)
		if (!((c SUBSEP t) in hasflag)) problem("`flyprof " c " " t "`: " c " has no such flag")
	}
}
function span(s,   t) {
	if (s ~ /^flyprof[ \t]/) { invocation(s); return }
	if (s ~ /^--[a-z0-9][a-z0-9-]*([ =].*)?$/) {
		t = s; sub(/[ =].*/, "", t)
		if (!(t in anyflag)) problem("`" t "`: no flyprof command has this flag")
		return
	}
	if (s ~ /^[A-Z][A-Z0-9]*(_[A-Z0-9]+)*$/ && length(s) >= 4) {
		if (s ~ /^(FLYPROF|ROCPROF|ROCM|HSA|HIP|CUDA|LD|HOME|PATH)(_|$)/ || (s in notcode)) return
		if (!(s in iscode)) problem("`" s "`: not an error code in the registry (flyprof --errors-md)")
		else seen[s] = 1
	}
}
FNR == 1 { fence = 0; cont = "" }
/^[ \t]*```/ { fence = !fence; cont = ""; next }
fence {
	line = $0
	sub(/^[ \t]*(\$[ \t]+)?/, "", line)
	if (cont != "") { line = cont " " line; cont = "" }
	if (line ~ /\\$/) { sub(/\\$/, "", line); if (line ~ /^flyprof[ \t]/) cont = line; next }
	sub(/[ \t]+#.*$/, "", line)
	if (line ~ /^flyprof[ \t]/) invocation(line)
	next
}
# A table row `| CODE | EXIT | ...`: the exit status must be the one in the registry.
/^\| `[A-Z0-9_]+` \| [0-9]+ \|/ {
	split($0, col, "|"); c = col[2]; gsub(/[` ]/, "", c); x = col[3]; gsub(/ /, "", x)
	if ((c in iscode) && x != exitof[c]) problem("`" c "` exits " exitof[c] ", not " x)
}
{
	s = $0
	while (match(s, /`[^`]+`/)) {
		span(substr(s, RSTART + 1, RLENGTH - 2))
		s = substr(s, RSTART + RLENGTH)
	}
}
END {
	for (c in iscode) if (!(c in seen)) {
		print "error code `" c "` is named by no runbook: add a row for it (code, exit, action) to " \
		      "the table in skills/flyprof-triage/SKILL.md"
		bad++
	}
	if (bad) exit 1
	printf "check-skills: ok (%d error codes covered)\n", ncodes
}' "${files[@]}"
