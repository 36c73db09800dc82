#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tests/fuzz/run.sh - each libFuzzer harness on its saved regressions
# (tests/fuzz/regress/NAME/, each input once), then for SECONDS on its
# corpus (build/fuzz/corpus/NAME, kept across runs) and seeds
# (tests/fuzz/seeds.sh). Prints one line per harness: executions, seconds,
# crashes; appends them to build/fuzz/stats.txt. A crash is saved in
# build/fuzz/crashes/ and fails the run.
#
# Usage: tests/fuzz/run.sh BINDIR SECONDS NAME...
set -u
cd "$(dirname "$0")/../.."
bindir=$1 seconds=$2
shift 2
out=build/fuzz
tests/fuzz/seeds.sh "$out" || exit 1
export TLAT_FUZZ_RECORDINGS=$out/recordings
# the libraries' leaks, reviewed (as make SANITIZE=... runs the unit tests)
export LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$PWD/tests/sanitize/lsan.supp:print_suppressions=0}
mkdir -p "$out/crashes" "$out/logs"
fail=0
for name in "$@"; do
	bin=$bindir/$name
	if [ ! -x "$bin" ]; then
		echo "fuzz: $name: $bin missing (make fuzz-build)" >&2
		fail=1
		continue
	fi
	regress=(tests/fuzz/regress/$name/*)
	if [ -e "${regress[0]}" ]; then
		if ! "$bin" "${regress[@]}" > "$out/logs/$name.regress" 2>&1; then
			echo "fuzz: $name: a regression input fails again (see $out/logs/$name.regress)"
			fail=1
		fi
	fi
	mkdir -p "$out/corpus/$name"
	log=$out/logs/$name.log
	start=$(date +%s)
	"$bin" -max_total_time="$seconds" -timeout=25 -rss_limit_mb=2560 -print_final_stats=1 \
		-artifact_prefix="$out/crashes/$name-" \
		"$out/corpus/$name" "$out/seeds/$name" > "$log" 2>&1
	rc=$?
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
	# the same count, as libFuzzer's last line says it (none after a crash)
	runs=$(sed -n 's/^Done \([0-9]*\) runs.*/\1/p' "$log" | tail -1)
	crashes=$(grep -c -E '^==[0-9]+==ERROR|deadly signal|runtime error|Test unit written to' "$log")
	line="$(date -u +%FT%TZ) $name: ${execs:-0} executions (Done line: ${runs:-none}) in $(( $(date +%s) - start )) s, exit $rc, crash reports $crashes, corpus $(ls "$out/corpus/$name" | wc -l)"
	echo "fuzz: $line"
	echo "$line" >> "$out/stats.txt"
	if [ "$rc" != 0 ] || [ "$crashes" != 0 ] || [ -z "$execs" ]; then
		echo "fuzz: $name failed; the end of $log:"
		tail -30 "$log" | sed 's/^/# /'
		fail=1
	fi
done
exit $fail
