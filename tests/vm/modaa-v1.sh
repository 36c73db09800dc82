#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# modaa-v1.sh - this tlat with an older tlat.ko, whose /dev/tlat_agg has an
# older layout: version 1 (no stops) or 2 (no warm-up gate): the module
# source takes the trace collector (auto, and -T with the analysis),
# --collector kernel is one line and exit 1, tlat info says why. The older
# tlat.ko comes on /dev/vda, e.g. main before the layout's version 2
# (de6a3bf) or 3 (1248050):
#   scripts/vm/old-module.sh 6.12 de6a3bf /tmp/old.tar
#   scripts/vm/run.sh --series 6.12 --no-checkpatch --no-dkms --disk /tmp/old.tar \
#	--suite tests/vm/modaa-v1.sh

. /tests/lib.sh

TOOL_OUT=/tmp/tool.out
V1_ERR=/tmp/v1.err
V1_WHY="/dev/tlat_agg: another layout of the aggregates: load the tlat.ko built with this tlat"
echo "TAP version 13"
v1_show() { show_tlat $TOOL_OUT $V1_ERR; }
v1_check() {
	desc=$1
	shift
	if "$@"; then ok "$desc"; else not_ok "$desc"; v1_show; fi
}

if ! tar -xf /dev/vda -C /tmp tlat-old.ko 2> /dev/null || ! insmod /tmp/tlat-old.ko enabled=N; then
	not_ok "modaa-v1: no older tlat.ko on /dev/vda (scripts/vm/old-module.sh)"
	vm_summary
	exit
fi
v1_version=$(od -A n -t u2 -j 4 -N 2 /dev/tlat_agg | tr -d ' ')
check "the older tlat.ko's snapshots have an older layout than this tlat's 3 ($v1_version)" \
	test "$v1_version" -ge 1 -a "$v1_version" -lt 3

tlat info > $TOOL_OUT 2> $V1_ERR
v1_check "tlat info: the module's kernel collector is not available, and why" \
	grep -qxF "  module       not available: $V1_WHY" $TOOL_OUT

tlat top -q -d 3 -p 1000 --source module -D > $TOOL_OUT 2> $V1_ERR
rc=$?
v1_check "auto: exit 0, the trace collector, and why" \
	eval '[ $rc = 0 ] && grep -qxF "tlat: module: collector trace: $V1_WHY" $V1_ERR'
v1_check "auto: every CPU counts 1500 to 3000 (+2%)" tool_counts_ok 3 1000

tlat top -q -d 3 --source module --collector kernel > $TOOL_OUT 2> $V1_ERR
rc=$?
v1_check "--collector kernel: one line, exit 1" \
	eval '[ $rc = 1 ] && [ "$(wc -l < $V1_ERR)" = 1 ] &&
	      grep -qxF "tlat: --collector kernel: $V1_WHY" $V1_ERR'

/tests/tlat-hog -c 1 -s 10000 -e 1000 -l /tmp/v1-hog.log &
v1_hog=$!
sleep 1
tlat top -q -d 60 -T 6000 --source module -D > $TOOL_OUT 2> $V1_ERR
rc=$?
kill $v1_hog
wait $v1_hog 2> /dev/null
v1_check "-T 6000 beside a hog: exit 2, the trace collector, the hit analysed" \
	eval '[ $rc = 2 ] && grep -qxF "tlat: module: collector trace: $V1_WHY" $V1_ERR &&
	      grep -qx "## CPU 1 hit stop tracing, analyzing it ##" $TOOL_OUT'

rmmod tlat
check "dmesg has no WARN, BUG, lockdep or stall report" dmesg_clean
vm_summary
