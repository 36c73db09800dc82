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

. "$(dirname "$0")/linux-source.sh"
mkdir -p "$dst"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# rtla's Makefiles use tools/build, tools/scripts and the top-level scripts
top=$(linux_source_extract "$cache" "$pkg" "$tmp" 'tools/tracing/rtla/*' 'tools/build/*' \
	'tools/scripts/*' 'tools/include/*' 'tools/lib/*' 'tools/arch/*' 'scripts/*' Makefile)
make -C "$tmp/$top/tools/tracing/rtla" -j"$(nproc)" >&2
install -m 755 "$tmp/$top/tools/tracing/rtla/rtla" "$bin"
echo "$pkg $(basename "$(ls "$cache/debs/${pkg}"_*.deb | sort -V | tail -n 1)")" > "$dst/source"
linux_source_drop "$cache" "$pkg"
echo "$bin"
