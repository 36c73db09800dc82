#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# fetch-checkpatch.sh - print the path of a checkpatch.pl, fetching it from
# Debian's linux-source-6.12 package into the VM cache when needed.
#
# checkpatch.pl is not shipped in the linux-headers or linux-kbuild packages,
# so the script extracts scripts/checkpatch.pl and the data files it reads
# (spelling.txt, const_structs.checkpatch) from the source tarball.
#
# Environment: TLAT_VM_CACHE (default /var/cache/tlat-vm).
set -euo pipefail

cache=${TLAT_VM_CACHE:-/var/cache/tlat-vm}
pkg=${TLAT_CHECKPATCH_PKG:-linux-source-6.12}
dst=$cache/checkpatch

if [ -x "$dst/scripts/checkpatch.pl" ]; then
	echo "$dst/scripts/checkpatch.pl"
	exit 0
fi

mkdir -p "$cache/debs" "$dst"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd "$cache/debs" && ls ${pkg}_*.deb >/dev/null 2>&1 ||
	apt-get download -q "$pkg" >&2)
deb=$(ls "$cache/debs/${pkg}"_*.deb | sort -V | tail -n 1)
dpkg -x "$deb" "$tmp"
tarball=$(ls "$tmp"/usr/src/linux-source-*.tar.* | head -n 1)
top=$(basename "${tarball%.tar.*}")
tar -xf "$tarball" -C "$tmp" \
	"$top/scripts/checkpatch.pl" "$top/scripts/spelling.txt" \
	"$top/scripts/const_structs.checkpatch"
mkdir -p "$dst/scripts"
cp "$tmp/$top/scripts/"{checkpatch.pl,spelling.txt,const_structs.checkpatch} "$dst/scripts/"
# Keep the cache small: the 150 MB source package is not needed any more.
rm -f "$deb"
echo "$dst/scripts/checkpatch.pl"
