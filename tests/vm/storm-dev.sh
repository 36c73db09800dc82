# SPDX-License-Identifier: GPL-2.0
#
# storm-dev.sh - /dev/tlat and /dev/tlat_agg under misuse (sourced, after
# lib.sh and storm-lib.sh), by /tests/dev_storm (tests/vm/dev_storm.c): opens
# from the wrong CPU and reads after moving, STORM_DEV_S seconds of 4
# openers a CPU racing, short and odd reads of both devices (racing with
# resets), signals during blocking reads (a 1 s period, so that a read
# that missed its signal shows), and the warm-up's gate of the stops.

# dev_storm ARGS...: one dev_storm run, its lines numbered as checks
dev_storm() {
	/tests/dev_storm "$@" > /tmp/storm.dev 2>&1
	rc=$?
	while read -r l; do
		case $l in
		"ok - "*) ok "dev storm: ${l#ok - }" ;;
		"not ok - "*) not_ok "dev storm: ${l#not ok - }" ;;
		*) echo "$l" ;;
		esac
	done < /tmp/storm.dev
	check "dev storm: dev_storm $1 exits 0" test $rc = 0
}

storm_dev_run() {
	storm_begin dev
	if [ "$NCPU" -ge 2 ]; then
		storm_load kthreads=N cpus=0 || { not_ok "dev storm: insmod"; return; }
		dev_storm wrong-cpu 0 1
		echo "0-$((NCPU - 1))" > $P/cpus
	else
		storm_load kthreads=N || { not_ok "dev storm: insmod"; return; }
		ok "# SKIP dev storm: wrong CPU needs 2 CPUs"
	fi
	dev_storm opens "$STORM_DEV_S"
	dev_storm short "$STORM_DEV_S"
	echo 1000000 > $P/period_us
	dev_storm signals "$STORM_DEV_S" 1000000
	echo 1000 > $P/period_us
	# the warm-up's gate of stop_*_us, in kernel threads measuring
	echo Y > $P/kthreads
	dev_storm gate
	echo N > $P/kthreads
	storm_end dev /tmp/storm.slab.dev
}

storm_dev_run
