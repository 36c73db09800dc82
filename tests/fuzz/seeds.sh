#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tests/fuzz/seeds.sh - the fuzzers' recordings and seed corpus, from the
# golden recordings (every source, both VM kernels): the recordings
# themselves (fuzz_records, fuzz_report read their formats and data), their
# ring-buffer pages, their headers (fuzz_datcheck), tlat record's marker
# lines, and typical command lines;
# for the readers of other outside text: kallsyms lines, settings files'
# values (CPU lists), and tlat compare's documents (the golden JSON output,
# tlat/1.1 and cyclictest's format, alone and in pairs).
#
# Usage: tests/fuzz/seeds.sh OUTDIR   (makes OUTDIR/recordings, OUTDIR/seeds/NAME)
set -eu
cd "$(dirname "$0")/../.."
out=$1
rec=$out/recordings
mkdir -p "$rec" "$out"/seeds/{fuzz_cli,fuzz_json,fuzz_records,fuzz_report} \
	"$out"/seeds/{fuzz_ksyms,fuzz_knobs,fuzz_compare,fuzz_datcheck}
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
	# the headers, after the magic (fuzz_datcheck writes it)
	tail -c +11 "$dat" | head -c 65536 > "$out/seeds/fuzz_datcheck/head-$i"
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
# kallsyms: its format (address, type, name, [module]), odd lines among them
ks=$out/seeds/fuzz_ksyms
printf 'ffffffff81000000 T _stext\nffffffff81000010 t start_kernel\nffffffff81000100 T do_idle\nffffffffc0000000 t tlat_timer_fn\t[tlat]\nffffffffc0000040 d tlat_params\t[tlat]\n' > "$ks/lines"
printf '0000000000000000 T _text\n0000000000000000 A fixed_percpu_data\n' > "$ks/hidden"
printf 'ffffffff81000000 T\nzz T x\nffffffff81000000\n ffffffff81000000 T sp\n' > "$ks/odd"
# settings files: the buffer size byte, then the value (CPU lists, as osnoise/cpus)
kn=$out/seeds/fuzz_knobs
for v in '0-3' '0,2,4-7' '1000' 'Y' '0-8191' '' '3-1' '4,,5'; do
	printf '\377%s\n' "$v" > "$kn/v-$(printf %s "$v" | od -An -tx1 | tr -d ' \n')"
done
printf '\004%s\n' '0-3,5' > "$kn/short"
# tlat compare: the golden documents of up to 8 KiB (larger ones run at a
# tenth of the speed, and add nothing but more CPUs), and pairs (A NUL B)
cm=$out/seeds/fuzz_compare
rm -f "$cm"/*
for f in tests/golden/expected/*.json-*; do
	if [ "$(stat -c %s "$f")" -le 8192 ]; then cp "$f" "$cm/$(basename "$f")"; fi
done
g=tests/golden/expected
{ cat "$g/timerlat-6.1.json-hist"; printf '\000'; cat "$g/timerlat-6.1.json-top"; } > "$cm/pair-tlat"
{ cat "$g/timerlat-6.1.json-rt-tests"; printf '\000'; cat "$g/tracepoints-host.json-rt-tests"; } \
	> "$cm/pair-rt-tests"
printf '{"file_version":1,"cmdline:":"cyclictest -i 200 -h 100","resolution_in_ns":0,"thread":{"0":{"cpu":0,"cycles":10,"max":12,"histogram":{"3":5,"7":4}},"1":{"cpu":1,"cycles":3,"max":2,"histogram":{"1":3}}}}' > "$cm/cyclictest"
