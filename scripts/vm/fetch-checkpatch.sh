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

. "$(dirname "$0")/linux-source.sh"
mkdir -p "$dst"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
top=$(linux_source_extract "$cache" "$pkg" "$tmp" scripts/checkpatch.pl scripts/spelling.txt \
	scripts/const_structs.checkpatch)
mkdir -p "$dst/scripts"
cp "$tmp/$top/scripts/"{checkpatch.pl,spelling.txt,const_structs.checkpatch} "$dst/scripts/"
linux_source_drop "$cache" "$pkg"
echo "$dst/scripts/checkpatch.pl"
