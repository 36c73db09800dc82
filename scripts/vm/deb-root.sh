#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# deb-root.sh ROOT DEB... - a dpkg database in ROOT (ROOT/var/lib/dpkg) in
# which DEB...'s dependencies are installed: the status entries of the
# packages they depend on, recursively, copied from this host's database,
# where they are installed. dpkg (the host's with --root=ROOT, or busybox's
# in a VM whose / is ROOT) then installs DEB... there checking their
# dependencies, as on a Debian system. Only the database is written: the
# files of those packages are not copied (scripts/vm/run.sh copies the
# libraries that the installed binaries load).
set -euo pipefail

if [ $# -lt 2 ]; then
	echo "usage: deb-root.sh ROOT DEB..." >&2
	exit 2
fi
root=$1
shift

# the names in a Depends or Pre-Depends field, one per line: the first
# alternative installed here, versions and :any dropped
dep_names() {
	local alt a
	for alt in $(echo "$1" | tr ',' '\n' | sed 's/([^)]*)//g; s/:any//g; s/ //g'); do
		for a in ${alt//|/ }; do
			if dpkg-query -W -f='${Status}' "$a" 2>/dev/null | grep -q 'ok installed'; then
				echo "$a"
				break
			fi
		done
	done
}

declare -A seen=()
queue=()
for deb in "$@"; do
	mapfile -t more < <(dep_names "$(dpkg-deb -f "$deb" Depends Pre-Depends |
		sed 's/^[A-Za-z-]*: //' | tr '\n' ',')")
	queue+=("${more[@]}")
done

db=$root/var/lib/dpkg
mkdir -p "$db/info" "$db/updates"
: > "$db/status"
while [ ${#queue[@]} -gt 0 ]; do
	p=${queue[0]}
	queue=("${queue[@]:1}")
	[ -z "${seen[$p]:-}" ] || continue
	seen[$p]=1
	dpkg-query -s "$p" >> "$db/status"
	echo >> "$db/status"
	# an empty file list: dpkg warns of each package that has none
	: > "$db/info/$(dpkg-query -W -f='${binary:Package}' "$p").list"
	mapfile -t more < <(dep_names "$(dpkg-query -W -f='${Depends}, ${Pre-Depends}' "$p")")
	queue+=("${more[@]}")
done
