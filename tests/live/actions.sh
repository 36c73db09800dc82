# SPDX-License-Identifier: GPL-2.0
# actions.sh - live tests of --on-threshold and --on-end, sourced by run.sh
# (uses check, show, bad_input, same_as_before, $TLAT, $WORK). On this host
# the tracepoint source runs: tlat's own check of each sample stops tracing.
# -c 1 -T 1 hits at once; for "continue", tlat-hog on CPU 1 spins 3 ms once a
# second, so that a 1 ms threshold is hit about once a second.

ACT_HOG=tests/tools/tlat-hog

# act_run NAME TLAT-ARGS...: run tlat in $WORK (where a bare "trace" saves);
# output in $WORK/NAME.out, exit status in $rc
act_run() {
	local name=$1
	shift
	(cd "$WORK" && "$TLAT" "$@" > "$WORK/$name.out" 2>&1)
	rc=$?
}

# line_of FILE REGEX: the number of the first line matching
line_of() {
	grep -n -m1 -E -- "$2" "$1" | cut -d: -f1
}

# in_order FILE REGEX...: each regex matches, each on a later line than the one before
in_order() {
	local file=$1 prev=0 n
	shift
	for re in "$@"; do
		n=$(line_of "$file" "$re")
		[ -n "$n" ] && [ "$n" -gt "$prev" ] || return 1
		prev=$n
	done
}

# --- trace: every trace action saves, in order, before the final statistics ----
act_run trace top -c 1 -T 1 -d 10 -q --on-threshold trace \
	--on-threshold "trace,file=$WORK/second.txt"
check "trace: exit 2; 'Saving trace to' for each action, in order, before the summary" \
	bash -c "[ $rc = 2 ] && grep -c '^  Saving trace to ' $WORK/trace.out | grep -qx 2" &&
	in_order "$WORK/trace.out" '^  Saving trace to timerlat_trace.txt$' \
		"^  Saving trace to $WORK/second.txt\$" '^ALL #' '^timerlat hit stop tracing$' ||
	show "$WORK/trace.out"
check "trace: both files hold the trace" \
	bash -c "for f in $WORK/timerlat_trace.txt $WORK/second.txt; do
			head -1 \$f | grep -qx '# tracer: tracepoints' &&
			grep -q ' sched_switch: ' \$f || exit 1; done"
# the timers' %ps fields print as names: the symbols are loaded for the save
check "trace: the timers' functions are named (hrtimer_wakeup), not addresses" \
	grep -q ' hrtimer_expire_entry: hrtimer=0x[0-9a-f]* function=hrtimer_wakeup ' \
	"$WORK/timerlat_trace.txt"

# -t is a trace action too: rtla adds it after every --on-threshold action
rm -f "$WORK/t.txt"
act_run t top -c 1 -T 1 -d 10 -q -t "$WORK/t.txt" \
	--on-threshold "shell,command=echo first"
check "-t: its trace is saved after the --on-threshold actions" \
	bash -c "[ $rc = 2 ] && [ -s $WORK/t.txt ]" &&
	in_order "$WORK/t.out" '^first$' "^  Saving trace to $WORK/t.txt\$" || show "$WORK/t.out"

# --on-end trace saves without any threshold (rtla's "top with trace output at end")
rm -f "$WORK/timerlat_trace.txt"
act_run endtrace top -d 1 -q --on-end trace
check "--on-end trace: exit 0, the trace saved after the summary" \
	bash -c "[ $rc = 0 ] && [ -s $WORK/timerlat_trace.txt ]" &&
	in_order "$WORK/endtrace.out" '^ALL #' '^  Saving trace to timerlat_trace.txt$' ||
	show "$WORK/endtrace.out"

# --- signal: to a pid, and to tlat's parent --------------------------------------
bash -c "trap 'echo USR1 > $WORK/helper.got; exit 0' USR1; while :; do sleep 0.05; done" &
helper=$!
sleep 0.2
act_run sig top -c 1 -T 1 -d 10 -q --on-threshold "signal,num=10,pid=$helper"
sleep 0.3
check "signal,num=10,pid=PID: the helper process gets SIGUSR1" \
	bash -c "[ $rc = 2 ] && grep -qx USR1 $WORK/helper.got" || show "$WORK/sig.out"
kill $helper 2>/dev/null
wait $helper 2>/dev/null

bash -c "trap 'echo USR2 > $WORK/parent.got' USR2
	 $TLAT top -c 1 -d 1 -q --on-end signal,num=12,pid=parent > $WORK/parent.out 2>&1
	 echo \$? > $WORK/parent.rc"
check "signal,pid=parent (--on-end): tlat's parent gets SIGUSR2" \
	bash -c "grep -qx 0 $WORK/parent.rc && grep -qx USR2 $WORK/parent.got" ||
	show "$WORK/parent.out"

# --- shell: runs the command; a failing one ends the list -------------------------
act_run shell top -c 1 -T 1 -d 10 -q \
	--on-threshold "shell,command=printf '%s\n' hit,with,commas > $WORK/shell.txt"
check "shell: the command runs (commas included) and writes its file" \
	bash -c "[ $rc = 2 ] && grep -qx hit,with,commas $WORK/shell.txt" || show "$WORK/shell.out"

rm -f "$WORK/never"
act_run stopped hist -c 1 -T 1 -d 10 \
	--on-threshold "shell,command=echo -n 1; false" \
	--on-threshold "shell,command=touch $WORK/never" --on-threshold continue
check "shell: a failing command skips the rest, continue included (rtla's '1# RTLA')" \
	bash -c "[ $rc = 2 ] && [ ! -e $WORK/never ] && grep -qx '1# RTLA timerlat histogram' \
		 $WORK/stopped.out && grep -c '^timerlat hit stop tracing' $WORK/stopped.out |
		 grep -qx 1" || show "$WORK/stopped.out"

# --- continue: measuring goes on after each hit ---------------------------------
if [ ! -x $ACT_HOG ]; then
	not_ok "continue: $ACT_HOG is not built (make test-tools)"
else
	# the hog's 20 ms spins stand above the host's stalls (seen up to 11 ms),
	# which would also be hits, each costing up to a poll of measuring
	$ACT_HOG -c 1 -s 20000 -e 1000 -l "$WORK/act-hog.log" &
	act_hog=$!
	sleep 0.3
	t0=$(date +%s%N)
	act_run cont top -c 1 -T 15000 -d 6 -q --on-threshold \
		"shell,command=echo hit >> $WORK/hits.log" --on-threshold continue \
		--on-threshold "shell,command=touch $WORK/never"
	t1=$(date +%s%N)
	kill -TERM $act_hog 2>/dev/null
	wait $act_hog 2>/dev/null
	hits=$(grep -c '^timerlat hit stop tracing$' "$WORK/cont.out")
	count=$(awk '/^  1 #/ { print substr($2, 2) }' "$WORK/cont.out")
	# as rtla: a continue run that measured to its end passed
	check "continue: -d 6 runs its 6 s ($(((t1 - t0) / 1000000)) ms) and exits 0" \
		bash -c "[ $rc = 0 ] && [ $(((t1 - t0) / 1000000)) -ge 6000 ] &&
			 grep -q '^  1 #' $WORK/cont.out" || show "$WORK/cont.out"
	check "continue: it says 'threshold hit $hits times' at the end" \
		grep -qx "threshold hit $hits times\?" "$WORK/cont.out" || show "$WORK/cont.out"
	check "continue: several hits ($hits), each analysed, each ran the actions before it" \
		bash -c "[ $hits -ge 3 ] &&
			 [ \$(grep -c '^## CPU 1 hit stop tracing, analyzing it ##$' $WORK/cont.out) = $hits ] &&
			 [ \$(wc -l < $WORK/hits.log) = $hits ] && [ ! -e $WORK/never ]" ||
		show "$WORK/cont.out"
	# each hit loses at most a poll (250 ms) of the 6000 samples
	check "continue: the count goes on past the hits ($count samples, $hits hits)" \
		bash -c "[ -n '$count' ] && [ $count -ge $((6000 - 300 * hits)) ]"
	# (host noise, such as a compiler, may be behind some of them). Told
	# apart by their IRQ and thread latencies together: two of the hog's
	# hits had the same thread latency to the 10 ns (CI r20), as the hog's
	# period keeps its end at one phase of tlat's.
	check "continue: each hit has its own analysis, the hog's among them" \
		bash -c "[ \$(awk '/^  IRQ latency: / { irq = \$3 }
				    /^  Thread latency: / { print irq, \$3 }' $WORK/cont.out |
			       sort -u | wc -l) = $hits ] &&
			 [ \$(grep -c '^ *tlat-hog:$act_hog ' $WORK/cont.out) -ge 2 ]" ||
		show "$WORK/cont.out"
fi

# with a 1 us threshold every poll has a hit: still the whole -d, and counting
# (--report-hits: tlat's own, exit 2 when a continue run had hits)
act_run cont1 top -c 1 -T 1 -d 5 -q --on-threshold continue --no-aa --report-hits \
	--json "$WORK/cont1.json"
hits=$(grep -c '^timerlat hit stop tracing$' "$WORK/cont1.out")
count=$(awk '/^  1 #/ { print substr($2, 2) }' "$WORK/cont1.out")
check "continue, -T 1 -d 5, --report-hits: JSON threshold.hits = $hits, exit_status 2" \
	bash -c "[ \$(jq '.threshold.hits' $WORK/cont1.json) = $hits ] &&
		 [ \$(jq '.exit_status' $WORK/cont1.json) = 2 ]" || show "$WORK/cont1.out"
check "continue, -T 1 -d 5, --report-hits: exit 2, $hits hits, count $count grows past the first" \
	bash -c "[ $rc = 2 ] && [ $hits -ge 5 ] && [ -n '$count' ] && [ $count -ge $hits ] &&
		 grep -q '^  0 00:00:05 ' $WORK/cont1.out" || show "$WORK/cont1.out"

# --- --on-end: after the statistics at -d's end, Ctrl-C and SIGTERM ---------------
act_run end top -d 1 -q --on-end "shell,command=echo END" --on-end "shell,command=echo END2"
check "--on-end at -d's end: exit 0, after the summary, in order" \
	bash -c "[ $rc = 0 ]" && in_order "$WORK/end.out" '^ALL #' '^END$' '^END2$' ||
	show "$WORK/end.out"

act_run endhit top -c 1 -T 1 -d 10 -q --on-end "shell,command=echo END" \
	--on-threshold "shell,command=echo THRESHOLD"
check "--on-end after a threshold: after the summary, before 'hit stop tracing'" \
	bash -c "[ $rc = 2 ]" && in_order "$WORK/endhit.out" '^THRESHOLD$' '^ALL #' '^END$' \
		'^timerlat hit stop tracing$' || show "$WORK/endhit.out"

for sig in INT TERM; do
	"$TLAT" top -q --on-end "shell,command=echo END" > "$WORK/end$sig.out" 2>&1 &
	pid=$!
	sleep 2
	kill -$sig $pid
	wait $pid
	rc=$?
	check "--on-end after SIG$sig: exit 0, the action ran after the summary" \
		bash -c "[ $rc = 0 ]" && in_order "$WORK/end$sig.out" '^ALL #' '^END$' ||
		show "$WORK/end$sig.out"
done

# --- errors ---------------------------------------------------------------------
bad_input "unknown action" "$TLAT" top --on-threshold frob
bad_input "signal without pid" "$TLAT" top --on-threshold signal,num=10
bad_input "trace with a second argument" "$TLAT" hist --on-end trace,file=a,file=b
bad_input "shell without command" "$TLAT" top --on-end shell
bad_input "continue with an argument" "$TLAT" top --on-threshold continue,now

# an action that cannot do its job is an error: one line, exit 1, tracefs as it was
bash -c 'exit 0' &
dead=$!
wait $dead
act_run deadsig top -c 1 -T 1 -d 10 -q --on-threshold "signal,num=10,pid=$dead"
check "a signal that cannot be sent: exit 1 and one line ($(tail -1 "$WORK/deadsig.out"))" \
	bash -c "[ $rc = 1 ] && tail -1 $WORK/deadsig.out |
		 grep -qx 'tlat: cannot send signal 10 to $dead: No such process'" ||
	show "$WORK/deadsig.out"
act_run badtrace top -c 1 -d 1 -q --on-end trace,file=/nonexistent/dir/t.txt
check "a trace that cannot be written (--on-end): exit 1, one line after the summary" \
	bash -c "[ $rc = 1 ] && tail -1 $WORK/badtrace.out |
		 grep -q '^tlat: cannot save the trace to /nonexistent/dir/t.txt: '" ||
	show "$WORK/badtrace.out"
check "actions: every run left tracefs as it found it" same_as_before
