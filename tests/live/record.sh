# SPDX-License-Identifier: GPL-2.0
# record.sh - live tests of tlat record and tlat report, sourced by run.sh
# (uses check, show, same_as_before, bad_input, periods_ok, counts_match, $TLAT, $WORK).
# A recording replayed by tlat report must give the run's own output and
# its very samples; trace-cmd must read it as one of its own.

if ! command -v trace-cmd > /dev/null; then
	not_ok "record: trace-cmd is not installed (scripts/install-deps.sh)"
	return 0
fi

# same_output A B: the same text, but for the duration stamp of top's header
same_output() {
	diff -u <(sed '2s/^ *[0-9]* [0-9:]* //' "$1") <(sed '2s/^ *[0-9]* [0-9:]* //' "$2") |
		show
	[ "${PIPESTATUS[0]}" = 0 ]
}

# --- record and replay: tlat top's run, then its recording ---------------------
rm -f "$WORK"/rec.dat*
"$TLAT" record -o "$WORK/rec.dat" -d 5 -q --sample-log "$WORK/rec.samples" \
	> "$WORK/rec.out" 2> "$WORK/rec.err"
rc=$?
check "record -d 5 -q exits 0, nothing on stderr" bash -c "[ $rc = 0 ] && [ ! -s $WORK/rec.err ]" ||
	show "$WORK/rec.err"
check "record: measures as top does (every period of -d)" \
	periods_ok "$WORK/rec.samples" 5 1000 "$NCPU"
check "record: every CPU's COUNT is its logged samples" \
	counts_match "$WORK/rec.out" "$WORK/rec.samples" || show "$WORK/rec.out"
check "record: writes the trace.dat and leaves no per-CPU file behind" \
	bash -c "[ -s $WORK/rec.dat ] && ! ls $WORK/rec.dat.* 2> /dev/null"
check "record: tracefs is as it was" same_as_before

"$TLAT" report "$WORK/rec.dat" --sample-log "$WORK/rep.samples" > "$WORK/rep.out" 2>&1
rc=$?
check "report exits 0" [ $rc = 0 ]
check "report: the same summary as the recorded run's (every CPU, context, count/min/avg/max)" \
	same_output "$WORK/rec.out" "$WORK/rep.out"
# live, CPUs interleave as each 250 ms read found them; the report merges them
# by time: each CPU's samples come in the same order
by_cpu() { sort -s -n -k1,1 "$1"; }
check "report: the same samples, each CPU's in the same order ($(wc -l < "$WORK/rec.samples") lines)" \
	cmp <(by_cpu "$WORK/rec.samples") <(by_cpu "$WORK/rep.samples")
check "report: the same duration" bash -c "[ \"\$(sed -n 2p $WORK/rec.out | cut -c1-12)\" = \
	\"\$(sed -n 2p $WORK/rep.out | cut -c1-12)\" ]"
"$TLAT" report hist -b 10 "$WORK/rec.dat" > "$WORK/rep-hist.out" 2>&1
rc=$?
check "report hist of a top recording: a histogram (exit $rc)" \
	bash -c "[ $rc = 0 ] && grep -q '^# RTLA timerlat histogram\$' $WORK/rep-hist.out"
chmod a+rx "$WORK"
setpriv --reuid=65534 --regid=65534 --clear-groups "$TLAT" report "$WORK/rec.dat" \
	> "$WORK/rep-user.out" 2>&1
rc=$?
check "report needs no root (exit $rc)" bash -c "[ $rc = 0 ] && cmp -s $WORK/rep.out $WORK/rep-user.out"

# --- trace-cmd reads it as its own ----------------------------------------------
trace_cmd report "$WORK/rec.dat" > "$WORK/tc.out" 2> "$WORK/tc.err"
rc=$?
check "trace-cmd report reads it (exit $rc, nothing on stderr)" \
	bash -c "[ $rc = 0 ] && [ ! -s $WORK/tc.err ]" || show "$WORK/tc.err"
tc_has_events() {
	local e
	for e in hrtimer_start hrtimer_expire_entry sched_switch raw_data print; do
		grep -q " $e: " "$WORK/tc.out" || { echo "# no $e event"; return 1; }
	done
	grep -q 'tracing_mark_write: tlat-record: source=tracepoints ' "$WORK/tc.out"
}
check "trace-cmd report: the source's events, the markers and tlat record's line" tc_has_events
# every activation of the samples log is one thread marker (raw_data id "tlat")
tc_markers_ok() {
	local markers activations
	markers=$(grep -c ' raw_data: *# 746c6174 ' "$WORK/tc.out")
	activations=$(awk '$3 == "irq"' "$WORK/rec.samples" | wc -l)
	echo "# $markers markers, $activations activations in the samples log"
	[ "$markers" -ge "$activations" ] && [ "$activations" -gt 0 ]
}
check "trace-cmd report: a marker for every activation tlat counted" tc_markers_ok
check "trace-cmd report: the measuring threads' names from the cmdlines" \
	grep -q '^ *tlat/[0-9]*-[0-9]* ' "$WORK/tc.out"
trace_cmd dump --summary "$WORK/rec.dat" > "$WORK/tc-sum.out" 2>&1
check "trace-cmd dump: the mono clock and $NCPU CPUs" \
	grep -q "\"mono\" clock, .*, $NCPU cpus" "$WORK/tc-sum.out" || show "$WORK/tc-sum.out"
trace_cmd report --stat "$WORK/rec.dat" > "$WORK/tc-stat.out" 2>&1
check "trace-cmd report --stat: the instance's per-CPU buffer statistics" \
	bash -c "[ \$(grep -c '^read events: [1-9]' $WORK/tc-stat.out) = $NCPU ]"

# only the formats of the recording's event systems, as trace-cmd record writes
# those of the events it enables: not the kernel's every event (some 2,300),
# which every reader of the file would parse; ftrace's own are always there
trace_cmd dump --systems "$WORK/rec.dat" > "$WORK/tc-sys.out" 2>&1
# file_systems FILE: the systems whose formats trace-cmd dump --systems lists
file_systems() { awk '$3 == "[system," { print $1 }' "$1" | sort | tr '\n' ' '; }
# the source's, and those the auto-analysis may add (with a threshold; irq_vectors
# and nmi where the kernel has them, workqueue with --dump-tasks)
tc_systems_ok() {
	local sys

	echo "# the file's systems: $(file_systems "$WORK/tc-sys.out")"
	for sys in timer sched raw_syscalls; do
		file_systems "$WORK/tc-sys.out" | grep -qw "$sys" || return 1
	done
	for sys in $(file_systems "$WORK/tc-sys.out"); do
		echo " timer sched raw_syscalls irq irq_vectors nmi workqueue " | grep -q " $sys " ||
			return 1
	done
}
check "trace-cmd dump: the formats of the recording's systems only" tc_systems_ok
check "trace-cmd report: every record of the file has its format" \
	bash -c "! grep -qi -e 'unknown event' -e 'failed to parse' -e 'no event found' $WORK/tc.out"
# without a threshold the run enabled no auto-analysis event, and the file holds
# neither their records nor their formats: report -T says so, as of a recording
# of trace-cmd's
"$TLAT" report -T 50 "$WORK/rec.dat" > "$WORK/rep-t.out" 2> "$WORK/rep-t.err"
rc=$?
check "report -T of a recording without the analysis's events: one line, exit $rc" \
	bash -c "[ $rc = 1 ] && [ \$(wc -l < $WORK/rep-t.err) = 1 ] && [ ! -s $WORK/rep-t.out ] &&
		 grep -q 'record its events, or use --no-aa' $WORK/rep-t.err" || show "$WORK/rep-t.err"
# an -e event of a system of its own: its format is there, and trace-cmd prints it
# (a SIGCONT to a sleeping process every 100 ms for 4 s, each one a
# signal_generate, whenever the run's 2 s fall: children's SIGCHLDs alone
# are not sure to come in those 2 s)
sleep 30 &
target=$!
(for _ in $(seq 40); do kill -CONT $target; sleep 0.1; done) &
child=$!
"$TLAT" record -o "$WORK/ev.dat" -d 2 -q -e signal:signal_generate > "$WORK/rec-ev.out" 2>&1
rc=$?
wait $child
kill $target
wait $target 2> /dev/null
trace_cmd dump --systems "$WORK/ev.dat" > "$WORK/tc-ev-sys.out" 2>&1
trace_cmd report "$WORK/ev.dat" > "$WORK/tc-ev.out" 2>&1
check "record -e signal:signal_generate (exit $rc): its system's formats in the file, its events printed" \
	bash -c "[ $rc = 0 ] && grep -q '^[[:space:]]*signal [0-9]* \[system' $WORK/tc-ev-sys.out &&
		 grep -q ' signal_generate: *sig=' $WORK/tc-ev.out" ||
	show "$WORK/rec-ev.out" "$WORK/tc-ev-sys.out"

# --- hist, a threshold stop, Ctrl-C -----------------------------------------------
"$TLAT" record hist -o "$WORK/hist.dat" -d 3 > "$WORK/rec-hist.out" 2>&1
"$TLAT" report hist "$WORK/hist.dat" > "$WORK/rep-hist2.out" 2>&1
check "record hist / report hist: the same histogram" \
	same_output "$WORK/rec-hist.out" "$WORK/rep-hist2.out"
"$TLAT" report hist --plot "$WORK/rep-plot.svg" "$WORK/hist.dat" > "$WORK/rep-plot.out" 2>&1
rc=$?
check "report hist --plot: exit $rc, an SVG with a curve per CPU and context, as printed" \
	bash -c "[ $rc = 0 ] && python3 tests/tools/check-plot-svg.py $WORK/rep-plot.svg \
		 $WORK/rep-plot.out > /dev/null" ||
	python3 tests/tools/check-plot-svg.py "$WORK/rep-plot.svg" "$WORK/rep-plot.out" | show
# record is a measurement: its --json document is the run's
"$TLAT" record -o "$WORK/json.dat" -d 2 -q --json "$WORK/rec.json" > "$WORK/rec-json.out" 2>&1
rc=$?
check "record --json: exit $rc, a document valid against its schema, and the recording" \
	bash -c "[ $rc = 0 ] && [ -s $WORK/json.dat ] && tests/tools/validate-json.py \
		 docs/tlat-json.schema.json $WORK/rec.json > /dev/null" ||
	show "$WORK/rec-json.out"
# report --json gives the recorded run's document: the run's own command
# line, options, system and start, and the same numbers
"$TLAT" report --json "$WORK/rep.json" "$WORK/json.dat" > /dev/null 2> "$WORK/rep-json.err"
rc=$?
check "report --json: exit $rc, a document valid against its schema" \
	bash -c "[ $rc = 0 ] && tests/tools/validate-json.py docs/tlat-json.schema.json \
		 $WORK/rep.json > /dev/null" || show "$WORK/rep-json.err"
check "report --json: the recorded run's argv, options, system, start, source and numbers" \
	tests/tools/json-same.py "$WORK/rec.json" "$WORK/rep.json" argv options system \
	start_time source contexts cpus all threshold
"$TLAT" report --json - --json-format rt-tests "$WORK/json.dat" > "$WORK/rep-rt.json" 2>&1
rc=$?
check "report --json - --json-format rt-tests: exit $rc, cyclictest's shape, the run's command line" \
	bash -c "[ $rc = 0 ] && tests/tools/validate-json.py docs/tlat-rt-tests.schema.json \
		 $WORK/rep-rt.json > /dev/null && python3 tests/tools/check-rt-tests-json.py \
		 $WORK/rep-rt.json > /dev/null &&
		 grep -q '\"cmdline:\": \"$TLAT record -o $WORK/json.dat' $WORK/rep-rt.json" ||
	show "$WORK/rep-rt.json"

# a threshold every run crosses soon: the recording ends with the stop
"$TLAT" record -o "$WORK/stop.dat" -T 30 -d 10 -q --json "$WORK/rec-stop.json" \
	> "$WORK/rec-stop.out" 2>&1
rc=$?
"$TLAT" report "$WORK/stop.dat" > "$WORK/rep-stop.out" 2>&1
rc2=$?
check "record -T 30 stops (exit $rc), report replays the stop (exit $rc2)" \
	bash -c "[ $rc = 2 ] && [ $rc2 = 2 ]"
check "report: the same summary and auto-analysis as the stopped run" \
	same_output "$WORK/rec-stop.out" "$WORK/rep-stop.out"
"$TLAT" report --json "$WORK/rep-stop.json" "$WORK/stop.dat" > /dev/null 2>&1
check "report --json: the stopped run's threshold sample and auto-analysis, exit status 2" \
	tests/tools/json-same.py "$WORK/rec-stop.json" "$WORK/rep-stop.json" threshold \
	/auto_analysis/cpus exit_status end
# a stack in the analysis: the report parses the recording's kallsyms for
# its names only then (src/tracedat/dat_read.c), and prints them as the run did.
# On the CPUs where this kernel saves a stack at a timer IRQ from idle: the
# hosts' kernel saves almost none on CPU 1 (tests/tools/kstack-cpus.sh says
# why; CI r25 hit CPU 1 from idle, and no stack was there to print). If it
# saves none anywhere, the run is on all CPUs, and fails.
rec_stack_cpus=$(tests/tools/kstack-cpus.sh 2> "$WORK/kstack-rec.err")
check "record: the kernel's stacks at timer IRQs measured (CPUs with stacks: ${rec_stack_cpus:-none})" \
	test -n "$rec_stack_cpus" || show "$WORK/kstack-rec.err"
"$TLAT" record -o "$WORK/stack.dat" ${rec_stack_cpus:+-c "$rec_stack_cpus"} -T 30 -s 30 -d 10 -q \
	> "$WORK/rec-stack.out" 2>&1
rc=$?
"$TLAT" report "$WORK/stack.dat" > "$WORK/rep-stack.out" 2>&1
rc2=$?
check "record -T 30 -s 30 (exit $rc): report (exit $rc2) prints the stop's stack, functions' names" \
	bash -c "[ $rc = 2 ] && [ $rc2 = 2 ] &&
		 grep -A1 'Blocking thread stack trace' $WORK/rep-stack.out | tail -n 1 |
		 grep -Eq '^ +-> [A-Za-z_][A-Za-z0-9_.]*\$'" || show "$WORK/rep-stack.out"
check "report: the same stack and auto-analysis as the run's" \
	same_output "$WORK/rec-stack.out" "$WORK/rep-stack.out"
"$TLAT" report -T 0 "$WORK/stop.dat" > "$WORK/rep-nostop.out" 2>&1
rc=$?
check "report -T 0: no stop, every sample of the recording counts (exit $rc)" \
	bash -c "[ $rc = 0 ] && ! grep -q 'hit stop tracing' $WORK/rep-nostop.out"
"$TLAT" report -T 1000000 --no-aa "$WORK/stop.dat" > "$WORK/rep-noaa.out" 2>&1
check "report --no-aa: no analysis" bash -c "! grep -q 'analyzing it' $WORK/rep-noaa.out"

"$TLAT" record -o "$WORK/int.dat" -q > "$WORK/rec-int.out" 2>&1 &
pid=$!
sleep 3
kill -INT $pid
wait $pid
rc=$?
"$TLAT" report "$WORK/int.dat" > "$WORK/rep-int.out" 2>&1
check "record: Ctrl-C writes the recording (exit $rc), report gives the same summary" \
	bash -c "[ $rc = 0 ] && [ -s $WORK/int.dat ]" && same_output "$WORK/rec-int.out" "$WORK/rep-int.out"
check "record runs leave tracefs as they found it" same_as_before

# --- help and man pages ---------------------------------------------------------------
for cmd in record "record hist" report "report hist"; do
	"$TLAT" $cmd --help > "$WORK/help.out" 2>&1
	rc=$?
	check "$cmd --help exits 0 and names its file option" bash -c "[ $rc = 0 ] &&
		grep -q -e '-o/--output file' -e 'file: the trace.dat to read' $WORK/help.out"
done
for page in man/tlat-record.8 man/tlat-report.8; do
	check "$page renders with man -l" bash -c "MANWIDTH=80 man -l $page 2>&1 >/dev/null |
		(! grep -q .) && [ \$(MANWIDTH=80 man -l $page | wc -l) -gt 20 ]"
done

# --- bad input --------------------------------------------------------------------
bad_input "report: no such file" "$TLAT" report "$WORK/nosuch.dat"
bad_input "report: not a trace.dat" "$TLAT" report "$WORK/rec.samples"
bad_input "report: two files" "$TLAT" report "$WORK/rec.dat" "$WORK/rec.dat"
bad_input "report: a measuring option" "$TLAT" report -p 100 "$WORK/rec.dat"
bad_input "record: a directory that does not exist" "$TLAT" record -o "$WORK/no/such.dat" -d 1
bad_input "record: an unknown option" "$TLAT" record --frobnicate
check "record: a failed record leaves no file" bash -c "! ls $WORK/no 2> /dev/null"
# a trace.dat without samples of any source: the first two records of one
# (trace-cmd record cannot run on this host: it may not enable ftrace)
trace_cmd split -i "$WORK/rec.dat" -o "$WORK/part.dat" -e 2 > /dev/null 2>&1
bad_input "report: a trace.dat without samples" "$TLAT" report "$WORK/part.dat.1"
