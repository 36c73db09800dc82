# SPDX-License-Identifier: GPL-2.0
#
# In-VM tests of the auto-analysis on the two kernel sources (the timerlat
# tracer and tlat.ko), sourced by run-tests.sh (uses check, ok, not_ok, diag,
# $T). The host's live tests do the same for the tracepoint source: a FIFO
# 99 hog (/tests/tlat-hog) on CPU 1 spins 10 ms every 200 ms, and the
# analysis of the stop must blame it, as long as it really overlapped, with
# parts that add up; -s must give a clean stack; -t must keep the activation.
# Latencies under TCG are large (an idle CPU was seen to take 3 ms to take
# an interrupt), hence a 10 ms spin and a 6 ms threshold;
# and the thread's own wake-up takes hundreds of us there, all of it
# unexplained scheduling, and interrupts were seen to take a millisecond,
# so the parts must add up within 15%, not 5% (and exactly, with the
# --aa-extras line "Not in the lines with a share"). The
# hog's own log of its spin is a looser yardstick under TCG too: code the
# tracepoints invalidated is translated again, and the hog was seen to keep
# the CPU up to 1.2 ms past its last clock read. The time must be within 30%
# of it here; on the host, within 10%.

AA_OUT=/tmp/aa.out
AA_CPU=1
AA_T=6000
CHECK=/tests/check-aa-hog.sh

aa_show() { while read -r l; do diag "$1: $l"; done < "$2"; }

# aa_run SOURCE [tlat options...]: a hog run until the hog blocks the hit
# activation (see tests/live/aa.sh for why a run may need another go)
aa_run() {
	src=$1
	shift
	# An idle vCPU takes its interrupts late under TCG, and then the
	# thread's timer and the hog's often expire in the same interrupt: the
	# hog runs first and is thread interference, not the blocking thread.
	# A SCHED_OTHER spinner keeps the CPU from idling.
	taskset -c $AA_CPU sh -c 'while :; do :; done' &
	spinner=$!
	for attempt in 1 2 3 4 5; do
		/tests/tlat-hog -c $AA_CPU -s 10000 -l /tmp/hog.log &
		hog=$!
		sleep 1
		# the warm-up keeps TCG's slow first activations out of it
		tlat top -c $AA_CPU -T $AA_T -s $AA_T -d 60 -q --warm-up 2 --source "$src" \
			-t /tmp/aa-trace.txt --json /tmp/aa.json --dump-tasks --aa-extras \
			--sample-log /tmp/aa.samples "$@" > $AA_OUT 2>&1
		rc=$?
		kill $hog
		wait $hog
		[ $rc = 2 ] || break
		# and blocked only there: a task that preempted the hog mid-spin (seen:
		# migration/1 under TCG) splits it into blocking thread and interference
		if $CHECK names $AA_OUT /tmp/hog.log /tmp/aa.samples $hog $AA_CPU $AA_T \
			> /dev/null; then
			[ "$(grep -cE "tlat-hog:$hog +[0-9.]+ us" $AA_OUT)" = 1 ] && break
			diag "$src attempt $attempt: the hog was preempted in the hit activation"
			continue
		fi
		diag "$src attempt $attempt: the hog did not block the hit activation"
	done
	kill $spinner
	wait $spinner 2>/dev/null
}

# the stack printed in full: no raw addresses (6.1's garbage frames) and no
# frame right after itself (6.12's repeats), with the timer interrupt in it
stack_clean() {
	awk '/Blocking thread stack trace/ { s = 1; next }
	     s && /^ +-> / { nr++; if ($2 ~ /^0x/ || $2 == prev) bad = 1
			     if ($2 ~ /hrtimer|apic_timer/) irq = 1; prev = $2; next }
	     s { s = 0 }
	     END { exit !(nr >= 2 && irq && !bad) }' $AA_OUT
}

# the saved trace has the sample that crossed the threshold
trace_has_hit() {
	lat=$(awk -v cpu=$AA_CPU -v t=$AA_T '$1 == cpu && $3 != "irq" && $4 >= t * 1000 { print $4; exit }' \
		/tmp/aa.samples)
	[ -n "$lat" ] && grep -q "^# tracer: " /tmp/aa-trace.txt &&
		grep -E "(timerlat|tlat_sample):|context +(thread|user-ret) +timer_latency" \
			/tmp/aa-trace.txt | grep -qw "$lat"
}

# the run's --json document says what its text says: the source, the stop,
# the CPU's count and max, the hog as the blocking thread, the stack (the
# schema itself is checked on the host: the document does not depend on
# the source)
json_agrees() {
	command -v jq > /dev/null || { diag "no jq in the initramfs"; return 1; }
	set -- $(awk -v cpu=$AA_CPU '$1 == cpu && $2 ~ /^#/ { print substr($2, 2), $12 }' $AA_OUT)
	[ $# = 2 ] || { diag "no CPU $AA_CPU row in the text"; return 1; }
	jq -e --arg src "$src" --argjson cpu $AA_CPU --argjson hog $hog \
		--argjson count "$1" --argjson max_us "$2" '
		.source == $src and .exit_status == 2 and .threshold.hit and
		([.cpus[] | select(.cpu == $cpu) |
		  .irq.count == $count and (.thread.max / 1000 | floor) == $max_us] == [true]) and
		([.auto_analysis.cpus[].cpu] == [$cpu]) and
		.auto_analysis.cpus[0].blocking_thread.pid == $hog and
		.auto_analysis.cpus[0].blocking_thread.comm == "tlat-hog" and
		(.auto_analysis.cpus[0].stack | length >= 2)' /tmp/aa.json > /dev/null ||
		{ diag "$(head -c 3000 /tmp/aa.json)"; return 1; }
}

# --dump-tasks: a line for every CPU, and the document's tasks are the text's
# (cpu, comm, pid, and a kworker's function; the kernel's sched_switch and
# workqueue events, through the adapter of the source)
tasks_agree() {
	awk '/^Printing CPU tasks:$/ { on = 1; next }
	     on && /^    \[[0-9]+\] / { cpu = substr($1, 2, 3) + 0; n = split($2, t, ":")
		pid = t[n]; comm = substr($2, 1, length($2) - length(pid) - 1); fn = ""
		if ($3 ~ /^kworker:/) { n = split($3, k, ":"); fn = k[n] }
		print cpu, comm, pid, fn }' $AA_OUT > /tmp/tasks.text
	jq -r '.auto_analysis.tasks[] | "\(.cpu) \(.comm) \(.pid) " +
		(.kworker.function.symbol // .kworker.function.address // "")' /tmp/aa.json \
		> /tmp/tasks.json
	[ "$(wc -l < /tmp/tasks.text)" = "$NCPU" ] && cmp -s /tmp/tasks.text /tmp/tasks.json ||
		{ aa_show "tasks (text)" /tmp/tasks.text; aa_show "tasks (json)" /tmp/tasks.json
		  return 1; }
}

aa_checks() {
	label=$1
	aa_show "$label" $AA_OUT
	check "$label: the hog stops the run with exit status 2 (attempt $attempt)" test $rc = 2
	check "$label: the blocking thread is tlat-hog:$hog" \
		$CHECK names $AA_OUT /tmp/hog.log /tmp/aa.samples $hog $AA_CPU $AA_T
	check "$label: the blocking time is within 30% of the hog's real overlap" \
		$CHECK duration $AA_OUT /tmp/hog.log /tmp/aa.samples $hog $AA_CPU $AA_T 30
	check "$label: the components sum to the thread latency within 15%" \
		$CHECK sum $AA_OUT /tmp/hog.log /tmp/aa.samples $hog $AA_CPU $AA_T 15
	check "$label: with the unexplained part, they sum to it exactly" \
		$CHECK exact $AA_OUT /tmp/hog.log /tmp/aa.samples $hog $AA_CPU $AA_T
	check "$label: -s gives a clean stack through the timer interrupt" stack_clean
	check "$label: the trace saved by -t has the sample that crossed the threshold" trace_has_hit
	check "$label: --json agrees with the text (source, stop, count, max, hog, stack)" \
		json_agrees
	check "$label: --dump-tasks: a task for every CPU, the same in --json" tasks_agree
}

if [ ! -x /tests/tlat-hog ]; then
	not_ok "auto-analysis: /tests/tlat-hog is missing from the initramfs"
	return 0
fi

if grep -qw timerlat $T/available_tracers; then
	aa_run timerlat -k --stack-format full
	aa_checks "AA, timerlat -k"
	if [ -f $T/osnoise/per_cpu/cpu0/timerlat_fd ]; then
		aa_run timerlat -u --stack-format full
		aa_checks "AA, timerlat -u"
	fi
else
	not_ok "auto-analysis: this kernel has no timerlat tracer"
fi

aa_run module --stack-format full
aa_checks "AA, module"
