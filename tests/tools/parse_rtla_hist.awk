#!/usr/bin/awk -f
# SPDX-License-Identifier: GPL-2.0
# parse_rtla_hist.awk - read the "# RTLA timerlat histogram" text that both
# rtla timerlat hist and tlat hist print, as CI parsers (rteval, Linaro's
# parse_rtla.py) read it, and print one line per column:
#     <column> count=<n> min=<n> avg=<n> max=<n> buckets=<sum of rows> over=<n>
# Exits 1 if the text does not parse: no header, a row of the wrong width,
# or a column whose buckets plus over: do not add up to its count:.
BEGIN { ncol = 0; bad = 0; in_all = 0 }

/^# RTLA timerlat histogram$/ { header = 1; next }
/^# / { next }

/^Index/ {
	for (i = 2; i <= NF; i++)
		col[++ncol] = $i
	next
}

/^ALL:/ { in_all = 1; next }

/^[0-9]+ / {
	if (NF - 1 != ncol) { bad = 1; print "bad row width: " $0 > "/dev/stderr" }
	for (i = 2; i <= NF; i++)
		sum[i - 1] += $i
	next
}

/^over:/ {
	for (i = 2; i <= NF; i++)
		over[i - 1] = $i
	next
}

/^(count|min|avg|max):/ {
	key = substr($1, 1, length($1) - 1)
	if (in_all) {
		for (i = 2; i <= NF; i++)
			all[key, i - 1] = $i
		next
	}
	if (NF - 1 != ncol) { bad = 1; print "bad " key " width" > "/dev/stderr" }
	for (i = 2; i <= NF; i++)
		val[key, i - 1] = $i
	next
}

END {
	if (!header || !ncol)
		bad = 1
	for (i = 1; i <= ncol; i++) {
		printf "%s count=%s min=%s avg=%s max=%s buckets=%d over=%d\n", col[i],
		       val["count", i], val["min", i], val["avg", i], val["max", i], sum[i], over[i]
		if (sum[i] + over[i] != val["count", i]) {
			bad = 1
			print col[i] ": buckets + over != count" > "/dev/stderr"
		}
	}
	exit bad
}
