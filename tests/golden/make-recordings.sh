#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tests/golden/make-recordings.sh - make the golden recordings again, as root:
# the timerlat and module sources on Debian's PREEMPT_RT 6.1 and 6.12 in the
# VMs (tests/golden/vm-record.sh, with trace-cmd's own recording of the
# timerlat tracer), and the tracepoint source on this host, each stopped by a
# hog's hit. They are stored xz-compressed in tests/golden/recordings/.
# Then tests/golden/run.sh --update writes what tlat prints of them.
#
# Only for new test data: the point of the recordings is that they do not
# change, so that the code that reads them can (tests/golden/run.sh).
set -euo pipefail
cd "$(dirname "$0")/../.."
out=tests/golden/recordings
mkdir -p "$out"
make -s tlat tests/tools/tlat-hog
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

for series in 6.1 6.12; do
	# the VM writes its files as a tar to this disk
	truncate -s 64M "$work/disk.img"
	scripts/vm/run.sh --series "$series" --no-checkpatch --no-dkms \
		--suite tests/golden/vm-record.sh --disk "$work/disk.img" > "$work/log" 2>&1 || true
	grep '^# ' "$work/log" || true
	mkdir -p "$work/$series"
	tar xf "$work/disk.img" -C "$work/$series"
	(cd "$work/$series" && md5sum -c --quiet MD5SUMS)
	for f in "$work/$series"/*.dat; do
		xz -9e < "$f" > "$out/$(basename "$f").xz"
	done
	rm -f "$work/disk.img"
done

# the tracepoint source, on this host: the hog spins 3 ms every 200 ms on CPU 1
tests/tools/tlat-hog -c 1 -s 3000 -l "$work/hog.log" &
hog=$!
sleep 1
tests/live/states.sh none ./tlat record -o "$work/tracepoints-host.dat" -c 0,1 -T 1500 -s 1500 \
	-d 30 -q --warm-up 1 --dump-tasks || true
kill $hog
xz -9e < "$work/tracepoints-host.dat" > "$out/tracepoints-host.dat.xz"
ls -l "$out"
