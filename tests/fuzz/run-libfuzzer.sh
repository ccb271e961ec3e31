#!/usr/bin/env bash
# Runs each libFuzzer binary in DIR for SECONDS, seeded from tests/fuzz/seeds.txt.
set -u
DIR=$1
SECS=${2:-30}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
fail=0
for bin in "$DIR"/fuzz_*; do
	t=$(basename "$bin")
	t=${t#fuzz_}
	seeds=$(mktemp -d)
	while read -r name pat; do
		[ "$name" = "$t" ] || continue
		pat=${pat//'$FLYPROF_CORPUS'/${FLYPROF_CORPUS:-/nonexistent}}
		pat=${pat//'$ROOT'/$ROOT}
		for f in $pat; do [ -f "$f" ] && head -c 1048576 "$f" >"$seeds/$(echo "$f" | md5sum | cut -c1-12)"; done
	done < <(grep -v '^#' "$ROOT/tests/fuzz/seeds.txt")
	echo "== fuzz $t: $SECS s, $(ls "$seeds" | wc -l) seeds"
	if ! "$bin" -max_total_time="$SECS" -rss_limit_mb=2048 -max_len=1048576 "$seeds" >"$seeds.log" 2>&1; then
		fail=1
		tail -40 "$seeds.log"
	else
		grep -E '^#[0-9]+.*DONE' "$seeds.log" | tail -1
	fi
	rm -rf "$seeds" "$seeds.log"
done
exit $fail
