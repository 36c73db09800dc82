#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# mounts-same.sh - fails if what ran since left more or fewer tracefs mounts
# than there were: tests must leave the machine as they found it, and a
# helper that mounted tracefs to read a format (trace-cmd convert did) left
# it mounted for every later test to find.
# Usage: tests/tools/mounts-same.sh BEFORE WHAT
#   BEFORE  the count of tracefs lines in /proc/mounts before WHAT ran
#   WHAT    what ran, for the message ("the unit tests")
after=$(grep -c ' tracefs ' /proc/mounts)
if [ "$after" != "$1" ]; then
	echo "not ok - $2 left $after tracefs mounts, found $1"
	exit 1
fi
echo "ok - $2 left the tracefs mounts as found ($1)"
