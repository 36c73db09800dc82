#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# startup-guest.sh - how long tlat and upstream rtla take from exec to their
# first sample, in the 6.12 guest (the only kernel where both run with -k
# and -u); bench/startup.sh boots it (scripts/vm/run.sh --suite).
#
# Each round runs rtla and tlat in turn, -k then -u, with the same options:
# `timerlat top -d 10 -q` (all CPUs, the kernel's timerlat tracer; tlat's
# default source is that tracer too). Both tools set the tracer in their
# instance with the instance's buffer off, then turn the buffer on: the
# kernel samples from the first, the tool's buffer holds samples from the
# second (the same second: see B - A). "Start-up" is the time from the
# tool's exec to its first sample, measured twice, independently:
#  A (kernel trace): an instance "startup" of its own, on the mono clock,
#    records sched_process_exec and every expiry of timerlat_irq (the
#    timerlat timer): A = the first expiry after the exec, minus the exec.
#    That is when the kernel began sampling for the tool, a little before
#    the tool's buffer was on.
#  B (/proc and the buffers' counters): a poller reads, every 10 ms, each
#    other instance's per_cpu/cpuN/stats; B = /proc/uptime when one shows
#    an entry or a read event (a sample in a tool's buffer), minus the
#    tool's start time in /proc/PID/stat (both in 10 ms ticks).
#  B - A is the time the tool took to turn its buffer on after setting the
#  tracer, plus the poller's lag: it must be small and not negative.
# TCG inflates every absolute time: the ratio rtla/tlat is the figure.

. /tests/lib.sh

RTLA=/usr/bin/rtla-6.12
TLAT=$(command -v tlat)
ROUNDS=${STARTUP_ROUNDS:-5}
DUR=10
B=$T/instances/startup
ROWS=/tmp/startup.rows

echo "TAP version 13"
diag "kernel $(uname -r), $NCPU CPUs"
if [ ! -x $RTLA ] || [ -z "$TLAT" ] || ! grep -qw timerlat $T/available_tracers ||
   [ ! -f $T/osnoise/per_cpu/cpu0/timerlat_fd ]; then
	not_ok "startup: $RTLA, tlat and the timerlat tracer with timerlat_fd are needed"
	vm_summary
	exit
fi
diag "rtla: $($RTLA --version 2>&1 | head -1); tlat: $($TLAT --version 2>&1 | head -1)"

# ---- the trace of method A
mkdir $B
echo mono > $B/trace_clock
echo 4096 > $B/buffer_size_kb
echo 1 > $B/events/sched/sched_process_exec/enable
addr=$(awk '$3 == "timerlat_irq" { print "0x" $1; exit }' /proc/kallsyms)
echo "function == $addr" > $B/events/timer/hrtimer_expire_entry/filter ||
	diag "startup: no filter on the timer's function ($addr): every expiry recorded"
echo 1 > $B/events/timer/hrtimer_expire_entry/enable

# a_parse EXE: A in seconds, from the trace of the run (NA without one)
a_parse() {
	awk -v exe="$1" '
		function ts(	i) {
			for (i = 1; i <= NF; i++)
				if ($i ~ /^[0-9]+\.[0-9]+:$/)
					return $i + 0
			return -1
		}
		/sched_process_exec:/ && index($0, "filename=" exe " ") && ex == "" { ex = ts(); next }
		ex != "" && /hrtimer_expire_entry:/ && /function=timerlat_irq/ { a = ts() - ex; exit }
		END { if (a == "") print "NA"; else printf "%.3f\n", a }' $B/trace
}

# b_poll PID: B in seconds, or NA if the tool ended first
b_poll() {
	read -r p c s rest < /proc/$1/stat
	# $rest starts at field 4 (ppid): starttime (22) is its 19th word
	set -- $rest
	shift 18
	start=$1
	found=""
	while :; do
		[ -r /proc/$p/stat ] && read -r p c s rest < /proc/$p/stat || break
		[ "$s" = Z ] && break
		for f in $T/instances/*/per_cpu/cpu*/stats; do
			case $f in $B/*) continue ;; esac
			while IFS=: read -r k v; do
				case $k in
				entries|"read events") [ $v -gt 0 ] 2>/dev/null && found=1 ;;
				esac
			done < $f 2>/dev/null
		done
		[ -n "$found" ] && break
		sleep 0.01
	done
	read -r up rest < /proc/uptime
	if [ -n "$found" ]; then
		awk -v u=$up -v s=$start 'BEGIN { printf "%.3f\n", u - s / 100 }'
	else
		echo NA
	fi
}

one() {
	tool=$1 mode=$2 label=$3
	echo 0 > $B/tracing_on
	echo > $B/trace
	echo 1 > $B/tracing_on
	if [ $tool = rtla ]; then
		exe=$RTLA
		$RTLA timerlat top -d $DUR -q $mode > /tmp/startup.out 2>&1 &
	else
		exe=$TLAT
		$TLAT top -d $DUR -q $mode > /tmp/startup.out 2>&1 &
	fi
	pid=$!
	b=$(b_poll $pid)
	wait $pid
	rc=$?
	echo 0 > $B/tracing_on
	a=$(a_parse $exe)
	diag "$label $tool $mode: exit $rc, A $a s, B $b s"
	[ $rc = 0 ] || sed 's/^/#   /' /tmp/startup.out | head -20
	[ "$label" = warm-up ] || echo "$tool $mode $a $b" >> $ROWS
}

: > $ROWS
# one run of each first, not counted: the first exec of each binary pages
# it in
one rtla -k warm-up
one tlat -k warm-up
r=1
while [ $r -le $ROUNDS ]; do
	for mode in -k -u; do
		one rtla $mode "round $r"
		one tlat $mode "round $r"
	done
	r=$((r + 1))
done
echo 0 > $B/tracing_on
rmdir $B

# medians per tool and mode, and rtla's over tlat's
awk '
	function median(v, n,	i, j, t) {
		for (i = 1; i < n; i++)
			for (j = i + 1; j <= n; j++)
				if (v[j] < v[i]) { t = v[i]; v[i] = v[j]; v[j] = t }
		return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
	}
	{ for (m = 3; m <= 4; m++) if ($m != "NA") { k = $1 " " $2 " " m; c[k]++; val[k, c[k]] = $m } }
	END {
		split("A B", name, " ")
		for (mi = 1; mi <= 2; mi++) {
			mode = mi == 1 ? "-k" : "-u"
			for (m = 3; m <= 4; m++) {
				for (t = 1; t <= 2; t++) {
					tool = t == 1 ? "rtla" : "tlat"
					k = tool " " mode " " m
					delete v
					for (i = 1; i <= c[k]; i++)
						v[i] = val[k, i]
					med[tool] = c[k] ? median(v, c[k]) : -1
					runs[tool] = c[k] + 0
				}
				printf "%s %s median: rtla %.2f s (%d runs), tlat %.2f s (%d runs), ratio %.2f\n",
					mode, name[m - 2], med["rtla"], runs["rtla"], med["tlat"],
					runs["tlat"], (med["tlat"] > 0 ? med["rtla"] / med["tlat"] : 0)
			}
		}
	}' $ROWS > /tmp/startup.summary
while read -r l; do diag "startup: $l"; done < /tmp/startup.summary
for mode in -k -u; do
	for m in A B; do
		check "startup: $mode: tlat starts measuring before rtla ($m, medians)" \
			awk -v want="$mode $m median:" 'index($0, want) == 1 {
				r = $NF + 0 } END { exit !(r > 1) }' /tmp/startup.summary
	done
done
# the cross-check: both methods see the same start in every run
check "startup: B - A within 0 to 0.5 s in every run" \
	awk '$3 == "NA" || $4 == "NA" || $4 - $3 < -0.01 || $4 - $3 > 0.5 { bad = 1 }
	     END { exit bad || !NR }' $ROWS
check "startup: no tlat instance left behind" sh -c "! ls $T/instances | grep -q '^tlat_'"
vm_summary
