# SPDX-License-Identifier: GPL-2.0
# periods.awk - accounts for every period of a live run on the tracepoints
# source from its --sample-log, so that a count check tells a host stall from
# a lost sample. A thread late by L skips floor(L / period) periods and keeps
# its grid (src/sources/tracepoints/tp_thread.c), as the kernel's timerlat threads do: a stalled
# host (seen: 11 ms, both vCPUs at once) has fewer samples, but no fewer
# periods. L is up to the marker's write, the user sample's time: a stall
# between the marker's clock read and its write (seen: 3.5 ms) is not in the
# user-return latency. So, per CPU:
#  - activations + skipped periods is the run's length in periods, within 5%;
#  - every expected expiry is on the CPU's grid;
#  - a skip follows a late activation; the unexplained rest (a stall between
#    the marker's write and the next arming, or a lost sample) is at most 0.5%
#    of the run, plus the periods of a stall the test made, or that the
#    collector reported dropped (stall).
# Usage: awk -v want=PERIODS -v period_ns=NS -v ncpu=N [-v stall=PERIODS]
#        -f periods.awk LOG
# LOG lines: cpu seq irq|thread|user latency_ns monotonic_ns (samplelog.c)

{
	key = $1 SUBSEP $2
	if ($3 == "thread")
		expected[key] = $5 - $4
	else if ($3 == "user")
		user_ts[key] = $5
	if (!($1 in last_seq) || $2 > last_seq[$1])
		last_seq[$1] = $2
}

END {
	for (cpu in last_seq) {
		ncpus++
		n = 0; skipped = 0; unexplained = 0; off_grid = 0; prev = ""
		for (seq = 0; seq <= last_seq[cpu]; seq++) {
			key = cpu SUBSEP seq
			if (!(key in expected))
				continue
			n++
			if (prev != "") {
				gap = (expected[key] - expected[prev]) / period_ns
				if (gap != int(gap) || gap < 1) {
					off_grid++
					printf "# cpu %s seq %s: expiry %.0f ns after the last, off the %.0f ns grid\n",
					       cpu, seq, expected[key] - expected[prev], period_ns
				} else {
					skipped += gap - 1
					late = int((user_ts[prev] - expected[prev]) / period_ns)
					if (gap - 1 > late)
						unexplained += gap - 1 - late
				}
			}
			prev = key
		}
		span = n + skipped
		printf "# cpu %s: %d activations + %d skipped periods = %d of %d, %d unexplained\n",
		       cpu, n, skipped, span, want, unexplained
		if (span < want * 0.95 || span > want * 1.05 || off_grid ||
		    unexplained > want * 0.005 + stall)
			bad = 1
	}
	if (ncpus != ncpu) {
		printf "# %d CPUs in the log, %d measured\n", ncpus, ncpu
		bad = 1
	}
	exit bad
}
