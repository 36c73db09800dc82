#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# offline.sh - a short in-VM suite of measured CPUs that are offline when
# tlat starts (tool-offline.sh, which the default suite also runs among the
# tool tests), for run.sh --suite.
#
# Expects /usr/bin/tlat and tlat.ko where modprobe finds it.

. /tests/lib.sh

diag "offline CPUs: $NCPU vCPUs on $(uname -r)"
. /tests/tool-offline.sh

check "dmesg has no WARN, BUG, lockdep or stall report" dmesg_clean
vm_summary
