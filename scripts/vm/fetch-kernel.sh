#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# fetch-kernel.sh SERIES - download and unpack Debian's current PREEMPT_RT
# kernel image and headers for SERIES (6.1 or 6.12) into the VM cache.
#
# Versions are worked out at run time from the archive's meta packages
# (linux-image-rt-amd64 tracks 6.1 in bookworm, linux-image-6.12-rt-amd64
# tracks 6.12), so a new Debian point release is picked up automatically.
# Packages are fetched with "apt-get download" and unpacked with "dpkg -x":
# nothing is installed on the host.
#
# Prints three shell assignments on stdout for eval:
#   KREL=<uname -r>  BZIMAGE=<path to vmlinuz>  KDIR=<path to headers tree>
#
# Environment: TLAT_VM_CACHE (default /var/cache/tlat-vm). Concurrent runs
# wait for each other on $TLAT_VM_CACHE/.lock.
set -euo pipefail

series=${1:?usage: fetch-kernel.sh 6.1|6.12}
cache=${TLAT_VM_CACHE:-/var/cache/tlat-vm}

log() { echo "fetch-kernel: $*" >&2; }

case $series in
6.1)	image_meta=linux-image-rt-amd64;	headers_meta=linux-headers-rt-amd64 ;;
*)	image_meta=linux-image-$series-rt-amd64; headers_meta=linux-headers-$series-rt-amd64 ;;
esac

# First "Depends:" of a meta package = the versioned package it points at.
dep_of() {
	apt-cache depends "$1" 2>/dev/null |
		awk '$1 == "Depends:" || $1 == "|Depends:" { print $2; exit }'
}

# Fall back to the newest versioned package of that name pattern when the
# meta package is unknown (e.g. the series is no longer tracked by one).
newest_matching() {
	apt-cache search --names-only "$1" 2>/dev/null | awk '{ print $1 }' |
		sort -V | tail -n 1
}

image_pkg=$(dep_of "$image_meta")
if [ -z "$image_pkg" ]; then
	esc=${series//./\\.}
	image_pkg=$(newest_matching "^linux-image-${esc}[.0-9-]*(\\+deb[0-9]+)?-rt-amd64\$")
fi
if [ -z "$image_pkg" ]; then
	log "cannot resolve a PREEMPT_RT image for $series (did apt-get update run?)"
	exit 1
fi
krel=${image_pkg#linux-image-}
case $krel in
"$series".*) ;;
*) log "resolved $image_pkg does not belong to series $series"; exit 1 ;;
esac

headers_pkg=linux-headers-$krel
# The headers package depends on its -common-rt and linux-kbuild packages.
extra_pkgs=$(apt-cache depends "$headers_pkg" 2>/dev/null |
	awk '$1 ~ /Depends:$/ && $2 ~ /^linux-(headers|kbuild)-/ { print $2 }' |
	grep -v -- "-rt-amd64" | sort -u)
if [ -z "$extra_pkgs" ]; then
	log "cannot resolve the dependencies of $headers_pkg"
	exit 1
fi
log "$series: $image_pkg, $headers_pkg, $(echo $extra_pkgs)"

debs=$cache/debs
root=$cache/root/$krel
mkdir -p "$debs" "$root"
# Runs may share the cache (a CI job beside a developer's); one at a time
# downloads and unpacks, the others then find it done.
exec 9> "$cache/.lock"
flock 9
# apt-get download fetches as the _apt user where it can write.
chown _apt "$debs" 2>/dev/null || true

fetch() {
	local pkg=$1 ver
	ver=$(apt-cache policy "$pkg" | awk '$1 == "Candidate:" { print $2 }')
	# apt-get download names files <pkg>_<version with ':' -> %3a>_<arch>.deb
	if ! ls "$debs/${pkg}_${ver//:/%3a}_"*.deb >/dev/null 2>&1; then
		log "downloading $pkg $ver"
		(cd "$debs" && apt-get download -q "$pkg=$ver" >&2)
	fi
	ls "$debs/${pkg}_${ver//:/%3a}_"*.deb | head -n 1
}

# the virtio modules a VM needs for a disk (run.sh --disk), in load order
DISK_MODULES="drivers/virtio/virtio_ring.ko drivers/virtio/virtio.ko
	drivers/virtio/virtio_pci_legacy_dev.ko drivers/virtio/virtio_pci_modern_dev.ko
	drivers/virtio/virtio_pci.ko drivers/block/virtio_blk.ko"

if [ ! -e "$root/.unpacked-3" ]; then
	rm -rf "$root"
	mkdir -p "$root"
	for pkg in "$image_pkg" "$headers_pkg" $extra_pkgs; do
		deb=$(fetch "$pkg")
		log "unpacking $(basename "$deb")"
		dpkg -x "$deb" "$root"
	done
	# The arch headers' Makefile is a single absolute
	# "include /usr/src/linux-headers-<ver>-common-rt/Makefile"; point it
	# into the unpack root. Every other link in the trees is relative.
	sed -i "s|^include /usr/src/|include $root/usr/src/|" \
		"$root/usr/src/linux-headers-$krel/Makefile"
	# Only vmlinuz, the headers and the disk's modules (uncompressed, for
	# busybox's insmod) are needed: drop the 100+ MB of the other modules.
	mkdir -p "$root/disk-modules"
	for m in $DISK_MODULES; do
		f=$root/lib/modules/$krel/kernel/$m
		if [ -e "$f" ]; then
			cp "$f" "$root/disk-modules/"
		elif [ -e "$f.xz" ]; then
			xz -dc "$f.xz" > "$root/disk-modules/$(basename "$m")"
		elif [ -e "$f.zst" ]; then
			zstd -qdc "$f.zst" > "$root/disk-modules/$(basename "$m")"
		fi
		# (absent: built in, or not needed by this kernel)
		[ -e "$root/disk-modules/$(basename "$m")" ] &&
			basename "$m" >> "$root/disk-modules/order"
	done
	rm -rf "$root/lib/modules/$krel/kernel"
	touch "$root/.unpacked-3"
fi

echo "KREL=$krel"
echo "BZIMAGE=$root/boot/vmlinuz-$krel"
echo "KDIR=$root/usr/src/linux-headers-$krel"
echo "DISK_MODULES_DIR=$root/disk-modules"
