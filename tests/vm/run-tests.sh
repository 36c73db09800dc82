#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# In-VM tests of tlat.ko, run by /init (tests/vm/init.sh) under busybox sh.
# Output is TAP, closed by "# tlat-vm: N passed, N failed"; the exit status is
# the number of failed tests (capped at 125).
#
# Expects /lib/tlat/tlat.ko, /tests/ufd_test, 2 CPUs; /usr/bin/tlat is
# optional (tool tests in tool-tests.sh run when it is there).

. /tests/lib.sh

I=$T/instances/tlatvm
P=/sys/module/tlat/parameters
KO=/lib/tlat/tlat.ko
CPU1=/sys/devices/system/cpu/cpu1/online

# The module's kernel threads as "tlat/N rt_priority policy", sorted.
threads() {
	for d in /proc/[0-9]*; do
		c=$(cat "$d/comm" 2>/dev/null) || continue
		case $c in
		tlat/*) echo "$c $(awk '{ print $40, $41 }' "$d/stat")" ;;
		esac
	done | sort
}

has_threads() { [ "$(threads | awk '{ print $1 }' | tr '\n' ' ')" = "$1" ]; }
no_threads() { [ -z "$(threads)" ]; }
all_threads() {
	want=""
	c=0
	while [ $c -lt "$NCPU" ]; do want="${want}tlat/$c "; c=$((c + 1)); done
	has_threads "$want"
}

# count CPU CONTEXT: tlat_sample lines of CONTEXT (irq, thread, user-ret) in
# the instance's buffer of CPU.
count() { grep -c "tlat_sample: #[0-9]* *context *$2 " "$I/per_cpu/cpu$1/trace"; }

# measure SECONDS: clear the instance and record tlat_sample for SECONDS;
# sets DUR_MS to the time the event was enabled.
measure() {
	echo > "$I/trace"
	t0=$(uptime_ms)
	echo 1 > "$I/events/tlat/tlat_sample/enable"
	sleep "$1"
	echo 0 > "$I/events/tlat/tlat_sample/enable"
	DUR_MS=$(($(uptime_ms) - t0))
}

# counts_ok PERIOD_US CONTEXTS...: every CPU has at most DUR_MS/period samples
# of each context (2% for the run's edges) and at least half of them: periods
# that pass while the thread is late are skipped, as timerlat does, and a TCG
# guest falls behind when the host is busy (see tool-tests.sh).
counts_ok() {
	period=$1
	shift
	want=$((DUR_MS * 1000 / period))
	res=0
	c=0
	while [ $c -lt "$NCPU" ]; do
		line="cpu$c:"
		for ctx in "$@"; do
			got=$(count $c "$ctx")
			line="$line $ctx=$got"
			[ "$got" -le $((want + want / 50)) ] && [ "$got" -ge $((want / 2)) ] ||
				res=1
		done
		diag "$line (expected $want / 2 to $want + 2% in $DUR_MS ms)"
		c=$((c + 1))
	done
	return $res
}

param() { cat "$P/$1"; }
setp() { echo "$2" > "$P/$1"; }

load() { insmod "$KO" "$@" && [ -d $P ]; }
unload() { rmmod tlat && [ ! -d /sys/module/tlat ]; }

echo "TAP version 13"
diag "kernel $(uname -r), $NCPU CPUs"

# ---- loading
check "insmod tlat.ko" load
check "events tlat:tlat_sample and tlat:tlat_stack exist" \
	test -e $T/events/tlat/tlat_sample/format -a -e $T/events/tlat/tlat_stack/format
fmt_ok() {
	f=$T/events/tlat/tlat_sample/format
	grep -q 'field:unsigned int seqnum;' $f &&
		grep -q 'field:int context;' $f &&
		grep -q 'field:u64 timer_latency;' $f
}
check "tlat_sample fields seqnum, context, timer_latency" fmt_ok
check "/dev/tlat exists" test -c /dev/tlat
check "one tlat/N thread per CPU" wait_for 5 all_threads
prio_ok() { [ -z "$(threads | awk -v p="$1" '$2 != p || $3 != 1')" ]; }
check "threads are SCHED_FIFO 95" prio_ok 95
threads | while read -r l; do diag "$l"; done
defaults_ok() {
	[ "$(param enabled)$(param kthreads)$(param prio)$(param period_us)" = YY951000 ] &&
		[ "$(param print_stack_us)$(param stop_irq_us)$(param stop_thread_us)" = 000 ]
}
check "parameter defaults" defaults_ok

mkdir $I
echo 4096 > $I/buffer_size_kb

# ---- sample counts
# TCG's guest clock is the host clock: a busy host makes the guest miss
# periods, which timerlat semantics skip. Allow three tries.
# counts_tries SECONDS PERIOD_US: a measurement of SECONDS whose counts fit PERIOD_US
counts_tries() {
	for try in 1 2 3; do
		measure "$1"
		counts_ok "$2" irq thread && return 0
		diag "try $try out of 3 missed"
	done
	return 1
}
check "5 s at 1000 us: irq and thread samples per CPU between half and all of 5000" \
	counts_tries 5 1000
no_overrun() { ! grep -q '^overrun: [1-9]' $I/per_cpu/cpu*/stats; }
check "no ring-buffer overrun" no_overrun
seq_ok() {
	# The thread samples of one CPU have consecutive seqnums (missed
	# periods are skipped without a seqnum).
	c=0
	while [ $c -lt "$NCPU" ]; do
		grep 'context thread' $I/per_cpu/cpu$c/trace |
			sed 's/.*tlat_sample: #\([0-9]*\) .*/\1/' |
			awk 'NR > 1 && $1 != prev + 1 { bad = 1 } { prev = $1 }
			     END { exit bad }' || return 1
		c=$((c + 1))
	done
}
check "thread seqnums are consecutive" seq_ok

setp period_us 2000
check "period_us=2000 written at run time: counts between half and all of the periods" \
	counts_tries 2 2000
setp period_us 1000
check "period_us rejects 99" sh -c "! echo 99 > $P/period_us 2>/dev/null"

# ---- configuration at run time
setp prio 80
check "prio=80 restarts the threads at FIFO 80" wait_for 5 prio_ok 80
setp prio 95
check "prio rejects 0" sh -c "! echo 0 > $P/prio 2>/dev/null"

setp enabled N
check "enabled=N stops every thread" wait_for 5 no_threads
measure 0.5
check "enabled=N: no samples" test "$(count 0 irq)$(count 0 thread)" = 00
setp enabled Y
check "enabled=Y starts them again" wait_for 5 all_threads

setp cpus 1
check "cpus=1 leaves only tlat/1" wait_for 5 has_threads "tlat/1 "
measure 1
check "cpus=1: no samples on CPU 0" test "$(count 0 irq)" = 0
setp cpus 0-$((NCPU - 1))
check "cpus=all brings tlat/0 back" wait_for 5 all_threads
check "cpus rejects garbage" sh -c "! echo x > $P/cpus 2>/dev/null"

# ---- print_stack: stack event before the sample that reaches it
stack_ok() {
	grep -q 'tlat_stack: #' $I/per_cpu/cpu0/trace || return 1
	grep -q '=> tlat_timer_fn' $I/per_cpu/cpu0/trace || return 1
	# The first sample after each stack event has the stack's seqnum.
	grep -E 'tlat_(stack|sample): #' $I/per_cpu/cpu0/trace |
		sed 's/.*\(tlat_[a-z]*\): #\([0-9]*\).*/\1 \2/' |
		awk '$1 == "tlat_stack" { want = $2; next }
		     want != "" { if ($2 != want) bad = 1; want = "" }
		     END { exit bad }'
}
echo 1 > $I/events/tlat/tlat_stack/enable
setp print_stack_us 1
measure 0.5
setp print_stack_us 0
echo 0 > $I/events/tlat/tlat_stack/enable
check "print_stack_us: tlat_stack with the IRQ stack, before its sample" stack_ok
grep -m 1 -A 3 'tlat_stack: #' $I/per_cpu/cpu0/trace | while read -r l; do diag "$l"; done

# ---- user threads through /dev/tlat
busy_ok() { /tests/ufd_test --busy 0 > /dev/null; }
check "open where a kernel thread measures: EBUSY" busy_ok
setp kthreads N
check "kthreads=N stops the kernel threads" wait_for 5 no_threads
LOOPS=200
echo > $I/trace
echo 1 > $I/events/tlat/tlat_sample/enable
pids=""
c=0
while [ $c -lt "$NCPU" ]; do
	/tests/ufd_test $c $LOOPS 50 > /tmp/ufd.$c 2>&1 &
	pids="$pids $!"
	c=$((c + 1))
done
for p in $pids; do wait "$p"; done
echo 0 > $I/events/tlat/tlat_sample/enable
ufd_counts() {
	i=$(count $1 irq)
	t=$(count $1 thread)
	u=$(count $1 user-ret)
	diag "cpu$1 /dev/tlat: irq=$i thread=$t user-ret=$u for $LOOPS reads"
	[ "$i" = $LOOPS ] && [ "$t" = $LOOPS ] && [ "$u" = $((LOOPS - 1)) ]
}
c=0
while [ $c -lt "$NCPU" ]; do
	# ufd_test prints its own checks as "ok - ..." lines: number them.
	while read -r l; do
		case $l in
		"ok - "*) ok "cpu$c: ${l#ok - }" ;;
		"not ok - "*) not_ok "cpu$c: ${l#not ok - }" ;;
		*) echo "$l" ;;
		esac
	done < /tmp/ufd.$c
	check "cpu$c: $LOOPS reads give $LOOPS irq, $LOOPS thread, $((LOOPS - 1)) user-ret samples" \
		ufd_counts $c
	c=$((c + 1))
done
setp kthreads Y
check "kthreads=Y brings the kernel threads back" wait_for 5 all_threads

# ---- CPU hotplug
if [ -w $CPU1 ]; then
	echo 1 > $I/events/tlat/tlat_sample/enable
	echo 0 > $CPU1
	check "CPU 1 offline: tlat/1 stops" wait_for 5 has_threads "tlat/0 "
	sleep 0.5
	echo > $I/trace
	sleep 0.5
	check "CPU 1 offline: CPU 0 keeps measuring" test "$(count 0 thread)" -gt 100
	echo 1 > $CPU1
	check "CPU 1 online: tlat/1 is back" wait_for 5 all_threads
	sleep 0.5
	echo > $I/trace
	sleep 1
	check "CPU 1 online: measurement resumes on CPU 1" test "$(count 1 thread)" -gt 500
	for i in 1 2 3 4 5; do
		echo 0 > $CPU1
		sleep 0.2
		echo 1 > $CPU1
		sleep 0.2
	done
	check "5 more offline/online cycles while measuring" wait_for 5 all_threads
	echo 0 > $I/events/tlat/tlat_sample/enable

	# A /dev/tlat user on a CPU that goes away: its read fails, no hang.
	setp kthreads N
	/tests/ufd_test --wait 1 > /tmp/ufd.wait 2>&1 &
	wpid=$!
	sleep 0.5
	echo 0 > $CPU1
	ufd_gone() { ! kill -0 $wpid 2>/dev/null; }
	check "CPU 1 offline under a /dev/tlat reader: the read fails" wait_for 5 ufd_gone
	wait $wpid
	echo 1 > $CPU1
	setp kthreads Y
	check "back to kernel threads on every CPU" wait_for 5 all_threads
else
	ok "# SKIP CPU 1 cannot go offline"
fi

# ---- stop thresholds: they stop one instance, never the top-level buffer
inst_off() { [ "$(cat $I/tracing_on)" = 0 ]; }
# entries + overrun: what the top-level buffer has written so far
top_entries() { awk '/^(entries|overrun):/ { s += $2 } END { print s + 0 }' $T/per_cpu/cpu*/stats; }

# A filter trigger on the sample, without module settings.
echo 1 > $T/events/tlat/tlat_sample/enable
echo 1 > $T/tracing_on
echo > $I/trace
echo 1 > $I/tracing_on
echo 'traceoff if timer_latency >= 1000' > $I/events/tlat/tlat_sample/trigger
echo 1 > $I/events/tlat/tlat_sample/enable
check "trigger 'traceoff if timer_latency >= 1000' on tlat_sample stops the instance" \
	wait_for 5 inst_off
check "top-level tracing_on stays 1" test "$(cat $T/tracing_on)" = 1
e0=$(top_entries)
sleep 0.5
check "the top-level buffer keeps recording" test "$(top_entries)" -gt "$e0"
echo 0 > $I/events/tlat/tlat_sample/enable
echo '!traceoff' > $I/events/tlat/tlat_sample/trigger
check "trigger removed" sh -c "! grep -q '^traceoff' $I/events/tlat/tlat_sample/trigger"

# The module's threshold: tlat_threshold after the sample, traceoff on it.
echo > $I/trace
echo 1 > $I/tracing_on
# Events first: a trigger fires even on an event that is not enabled.
echo 1 > $I/events/tlat/enable
echo traceoff > $I/events/tlat/tlat_threshold/trigger
setp print_stack_us 1
# an activation that began before print_stack_us was set saves no stack, and
# one that then reads stop_irq_us stops the buffer stackless: let every CPU's
# activation in flight end first (seen once on 6.1)
sleep 0.1
setp stop_irq_us 1
check "stop_irq_us + traceoff on tlat_threshold stops the instance" wait_for 5 inst_off
setp stop_irq_us 0
setp print_stack_us 0
echo 0 > $I/events/tlat/enable
echo '!traceoff' > $I/events/tlat/tlat_threshold/trigger
check "top-level tracing_on stays 1" test "$(cat $T/tracing_on)" = 1
kept_ok() {
	# The stopped instance holds the stack and then the IRQ sample that
	# reached the threshold, of the same activation.
	grep -h -E "tlat_(stack|sample):" $I/per_cpu/cpu*/trace | tail -n 4 |
		while read -r l; do diag "$l"; done
	for c in $(seq 0 $((NCPU - 1))); do
		f=$I/per_cpu/cpu$c/trace
		grep -q 'tlat_sample:' $f || continue
		s=$(grep -m 1 'tlat_stack: #' $f | sed 's/.*#\([0-9]*\).*/\1/')
		grep -q "tlat_sample: #$s *context *irq timer_latency" $f && return 0
	done
	return 1
}
check "the instance kept the stack and the sample that hit the threshold" kept_ok
echo 1 > $I/tracing_on
echo 0 > $T/events/tlat/tlat_sample/enable

# ---- reconfiguration racing with CPU hotplug and with unload
# A lock-order problem between parameter writes (module parameter lock,
# cpu_hotplug_lock, tlat_lock) and hotplug would hang here: the VM timeout
# catches it.
reconfigure() {
	for i in $(seq 1 "$1"); do
		echo N > $P/enabled
		echo Y > $P/enabled
		echo $((80 + i % 10)) > $P/prio
		echo 1 > $P/cpus
		echo 0-$((NCPU - 1)) > $P/cpus
	done 2> /dev/null
}
hotplug() {
	for i in $(seq 1 "$1"); do
		echo 0 > $CPU1
		echo 1 > $CPU1
	done 2> /dev/null
}
race_ok() {
	reconfigure 20 &
	rpid=$!
	if [ -w $CPU1 ]; then hotplug 10; fi
	wait $rpid
	all_threads || return 1
	# And a writer racing with rmmod: its writes fail once the module goes.
	reconfigure 50 &
	rpid=$!
	sleep 0.3
	unload
	ret=$?
	wait $rpid
	[ $ret = 0 ] && no_threads
}
check "parameter writes racing with hotplug and with rmmod" race_ok
check "load after the race" load

# ---- unload while measuring and tracing, then 20 load/run/unload cycles
echo 1 > $I/events/tlat/tlat_sample/enable
check "rmmod while measuring into two buffers" unload
check "no tlat thread left" no_threads
cycle() {
	case $(($1 % 4)) in
	0) load || return 1 ;;
	1) load period_us=100 || return 1 ;;
	2) load cpus=1 prio=50 print_stack_us=1 || return 1 ;;
	3) load kthreads=N || return 1 ;;
	esac
	echo 1 > $I/events/tlat/enable
	if [ $(($1 % 4)) = 3 ]; then
		/tests/ufd_test 0 20 > /dev/null 2>&1 || return 1
	else
		sleep 0.3
	fi
	grep -q tlat_sample $I/trace || return 1
	unload && no_threads
}
cycles_ok=0
i=0
while [ $i -lt 20 ]; do
	if cycle $i; then
		cycles_ok=$((cycles_ok + 1))
	else
		diag "cycle $i failed"
	fi
	i=$((i + 1))
done
check "20 load/run/unload cycles ($cycles_ok clean)" test $cycles_ok = 20
check "load after the cycles" load
check "unload after the cycles" unload

# ---- the tool, when present
if [ -x /usr/bin/tlat ]; then
	tool_runs() { tlat --help > /dev/null 2>&1; }
	check "the tlat binary runs in the VM (its libraries are there)" tool_runs
	# tool-tests.sh (module source) first, then any other tool-*.sh.
	for f in /tests/tool-tests.sh /tests/tool-*.sh; do
		case $f in
		/tests/tool-\*.sh) continue ;;
		/tests/tool-tests.sh) [ -n "$tool_tests_done" ] && continue
				      tool_tests_done=1 ;;
		esac
		[ -f "$f" ] && . "$f"
	done
fi

rmdir $I 2>/dev/null
echo 0 > $T/events/enable

# ---- the module's storms, short (make vm-storm runs the full ones):
# load/unload cycles, malformed parameters, /dev/tlat misuse, CPU hotplug
# under tlat runs; each ends with the kernel log, the reference count and
# /proc/slabinfo checked (tests/vm/storm-*.sh)
. /tests/storm-lib.sh
storms_run

# ---- the kernel log
check "dmesg has no WARN, BUG, lockdep or stall report" dmesg_clean
diag "dmesg, tlat lines:"
dmesg | grep -i tlat | tail -n 8 | while read -r l; do diag "$l"; done

vm_summary
