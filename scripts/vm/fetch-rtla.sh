#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# fetch-rtla.sh - print the path of an upstream rtla built from Debian's
# linux-source-6.12 package (tools/tracing/rtla), building it into the VM
# cache when needed, for the side-by-side test (tests/vm/aa-rtla.sh).
#
# Why 6.12 and not 7.1: upstream 7.x sources cannot be fetched from this
# machine (no kernel.org access); Debian's linux-source-6.12 is the newest
# kernel source its package archive has. 6.12's rtla has no BPF sample
# collection (that came in 6.15), and it builds against Debian's own
# libtracefs and libtraceevent. Its auto-analysis prints the same lines as
# 7.1's, apart from what tests/vm/aa-rtla.sh lists.
#
# Environment: TLAT_VM_CACHE (default /var/cache/tlat-vm).
set -euo pipefail

cache=${TLAT_VM_CACHE:-/var/cache/tlat-vm}
pkg=${TLAT_RTLA_PKG:-linux-source-6.12}
dst=$cache/rtla-6.12
bin=$dst/rtla-6.12

if [ -x "$bin" ]; then
	echo "$bin"
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
# rtla's Makefiles use tools/build, tools/scripts and the top-level scripts
tar -xf "$tarball" -C "$tmp" --wildcards "$top/tools/tracing/rtla/*" "$top/tools/build/*" \
	"$top/tools/scripts/*" "$top/tools/include/*" "$top/tools/lib/*" "$top/tools/arch/*" \
	"$top/scripts/*" "$top/Makefile"
make -C "$tmp/$top/tools/tracing/rtla" -j"$(nproc)" >&2
install -m 755 "$tmp/$top/tools/tracing/rtla/rtla" "$bin"
echo "$(basename "$deb")" > "$dst/source"
# Keep the cache small: the 150 MB source package is not needed any more.
rm -f "$deb"
echo "$bin"
