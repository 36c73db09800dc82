#!/bin/busybox sh
# SPDX-License-Identifier: GPL-2.0
#
# /init of the test initramfs built by scripts/vm/run.sh: mount the kernel
# file systems, run the in-VM test suite, report over the serial console and
# power off. The host reads the markers TLAT-VM-BEGIN and TLAT-VM-END.
/bin/busybox mkdir -p /bin /sbin /usr/bin /usr/sbin /proc /sys /dev /tmp
/bin/busybox --install -s
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mount -t tmpfs tmpfs /tmp
mount -t tracefs tracefs /sys/kernel/tracing
export PATH=/usr/bin:/bin:/usr/sbin:/sbin

# run.sh --disk: the virtio modules that give the suite /dev/vda
if [ -f /lib/tlat-disk/order ]; then
	for m in $(cat /lib/tlat-disk/order); do
		insmod "/lib/tlat-disk/$m"
	done
fi

echo "TLAT-VM-BEGIN $(uname -r) cpus=$(nproc)"
# run.sh --suite FILE puts FILE in as custom.sh, in place of the suite.
if [ -f /tests/custom.sh ]; then
	sh /tests/custom.sh
else
	sh /tests/run-tests.sh
fi
echo "TLAT-VM-END rc=$?"
poweroff -f
