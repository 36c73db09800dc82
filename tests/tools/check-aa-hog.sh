#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# check-aa-hog.sh CHECK OUT HOGLOG SAMPLELOG HOGPID CPU THRESHOLD_US [PERCENT]
#
# Checks a tlat auto-analysis (OUT) of a run stopped by tlat-hog against
# what the hog itself logged (HOGLOG: "start_ns end_ns" per spin) and what
# tlat measured (SAMPLELOG, --sample-log: "cpu seq ctx latency_ns time_ns").
# Shared by the live tests on the host and the VM tests, so POSIX sh and awk.
#
# CHECK is one of:
#   names     the blocking thread is tlat-hog:HOGPID
#   duration  its duration is within PERCENT (10) of the real overlap: from
#             the timer's expected expiry (sample time - latency) to the end
#             of the hog's spin that was on before the thread ran, less the
#             time the analysis gives to the IRQ delay and to IRQs, softirqs
#             and NMIs, which the blocking time leaves out (tiny on real
#             hardware, not under TCG)
#   sum       the listed components add up to the thread latency within
#             PERCENT (5)
#   exact     with --aa-extras' "Not in the lines with a share" line, they
#             add up to it exactly (to the rounding of the printed values):
#             the report is consistent
# Diagnostics go to stdout as "# " lines; the exit status is the verdict.

check=$1 out=$2 hoglog=$3 samplelog=$4 pid=$5 cpu=$6 thresh_us=$7 percent=$8

# the number before " us (" on the first line starting with LABEL
aa_us() {
	awk -v label="$1" 'index($0, "  " label) == 1 && match($0, /-?[0-9.]+ us \(/) {
		print substr($0, RSTART, RLENGTH - 5); exit }' "$out"
}

case $check in
names)
	awk -v pid="$pid" 'blocking { exit !($0 ~ "^ +tlat-hog:" pid " +[0-9.]+ us$") }
		index($0, "  Blocking thread:") == 1 { blocking = 1 }
		END { if (!blocking) exit 1 }' "$out" && exit 0
	echo "# the blocking thread is not tlat-hog:$pid"
	exit 1
	;;
duration)
	blocking=$(aa_us "Blocking thread:")
	others=0
	for label in "IRQ handler delay:" "Timerlat IRQ duration:" "NMI interference" \
		     "IRQ interference" "Softirq interference"; do
		v=$(aa_us "$label")
		[ -n "$v" ] && others=$(awk -v s="$others" -v v="$v" 'BEGIN { printf "%.2f", s + v }')
	done
	awk -v cpu="$cpu" -v t="$thresh_us" -v b="$blocking" -v hog="$hoglog" -v o="$others" \
	    -v p="${percent:-10}" '
		$1 == cpu && $3 == "thread" && $4 >= t * 1000 && !e { e = $5 - $4; lat = $4 }
		END {
			if (!e) { print "# no thread sample over the threshold in the sample log"; exit 1 }
			while ((getline line < hog) > 0) {
				split(line, f, " ")
				# the spin that was on when the thread was due or began
				# before it ran (under TCG, interrupts can come late)
				if (f[1] <= e + lat && e <= f[2]) end = f[2]
			}
			if (!end) { printf "# no hog spin between %.0f and the thread\n", e; exit 1 }
			real = (end - e) / 1000 - o
			printf "# blocking %s us, hog overlap %.2f us less %.2f us of IRQs: %.2f us\n",
				b, real + o, o, real
			d = b - real; if (d < 0) d = -d
			exit !(b != "" && d <= real * p / 100)
		}' "$samplelog"
	;;
sum|exact)
	total=$(awk 'match($0, /Thread latency: +[0-9.]+ us/) {
		n = split(substr($0, RSTART, RLENGTH), f, " "); print f[n - 1] }' "$out")
	sum=0
	for label in "IRQ handler delay:" "Timerlat IRQ duration:" "Blocking thread:" \
		     "NMI interference" "IRQ interference" "Softirq interference" \
		     "Thread interference"; do
		v=$(aa_us "$label")
		[ -n "$v" ] && sum=$(awk -v s="$sum" -v v="$v" 'BEGIN { printf "%.2f", s + v }')
	done
	echo "# components sum to $sum us of a $total us thread latency"
	if [ "$check" = exact ]; then
		u=$(aa_us "Not in the lines with a share:")
		awk -v s="$sum" -v u="$u" -v t="$total" 'BEGIN { d = s + u - t; if (d < 0) d = -d
			exit !(u != "" && d <= 0.1) }'
		exit
	fi
	awk -v s="$sum" -v t="$total" -v p="${percent:-5}" 'BEGIN { d = s - t; if (d < 0) d = -d
		exit !(t > 0 && d <= t * p / 100) }'
	;;
*)
	echo "usage: check-aa-hog.sh names|duration|sum|exact OUT HOGLOG SAMPLELOG HOGPID CPU THRESHOLD_US"
	exit 1
	;;
esac
