# SPDX-License-Identifier: GPL-2.0
#
# linux-source.sh - sourced by scripts/vm/fetch-*.sh (bash): files of
# Debian's linux-source package, downloaded into the VM cache once.

# linux_source_extract CACHE PKG DIR PATH...: extract PATHs (tar wildcards,
# under the tarball's top directory) of PKG's source tarball into DIR, and
# print that top directory's name. PKG's .deb stays in CACHE/debs until
# linux_source_drop.
linux_source_extract() {
	local cache=$1 pkg=$2 dir=$3 deb tarball top p
	local paths=()
	shift 3
	mkdir -p "$cache/debs"
	(cd "$cache/debs" && ls "${pkg}"_*.deb >/dev/null 2>&1 ||
		apt-get download -q "$pkg" >&2)
	deb=$(ls "$cache/debs/${pkg}"_*.deb | sort -V | tail -n 1)
	dpkg -x "$deb" "$dir"
	tarball=$(ls "$dir"/usr/src/linux-source-*.tar.* | head -n 1)
	top=$(basename "${tarball%.tar.*}")
	for p in "$@"; do
		paths+=("$top/$p")
	done
	tar -xf "$tarball" -C "$dir" --wildcards "${paths[@]}"
	echo "$top"
}

# linux_source_drop CACHE PKG: the 150 MB package is not needed any more
linux_source_drop() {
	rm -f "$1/debs/$2"_*.deb
}
