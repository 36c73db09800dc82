#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tests/fuzz/seeds.sh - the fuzzers' recordings and seed corpus, from the
# golden recordings (every source, both VM kernels): the recordings
# themselves (fuzz_records, fuzz_report read their formats and data), their
# ring-buffer pages, tlat record's marker lines, and typical command lines.
#
# Usage: tests/fuzz/seeds.sh OUTDIR   (makes OUTDIR/recordings, OUTDIR/seeds/NAME)
set -eu
cd "$(dirname "$0")/../.."
out=$1
rec=$out/recordings
mkdir -p "$rec" "$out"/seeds/{fuzz_cli,fuzz_json,fuzz_records,fuzz_report}
i=0
for xz in tests/golden/recordings/*.dat.xz; do
	dat=$rec/$(basename "$xz" .xz)
	[ -s "$dat" ] || xz -dc "$xz" > "$dat"
	# the harnesses pick recordings in name order, by the input's first byte
	b=$(printf '\\%03o' $i)
	# pages: trace-cmd aligns the CPU data to pages; the file's last ones
	size=$(stat -c %s "$dat")
	last=$(( size / 4096 - 1 ))
	for k in 1 3 7; do
		{ printf "$b\\001"; dd if="$dat" bs=4096 skip=$(( last - k )) count=2 status=none; } \
			> "$out/seeds/fuzz_records/pages-$i-$k"
		{ printf "$b\\000"; dd if="$dat" bs=4096 skip=$(( last - k )) count=1 status=none; } \
			> "$out/seeds/fuzz_records/raw-$i-$k"
	done
	for opt in 000 020 040; do
		printf "\\$(printf %03o $(( i + 8#$opt )))" > "$out/seeds/fuzz_report/opt-$i-$opt"
	done
	{ printf "$b"; printf '\000\020\000\100'; head -c 64 /dev/zero; } > "$out/seeds/fuzz_report/zero-$i"
	# tlat record's lines, as the markers' text
	grep -a -o 'tlat-r[a-z]*: [[:print:]]*' "$dat" | head -40 > "$out/seeds/fuzz_json/markers-$i" || true
	[ -s "$out/seeds/fuzz_json/markers-$i" ] || rm -f "$out/seeds/fuzz_json/markers-$i"
	i=$(( i + 1 ))
done
# command lines: the command byte, then NUL-separated arguments
n=0
while IFS= read -r line; do
	for cmd in 000 001 002 004; do
		{ printf "\\$cmd"; printf '%s' "$line" | tr ' ' '\000'; } > "$out/seeds/fuzz_cli/cmd-$n-$cmd"
	done
	n=$(( n + 1 ))
done <<'LINES'
-d 10 -c 0-3 -p 1000 -P f:95 -q
-T 30 -i 20 -s 15 --aa-only 40 --dump-tasks --stack-format full
--on-threshold shell,command=echo --on-threshold trace,file=t.dat --on-end signal,num=10,pid=parent
-b 10 -E 500 --no-irq --with-zeros -n --json - --json-format rt-tests
--source module --collect kernel -C user -u -k --deepest-idle-state 0
-H 1 -e sched:sched_switch --filter prev_pid==0 --trigger stacktrace -t out.dat
--warm-up 2 --trace-buffer-size 1024 --sample-log s.log --plot p.svg -D
LINES
printf '{"argv":["tlat","top"],"options":{"duration":10},"system":{"sysname":"Linux"},"start_time":1}' \
	> "$out/seeds/fuzz_json/run-doc"
