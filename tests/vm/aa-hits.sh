#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# aa-hits.sh - the timer IRQ filed as such, on each kernel source: tlat
# alone, beside a SCHED_FIFO 97 hog spinning 8 ms every 300 ms on CPU 1,
# top -c 1 -T 5000 -d 10 -q --json, on the timerlat tracer and on tlat.ko,
# until 20 stops were analysed per source: the share where the timer IRQ is
# filed as such (a timer IRQ duration, a handler delay no longer than the
# IRQ latency) rather than as IRQ interference. -k and -u in turn where the
# source has user threads (the timerlat tracer only with timerlat_fd: not
# on 6.1).
#
# The last part of tests/vm/aa-rtla.sh (which sources it with AA_HITS_IN
# set), or a suite alone:
#   scripts/vm/run.sh --series 6.1 --no-checkpatch --no-dkms \
#	--suite tests/vm/aa-hits.sh

if [ -z "${AA_HITS_IN:-}" ]; then
	. /tests/lib.sh
	echo "TAP version 13"
	diag "kernel $(uname -r), $NCPU CPUs"
	CPU=1
	THR=5000
	if ! command -v tlat > /dev/null || [ ! -x /tests/tlat-hog ] ||
	   ! command -v jq > /dev/null; then
		not_ok "aa-hits: tlat, jq and /tests/tlat-hog are needed"
		vm_summary
		exit
	fi
fi
HITS=${AA_RTLA_HITS:-20}

# an analysis that says events were lost around its activation (complete:
# false): it cannot file what it did not see, and says so (CI by hand after
# r36, 6.1's timerlat tracer: 1 of 20)
partial_ok() { jq -e '.auto_analysis.cpus[0].complete == false' /tmp/hit.json > /dev/null; }

# the analysis block of a run's output
hits_block() { sed -n '/^## CPU [0-9]* hit stop tracing, analyzing it ##$/,/ latency: .*(100%)$/p' "$1"; }

filed_ok() {
	jq -e '.auto_analysis.cpus[0] | .stop == "irq" or
		((.timer_irq_ns // 0) > 0 and .irq_handler_delay_ns <= .irq_latency_ns)' \
		/tmp/hit.json > /dev/null
}

/tests/tlat-hog -c $CPU -p 97 -s 8000 -e 300 -l /tmp/hits-hog.log &
hits_hog=$!
sleep 1
for src in timerlat module; do
	modes="-k -u"
	if [ $src = timerlat ]; then
		grep -qw timerlat $T/available_tracers || { diag "aa-hits: no timerlat tracer"; continue; }
		[ -f $T/osnoise/per_cpu/cpu0/timerlat_fd ] || modes=-k
	fi
	hits=0 good=0 tries=0 partial=0
	while [ $hits -lt $HITS ] && [ $tries -lt $((HITS * 2)) ]; do
		tries=$((tries + 1))
		set -- $modes
		[ $# = 2 ] && [ $((tries % 2)) = 0 ] && shift
		mode=$1
		rm -f /tmp/hit.json
		tlat top --source $src -c $CPU -T $THR -d 10 -q $mode --json /tmp/hit.json \
			> /tmp/hit.out 2>&1
		[ $? = 2 ] && grep -q 'analyzing it' /tmp/hit.out || continue
		hits=$((hits + 1))
		if partial_ok; then
			partial=$((partial + 1))
			diag "$src $mode: events lost around the hit: the analysis says it is partial"
		elif filed_ok; then
			good=$((good + 1))
		else
			diag "$src $mode: timer IRQ not filed as such:"
			hits_block /tmp/hit.out | while read -r l; do diag "  $l"; done
			jq -c '.auto_analysis.cpus[0]' /tmp/hit.json 2>&1 | head -c 3000 |
				while read -r l; do diag "  json: $l"; done
		fi
	done
	diag "$src ($modes): timer IRQ filed correctly in $good of $hits analysed hits, $partial partial ($tries runs)"
	check "aa-hits: $src: $HITS hits analysed ($hits in $tries runs)" test $hits -ge $HITS
	check "aa-hits: $src: the timer IRQ filed as such in every complete analysis ($good of $((hits - partial)))" \
		test $good = $((hits - partial))
	check "aa-hits: $src: at most 2 analyses partial, events lost ($partial of $hits)" \
		test $partial -le 2
done
kill $hits_hog
wait $hits_hog 2>/dev/null
check "aa-hits: no tlat instance left behind" sh -c "! ls $T/instances | grep -q '^tlat_'"
vm_summary
