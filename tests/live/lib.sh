#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# lib.sh - a small TAP-style engine for tlat's live tests, in the spirit of
# rtla's tests/engine.sh: each check prints "ok N - ..." or "not ok N - ..."
# with the evidence, and the run ends with "N passed, N failed".

# where the tests read tracefs: the viewer's (start_tracefs_viewer)
TRACEFS=
NR_PASS=0
NR_FAIL=0
NR_TEST=0

ok() {
	NR_TEST=$((NR_TEST + 1))
	NR_PASS=$((NR_PASS + 1))
	echo "ok $NR_TEST - $*"
}

not_ok() {
	NR_TEST=$((NR_TEST + 1))
	NR_FAIL=$((NR_FAIL + 1))
	echo "not ok $NR_TEST - $*"
}

# check DESCRIPTION CONDITION... : the condition is a command
check() {
	local desc=$1
	shift
	if "$@"; then
		ok "$desc"
	else
		not_ok "$desc"
		return 1
	fi
}

# print a file as TAP comments, for the evidence of a failure
show() {
	sed 's/^/# /' "$@"
}

finish() {
	echo "$NR_PASS passed, $NR_FAIL failed"
	[ "$NR_FAIL" -eq 0 ]
}

# The tests read tracefs through a viewer: a process in a mount namespace of
# its own, with tracefs mounted. Whatever the machine's state, they see the
# kernel's instances and settings through /proc/PID/root, and nothing is
# mounted where tlat runs.
start_tracefs_viewer() {
	unshare -m --propagation private bash -c 'mountpoint -q /sys/kernel/tracing ||
		mount -t tracefs nodev /sys/kernel/tracing || exit 1
		exec sleep infinity' &
	VIEWER=$!
	TRACEFS=/proc/$VIEWER/root/sys/kernel/tracing
	for _ in $(seq 100); do
		[ -e "$TRACEFS/instances" ] && return 0
		sleep 0.05
	done
	echo "Bail out! cannot mount tracefs in the tests' own namespace"
	exit 1
}

stop_tracefs_viewer() {
	[ -n "${VIEWER:-}" ] && kill "$VIEWER" 2> /dev/null
}

# trace-cmd, in a mount namespace of its own: libtracefs mounts tracefs where
# it is not, even to read a file, and trace-cmd never unmounts it
trace_cmd() {
	unshare -m --propagation private trace-cmd "$@"
}

# tracefs and debugfs as mounted where tlat runs
fs_mounts() {
	awk '$3 == "tracefs" || $3 == "debugfs" { print $2 " " $3 }' /proc/mounts | sort
}

# everything tlat must leave as it found it: the mounts, the top level of tracefs
snapshot() {
	local t=$TRACEFS
	echo "mounts: $(fs_mounts | tr '\n' ' ')"
	echo "instances: $(ls $t/instances | tr '\n' ' ')"
	for f in tracing_on current_tracer trace_clock buffer_size_kb options/overwrite; do
		echo "$f: $(cat $t/$f)"
	done
	echo "set_event: $(tr '\n' ' ' < $t/set_event)"
}

# periods_ok LOG SECONDS PERIOD_US NCPU [STALL_PERIODS]: the run's --sample-log
# accounts for every period of it, late activations' skips included
# (periods.awk); a stall the test made may also fall where no lateness shows it
periods_ok() {
	awk -v want=$(($2 * 1000000 / $3)) -v period_ns=$(($3 * 1000)) -v ncpu="$4" \
		-v stall="${5:-0}" -f tests/live/periods.awk "$1"
}

# counts_match OUT LOG: the counts tlat printed are its --sample-log's: top's
# COUNT (the IRQ context's) per CPU, or the first count: row of hist, per CPU
# and context
counts_match() {
	awk '
		FNR == NR { logged[$1 " " $3]++; next }
		/^ *[0-9]+ #[0-9]+/ { printed[$1 " irq"] = substr($2, 2) }
		/^Index / { ctx["IRQ"] = "irq"; ctx["Thr"] = "thread"; ctx["Usr"] = "user"
			for (i = 2; i <= NF; i++) { split($i, h, "-"); col[i] = (h[2] + 0) " " ctx[h[1]] } }
		/^count:/ && !hist_done { hist_done = 1
			for (i = 2; i <= NF; i++) printed[col[i]] = $i }
		END {
			for (k in printed) {
				n++
				if (printed[k] != logged[k] + 0) {
					print "# cpu/context " k ": printed " printed[k] ", logged " logged[k] + 0
					bad = 1
				}
			}
			exit !(n && !bad)
		}' "$2" "$1"
}

# fail loudly, never skip: a live test that cannot run is a failure
require_root() {
	if [ "$(id -u)" != 0 ]; then
		echo "Bail out! live tests must run as root"
		exit 1
	fi
}
