#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kstack-cpus.sh - the CPUs on which this kernel saves a stack at a timer IRQ
# that wakes an idle CPU, as tlat's tracepoint source asks it to (a
# stacktrace trigger on timer:hrtimer_expire_entry).
#
# Why: on one of the machines measured (Linux 6.18 in a virtual machine),
# the kernel saves almost no stack for an IRQ that interrupts CPU 1's idle
# (0 to 3 of 300 by the trigger, 24 of 340 by the stacktrace option), while
# it saves every one on CPU 0 and every one on CPU 1 when a task runs there. tlat then
# has no stack to print, whatever it does; a test of -s must pick its CPUs.
#
# Independent of tlat: tracefs and a shell only. It works in a private mount
# namespace of its own, so the machine's mounts are untouched.
# Usage: tests/tools/kstack-cpus.sh [WAKEUPS]
# Prints the CPUs (a -c list, "0,2") whose share of stacks per hrtimer_wakeup
# expiry is at least 90%, and each CPU's counts on stderr. Exit status 1 if
# it could not measure, 0 otherwise (the list may be empty).
set -u

if [ "${1:-}" != --inside ]; then
	exec unshare -m --propagation private "$0" --inside "${1:-200}"
fi
wakeups=$2
mnt=$(mktemp -d /tmp/tlat-kstack.XXXXXX) || exit 1
inst=$mnt/instances/tlat-kstack-probe-$$
ev=$inst/events/timer/hrtimer_expire_entry
# the trigger and the event off first: an instance in use cannot go
trap 'echo "!stacktrace" > "$ev/trigger"; echo 0 > "$ev/enable"; rmdir "$inst"
      umount "$mnt"; rmdir "$mnt"' EXIT
mount -t tracefs nodev "$mnt" || exit 1
mkdir "$inst" || exit 1
echo 'stacktrace if function.function == hrtimer_wakeup' > "$ev/trigger" || exit 1
echo 1 > "$ev/enable" || exit 1
echo 1 > "$inst/tracing_on"
# python sleeps without forking: the CPU is idle when each timer fires
for cpu in $(seq 0 $(($(nproc) - 1))); do
	taskset -c "$cpu" python3 -c "
import time
for i in range($wakeups): time.sleep(0.001)" &
done
wait
echo 0 > "$inst/tracing_on"
out=$(awk '
	/function=hrtimer_wakeup/ { cpu = substr($2, 2, length($2) - 2) + 0; w[cpu]++ }
	/<stack trace>/ { cpu = substr($2, 2, length($2) - 2) + 0; s[cpu]++ }
	END { for (c in w) printf "%d %d %d\n", c, w[c], s[c] + 0 }' "$inst/trace" | sort -n)
[ -n "$out" ] || { echo "kstack-cpus: no hrtimer_wakeup expiry traced" >&2; exit 1; }
list=
while read -r cpu w s; do
	echo "kstack-cpus: CPU $cpu: $s stacks for $w wakeups" >&2
	[ $((s * 10)) -ge $((w * 9)) ] && list=${list:+$list,}$cpu
done <<< "$out"
echo "$list"
