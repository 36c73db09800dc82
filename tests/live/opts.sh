# SPDX-License-Identifier: GPL-2.0
# opts.sh - live tests of -e/--filter/--trigger, --deepest-idle-state,
# -A/--aligned and --readers, sourced by run.sh (uses check, ok, not_ok, show,
# same_as_before, $TLAT, $WORK, $TRACEFS).

# opts_refused DESC NEEDLE CMD...: exit 1, one line on stderr that mentions
# NEEDLE, nothing on stdout, tracefs as it was
opts_refused() {
	local desc=$1 needle=$2
	shift 2
	"$@" > "$WORK/opts.out" 2> "$WORK/opts.err"
	local rc=$?
	if [ $rc = 1 ] && [ "$(wc -l < "$WORK/opts.err")" = 1 ] && [ ! -s "$WORK/opts.out" ] &&
	   grep -qF -- "$needle" "$WORK/opts.err" && same_as_before; then
		ok "refused: $desc: $(cat "$WORK/opts.err")"
	else
		not_ok "refused: $desc (exit $rc, wanted one line with '$needle')"
		show "$WORK/opts.out" "$WORK/opts.err"
	fi
}

# for check: the condition must fail
opts_not() {
	! "$@"
}

# the prio of every sched_wakeup record of a saved trace, one per line
wakeup_prios() {
	sed -n 's/.*: sched_wakeup: .* prio=\([0-9]*\) .*/\1/p' "$1"
}

# has_wakeups TRACE [MIN_PRIO]: some wakeups (of at least MIN_PRIO) in the trace
has_wakeups() {
	[ "$(wakeup_prios "$1" | awk -v min="${2:-0}" '$1 >= min' | wc -l)" -gt 0 ]
}

# --- -e with --filter: its records are in the trace that -t saves ------------------
# The warm-up puts tlat's own main thread (prio 120) in the trace too, so that
# the filter has something to drop; the stop is armed after it.
"$TLAT" top -q -d 10 --warm-up 1 -T 1 -t "$WORK/ev-nofilter.txt" -e sched:sched_wakeup \
	> "$WORK/ev.out" 2>&1
rc=$?
check "-e sched:sched_wakeup -T 1 -t: stops with exit status 2" [ $rc = 2 ] || show "$WORK/ev.out"
check "-e sched:sched_wakeup: the saved trace has wakeups of prio >= 100 (control)" \
	has_wakeups "$WORK/ev-nofilter.txt" 100

"$TLAT" top -q -d 10 --warm-up 1 -T 1 -t "$WORK/ev.txt" \
	-e sched:sched_wakeup --filter 'prio<100' > "$WORK/ev.out" 2>&1
rc=$?
check "-e sched:sched_wakeup --filter 'prio<100' -T 1 -t: exit status 2" [ $rc = 2 ] ||
	show "$WORK/ev.out"
check "--filter: the saved trace has sched_wakeup records" has_wakeups "$WORK/ev.txt"
check "--filter: every one of them has prio < 100" opts_not has_wakeups "$WORK/ev.txt" 100
check "--filter: the measurement goes on as without it (stop message, ALL line)" \
	grep -q '^timerlat hit stop tracing$' "$WORK/ev.out"
check "--filter: ... and the ALL line" grep -q '^ALL #' "$WORK/ev.out"
check "-e --filter: tracefs as it was" same_as_before

# a trigger the kernel has everywhere: a stack after each filtered wakeup
"$TLAT" top -q -d 10 -T 1 -t "$WORK/trig.txt" -e sched:sched_wakeup --filter 'prio<100' \
	--trigger 'stacktrace if prio<100' > "$WORK/trig.out" 2>&1
rc=$?
check "--trigger 'stacktrace if prio<100': exit status 2" [ $rc = 2 ] || show "$WORK/trig.out"
check "--trigger: the saved trace has the kernel stacks of the wakeups" \
	grep -q '=> try_to_wake_up' "$WORK/trig.txt"
check "--trigger: the trigger is removed and the instance with it (tracefs as it was)" \
	same_as_before

# a traceoff trigger stops tlat's instance as a threshold does (tlat(8), TRACE EVENTS)
"$TLAT" top -q -d 10 -e sched:sched_wakeup --trigger 'traceoff if prio<100' \
	> "$WORK/trig.out" 2>&1
rc=$?
check "--trigger 'traceoff if prio<100': the run stops with exit status 2" [ $rc = 2 ] ||
	show "$WORK/trig.out"
check "--trigger traceoff: 'timerlat hit stop tracing'" \
	grep -q '^timerlat hit stop tracing$' "$WORK/trig.out"

# hist: triggers need CONFIG_HIST_TRIGGERS; the trigger file lists what the kernel has
if grep -q '^# .*\bhist\b' $TRACEFS/events/sched/sched_wakeup/trigger; then
	(cd "$WORK" && "$TLAT" top -q -d 2 -e sched:sched_wakeup \
		--trigger 'hist:keys=common_pid' > "$WORK/hist.out" 2>&1)
	rc=$?
	check "--trigger hist:keys=common_pid: exit 0" [ $rc = 0 ] || show "$WORK/hist.out"
	check "--trigger hist: '  Saving event sched:sched_wakeup hist to sched_sched_wakeup_hist.txt'" \
		grep -qx '  Saving event sched:sched_wakeup hist to sched_sched_wakeup_hist.txt' \
		"$WORK/hist.out"
	check "--trigger hist: the file holds the kernel's histogram by common_pid" \
		grep -q '^{ common_pid: ' "$WORK/sched_sched_wakeup_hist.txt"
	check "--trigger hist: tracefs as it was" same_as_before
else
	echo "# this kernel has no hist triggers (no CONFIG_HIST_TRIGGERS): tlat must refuse them;"
	echo "# the saved hist file is tested in the VM suite (tests/vm/tool-tests.sh)"
	opts_refused "--trigger hist: on a kernel without hist triggers" "has no hist trigger" \
		"$TLAT" top -q -d 1 -e sched:sched_wakeup --trigger 'hist:keys=common_pid'
fi

opts_refused "-e of an unknown event" "unknown event sched:no_such_event" \
	"$TLAT" top -q -d 1 -e sched:no_such_event
opts_refused "-e of an unknown system" "unknown event no_such_system" \
	"$TLAT" hist -d 1 -e no_such_system
opts_refused "--filter with no -e before it" "no previous -e" \
	"$TLAT" top -q -d 1 --filter 'prio<100' -e sched:sched_wakeup
opts_refused "--filter on a whole system" "not to all sched events" \
	"$TLAT" top -q -d 1 -e sched --filter 'prio<100'
opts_refused "--filter the kernel rejects (its error_log's reason)" "Invalid value" \
	"$TLAT" top -q -d 1 -e sched:sched_wakeup --filter 'prio<<100'
opts_refused "--filter on an event the source reads" "tlat reads that event itself" \
	"$TLAT" top -q -d 1 -e sched:sched_switch --filter 'prev_prio<100'
opts_refused "--trigger the kernel rejects" "--trigger" \
	"$TLAT" top -q -d 1 -e sched:sched_wakeup --trigger 'stacktrace if prio<<1'
opts_refused "a trigger command the kernel does not have" "has no frobnicate trigger" \
	"$TLAT" top -q -d 1 -e sched:sched_wakeup --trigger 'frobnicate'
# a later -e fails after an earlier one was set: that one is taken back too
opts_refused "a second -e fails after the first was set" "Invalid value" \
	"$TLAT" top -q -d 1 -e sched:sched_wakeup --filter 'prio<100' --trigger traceoff \
	-e sched:sched_waking --filter 'prio<<1'

# --- --deepest-idle-state: states deeper than N off on the measured CPUs ------------
# "cpuN/stateM=disable" for every state of every CPU
idle_states() {
	local f
	for f in /sys/devices/system/cpu/cpu[0-9]*/cpuidle/state[0-9]*/disable; do
		[ -e "$f" ] || continue
		echo "$(echo "$f" | sed 's|.*/\(cpu[0-9]*\)/cpuidle/\(state[0-9]*\)/disable|\1/\2|')=$(cat "$f")"
	done
}
IDLE_BEFORE=$WORK/idle.before
idle_states > "$IDLE_BEFORE"
idle_same() {
	idle_states | diff -u "$IDLE_BEFORE" - > "$WORK/idle.diff" || { show "$WORK/idle.diff"; return 1; }
}
# idle_during SECONDS: the states SECONDS into a run started in the background
idle_during() {
	sleep "$1"
	idle_states > "$WORK/idle.during"
}
# every state of CPU $1 deeper than $2 is disabled in idle.during, the others as before
idle_limited() {
	awk -F'[/=]' -v cpu="cpu$1" -v deepest="$2" '
		NR == FNR { before[$1 "/" $2] = $3; next }
		{ s = substr($2, 6) + 0
		  want = ($1 == cpu && s > deepest) ? 1 : before[$1 "/" $2]
		  if ($3 != want) { print "# " $1 "/" $2 " disable=" $3 ", want " want; bad = 1 } }
		END { exit bad }' "$IDLE_BEFORE" "$WORK/idle.during"
}

if grep -q '=0$' "$IDLE_BEFORE"; then
	echo "# cpuidle states here: $(tr '\n' ' ' < "$IDLE_BEFORE")"
	"$TLAT" top -q -d 3 -c 1 --deepest-idle-state 0 > "$WORK/idle.out" 2>&1 &
	pid=$!
	idle_during 1.5
	wait $pid
	rc=$?
	check "--deepest-idle-state 0 -c 1: exit 0" [ $rc = 0 ] || show "$WORK/idle.out"
	check "--deepest-idle-state 0 -c 1: during the run CPU 1's states > 0 are disabled, CPU 0's untouched" \
		idle_limited 1 0
	check "--deepest-idle-state 0: restored after -d" idle_same

	for sig in INT TERM; do
		"$TLAT" hist -c 1 --deepest-idle-state -1 > "$WORK/idle.out" 2>&1 &
		pid=$!
		idle_during 1.5
		kill -$sig $pid
		wait $pid
		rc=$?
		check "--deepest-idle-state -1 -c 1: during the run every state of CPU 1 is disabled" \
			idle_limited 1 -1
		check "--deepest-idle-state -1: SIG$sig exits 0" [ $rc = 0 ]
		check "--deepest-idle-state -1: SIG$sig restores the states" idle_same
	done

	# the run fails after the states were changed: they are restored too
	opts_refused "--deepest-idle-state with a bad -e (an error after the change)" "unknown event" \
		"$TLAT" top -q -d 1 --deepest-idle-state 0 -e sched:no_such_event
	check "--deepest-idle-state: restored after an error" idle_same

	# a state someone else disabled stays disabled
	other=$(sed -n 's|^cpu1/state\([1-9][0-9]*\)=0$|\1|p' "$IDLE_BEFORE" | head -1)
	if [ -n "$other" ]; then
		echo 1 > /sys/devices/system/cpu/cpu1/cpuidle/state$other/disable
		"$TLAT" top -q -d 1 -c 1 --deepest-idle-state 0 > "$WORK/idle.out" 2>&1
		check "--deepest-idle-state: a state disabled before the run (cpu1/state$other) stays disabled" \
			[ "$(cat /sys/devices/system/cpu/cpu1/cpuidle/state$other/disable)" = 1 ]
		echo 0 > /sys/devices/system/cpu/cpu1/cpuidle/state$other/disable
	fi
	check "--deepest-idle-state: every state as it was at the start" idle_same
else
	echo "# no enabled cpuidle states on this machine: --deepest-idle-state has nothing to do"
	"$TLAT" top -q -d 1 --deepest-idle-state -1 -D > "$WORK/idle.out" 2> "$WORK/idle.err"
	rc=$?
	check "--deepest-idle-state without cpuidle states: a no-op, exit 0" [ $rc = 0 ]
	check "--deepest-idle-state without cpuidle states: -D says so" \
		grep -q 'no cpuidle states\|idle state' "$WORK/idle.err"
fi

# --- -A/--aligned: the thread of the k-th measured CPU wakes at base + k * us ------
# The thread sample's time minus its latency is the expiry the thread asked for,
# to the nanosecond: its phase in the period must be one per CPU, as -A says.
phases() {
	awk '$3 == "thread" { ph[$1] = ($5 - $4) % 1000000; if (($1, ph[$1]) in seen) next;
			      seen[$1, ph[$1]] = 1; n[$1]++; last[$1] = ph[$1] }
	     END { for (c in n) print c, n[c], last[c] }' "$1" | sort -n
}
# aligned_ok LOG STEP_NS: one phase per CPU, CPU k's = CPU 0's + k * STEP (mod period)
aligned_ok() {
	phases "$1" | awk -v step="$2" '
		{ print "# cpu " $1 ": " $2 " phase(s), " $3 " ns"; if ($2 != 1) bad = 1
		  if (NR == 1) base = $3
		  else if (($3 - base - ($1 * step) % 1000000 + 2000000) % 1000000 != 0) bad = 1 }
		END { exit !(NR >= 2 && !bad) }'
}
"$TLAT" top -q -d 2 -A 0 --sample-log "$WORK/a0.log" > "$WORK/a.out" 2>&1
check "-A 0: exit 0" [ $? = 0 ] || show "$WORK/a.out"
check "-A 0: every CPU's expiries fall on one grid" aligned_ok "$WORK/a0.log" 0
"$TLAT" hist -d 2 --aligned 200 --sample-log "$WORK/a200.log" > "$WORK/a.out" 2>&1
check "--aligned 200: exit 0" [ $? = 0 ] || show "$WORK/a.out"
check "--aligned 200: CPU k's expiries are k * 200 us after CPU 0's" aligned_ok "$WORK/a200.log" 200000
"$TLAT" top -q -d 2 --sample-log "$WORK/anone.log" > "$WORK/a.out" 2>&1
check "without -A, each thread keeps its own phase (control)" \
	opts_not aligned_ok "$WORK/anone.log" 0
check "-A: tracefs as it was" same_as_before

# --- --readers: how the trace collector reads the buffers -----------------------
# This host's source is the tracepoint source, which pairs each activation's
# events across CPUs: its read stays merged whatever --readers asks, and -D
# says why. The per-CPU read itself runs with the kernel sources (timerlat,
# module), in the VM suite (tests/vm/tool-readers.sh) and the unit tests
# (test_percpu: the same statistics, the threshold cut, the deadlines).
# readers_counts OUT: "cpu count" of each CPU's row of top's output
readers_counts() {
	awk '/^ *[0-9]+ #[0-9]+/ { print $1, substr($2, 2) }' "$1"
}
# readers_within_2pct A B: each CPU's count in A within 2% of B's
readers_within_2pct() {
	join <(readers_counts "$1") <(readers_counts "$2") |
		awk '{ n++; printf "# cpu %s: %s against %s\n", $1, $2, $3
		       if (!($2 > 0 && $3 > 0 && ($2 > $3 ? $2 - $3 : $3 - $2) <= 0.02 * $3)) bad = 1 }
		     END { exit !(n > 0 && !bad) }'
}
# readers_whole LOG: every activation of the sample log has its three samples, in order
readers_whole() {
	awk '{ k = $1 " " $2; lat[k, $3] = $4; keys[k] = 1 }
		END { for (k in keys) { n++
			if (!((k, "irq") in lat) || !((k, "thread") in lat) || !((k, "user") in lat) ||
			    lat[k, "irq"] > lat[k, "thread"] || lat[k, "thread"] > lat[k, "user"])
				if (++bad <= 5) print "# activation " k " incomplete or out of order" }
		      print "# " n " activations checked"; exit !(n > 0 && !bad) }' "$1"
}
"$TLAT" top -q -d 5 --readers 2 -D --sample-log "$WORK/rd.log" > "$WORK/rd.out" 2> "$WORK/rd.err"
rc=$?
check "--readers 2: exit 0, -D says the tracepoint source's read stays merged, and why" \
	bash -c "[ $rc = 0 ] && grep -qx 'tlat: trace buffers read merged, because the source pairs events across CPUs' $WORK/rd.err" ||
	show "$WORK/rd.err"
check "--readers 2: every activation whole in --sample-log" readers_whole "$WORK/rd.log"
"$TLAT" top -q -d 5 --readers merged -D > "$WORK/rm.out" 2> "$WORK/rm.err"
rc=$?
check "--readers merged: exit 0, -D says so" \
	bash -c "[ $rc = 0 ] && grep -qx 'tlat: trace buffers read merged, because --readers merged' $WORK/rm.err" ||
	show "$WORK/rm.err"
check "--readers 2 and merged: each CPU's count within 2%" \
	readers_within_2pct "$WORK/rd.out" "$WORK/rm.out" || show "$WORK/rd.out" "$WORK/rm.out"
"$TLAT" top -q -d 20 --readers 2 -T 1 -D > "$WORK/rt.out" 2> "$WORK/rt.err"
rc=$?
check "--readers 2 -T 1: exit 2, the hit reported" \
	bash -c "[ $rc = 2 ] && grep -qx 'timerlat hit stop tracing' $WORK/rt.out" ||
	show "$WORK/rt.out"
check "--readers 2 -T 1: -D says the auto-analysis keeps the read merged" \
	grep -qx 'tlat: trace buffers read merged, because the auto-analysis or the saved trace reads across CPUs' \
	"$WORK/rt.err" || show "$WORK/rt.err"
"$TLAT" info > "$WORK/rinfo.out" 2>&1
check "tlat info: how each source's buffers are read" \
	bash -c "grep -qx '  timerlat     per CPU from 8 CPUs, unless -t, record or the auto-analysis needs time order' $WORK/rinfo.out &&
		 grep -qx '  tracepoints  merged in time order: the source pairs events across CPUs' $WORK/rinfo.out" ||
	show "$WORK/rinfo.out"
opts_refused "--readers 0" "--readers" "$TLAT" top -d 1 --readers 0
opts_refused "--readers many" "--readers" "$TLAT" hist -d 1 --readers many
check "--readers: tracefs as it was" same_as_before
