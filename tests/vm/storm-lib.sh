# SPDX-License-Identifier: GPL-2.0
#
# storm-lib.sh - what the module's storms (tests/vm/storm-*.sh) share, and
# the checks each one ends with: the kernel log clean, tlat.ko's reference
# count back to 0, /proc/slabinfo (and the vmalloc and per-CPU memory) where
# it was. Sourced after lib.sh, by run-tests.sh (the short storms) and by
# storm.sh (the full ones, make vm-storm).
#
# The scale: "tlat_storm=full" on the kernel command line (run.sh --append)
# selects the full storms, anything else the short ones.

P=/sys/module/tlat/parameters
KO=/lib/tlat/tlat.ko

if grep -q 'tlat_storm=full' /proc/cmdline; then
	STORM_SCALE=full
	STORM_CYCLES=${STORM_CYCLES:-1000}	# load/unload cycles
	STORM_HOTPLUG_S=${STORM_HOTPLUG_S:-30}	# hotplug storm, per run
	STORM_PARAM_ROUNDS=${STORM_PARAM_ROUNDS:-2}
	STORM_INSMOD_STEP=${STORM_INSMOD_STEP:-1}	# insmod NAME=VALUE: all
	STORM_DEV_S=${STORM_DEV_S:-15}		# each /dev/tlat race, seconds
	# the load storm, last, stops there (guest uptime, ms), inside run.sh's
	# 900 s: the figures of what was done rather than a timeout
	STORM_STOP_MS=${STORM_STOP_MS:-830000}
else
	STORM_SCALE=short
	STORM_CYCLES=${STORM_CYCLES:-50}
	STORM_HOTPLUG_S=${STORM_HOTPLUG_S:-10}
	STORM_PARAM_ROUNDS=${STORM_PARAM_ROUNDS:-1}
	STORM_INSMOD_STEP=${STORM_INSMOD_STEP:-4}
	STORM_DEV_S=${STORM_DEV_S:-3}
	STORM_STOP_MS=${STORM_STOP_MS:-999999999}
fi

# Slab growth allowed per cache across one storm, in objects. The counts are
# exact: caches are shrunk first (which flushes SLUB's per-CPU slabs, counted
# as in use otherwise) and the dentry and inode caches dropped; what stays is
# the shell's own churn (a process's files, /tmp), which an idle minute of a
# guest shows to be a few objects. A leak of one object per load/unload
# cycle, per hotplug event or per open is 50 or more objects in the short
# storms and hundreds in the full ones.
SLAB_TOL=${SLAB_TOL:-32}
# vmalloc and per-CPU memory, kB: one CPU's aggregates are 185 kB of vmalloc
VMALLOC_TOL_KB=${VMALLOC_TOL_KB:-256}
PERCPU_TOL_KB=${PERCPU_TOL_KB:-64}
# open files (file-nr): the slab tolerance plus its counter's error, 31 a CPU
FILES_TOL=${FILES_TOL:-$((SLAB_TOL + 31 * NCPU))}

# The kernel log's reports of a bug: lib.sh's, and SLUB's own with
# slub_debug (make vm-storm boots with slub_debug=FZP: red zones and poison
# catch writes past an object and after its free), "BUG kmalloc-64 (Not
# tainted): Poison overwritten".
STORM_SPLAT="$SPLAT"'|BUG [^ :]+ \((Not t|T)ainted|Poison overwritten|Redzone overwritten|Object corrupt|Freepointer corrupt'

# rand N: a random number from 0 to N - 1
rand() { echo $((RANDOM % $1)); }

# msleep_rand MIN_MS MAX_MS: sleep a random time between the two
msleep_rand() {
	ms=$(($1 + RANDOM % ($2 - $1 + 1)))
	sleep "$((ms / 1000)).$(printf %03d $((ms % 1000)))"
}

# storm_show FILE: a helper's output, as comments
storm_show() { while read -r l; do diag "$l"; done < "$1"; }

storm_load() { insmod "$KO" "$@" 2> /dev/null && [ -d $P ]; }
storm_unload() { rmmod tlat 2> /dev/null && [ ! -d /sys/module/tlat ]; }

# the module's reference count (lsmod's "Used by"), or "gone"
refcnt() { cat /sys/module/tlat/refcnt 2> /dev/null || echo gone; }
refcnt_is() { [ "$(refcnt)" = "$1" ]; }
refcnt_zero() {
	r=$(refcnt)
	[ "$r" = 0 ] || diag "tlat.ko's reference count is $r"
	[ "$r" = 0 ]
}

# storm_dmesg_clean: no report in the kernel log (both patterns), which is
# then cleared, so that the next storm starts from an empty log and 2000
# "loaded"/"unloaded" lines do not push a report out of the ring buffer
storm_dmesg_clean() {
	if dmesg | grep -q -E "$STORM_SPLAT"; then
		dmesg | grep -B 2 -A 40 -E "$STORM_SPLAT" | head -n 120 |
			while read -r l; do diag "$l"; done
		dmesg -c > /dev/null
		return 1
	fi
	dmesg -c > /dev/null
}

# slab_snapshot FILE [WAIT_S]: "name active_objects" of every cache, counted
# exactly, WAIT_S (default 1) seconds on,
# then "vmalloc_kb N" and "percpu_kb N" from /proc/meminfo
slab_snapshot() {
	# objects freed after an RCU grace period first: tasks, files, and
	# kfree_rcu()'s batches, drained every 5 s (KFREE_DRAIN_JIFFIES), such
	# as sysfs's kernfs_open_node of every open of a parameter
	sleep "${2:-1}"
	sync
	echo 3 > /proc/sys/vm/drop_caches
	for s in /sys/kernel/slab/*/shrink; do echo 1 > "$s"; done 2> /dev/null
	awk 'NR > 2 { print $1, $2 }' /proc/slabinfo > "$1"
	awk '/^VmallocUsed:/ { print "vmalloc_kb", $2 } /^Percpu:/ { print "percpu_kb", $2 }' \
		/proc/meminfo >> "$1"
	awk '{ print "files", $1 }' /proc/sys/fs/file-nr >> "$1"
}

# slab_delta BEFORE AFTER: "name delta" of every cache that changed, the
# largest growth first
slab_delta() {
	awk 'NR == FNR { b[$1] = $2; next }
	     { d = $2 - b[$1]; if (d != 0) print $1, d; delete b[$1] }
	     END { for (k in b) if (b[k] != 0) print k, -b[k] }' "$1" "$2" | sort -k2,2 -n -r
}

# slab_stable NAME BEFORE: every cache within SLAB_TOL objects of BEFORE
# but the dentry and inode caches, which hold the storm's own lookups (the
# entries of /proc/PID a glob of /proc/[0-9]*/comm creates, about 190 in a
# guest of 4 vCPUs, outlive drop_caches while their tasks live) and are
# reported apart, as is vmap_area: the areas vfree() leaves to a lazy TLB
# purge keep theirs until enough are pending (1105 after 400 CPU state
# changes and three tlat runs on 6.12, with VmallocUsed +48 kB), so that
# vmalloc is held to VmallocUsed, the pages it holds;
# vmalloc and per-CPU memory within theirs; open files are held to the
# kernel's count of them (/proc/sys/fs/file-nr, freed files leave it after
# their RCU grace period) rather than to filp's slab count, which on 6.1
# with slub_debug counts up to 130 objects SLUB's own walk of the cache
# finds free (docs/robustness.md); file-nr reads a per-CPU counter without
# folding the CPUs' parts, up to 31 each (6.12's params storm: +32, then
# -32 after the hotplug storm), hence FILES_TOL; the figures go to the log as
# "storm-figures NAME: ..." lines (docs/robustness.md quotes them)
slab_stable() {
	slab_snapshot /tmp/storm.slab.after 7
	slab_delta "$2" /tmp/storm.slab.after > /tmp/storm.slab.delta
	awk -v name="$1" -v tol=$SLAB_TOL -v vtol=$VMALLOC_TOL_KB -v ptol=$PERCPU_TOL_KB -v ftol="$FILES_TOL" '
		$1 == "vmalloc_kb" { v = $2; if ($2 > vtol) bad = bad " vmalloc+" $2 "kB"; next }
		$1 == "percpu_kb" { p = $2; if ($2 > ptol) bad = bad " percpu+" $2 "kB"; next }
		# the name caches: the tests own lookups; vmalloc areas freed
		# lazily (below)
		$1 == "dentry" || $1 ~ /inode_cache$/ { vfs += $2; next }
		$1 == "vmap_area" { va = $2; next }
		$1 == "filp" { fp = $2; next }
		$1 == "files" { fl = $2; if ($2 > ftol) bad = bad " files+" $2; next }
		{ tot += $2; if ($2 > tol) bad = bad " " $1 "+" $2
		  if (n < 4 && $2 > 0) { top = top " " $1 "+" $2; n++ } }
		END { printf "# storm-figures %s: slab objects %+d in all, most grown:%s; dentry and inode caches %+d, vmap_area %+d; open files %+d (filp %+d); vmalloc %+d kB, percpu %+d kB\n",
			     name, tot, (top == "" ? " none" : top), vfs, va, fl, fp, v, p
		      if (bad != "") print "# over the tolerance:" bad
		      exit bad != "" }' /tmp/storm.slab.delta
}

# storm_end NAME SLAB_BEFORE: the checks every storm ends with, the module
# loaded (its reference count) or not
storm_end() {
	if [ -d /sys/module/tlat ]; then
		check "$1: tlat.ko's reference count back to 0" refcnt_zero
		check "$1: rmmod tlat" storm_unload
	fi
	check "$1: kernel log clean (no WARN, BUG, lockdep, refcount or slab report)" \
		storm_dmesg_clean
	# the short storms (make vm-test) report it: at their scale a shell's
	# churn (6.1: mm_struct, shared_policy_node, kmalloc-8 under hotplug)
	# passes the tolerance
	if [ "$STORM_SCALE" = full ]; then
		check "$1: /proc/slabinfo, vmalloc and per-CPU memory as before (tolerance $SLAB_TOL objects a cache)" \
			slab_stable "$1" "$2"
	elif ! slab_stable "$1" "$2"; then
		diag "$1: slab over the tolerance (short storm: reported, not held)"
	fi
}

# storm_begin NAME: tlat.ko unloaded, the log checked and cleared, the slab
# baseline in /tmp/storm.slab.NAME
storm_begin() {
	[ -d /sys/module/tlat ] && rmmod tlat
	diag "storm $1 ($STORM_SCALE) begins at $(uptime_ms) ms"
	check "$1: kernel log clean before the storm" storm_dmesg_clean
	slab_snapshot "/tmp/storm.slab.$1"
}

# storm_warm: what the kernel allocates once per boot, before any storm's
# count: up to 6.6, the first event enabled, in any instance, expands the
# top-level ring buffer from its boot size to buffer_size_kb
# (tracing_update_buffers(); each instance's own since 6.7), 352 pages a CPU
# whose descriptors (struct buffer_page) are kmalloc-64 objects: 6.1's
# params storm's "kmalloc-64 +1411" on 4 vCPUs (docs/robustness.md)
storm_warm() {
	mkdir -p $T/instances/tlatwarm &&
		echo 1 > $T/instances/tlatwarm/events/sched/sched_switch/enable &&
		echo 0 > $T/instances/tlatwarm/events/sched/sched_switch/enable &&
		rmdir $T/instances/tlatwarm
}

# storms_run: every storm, in turn, with the figures' total time
storms_run() {
	check "storms: the kernel's one-time tracing allocations made" storm_warm
	storms_t0=$(uptime_ms)
	for f in /tests/storm-params.sh /tests/storm-dev.sh /tests/storm-hotplug.sh \
		 /tests/storm-load.sh; do
		. $f
	done
	diag "storm-figures all ($STORM_SCALE): $(($(uptime_ms) - storms_t0)) ms"
}
