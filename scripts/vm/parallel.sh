#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# parallel.sh - several scripts/vm/run.sh invocations side by side, as many
# at a time as the host has CPUs (env TLAT_VM_JOBS). Single-threaded TCG keeps
# one host CPU busy per guest, so on two CPUs two guests take the time of one.
#
#   scripts/vm/parallel.sh "--series 6.1" "--series 6.12 --no-checkpatch"
#
# Each argument is one run's arguments, parsed as shell words (quotes kept).
# Each run's output is printed whole once all have ended, in argument order,
# then one line per run; the exit status is non-zero if any run failed.
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
max=${TLAT_VM_JOBS:-$(nproc)}

# apt's lock is not shared: install and update once, before the runs.
"$here/run.sh" --prepare || exit 1

out=$(mktemp -d "${TMPDIR:-/tmp}/tlat-vm-parallel.XXXXXX")
trap 'kill $(jobs -p) 2>/dev/null; wait; rm -rf "$out"' EXIT
trap 'exit 130' INT TERM

n=0
for args in "$@"; do
	while [ "$(jobs -rp | wc -l)" -ge "$max" ]; do
		wait -n
	done
	echo "# vm run $n started $(date +%T): run.sh $args"
	(eval "\"$here/run.sh\" $args" > "$out/$n.log" 2>&1; echo $? > "$out/$n.rc") &
	n=$((n + 1))
done
wait

fail=0
i=0
for args in "$@"; do
	echo "# ---- vm run $i: run.sh $args"
	cat "$out/$i.log"
	i=$((i + 1))
done
i=0
for args in "$@"; do
	rc=$(cat "$out/$i.rc" 2>/dev/null || echo 1)
	echo "# vm run $i exit $rc: run.sh $args"
	[ "$rc" = 0 ] || fail=1
	i=$((i + 1))
done
exit $fail
