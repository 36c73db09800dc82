# SPDX-License-Identifier: GPL-2.0
#
# storm-load.sh - STORM_CYCLES load/unload cycles of tlat.ko (sourced, after
# lib.sh and storm-lib.sh). Of every ten cycles, six load and unload it
# plainly, one with parameters (100 us, one CPU, prio 50, stacks), one with
# kthreads=N and a /dev/tlat reader in between, one with its events enabled
# in an instance and /dev/tlat_agg read, unloading while they are on; the
# tenth holds /dev/tlat_agg open across an rmmod, which must be refused
# (EBUSY, the file holds the module) and then succeed once it is closed.
# Every hundredth cycle lets the tool load, run and unload it instead
# (tlat top -d 1 --source module). Each cycle must leave no tlat thread and
# no /sys/module/tlat.

SL=$T/instances/tlatstorm

# storm_cycle I: one cycle; 0 if it went as it should
storm_cycle() {
	case $(($1 % 10)) in
	6) storm_load period_us=100 cpus=$((NCPU - 1)) prio=50 print_stack_us=1 || return 1 ;;
	7) storm_load kthreads=N || return 1
	   /tests/ufd_test 0 5 > /tmp/storm.ufd 2>&1 || { storm_show /tmp/storm.ufd; return 1; } ;;
	8) storm_load || return 1
	   echo 1 > $SL/events/tlat/enable
	   dd if=/dev/tlat_agg of=/dev/null bs=4096 2> /dev/null || return 1 ;;
	9) if [ $(($1 % 100)) = 9 ] && [ -x /usr/bin/tlat ]; then
		   tlat top -q -d 1 --source module > /tmp/storm.tool 2>&1 ||
			   { storm_show /tmp/storm.tool; return 1; }
		   [ ! -d /sys/module/tlat ] || return 1
		   storm_tool_runs=$((storm_tool_runs + 1))
		   return 0
	   fi
	   storm_load || return 1
	   # a reader holding the module: rmmod is refused while it is open
	   # shellcheck disable=SC2217 # sleep holds the file open
	   sleep 5 < /dev/tlat_agg &
	   hold=$!
	   wait_for 2 refcnt_is 1 || { kill $hold; return 1; }
	   if rmmod tlat 2> /dev/null; then kill $hold; return 1; fi
	   kill $hold
	   wait $hold 2> /dev/null
	   wait_for 2 refcnt_is 0 || return 1
	   storm_refused=$((storm_refused + 1)) ;;
	*) storm_load || return 1 ;;
	esac
	[ "$(refcnt)" = 0 ] || return 1
	storm_unload || return 1
	[ -z "$(grep -l '^tlat/' /proc/[0-9]*/comm 2> /dev/null)" ]
}

storm_load_run() {
	mkdir -p $SL
	# a first cycle outside the measure: what the kernel allocates once
	storm_load && storm_unload
	storm_begin load
	storm_tool_runs=0
	storm_refused=0
	bad=0
	dmesg_bad=0
	t0=$(uptime_ms)
	i=0
	while [ $i -lt "$STORM_CYCLES" ]; do
		# the guest's time limit (full scale): the figures of the cycles done
		if [ $((i % 10)) = 0 ] && [ "$(uptime_ms)" -gt "$STORM_STOP_MS" ]; then
			diag "load storm: stopped at the guest's time limit, $STORM_STOP_MS ms"
			break
		fi
		if ! storm_cycle $i; then
			bad=$((bad + 1))
			diag "load storm: cycle $i failed"
			[ -d /sys/module/tlat ] && rmmod tlat 2> /dev/null
		fi
		i=$((i + 1))
		# 2 lines a cycle would push a report out of the ring buffer
		if [ $((i % 100)) = 0 ] && ! storm_dmesg_clean; then
			dmesg_bad=$((dmesg_bad + 1))
			diag "load storm: a kernel report before cycle $i"
		fi
	done
	dt=$(($(uptime_ms) - t0))
	diag "storm-figures load: $i cycles in $dt ms, $bad failed, $storm_tool_runs by the tool, $storm_refused rmmod refused while /dev/tlat_agg was open"
	check "load storm: $i of $STORM_CYCLES load/unload cycles done" test "$i" = "$STORM_CYCLES"
	check "load storm: every cycle clean" test $bad = 0
	check "load storm: no kernel report during the cycles" test $dmesg_bad = 0
	rmdir $SL
	storm_end load /tmp/storm.slab.load
}

storm_load_run
