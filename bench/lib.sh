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

# Every sum below is printed with "%.0f": Debian's awk (mawk) saturates
# printf "%d" at 2^31 - 1, which a process passes after 2.1 s of CPU time.

# task_ns PID: the on-CPU ns of every live task of process PID so far
# (sum_exec_runtime, measured at each switch)
task_ns() {
	cat /proc/$1/task/*/schedstat 2>/dev/null | awk '{ s += $1 } END { printf "%.0f\n", s }'
}

# task_tick_ns PID: the same from the other accounting, process PID's utime +
# stime (/proc/PID/stat, exited threads included), in ticks: a consistency
# check of task_ns, not an independent one, since the kernel scales utime +
# stime to the same sum_exec_runtime (cputime_adjust())
task_tick_ns() {
	sed 's/.*) //' /proc/$1/stat | awk -v hz="$(getconf CLK_TCK)" \
		'{ printf "%.0f\n", ($12 + $13) * 1e9 / hz }'
}

# busy_ns: the ns all CPUs spent out of idle so far, whatever ran (the
# kernel's work in interrupts included): CPUs x uptime - idle, from
# /proc/uptime. The idle time is measured, not sampled by the tick (the
# busy columns of /proc/stat are, which misses short wakeups); 10 ms steps.
busy_ns() {
	awk -v n="$NCPU" '{ printf "%.0f\n", (n * $1 - $2) * 1e9 }' /proc/uptime
}

# tasks_snapshot: "tid ns" for every task on the machine, its on-CPU time so
# far (schedstat). The cross-check of busy_ns is tasks_busy_ns over two
# snapshots: a lower bound, since the interrupts that hit an idle CPU are
# charged to the idle task, which /proc does not list. (cpuidle's residency
# is no cross-check here: in this guest it read less busy time than the
# tool's own tasks ran, because the haltpoll state wakes inside its
# "sti; hlt" and handles the interrupt before the residency ends.)
tasks_snapshot() {
	grep -H . /proc/[0-9]*/task/[0-9]*/schedstat 2>/dev/null |
		awk -F'[/: ]' '{ print $5, $7 }'
}

# tasks_busy_ns BEFORE AFTER: the on-CPU ns every task ran between two
# snapshots, those started in between whole; those that ended are lost
tasks_busy_ns() {
	awk 'NR == FNR { t0[$1] = $2; next } { d += $2 - t0[$1] }
		END { printf "%.0f\n", d }' "$1" "$2"
}

# switches_per_s: the machine's context switches a second, over 1 s
switches_per_s() {
	local c0 c1
	c0=$(awk '/^ctxt / { print $2 }' /proc/stat)
	sleep 1
	c1=$(awk '/^ctxt / { print $2 }' /proc/stat)
	echo $((c1 - c0))
}

# cost_per_activation PERIOD_US CMD...: run CMD in the background; print, per
# nominal activation between t = 1 s and 1 s + WINDOW, in ns: its own tasks'
# on-CPU time (task_ns), the same by the tick (task_tick_ns), the whole
# machine's busy time (busy_ns), every task's on-CPU time (tasks_busy_ns)
cost_per_activation() {
	local period_us=$1 pid s0 s1 t0 t1 b0 b1 i snap
	shift
	snap=$(mktemp -d)
	"$@" > /dev/null 2>&1 &
	pid=$!
	sleep 1
	read -r s0 t0 b0 < <(echo "$(task_ns $pid) $(task_tick_ns $pid) $(busy_ns)")
	tasks_snapshot > "$snap/0"
	sleep "$WINDOW"
	read -r s1 t1 b1 < <(echo "$(task_ns $pid) $(task_tick_ns $pid) $(busy_ns)")
	tasks_snapshot > "$snap/1"
	i=$(tasks_busy_ns "$snap/0" "$snap/1")
	rm -r "$snap"
	wait $pid
	awk -v s=$((s1 - s0)) -v t=$((t1 - t0)) -v b=$((b1 - b0)) -v i="$i" \
		-v n="$NCPU" -v w="$WINDOW" -v p="$period_us" 'BEGIN {
			act = n * w * 1e6 / p
			printf "%.0f %.0f %.0f %.0f\n", s / act, t / act, b / act, i / act
		}'
}

# median A B C...: the middle value (the lower middle of an even count)
median() {
	printf "%s\n" "$@" | sort -n | awk '{ v[NR] = $1 } END { printf "%.0f\n", v[int((NR + 1) / 2)] }'
}

# ratio A B: A / B, two decimals
ratio() {
	awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", b ? a / b : 0 }'
}

# cpu_of CMD...: run CMD (output to /dev/null) and print its CPU time in ns
# four ways, then its wall time in ns: its rusage (wait4: user + sys, the
# reaped children included), its cgroup's (usage_usec of cpu.stat, every
# task of a cgroup v2 made for the run, which CMD enters before its exec),
# the scheduler's sum_exec_runtime (/proc/PID/schedstat) and the tick's
# utime + stime (/proc/PID/stat), both read while it is a zombie, after it
# exited and before it is reaped: of its own task only, not its children's.
# The cgroup is made under cgroup v2's mount and removed after the run;
# without one that can be written to, the run fails.
cpu_of() {
	python3 - "$@" <<'PY'
import os, subprocess, sys, time
mnt = [l.split()[1] for l in open("/proc/self/mounts") if l.split()[2] == "cgroup2"]
if not mnt:
    sys.exit("cpu_of: no cgroup v2 mounted: the cgroup's CPU time cannot be read")
cg = f"{mnt[0]}/tlat-bench-{os.getpid()}"
os.mkdir(cg)
def enter():
    with open(f"{cg}/cgroup.procs", "w") as f:
        f.write(str(os.getpid()))
try:
    t0 = time.monotonic_ns()
    p = subprocess.Popen(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                         preexec_fn=enter)
    os.waitid(os.P_PID, p.pid, os.WEXITED | os.WNOWAIT)
    wall = time.monotonic_ns() - t0
    with open(f"/proc/{p.pid}/schedstat") as f:
        sched = int(f.read().split()[0])
    with open(f"/proc/{p.pid}/stat") as f:
        st = f.read().rsplit(")", 1)[1].split()
    tick = (int(st[11]) + int(st[12])) * 1000000000 // os.sysconf("SC_CLK_TCK")
    _, _, ru = os.wait4(p.pid, 0)
    rusage = round((ru.ru_utime + ru.ru_stime) * 1e9)
    with open(f"{cg}/cpu.stat") as f:
        cgroup = int(dict(l.split() for l in f)["usage_usec"]) * 1000
finally:
    os.rmdir(cg)
print(rusage, cgroup, sched, tick, wall)
PY
}
