#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# storm.sh - the in-VM suite of the module's storms (make vm-storm): each
# storm-*.sh in turn, at the scale "tlat_storm=full" on the kernel command
# line selects (storm-lib.sh), without it the short one run-tests.sh also
# runs. Expects /lib/tlat/tlat.ko, /usr/bin/tlat, /tests/ufd_test and
# /tests/dev_storm; 2 to 4 vCPUs (the hotplug storm needs 2).

. /tests/lib.sh
. /tests/storm-lib.sh

echo "TAP version 13"
diag "storms ($STORM_SCALE) on $(uname -r), $NCPU CPUs"
storms_run
check "dmesg has no WARN, BUG, lockdep or stall report" dmesg_clean
vm_summary
