#!/usr/bin/env bash
# make check-layers: every #include "..." in src/ must point to the same layer or one below it
# (docs/architecture.md lists the layers). A layer is the longest folder prefix in the table;
# within core/, the two vendor backends may not include each other. Exit 1 on any violation.
set -euo pipefail
cd "$(dirname "$0")/.."
# folder rank: a file may include files of its own rank or lower ranks only.
ranks='
base 0
base/json 0
model 2
read 3
read/amd 3
read/nvidia 3
drive 4
core/hw 5
core/bundle 5
core/amd 6
core/nvidia 6
core/backend 5
core/analysis 8
core/export 9
core/diagnose 9
out 10
cmd 11
cli 12
'
allow_file=scripts/layers-allow.txt
awk -v ranks="$ranks" -v allowf="$allow_file" '
BEGIN {
	n = split(ranks, L, "\n")
	for (i = 1; i <= n; i++) if (split(L[i], f, " ") == 2) rank[f[1]] = f[2]
	while ((getline line < allowf) > 0) if (line !~ /^#/ && line != "") allow[line] = 1
	bad = 0
}
function layer(p,   d, best) {
	sub(/^src\//, "", p)
	d = p; best = ""
	while (match(d, /\/[^\/]*$/)) { d = substr(d, 1, RSTART - 1); if (d in rank) { best = d; break } }
	return best
}
/#include "/ {
	t = $0; sub(/.*#include "/, "", t); sub(/".*/, "", t)
	if (t !~ /\//) next
	from = layer(FILENAME); to = layer("src/" t)
	if (from == "" || to == "") { printf "%s: unknown layer (%s -> %s)\n", FILENAME, from, t; bad++; next }
	key = FILENAME " -> " t
	up = rank[to] > rank[from]
	cross = (from == "core/amd" && to == "core/nvidia") || (from == "core/nvidia" && to == "core/amd") ||
		(from == "read/amd" && to == "read/nvidia") || (from == "read/nvidia" && to == "read/amd")
	if ((up || cross) && !(key in allow)) {
		printf "%s:%d: %s (%s) includes %s (%s)\n", FILENAME, FNR, from, rank[from], t, to
		bad++
	}
}
END {
	if (bad) { printf "check-layers: %d include(s) run up a layer\n", bad; exit 1 }
	print "check-layers: ok"
}' $(find src -name '*.[ch]' | sort)
