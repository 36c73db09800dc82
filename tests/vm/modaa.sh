#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# modaa.sh - a short in-VM suite of the module source's kernel collector
# with -T and the deferred auto-analysis (tool-modaa.sh), and the kernel
# collectors' own tests (tool-collector.sh), for run.sh --suite; the
# default suite runs both among the tool tests.
#
# Expects /usr/bin/tlat and tlat.ko where modprobe finds it.

. /tests/lib.sh

TOOL_OUT=/tmp/tool.out
diag "module -T, kernel collector: $NCPU vCPUs on $(uname -r)"
global_snapshot > /tmp/ma.before
. /tests/tool-modaa.sh
check "the module -T runs left the system as they found it" global_same /tmp/ma.before
. /tests/tool-collector.sh

check "dmesg has no WARN, BUG, lockdep or stall report" dmesg_clean
vm_summary
