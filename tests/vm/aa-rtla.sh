#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# aa-rtla.sh - the auto-analysis side by side with upstream rtla, in the
# 6.12 guest (make vm-test-aa: scripts/vm/run.sh --suite this file).
#
# Upstream rtla is built by scripts/vm/fetch-rtla.sh from Debian's
# linux-source-6.12 (tools/tracing/rtla, no BPF, Debian's libtracefs and
# libtraceevent), installed as /usr/bin/rtla-6.12. It is 6.12's and not
# 7.1's because upstream 7.x sources cannot be fetched from the build
# machine; 6.12's timerlat_aa.c prints with the same format strings as 7.1's
# (shared/reference/rtla.md section 2.4).
#
# 1. rtla and tlat in turn, with -k and with -u, beside a SCHED_FIFO 97 hog
#    spinning 8 ms every 300 ms on CPU 1: top -c 1 -T 5000 -d 20 -q -t.
#    - both name the hog as the blocking thread in some run of each mode,
#      and neither names anyone but the hog or the idle task;
#    - tlat prints "Saving trace to" before the summary (-q), as 7.1 does
#      (6.12 printed it after the analysis), and both save the kernel's
#      text (# tracer: timerlat);
#    - with numbers masked and each name:id kept only as its columns, every
#      line of tlat's analysis is a line rtla printed in the same runs, in
#      rtla's order, apart from what tlat(8) lists: the "(events were lost
#      ...)" line and an "others" line past 64 occurrences.
# 2. tlat alone, on each kernel source (timerlat, module), -k and -u in
#    turn, until 20 stops were analysed: the share where the timer IRQ is
#    filed as such (tests/vm/aa-hits.sh, which runs alone on 6.1 too).

. /tests/lib.sh

RTLA=/usr/bin/rtla-6.12
CPU=1
THR=5000
DUR=20
TRIALS=${AA_RTLA_TRIALS:-2}
HITS=${AA_RTLA_HITS:-20}

echo "TAP version 13"
diag "kernel $(uname -r), $NCPU CPUs"

# the analysis block of a run's output
aa_block() { sed -n '/^## CPU [0-9]* hit stop tracing, analyzing it ##$/,/ latency: .*(100%)$/p' "$1"; }

# the blocking thread's comm:pid
blocker() {
	aa_block "$1" | awk '/^  Blocking thread/ { b = 1; next }
		b && /^ +[^ ]+:[0-9]+/ { print $1; exit }'
}

# masked lines: numbers as X, a name:id as the column of its ':' and the
# line's length (rtla's %24s and %-Nllu fix both), stack frames as one line
aa_mask() {
	aa_block "$1" | awk '
		# a %9.2f number and its unit, as a run of # as long: the layout stays
		function hide(l) {
			while (match(l, / *-?[0-9]+\.[0-9]+ us/)) {
				h = ""
				for (i = 0; i < RLENGTH; i++)
					h = h "#"
				l = substr(l, 1, RSTART - 1) h substr(l, RSTART + RLENGTH)
			}
			gsub(/\(-?[0-9]+\.[0-9]+ %\)/, "(X %)", l)
			return l
		}
		/^ +-> / { print "STACK"; next }
		/^ +others:[0-9]* / { next }	# tlat(8): past 64 occurrences
		/^ +[^ ]+:[0-9]+( |$)/ && !/ latency: / {
			c = index($0, ":"); n = length($0)
			print "NAME@" c "/" n ($0 ~ / us$/ ? " us" : ""); next
		}
		{ l = hide($0); gsub(/CPU [0-9]+/, "CPU N", l); print l }' | uniq
}

# Whether a hit's latency is its timer IRQ's own lateness (the IRQ handler
# delay over half of it; under single-threaded TCG a vCPU's interrupt can wait
# for its turn, 8.7 ms in CI r22): whoever ran between the IRQ and the
# thread then did not make the latency, and may be anyone (ksoftirqd).
irq_late() {
	awk '/^  IRQ handler delay:/ && match($0, /\([0-9.]+ %\)/) {
		if (substr($0, RSTART + 1, RLENGTH - 4) + 0 >= 50) late = 1
	} END { exit !late }' "$1"
}

hog=""
hog_start() {
	/tests/tlat-hog -c $CPU -p 97 -s 8000 -e 300 -l /tmp/hog.log &
	hog=$!
	sleep 1
}
hog_stop() { kill $hog; wait $hog 2>/dev/null; }

if [ ! -x $RTLA ] || ! command -v tlat > /dev/null || [ ! -x /tests/tlat-hog ]; then
	not_ok "aa-rtla: $RTLA, tlat and /tests/tlat-hog are needed (scripts/vm/fetch-rtla.sh)"
	vm_summary
	exit
fi
grep -qw timerlat $T/available_tracers || { not_ok "aa-rtla: no timerlat tracer"; vm_summary; exit; }

# ---- 1. side by side
: > /tmp/rtla.masked
: > /tmp/tlat.masked
hog_start
t=1
while [ $t -le $TRIALS ]; do
	for mode in -k -u; do
		for tool in rtla tlat; do
			out=/tmp/$tool$mode-$t.out
			rm -f /tmp/$tool.trace
			if [ $tool = rtla ]; then
				$RTLA timerlat top -c $CPU -T $THR -d $DUR -q --trace=/tmp/rtla.trace $mode \
					> $out 2>&1
			else
				tlat top --source timerlat -c $CPU -T $THR -d $DUR -q \
					--trace=/tmp/tlat.trace $mode > $out 2>&1
			fi
			rc=$?
			who=$(blocker $out)
			irq_late $out && who="irq-late($who)"
			diag "$tool $mode trial $t: exit $rc, blocking ${who:-none}"
			echo "$mode $who" >> /tmp/$tool.blockers
			aa_mask $out >> /tmp/$tool.masked
			aa_block $out | while read -r l; do diag "  $l"; done
			order=$(awk '/^  Saving trace to /{ print "S" } /^ +Timer Latency/{ print "H" }
				/hit stop tracing$/{ print "X" }' $out | tr -d '\n')
			# 6.12's rtla exits 0 after a stop
			grep -q 'hit stop tracing$' $out && echo "$order" >> /tmp/$tool.order
			[ -s /tmp/$tool.trace ] && head -1 /tmp/$tool.trace >> /tmp/$tool.tracers
		done
	done
	t=$((t + 1))
done
hog_stop

for mode in -k -u; do
	for tool in rtla tlat; do
		check "aa-rtla: $tool $mode names the hog in some run" \
			grep -q -- "^$mode tlat-hog:" /tmp/$tool.blockers
	done
done
only_hog_or_idle() {
	! grep -v -E ' (tlat-hog:[0-9]+|swapper/[0-9]+:0|irq-late\(.*\))?$' /tmp/$1.blockers
}
check "aa-rtla: rtla blames only the hog or the idle task" only_hog_or_idle rtla
check "aa-rtla: tlat blames only the hog or the idle task" only_hog_or_idle tlat
# with -q: 7.1 saves the trace (an action, in its loop) before the summary,
# the stop line and the analysis (S H X); 6.12 saved it last (H X S)
check "aa-rtla: tlat's order is 7.1's, S H X ($(sort -u /tmp/tlat.order | tr '\n' ' ')); 6.12's H X S" \
	sh -c '[ "$(sort -u /tmp/tlat.order)" = SHX ] && [ "$(sort -u /tmp/rtla.order)" = HXS ]'
check "aa-rtla: both saved the kernel's text (# tracer: timerlat)" \
	sh -c '[ "$(sort -u /tmp/rtla.tracers)" = "# tracer: timerlat" ] &&
	       [ "$(sort -u /tmp/tlat.tracers)" = "# tracer: timerlat" ]'
# rtla's format strings (timerlat_aa.c, the same in 6.12 and 7.1), masked as
# above: the lines rtla prints in cases these runs may not show
cat > /tmp/rtla.formats << 'EOF'
## CPU N hit stop tracing, analyzing it ##
  Previous IRQ interference:                  up to##############
  IRQ handler delay:                  (exit from idle)############## (X %)
  IRQ handler delay:################################################ (X %)
  IRQ latency:######################################################
  Blocking thread:
  Timerlat IRQ duration:############################################ (X %)
  Blocking thread:################################################## (X %)
    Blocking thread stack trace
STACK
  NMI interference################################################## (X %)
  IRQ interference################################################## (X %)
  Softirq interference############################################## (X %)
  Thread interference############################################### (X %)
------------------------------------------------------------------------
     IRQ latency:################################################### (100%)
  Thread latency:################################################### (100%)
NAME@33/42
NAME@33/68 us
NAME@27/68 us
EOF
diag "rtla's masked lines not among its format strings: $(sort -u /tmp/rtla.masked |
	grep -v -x -F -f /tmp/rtla.formats | tr '\n' '|')"
# every masked line of tlat's is one rtla printed, or one of its formats
cat /tmp/rtla.formats >> /tmp/rtla.masked
foreign=$(sort -u /tmp/tlat.masked | grep -v -x -F -f /tmp/rtla.masked |
	grep -v -e '^  (events were lost around this activation: the analysis is partial)$')
check "aa-rtla: every line of tlat's analyses is one rtla printed or formats (masked)" \
	test -z "$foreign"
[ -n "$foreign" ] && echo "$foreign" | while read -r l; do diag "not rtla's: $l"; done
# in rtla's order: within each block, tlat's titles follow rtla's formats
in_order() {
	grep -v -e '^NAME@' -e '^STACK$' /tmp/tlat.masked |
		awk 'NR == FNR { pos[$0] = FNR; next }
		     /^## CPU/ { last = 0 }
		     ($0 in pos) { if (pos[$0] < last) bad = 1; last = pos[$0] }
		     END { exit bad }' /tmp/rtla.formats -
}
check "aa-rtla: tlat's lines come in rtla's order" in_order

# ---- 2. the timer IRQ, filed as such, on each kernel source (aa-hits.sh,
# which runs alone on 6.1 too; it ends the suite)
AA_HITS_IN=aa-rtla
. /tests/aa-hits.sh
