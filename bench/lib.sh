# SPDX-License-Identifier: GPL-2.0
# lib.sh - what the benchmarks share, sourced from the repository's top
# directory with the benchmark's arguments: its settings, the machine's
# description, and the CPU time a command costs per activation of its
# measuring threads.

TLAT=$(realpath "${1:-./tlat}")
DURATION=${DURATION:-12}
REPS=${REPS:-3}
NCPU=$(nproc)
# measured from t = 1 s to 1 s before the end: start-up and tear-down left out
WINDOW=$((DURATION - 2))

# machine_line: the header line of a results file
machine_line() {
	echo "# $(date -u +%F) $(uname -r), $NCPU CPUs, $(grep -m1 'model name' /proc/cpuinfo |
		cut -d: -f2 | sed 's/^ //')"
}

# task_ns PID: the on-CPU ns of every task of process PID so far
task_ns() {
	cat /proc/$1/task/*/schedstat 2>/dev/null | awk '{ s += $1 } END { printf "%d\n", s }'
}

# busy_ns: the ns all CPUs spent out of idle so far, whatever ran (the
# kernel's work in interrupts included): CPUs x uptime - idle, from
# /proc/uptime. The idle time is measured, not sampled by the tick (the
# busy columns of /proc/stat are, which misses short wakeups); 10 ms steps.
busy_ns() {
	awk -v n="$NCPU" '{ printf "%.0f\n", (n * $1 - $2) * 1e9 }' /proc/uptime
}

# switches_per_s: the machine's context switches a second, over 1 s
switches_per_s() {
	local c0 c1
	c0=$(awk '/^ctxt / { print $2 }' /proc/stat)
	sleep 1
	c1=$(awk '/^ctxt / { print $2 }' /proc/stat)
	echo $((c1 - c0))
}

# cost_per_activation PERIOD_US CMD...: run CMD in the background; print the
# on-CPU ns of its own tasks per activation, and with COST_SYSTEM=1 also the
# whole system's busy ns per activation, between t = 1 s and 1 s + WINDOW
cost_per_activation() {
	local period_us=$1 pid t0 t1 b0 b1
	shift
	"$@" > /dev/null 2>&1 &
	pid=$!
	sleep 1
	t0=$(task_ns $pid)
	b0=$(busy_ns)
	sleep "$WINDOW"
	t1=$(task_ns $pid)
	b1=$(busy_ns)
	wait $pid
	awk -v d=$((t1 - t0)) -v b=$((b1 - b0)) -v n="$NCPU" -v w="$WINDOW" -v p="$period_us" \
		-v sys="${COST_SYSTEM:-0}" 'BEGIN {
			act = n * w * 1e6 / p
			if (sys)
				printf "%.0f %.0f\n", d / act, b / act
			else
				printf "%.0f\n", d / act
		}'
}
