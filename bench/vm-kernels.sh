#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# vm-kernels.sh - Debian's 6.1 RT against 6.12 RT in the QEMU guests, as
# data for tlat compare: the same tlat (the tlat .deb, installed in the
# guest), the same options (tlat top -q -d SEC -p 1000 --source SRC --json,
# 2 vCPUs), each kernel's tlat.ko built by DKMS from tlat-dkms
# (tests/vm/deb.sh, run.sh --deb). Under TCG the guest's clock is the host's
# and its CPU an emulator's: the figures are QEMU's, not the kernels'
# latencies; the point is that tlat compare reads real kernel-vs-kernel files.
#
#   bench/vm-kernels.sh run OUT SERIES [SEC]   one kernel (6.1 or 6.12), SEC
#                                               s a source (default 60); as
#                                               root, after make deb: boots
#                                               one QEMU guest (one host CPU)
#   bench/vm-kernels.sh extract OUT DISK SERIES the JSONs on a run's disk
#   bench/vm-kernels.sh analyze OUT TLAT        tlat compare 6.1 6.12 of each
#                                               source: text, --json,
#                                               --junit, --plot
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/.." && pwd)

# extract OUT DISK SERIES: the documents that tests/vm/deb.sh wrote on the
# guest's disk, as OUT/SERIES-SOURCE.json
extract() {
	local out=$1 disk=$2 s=$3 src tmp
	tmp=$(mktemp -d)
	tar -xf "$disk" -C "$tmp"
	for src in timerlat module; do
		mv "$tmp/data-$src.json" "$out/$s-$src.json"
		jq -e '.schema_version' "$out/$s-$src.json" > /dev/null || {
			echo "vm-kernels.sh: no valid $src JSON on $disk" >&2
			return 1
		}
	done
	rm -rf "$tmp"
}

case ${1:-} in
run)
	out=$2 s=$3 sec=${4:-60}
	mkdir -p "$out"
	truncate -s 16M "$out/disk-$s.img"
	"$repo/scripts/vm/run.sh" --disk "$out/disk-$s.img" --series "$s" --no-checkpatch --no-dkms \
		--deb "$repo/build/deb" --suite "$repo/tests/vm/deb.sh" \
		--append "TLAT_DATA_SEC=$sec" > "$out/vm-$s.log" 2>&1 || {
		tail -n 30 "$out/vm-$s.log" >&2
		exit 1
	}
	extract "$out" "$out/disk-$s.img" "$s"
	rm -f "$out/disk-$s.img"
	;;
extract)
	extract "$2" "$3" "$4"
	;;
analyze)
	out=$2 tlat=$3
	for src in timerlat module; do
		b=$out/6.1-$src.json n=$out/6.12-$src.json
		echo "## source $src: tlat compare 6.1-$src.json 6.12-$src.json"
		echo "# BASE $(jq -r .system.release "$b"), NEW $(jq -r .system.release "$n")"
		rc=0
		"$tlat" compare --json "$out/compare-$src.json" --junit "$out/compare-$src.xml" \
			--plot "$out/compare-$src.png" "$b" "$n" || rc=$?
		echo "# exit status $rc"
		echo
	done
	;;
*)
	sed -n '3,21p' "$0" | sed 's/^# \{0,1\}//'
	exit 2
	;;
esac
