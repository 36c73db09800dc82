# SPDX-License-Identifier: GPL-2.0
# backlog.sh - live test of a reader slower than the writers, sourced by
# run.sh (uses check, ok, not_ok, show, same_as_before, $TLAT, $WORK): two
# syscall storms fill tlat's buffers with -e raw_syscalls:sys_enter while
# tlat reads at nice 19. Each pass over the buffers ends at a deadline, so
# -d and SIGTERM still end the run; a pass until the buffers are empty never
# ended (a 16-vCPU TCG guest's tracepoint source hung so; here, tlat before
# the fix was still reading 400 s into a 3 s run, deaf to SIGTERM).

# Tenths of a second a run may take to end. A sanitized tlat needs many
# times the plain one's CPU (ASan unwinds each allocation's stack whole,
# fast_unwind_on_malloc=0), and at nice 19 beside the storms it gets little:
# it ended a 3 s run 45-49 s on where the plain build took 5 s, and once ran
# past 60 s in CI. Three minutes still catches the hang this guards against.
backlog_limit=600
if nm -D "$TLAT" 2> /dev/null | grep -q __asan_init; then
	backlog_limit=1800
fi

backlog_storms=""
for i in 1 2; do
	# bounded, in case this suite is killed before it stops them
	timeout 300 dd if=/dev/zero of=/dev/null bs=1 2> /dev/null &
	backlog_storms="$backlog_storms $!"
done

# the events tlat's instance lost so far, every CPU's (overwritten or dropped)
backlog_lost() {
	cat "$TRACEFS/instances/tlat_$1"/per_cpu/cpu*/stats 2> /dev/null |
		awk '/^(overrun|dropped events):/ { n += $NF } END { printf "%.0f\n", n }'
}

# backlog_run DESC SIGNAL_AFTER_S TLAT-ARGS...: the run ends by itself in
# the limit, or within it of SIGTERM, sent SIGNAL_AFTER_S in (0: none) once the
# buffers have lost events; exit 0, the document written, the events it
# could not keep up with counted as missed
backlog_run() {
	local desc=$1 signal_after=$2 pid rc n=0 since="its start"
	shift 2
	[ "$signal_after" = 0 ] || since=SIGTERM
	rm -f "$WORK/backlog.json"
	nice -n 19 "$TLAT" top -q --source tracepoints --trace-buffer-size 512 \
		-e raw_syscalls:sys_enter --json "$WORK/backlog.json" "$@" \
		> "$WORK/backlog.out" 2> "$WORK/backlog.err" &
	pid=$!
	if [ "$signal_after" != 0 ]; then
		sleep "$signal_after"
		# At nice 19 beside the storms, tlat may still be setting up: a
		# SIGTERM then ends the run before anything was lost, and there
		# is nothing missed to report (seen with main's tlat, 2 runs of 10)
		while [ "$(backlog_lost $pid)" = 0 ] && kill -0 $pid 2> /dev/null &&
		      [ $n -lt 600 ]; do
			sleep 0.1
			n=$((n + 1))
		done
		n=0
		kill -TERM $pid 2> /dev/null
	fi
	while kill -0 $pid 2> /dev/null && [ $n -lt $backlog_limit ]; do
		sleep 0.1
		n=$((n + 1))
	done
	if kill -0 $pid 2> /dev/null; then
		{ kill -KILL $pid; wait $pid; } 2> /dev/null
		not_ok "slow reader, $desc: still reading $((backlog_limit / 10)) s on"
		show "$WORK/backlog.err"
		return
	fi
	wait $pid
	rc=$?
	echo "# slow reader, $desc: ended $((n / 10)) s after $since," \
	     "events $(jq -c .events "$WORK/backlog.json" 2> /dev/null)"
	check "slow reader, $desc: exit 0 with a document" \
		bash -c "[ $rc = 0 ] && jq -e '.cpus | length > 0' $WORK/backlog.json > /dev/null"
	check "slow reader, $desc: what it could not keep up with is reported missed" \
		bash -c "jq -e '.events.missed != 0' $WORK/backlog.json > /dev/null"
	check "slow reader, $desc: tracefs is as it was" same_as_before
}

backlog_run "-d 3s" 0 -d 3s
backlog_run "SIGTERM" 3

kill $backlog_storms 2> /dev/null
wait $backlog_storms 2> /dev/null
