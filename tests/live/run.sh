#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# run.sh - live tests of tlat on this host, as root: real measurements,
# sample ordering, leaving the system as it was on every exit path (tracefs's
# mounts included, in each state a machine can be in), bad input.
# Usage: tests/live/states.sh STATE tests/live/run.sh [path/to/tlat]
# (make live-test): the suite runs in a private mount namespace, and changes
# none of the host's mounts.
set -u
cd "$(dirname "$0")/../.."
. tests/live/lib.sh
require_root
if [ -z "${TLAT_LIVE_STATE:-}" ]; then
	echo "Bail out! run the live tests through tests/live/states.sh STATE (make live-test)"
	exit 1
fi

TLAT=$(realpath "${1:-./tlat}")
WORK=$(mktemp -d /tmp/tlat-live.XXXXXX)
NCPU=$(nproc)

# the runs this suite left behind: of its own binary only, not another
# session's tlat (another tree's suite, mutations, a benchmark)
kill_own_tlat() {
	local pid

	for pid in $(pgrep -x tlat); do
		[ "$(readlink "/proc/$pid/exe" 2>/dev/null)" = "$TLAT" ] && kill -KILL "$pid"
	done
	return 0
}

cleanup() {
	kill_own_tlat
	stop_tracefs_viewer
	rm -rf "$WORK"
}
trap cleanup EXIT

echo "# machine state: $TLAT_LIVE_STATE ($(fs_mounts | tr '\n' ' '))"

start_tracefs_viewer
BEFORE=$WORK/before.snap
snapshot > "$BEFORE"

same_as_before() {
	snapshot > "$WORK/after.snap"
	if ! diff -u "$BEFORE" "$WORK/after.snap" > "$WORK/snap.diff"; then
		show "$WORK/snap.diff"
		return 1
	fi
}

# bad input: one line on stderr, exit 1, nothing on stdout, nothing changed
# (here, not in core.sh: the parts that use it also run alone)
bad_input() {
	local desc=$1
	shift
	"$@" > "$WORK/bad.out" 2> "$WORK/bad.err"
	local rc=$?
	if [ $rc = 1 ] && [ "$(wc -l < "$WORK/bad.err")" = 1 ] && [ ! -s "$WORK/bad.out" ] &&
	   same_as_before; then
		ok "bad input: $desc: $(cat "$WORK/bad.err")"
	else
		not_ok "bad input: $desc (exit $rc)"
		show "$WORK/bad.out" "$WORK/bad.err"
	fi
}

# The suite's parts, each a file tests/live/PART.sh sourced here, in this
# order. TLAT_LIVE_PARTS="PART..." runs some of them (make san-test), in the
# same order; all of them by default.
ALL_PARTS="core aa json plot compare completion actions opts record backlog upstream"
PARTS=${TLAT_LIVE_PARTS:-$ALL_PARTS}
for part in $PARTS; do
	case " $ALL_PARTS " in
	*" $part "*) ;;
	*) echo "Bail out! unknown part '$part' in TLAT_LIVE_PARTS (parts: $ALL_PARTS)"; exit 1 ;;
	esac
done
echo "# parts: $PARTS"
for part in $ALL_PARTS; do
	case " $PARTS " in
	*" $part "*)
		part_start=$SECONDS
		. tests/live/$part.sh
		echo "# part $part: $((SECONDS - part_start)) s"
		;;
	esac
done

check "all runs left tracefs as they found it" same_as_before
finish
