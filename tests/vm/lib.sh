# SPDX-License-Identifier: GPL-2.0
#
# lib.sh - what every in-VM suite shares (busybox sh): TAP counters and
# checks, the snapshot of the global tracing state a tlat run must leave as
# found, the kernel log's splats, the tool's per-CPU counts. Sourced by
# run-tests.sh, many-cpus.sh and collector.sh;
# each suite ends with vm_summary.

T=/sys/kernel/tracing
NCPU=$(nproc)

# Kernel log lines that mean a bug, whatever the test.
SPLAT='WARNING:|BUG:|Oops|Kernel panic|general protection|Call Trace:|INFO: task .* blocked|rcu: INFO|detected stall|possible recursive locking|circular locking|UBSAN|KASAN|refcount_t:|list_add corruption|list_del corruption|scheduling while atomic|sleeping function called'

n=0
failed=0

ok() { n=$((n + 1)); echo "ok $n - $*"; }
not_ok() { n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n - $*"; }
diag() { echo "# $*"; }
# show_tlat OUT ERR: a tlat run's standard output and error, as diagnostics
show_tlat() {
	while read -r l; do diag "tlat: $l"; done < "$1"
	while read -r l; do diag "tlat (stderr): $l"; done < "$2"
}

# check DESCRIPTION COMMAND...: one test, passing when COMMAND succeeds.
check() {
	desc=$1
	shift
	if "$@"; then ok "$desc"; else not_ok "$desc"; fi
}

# global_snapshot: everything global a tlat run may touch (the osnoise
# knobs, the top-level tracer, events and tracing_on, tlat.ko) and the
# instances; the tool tests compare it before and after their runs
global_snapshot() {
	for f in cpus timerlat_period_us print_stack stop_tracing_us stop_tracing_total_us \
		 options timerlat_align_us; do
		[ -f $T/osnoise/$f ] && echo "$f: $(cat $T/osnoise/$f)"
	done
	echo "instances: $(ls $T/instances | tr '\n' ' ')"
	echo "current_tracer: $(cat $T/current_tracer)"
	echo "tracing_on: $(cat $T/tracing_on)"
	echo "set_event: $(tr '\n' ' ' < $T/set_event)"
	echo "tlat.ko: $(grep -c '^tlat ' /proc/modules)"
}

# global_same BEFORE: the snapshot is still the one in file BEFORE, else
# the differences are shown
global_same() {
	global_snapshot > /tmp/global.after
	if ! cmp -s "$1" /tmp/global.after; then
		diff "$1" /tmp/global.after | while read -r l; do diag "$l"; done
		return 1
	fi
}

# wait_for SECONDS COMMAND...: poll COMMAND every 0.1 s until it succeeds.
wait_for() {
	tries=$(($1 * 10))
	shift
	while [ $tries -gt 0 ]; do
		"$@" && return 0
		sleep 0.1
		tries=$((tries - 1))
	done
	return 1
}

uptime_ms() { awk '{ printf "%.0f\n", int($1 * 1000) }' /proc/uptime; }

# within VALUE EXPECTED PERCENT
within() {
	awk -v v="$1" -v e="$2" -v p="$3" \
		'BEGIN { d = v - e; if (d < 0) d = -d; exit !(d <= e * p / 100) }'
}

dmesg_clean() {
	dmesg | grep -q -E "$SPLAT" || return 0
	# Show each report with what follows it (the call trace).
	dmesg | grep -A 40 -E "$SPLAT" | head -n 120 | while read -r l; do diag "$l"; done
	return 1
}

# vm_summary: the TAP plan and the line run.sh reads; the exit status is the
# number of failed tests (capped at 125)
vm_summary() {
	echo "1..$n"
	echo "# tlat-vm: $((n - failed)) passed, $failed failed"
	[ $failed -gt 125 ] && failed=125
	exit $failed
}

# tool_counts_ok SECONDS PERIOD_US: every CPU line ("  N #COUNT |...") of the
# summary in $TOOL_OUT counts no more than SECONDS/PERIOD activations (2% for the edges of
# the run), and at least half of them. The lower bound is loose on purpose:
# like the kernel's timerlat, tlat.ko skips the periods that passed while its
# thread was late, and a TCG guest falls behind when the host is busy (4318 of
# 5000 on a CPU in CI run r9, with builds running beside it).
tool_counts_ok() {
	want=$(($1 * 1000000 / $2))
	lines=$(grep -E '^ *[0-9]+ +#[0-9]+' $TOOL_OUT)
	[ "$(echo "$lines" | grep -c .)" = "$NCPU" ] || return 1
	echo "$lines" | while read -r cpu cnt rest; do
		cnt=${cnt#\#}
		[ "$cnt" -le $((want + want / 50)) ] && [ "$cnt" -ge $((want / 2)) ] || exit 1
	done
}
