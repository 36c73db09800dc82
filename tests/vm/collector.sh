#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# collector.sh - a short in-VM suite of the kernel collectors alone
# (tool-collector.sh, which the default suite also runs among the tool
# tests), for run.sh --suite.
#
# Expects /usr/bin/tlat and tlat.ko where modprobe finds it.

. /tests/lib.sh

TOOL_OUT=/tmp/tool.out
diag "collectors: $NCPU vCPUs on $(uname -r)"
. /tests/tool-collector.sh

check "dmesg has no WARN, BUG, lockdep or stall report" dmesg_clean
vm_summary
