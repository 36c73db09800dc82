# SPDX-License-Identifier: GPL-2.0
#
# In-VM tests of the trace collector's per-CPU read (--readers) with the
# timerlat source, whose records stand alone per CPU, sourced by
# run-tests.sh among the tool tests (uses check, ok, not_ok, diag, within,
# global_snapshot, global_same, $NCPU). Two reader threads against the merged
# read: the same counts per CPU, every activation whole in the sample log, and
# a -T stop that still exits 2 with its hit. (The host has no kernel source:
# its live test sees only the tracepoint source's merged read.)

RD_OUT=/tmp/rd.out
RD_ERR=/tmp/rd.err

global_snapshot > /tmp/rd.before
show_rd() { show_tlat $RD_OUT $RD_ERR; }
# "cpu count" of each CPU's row of a top summary
rd_counts() { grep -E '^ *[0-9]+ +#[0-9]+' "$1" | awk '{ print $1, substr($2, 2) }'; }

tlat top -d 5 -q --source timerlat --readers 2 -D --sample-log /tmp/rd.log \
	> $RD_OUT 2> $RD_ERR
rc=$?
if [ $rc = 0 ] && grep -qx 'tlat: trace buffers read per-CPU, 2 readers' $RD_ERR; then
	ok "--readers 2: exit 0, -D says per-CPU, 2 readers"
else
	not_ok "--readers 2: exit 0, -D says per-CPU, 2 readers (exit $rc)"
	show_rd
fi
rd_counts $RD_OUT > /tmp/rd.counts
# each activation's samples, IRQ <= thread <= user-return (none with kernel threads)
rd_whole() {
	awk '{ k = $1 " " $2; lat[k, $3] = $4; keys[k] = 1 }
		END { for (k in keys) { n++
			if (!((k, "irq") in lat) || !((k, "thread") in lat) ||
			    lat[k, "irq"] > lat[k, "thread"] ||
			    ((k, "user") in lat && lat[k, "thread"] > lat[k, "user"]))
				if (++bad <= 5) printf "# activation %s incomplete or out of order\n", k }
		      exit !(n > 0 && !bad) }' /tmp/rd.log
}
check "--readers 2: every activation whole in --sample-log" rd_whole
tlat top -d 5 -q --source timerlat --readers merged -D > $RD_OUT 2> $RD_ERR
rc=$?
check "--readers merged: exit 0, -D says merged" \
	test $rc = 0 -a "$(grep -cx 'tlat: trace buffers read merged, because --readers merged' $RD_ERR)" = 1 ||
	show_rd
rd_counts $RD_OUT > /tmp/rm.counts
rd_agree() {
	[ "$(wc -l < /tmp/rd.counts)" = "$NCPU" ] && [ "$(wc -l < /tmp/rm.counts)" = "$NCPU" ] ||
		return 1
	paste /tmp/rd.counts /tmp/rm.counts | while read -r c1 n1 c2 n2; do
		diag "cpu $c1: per-CPU read $n1, merged $n2"
		[ "$c1" = "$c2" ] && within "$n1" "$n2" 5 || exit 1
	done
}
check "--readers 2 and merged: every CPU's count within 5% (TCG skips periods)" rd_agree
tlat top -d 30 -q --source timerlat --readers 2 -T 1 --no-aa -D > $RD_OUT 2> $RD_ERR
rc=$?
check "--readers 2 -T 1 --no-aa: exit 2, the hit reported, read per CPU" \
	test $rc = 2 -a "$(grep -cx 'timerlat hit stop tracing' $RD_OUT)" = 1 \
	-a "$(grep -cx 'tlat: trace buffers read per-CPU, 2 readers' $RD_ERR)" = 1 || show_rd
check "--readers: osnoise and the instances as before" global_same /tmp/rd.before
