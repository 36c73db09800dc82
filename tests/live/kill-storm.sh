#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# kill-storm.sh - tlat runs killed at random times (0 to 1.5 s after their
# start: mounting, setting up, measuring) with random signals (INT, TERM,
# HUP, QUIT, KILL); after each, one more run to its end, and then the system
# must be as found: the same tracefs and debugfs mounts, the same instances
# and top-level settings, no process of the killed run left. SIGKILL and
# SIGQUIT leave a run no chance to clean up: the next run takes its mount
# and instance over, and removes them.
#
# Usage: tests/live/kill-storm.sh [-n RUNS] [-s "STATES"] [path/to/tlat]
#   -n  runs killed in all (default 50), split between the states
#   -s  the machine states (tests/live/states.sh; default "none tracefs":
#       tracefs mounted beforehand, and not). Inside a state already
#       (TLAT_LIVE_STATE set, as in the live suite), the runs are all there.
# As root; each state in a private mount namespace. Prints TAP and a summary
# line per state; exits 1 if any check fails.
set -u
cd "$(dirname "$0")/../.."
. tests/live/lib.sh
require_root

runs=50 states="none tracefs"
while getopts n:s: opt; do
	case $opt in
	n) runs=$OPTARG ;;
	s) states=$OPTARG ;;
	*) echo "usage: $0 [-n RUNS] [-s STATES] [tlat]" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
TLAT=$(realpath "${1:-./tlat}")

if [ -z "${TLAT_LIVE_STATE:-}" ]; then
	set -- $states
	fail=0
	per=$(( (runs + $# - 1) / $# ))
	for s in "$@"; do
		tests/live/states.sh "$s" "$0" -n "$per" "$TLAT" || fail=1
	done
	exit $fail
fi

WORK=$(mktemp -d /tmp/tlat-kill-storm.XXXXXX)
trap 'stop_tracefs_viewer; rm -rf "$WORK"' EXIT
start_tracefs_viewer
snapshot > "$WORK/before"
signals=(INT TERM HUP QUIT KILL)
declare -A count
start=$(date +%s)
for i in $(seq "$runs"); do
	sig=${signals[RANDOM % ${#signals[@]}]}
	delay_ms=$(( RANDOM % 1500 ))
	count[$sig]=$(( ${count[$sig]:-0} + 1 ))
	"$TLAT" top -q -d 20 > /dev/null 2> "$WORK/killed.err" &
	pid=$!
	sleep "$(printf '%d.%03d' $((delay_ms / 1000)) $((delay_ms % 1000)))"
	kill -"$sig" "$pid" 2> /dev/null
	wait "$pid"
	rc=$?
	# a QUIT's core dump, if the machine's core_pattern writes one here
	rm -f core core.[0-9]*
	"$TLAT" top -q -d 1 > /dev/null 2> "$WORK/next.err"
	next=$?
	snapshot > "$WORK/after"
	desc="state $TLAT_LIVE_STATE, run $i: SIG$sig after ${delay_ms} ms (exit $rc)"
	if [ "$next" != 0 ]; then
		not_ok "$desc: the next run exits $next"
		show "$WORK/next.err"
	elif kill -0 "$pid" 2> /dev/null; then
		not_ok "$desc: the killed run is still there"
	elif ! diff -u "$WORK/before" "$WORK/after" > "$WORK/diff"; then
		not_ok "$desc: after the next run, the system is not as found"
		show "$WORK/diff"
	else
		ok "$desc: after the next run, the system is as found"
	fi
done
summary=""
for sig in "${signals[@]}"; do
	summary+=" $sig ${count[$sig]:-0},"
done
echo "# kill storm, state $TLAT_LIVE_STATE: $runs runs ($summary in $(( $(date +%s) - start )) s), $NR_FAIL not as found"
finish
