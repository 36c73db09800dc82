# SPDX-License-Identifier: GPL-2.0
#
# stack-fresh.sh - upstream rtla's -s case (timerlat top -s 3 -T 10 -t) on
# tlat.ko freshly loaded, run after run: the hit is then often the first
# activation, whose stack saving is cold (5 ms under TCG), and tlat.ko writes
# that stack with the time of its saving, before the expiry its IRQ sample
# implies. The analysis must still show it: it takes the stack of the hit's
# activation by the seqnum tlat_stack carries, not by time (issue 17).
# Leaves tlat.ko unloaded. A suite of its own (run.sh --suite
# tests/vm/stack-fresh.sh), or sourced by one (busybox sh, lib.sh's check).

SF_RUNS=15
sf_alone=
if ! command -v vm_summary > /dev/null 2>&1; then
	. /tests/lib.sh
	sf_alone=1
fi

if ! command -v bash > /dev/null 2>&1 || [ ! -f /tests/rtla-upstream.sh ]; then
	not_ok "stack on a fresh tlat.ko: bash or /tests/rtla-upstream.sh missing from the VM"
else
	sf_had=0
	for i in $(seq $SF_RUNS); do
		[ -d /sys/module/tlat ] && rmmod tlat
		if ! insmod /lib/tlat/tlat.ko; then
			not_ok "stack on a fresh tlat.ko, run $i: insmod"
			continue
		fi
		bash /tests/rtla-upstream.sh --only 'verify -s/--stack' \
			--extra '--source module' /usr/bin/tlat > /tmp/stack-fresh.out 2>&1
		if grep -qx '1 passed, 0 failed' /tmp/stack-fresh.out; then
			sf_had=$((sf_had + 1))
			ok "stack on a fresh tlat.ko, run $i: Blocking thread stack trace"
		else
			not_ok "stack on a fresh tlat.ko, run $i: Blocking thread stack trace"
			sed 's/^/# /' /tmp/stack-fresh.out | head -n 60
		fi
	done
	[ -d /sys/module/tlat ] && rmmod tlat
	diag "stack on a fresh tlat.ko: $sf_had of $SF_RUNS runs had the hit's stack"
fi

if [ -n "$sf_alone" ]; then
	check "no kernel splat" dmesg_clean
	vm_summary
fi
