#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# deb.sh - the Debian packages, installed, in the VM: the suite of
# scripts/vm/run.sh --deb DIR (make vm-test-deb). "Installed" here means:
#  - tlat: its .deb (make deb's) installed by this guest's dpkg (busybox's
#    dpkg -i, dependencies checked against a database that lists the host's
#    library packages, whose libraries run.sh copied in: scripts/vm/deb-root.sh);
#    the tests run /usr/bin/tlat, the file the package installed, checked
#    against the package's md5sums; no tlat.ko is next to it;
#  - tlat.ko: built by DKMS on the host, for this kernel against its headers,
#    from the source that dpkg put in /usr/src/tlat-VERSION when it unpacked
#    tlat-dkms in a scratch root (its postinst not run: it would build for
#    the host's kernels); it is in /lib/modules/$(uname -r)/updates/dkms, where
#    dkms install puts it, and tlat loads it with modprobe (kmod's).
#
# TLAT_DATA_SEC=N on the kernel command line (run.sh --append) adds runs of
# N s of each source at 1000 us, their --json documents written to /dev/vda
# (run.sh --disk) as a tar archive (bench/vm-kernels.sh).

. /tests/lib.sh

TOOL_OUT=/tmp/tool.out
show_tool_out() { while read -r l; do diag "tlat: $l"; done < $TOOL_OUT; }

echo "TAP version 13"
diag "the Debian packages on $(uname -r), $NCPU vCPUs"

deb=$(ls /debs/tlat_*.deb)
check "dpkg -i $(basename "$deb") (the guest's dpkg, dependencies checked)" dpkg -i "$deb"
check "dpkg -l lists tlat as installed (ii)" sh -c 'dpkg -l | grep -q "^ii  tlat "'
check "the package's file list has /usr/bin/tlat" grep -qx /usr/bin/tlat /var/lib/dpkg/info/tlat.list
md5_ok() { (cd / && grep ' usr/bin/tlat$' /var/lib/dpkg/info/tlat.md5sums | md5sum -c -s); }
check "/usr/bin/tlat matches the package's md5sums" md5_ok
check "tlat on PATH is /usr/bin/tlat" test "$(command -v tlat)" = /usr/bin/tlat
check "no tlat.ko next to the binary (tlat's source-tree fallback)" test ! -e /usr/bin/kernel/tlat.ko
KO=/lib/modules/$(uname -r)/updates/dkms/tlat.ko
check "DKMS's tlat.ko is in $KO" test -f "$KO"
check "tlat.ko is not loaded before the runs" test ! -d /sys/module/tlat
check "tlat --version" sh -c 'tlat --version | grep -q "^tlat version"'

global_snapshot > /tmp/global.before

# json_ok FILE SECONDS PERIOD_US: every CPU counted thread samples, between
# half and all of SECONDS/PERIOD (+2%), as tool_counts_ok
json_ok() {
	want=$(($2 * 1000000 / $3))
	[ "$(jq '.cpus | length' "$1")" = "$NCPU" ] || return 1
	for c in $(jq -r '.cpus[].thread.count' "$1"); do
		diag "thread count $c of $want"
		[ "$c" -le $((want + want / 50)) ] && [ "$c" -ge $((want / 2)) ] || return 1
	done
}

# short SOURCE: tlat top -d 5 of SOURCE, its JSON checked
short() {
	tlat top -q -d 5 -p 1000 --source $1 --json /tmp/$1.json > $TOOL_OUT 2>&1
	rc=$?
	show_tool_out
	check "$1 source: tlat top -d 5 --source $1 --json exits 0$2" test $rc = 0
	check "$1 source: the JSON counts 2500 to 5000 (+2%) thread samples per CPU" \
		json_ok /tmp/$1.json 5 1000
}
short module " (tlat.ko by modprobe)"
short timerlat ""

check "the runs left the tracing state and tlat.ko as found" global_same /tmp/global.before

if [ -n "${TLAT_DATA_SEC:-}" ]; then
	for src in timerlat module; do
		tlat top -q -d "$TLAT_DATA_SEC" -p 1000 --source $src \
			--json /tmp/data-$src.json > $TOOL_OUT 2>&1
		rc=$?
		show_tool_out
		check "data: tlat top -d $TLAT_DATA_SEC -p 1000 --source $src --json exits 0" test $rc = 0
	done
	# on the disk as a tar archive: printed on the console, the 300 kB of
	# each document made the guest's serial IRQ look stuck (irq 4: nobody
	# cared) and a kernel line cut into them
	check "data: the JSON documents written to /dev/vda (tar)" \
		tar -cf /dev/vda -C /tmp data-timerlat.json data-module.json
fi

check "dmesg has no WARN, BUG, lockdep or stall report" dmesg_clean
vm_summary
