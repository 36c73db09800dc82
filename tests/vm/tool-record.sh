# SPDX-License-Identifier: GPL-2.0
#
# In-VM tests of tlat record and tlat report, sourced by run-tests.sh after
# the other tool tests (uses check, ok, not_ok, diag, $T, $NCPU from there).
# tlat report must count, per CPU and context, exactly the samples that
# trace-cmd report shows in trace-cmd's own recordings of the timerlat
# tracer and of tlat.ko's events; and replaying tlat record's recording of a
# threshold stop must print what the live run printed, the auto-analysis
# included. The stops use -c 1: with one measured CPU no other CPU's
# samples can be read before or after the stop in a different order.

REC=/tmp/rec
mkdir -p $REC

if ! command -v trace-cmd > /dev/null; then
	not_ok "record: trace-cmd is missing from the initramfs"
	return 0
fi
if ! tlat record --help > /dev/null 2>&1; then
	not_ok "record: this tlat has no record command"
	return 0
fi

rec_show() { while read -r l; do diag "$1: $l"; done < "$2"; }

# same_but_duration A B: the same output, but for the duration in top's header
same_but_duration() {
	sed '2s/^ *[0-9]* [0-9:]* //' "$1" > $REC/a.cmp
	sed '2s/^ *[0-9]* [0-9:]* //' "$2" > $REC/b.cmp
	cmp -s $REC/a.cmp $REC/b.cmp && return 0
	diff $REC/a.cmp $REC/b.cmp | while read -r l; do diag "$l"; done
	return 1
}

# tc_counts FILE SYSTEM/EVENT: "cpu context count" of the samples trace-cmd shows
tc_counts() {
	c=0
	while [ $c -lt "$NCPU" ]; do
		for x in 0:irq 1:thread 2:user; do
			n=$(trace-cmd report --cpu $c -F "$2: context == ${x%%:*}" "$1" 2> /dev/null |
			    grep -c " ${2#*/}: ")
			[ "$n" -gt 0 ] && echo "$c ${x#*:} $n"
		done
		c=$((c + 1))
	done
}

# log_counts SAMPLE_LOG: the same, from tlat's --sample-log
log_counts() { awk '{ n[$1 " " $3]++ } END { for (k in n) print k, n[k] }' "$1" | sort; }

# counts_equal FILE SYSTEM/EVENT SAMPLE_LOG
counts_equal() {
	tc_counts "$1" "$2" | sort > $REC/tc.counts
	log_counts "$3" > $REC/tlat.counts
	rec_show "trace-cmd" $REC/tc.counts
	rec_show "tlat report" $REC/tlat.counts
	[ -s $REC/tc.counts ] && cmp -s $REC/tc.counts $REC/tlat.counts
}

# tc_record FILE ARGS...: trace-cmd record ARGS while sleep 5 runs
tc_record() {
	f=$1
	shift
	trace-cmd record -o "$f" "$@" sleep 5 > $REC/tc-record.log 2>&1
	tc_rc=$?
	[ $tc_rc = 0 ] || rec_show "trace-cmd record" $REC/tc-record.log
}

# tc_report FILE SOURCE SYSTEM/EVENT OUT: tlat report of trace-cmd's recording
# FILE finds SOURCE's samples, the very ones trace-cmd shows (log in OUT.samples)
tc_report() {
	tlat report -D "$1" --sample-log "$4.samples" > "$4" 2>&1
	rc=$?
	rec_show "tlat report" "$4"
	check "tlat report of trace-cmd's $2 recording exits 0" test $rc = 0
	check "tlat report: it is the $2 source's" grep -q "of the $2 source" "$4"
	check "tlat report: per CPU and context, the samples trace-cmd report shows" \
		counts_equal "$1" "$3" "$4.samples"
}

# ---- trace-cmd's recording of the timerlat tracer ----------------------------------
# max_us SAMPLE_LOG: the highest thread or user-return latency, in us
max_us() { awk '$3 != "irq" && $4 > m { m = $4 } END { printf "%.0f\n", int(m / 1000) }' "$1"; }

if grep -qw timerlat $T/available_tracers; then
	# with the osnoise events, for the auto-analysis
	tc_record $REC/tc-timerlat.dat -p timerlat -e osnoise
	check "trace-cmd record -p timerlat -e osnoise exits 0" test $tc_rc = 0
	tc_report $REC/tc-timerlat.dat timerlat ftrace/timerlat $REC/tl.out
	check "tlat report: kernel threads, so no user-return columns" \
		sh -c "grep -q '^ALL #' $REC/tl.out && ! grep -q 'Ret user' $REC/tl.out"
	check "trace-cmd left the top-level tracer as it was" test "$(cat $T/current_tracer)" = nop
	# a threshold at the recording's highest latency: that sample stops it
	thr=$(max_us $REC/tl.out.samples)
	tlat report -T "$thr" $REC/tc-timerlat.dat > $REC/tl-aa.out 2>&1
	rc=$?
	rec_show "tlat report -T $thr" $REC/tl-aa.out
	check "tlat report -T $thr of trace-cmd's timerlat recording: a stop, analysed (exit $rc)" \
		sh -c "[ $rc = 2 ] && grep -q '^## CPU [0-9]* hit stop tracing, analyzing it ##' $REC/tl-aa.out &&
		       grep -q 'Thread latency:' $REC/tl-aa.out"
else
	not_ok "record: this kernel has no timerlat tracer"
fi

# ---- trace-cmd's recording of tlat.ko's events -----------------------------------------
# loaded, the module measures at once with its kernel threads (kernel/README)
if modprobe tlat; then
	tc_record $REC/tc-module.dat -e tlat
	rmmod tlat
	check "trace-cmd record -e tlat exits 0" test $tc_rc = 0
	tc_report $REC/tc-module.dat module tlat/tlat_sample $REC/mod.out
	# without irq and sched events there is nothing to analyse a stop with
	tlat report -T 1 $REC/tc-module.dat > $REC/mod-aa.out 2> $REC/mod-aa.err
	rc=$?
	rec_show "tlat report -T 1" $REC/mod-aa.err
	check "tlat report -T 1 without the analysis's events: one line, exit 1 (exit $rc)" \
		sh -c "[ $rc = 1 ] && [ \$(wc -l < $REC/mod-aa.err) = 1 ] && grep -q -- --no-aa $REC/mod-aa.err"
	tlat report -T 1 --no-aa $REC/tc-module.dat > $REC/mod-aa.out 2>&1
	rc=$?
	check "tlat report -T 1 --no-aa: the stop without analysis (exit $rc)" \
		sh -c "[ $rc = 2 ] && grep -q '^timerlat hit stop tracing' $REC/mod-aa.out"
else
	not_ok "record: modprobe tlat"
fi

# ---- tlat record: round trip, and trace-cmd reads it ----------------------------------
tlat record -o $REC/rt.dat -d 3 -q --source module --sample-log $REC/rt-live.samples \
	> $REC/rt-live.out 2>&1
rc=$?
rec_show "tlat record" $REC/rt-live.out
tlat report $REC/rt.dat --sample-log $REC/rt-rep.samples > $REC/rt-rep.out 2>&1
rc2=$?
check "tlat record --source module (exit $rc), report (exit $rc2): the same summary" \
	same_but_duration $REC/rt-live.out $REC/rt-rep.out
# each CPU's samples in the same order; live, CPUs interleave by read passes
sort -s -n -k1,1 $REC/rt-live.samples > $REC/rt-live.sorted
sort -s -n -k1,1 $REC/rt-rep.samples > $REC/rt-rep.sorted
check "tlat record --source module, report: the same samples, each CPU's in order" \
	cmp -s $REC/rt-live.sorted $REC/rt-rep.sorted
# the file also has the samples of the moments before and after the measured
# window (at most a poll of 250 ms after it): tlat report leaves those out
counts_cover() {
	tc_counts "$1" "$2" | sort > $REC/tc.counts
	log_counts "$3" > $REC/tlat.counts
	[ "$(wc -l < $REC/tc.counts)" = "$(wc -l < $REC/tlat.counts)" ] || return 1
	paste $REC/tc.counts $REC/tlat.counts | while read -r c1 x1 n1 c2 x2 n2; do
		diag "cpu $c1 $x1: trace-cmd $n1, tlat $n2"
		[ "$c1 $x1" = "$c2 $x2" ] && [ "$n1" -ge "$n2" ] && [ "$n1" -le $((n2 + 500)) ] ||
			exit 1
	done
}
check "trace-cmd report: tlat record's file, every sample tlat counted" \
	counts_cover $REC/rt.dat tlat/tlat_sample $REC/rt-live.samples

# ---- a threshold stop: the same summary and auto-analysis, live and replayed -------------
# rec_stop SOURCE [tlat options]: a hog spins 10 ms every 200 ms on CPU 1
rec_stop() {
	src=$1
	shift
	label=$(echo "$src" "$@")
	/tests/tlat-hog -c 1 -s 10000 -l $REC/hog.log &
	hog=$!
	sleep 1
	tlat record -o $REC/stop.dat -c 1 -T 6000 -s 6000 -d 60 -q --warm-up 2 --source "$src" \
		"$@" > $REC/stop-live.out 2>&1
	rc=$?
	kill $hog
	wait $hog
	tlat report $REC/stop.dat > $REC/stop-rep.out 2>&1
	rc2=$?
	rec_show "live" $REC/stop-live.out
	check "$label: record stops (exit $rc), report replays the stop (exit $rc2)" \
		sh -c "[ $rc = 2 ] && [ $rc2 = 2 ] && grep -q 'analyzing it' $REC/stop-rep.out"
	check "$label: report prints what the live run printed, auto-analysis included" \
		same_but_duration $REC/stop-live.out $REC/stop-rep.out
}

if [ ! -x /tests/tlat-hog ]; then
	not_ok "record: /tests/tlat-hog is missing from the initramfs"
else
	if grep -qw timerlat $T/available_tracers; then
		rec_stop timerlat -k
		[ -f $T/osnoise/per_cpu/cpu0/timerlat_fd ] && rec_stop timerlat -u
	fi
	rec_stop module
fi
rm -rf $REC
