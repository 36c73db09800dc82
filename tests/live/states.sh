#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# states.sh - run a command in a private mount namespace set to one of the
# states users' machines are in, so that no test changes the host's mounts:
#
#   none     nothing mounted (a fresh Debian machine, this project's CI)
#   tracefs  tracefs at /sys/kernel/tracing
#   debugfs  debugfs at /sys/kernel/debug only: tracefs is reachable only as
#            its tracing/ directory, which the kernel automounts (older systems)
#   both     both (systemd's default on Debian, Ubuntu and Fedora, or what an
#            earlier trace-cmd record leaves)
#
# Usage: tests/live/states.sh STATE COMMAND [ARG...]
# COMMAND sees TLAT_LIVE_STATE=STATE. Whatever it mounts or unmounts goes
# with the namespace when it ends.
set -u

if [ $# -lt 2 ]; then
	echo "usage: $0 none|tracefs|debugfs|both COMMAND [ARG...]" >&2
	exit 2
fi
state=$1
shift
case $state in
none|tracefs|debugfs|both) ;;
*) echo "states.sh: unknown state '$state'" >&2; exit 2 ;;
esac

# unshare without --fork keeps the pid: it tells the re-executed script apart
if [ "${TLAT_STATES_NS:-}" != "$$" ]; then
	exec unshare -m --propagation private env TLAT_STATES_NS=$$ "$0" "$state" "$@"
fi
unset TLAT_STATES_NS

# every tracefs and debugfs mount of this namespace, innermost first
fs_mounts() {
	awk '$3 == "tracefs" || $3 == "debugfs" { print $2 }' /proc/mounts | sort -r
}
for m in $(fs_mounts); do
	umount -l "$m" || { echo "states.sh: cannot unmount $m" >&2; exit 1; }
done
if [ -n "$(fs_mounts)" ]; then
	echo "states.sh: tracefs or debugfs still mounted:" $(fs_mounts) >&2
	exit 1
fi
case $state in
tracefs) mount -t tracefs nodev /sys/kernel/tracing ;;
debugfs) mount -t debugfs nodev /sys/kernel/debug ;;
both) mount -t debugfs nodev /sys/kernel/debug &&
      mount -t tracefs nodev /sys/kernel/tracing ;;
esac || { echo "states.sh: cannot set up state $state" >&2; exit 1; }

export TLAT_LIVE_STATE=$state
exec "$@"
