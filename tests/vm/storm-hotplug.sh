# SPDX-License-Identifier: GPL-2.0
#
# storm-hotplug.sh - CPU hotplug storms under tlat runs (sourced, after lib.sh
# and storm-lib.sh). Every 100 to 500 ms a random CPU other than 0 goes
# offline if it is online, online if not, for STORM_HOTPLUG_S seconds from
# 8 s after tlat's instance appears (a CPU offline when tlat starts stops it
# at once, with one line: "cannot start the measuring thread on CPU 1"),
# while tlat top measures with the module source (kernel threads, -k; in the
# full storm also its default, user threads through /dev/tlat) and with the
# timerlat source's kernel threads. tlat must keep measuring to its end (exit 0) or stop with
# one line and exit 1; either way the global tracing state is as it found
# it, and the kernel log clean.

tlat_measuring() { ls $T/instances | grep -q '^tlat'; }

# hotplug_storm SECONDS OUT: the storm, in the background, once tlat
# measures (its instance appeared 8 s ago: its threads are up, under TCG);
# writes "toggles failed-writes" to OUT at its end, every CPU online again
hotplug_storm() {
	wait_for 60 tlat_measuring && sleep 8
	end=$(($(uptime_ms) + $1 * 1000))
	toggles=0
	werr=0
	while [ "$(uptime_ms)" -lt $end ]; do
		f=/sys/devices/system/cpu/cpu$((1 + $(rand $((NCPU - 1)))))/online
		if [ "$(cat $f)" = 1 ]; then v=0; else v=1; fi
		if echo $v > $f 2> /dev/null; then
			toggles=$((toggles + 1))
		else
			werr=$((werr + 1))
		fi
		msleep_rand 100 500
	done
	for f in /sys/devices/system/cpu/cpu*/online; do
		[ "$(cat $f)" = 1 ] || echo 1 > $f
	done
	echo "$toggles $werr" > "$2"
}

all_online() { [ "$(grep -c . /sys/devices/system/cpu/online)" = 1 ] &&
	       [ "$(cat /sys/devices/system/cpu/online)" = "0-$((NCPU - 1))" ]; }

# hotplug_case NAME TLAT-ARGS...: one tlat run under the storm
hotplug_case() {
	name="hotplug storm, $1"
	shift
	global_snapshot > /tmp/storm.global
	hotplug_storm "$STORM_HOTPLUG_S" /tmp/storm.hp &
	hp=$!
	t0=$(uptime_ms)
	# a run that outlasts the storm (which waits for it to measure)
	tlat top -q -d "$((STORM_HOTPLUG_S + 12))s" "$@" > /tmp/storm.out 2> /tmp/storm.err
	rc=$?
	dt=$(($(uptime_ms) - t0))
	wait $hp
	read -r toggles werr < /tmp/storm.hp
	lines=$(grep -c . /tmp/storm.err)
	while read -r l; do diag "tlat (stderr): $l"; done < /tmp/storm.err
	diag "storm-figures $name: $toggles CPU state changes ($werr writes refused) in $STORM_HOTPLUG_S s; tlat exit $rc after $dt ms, $lines line(s) on stderr"
	if [ $rc = 0 ]; then
		ok "$name: tlat kept measuring to its end (exit 0)"
	elif [ $rc = 1 ] && [ "$lines" = 1 ]; then
		ok "$name: tlat stopped with one line, exit 1"
	else
		not_ok "$name: tlat exit 0, or exit 1 with one line (exit $rc, $lines lines)"
		storm_show /tmp/storm.out
	fi
	check "$name: the CPU states changed (at least 4 times)" test "$toggles" -ge 4
	check "$name: every CPU online again" all_online
	check "$name: the global tracing state as found" global_same /tmp/storm.global
	check "$name: kernel log clean" storm_dmesg_clean
}

storm_hotplug_run() {
	if [ "$NCPU" -lt 2 ] || [ ! -w /sys/devices/system/cpu/cpu1/online ]; then
		ok "# SKIP hotplug storm: no CPU can go offline"
		return 0
	fi
	if [ ! -x /usr/bin/tlat ]; then
		ok "# SKIP hotplug storm: no tlat in this VM"
		return 0
	fi
	storm_begin hotplug
	hotplug_case "module source, kernel threads" --source module -k
	# by default user threads through /dev/tlat, as rtla; each read of a
	# CPU gone offline fails, and that CPU's thread ends
	[ $STORM_SCALE = full ] && hotplug_case "module source, user threads" --source module
	# kernel threads: with user threads (timerlat_fd, its default where it
	# exists), 6.12.117's timerlat tracer wakes a freed task from its timer
	# under this storm (timerlat_irq -> try_to_wake_up on slab poison, RCU
	# stalls, then an Oops: the kernel's bug, docs/robustness.md)
	hotplug_case "timerlat source, kernel threads" --source timerlat -k
	storm_end hotplug /tmp/storm.slab.hotplug
}

storm_hotplug_run
