#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# install-deps.sh - install the Debian 12 packages tlat needs to build, test
# and benchmark. Idempotent: installs only what is missing.
set -eu

PKGS=(
	build-essential pkg-config
	libtracefs-dev libtraceevent-dev libtracecmd-dev libcpupower-dev libproc2-dev
	libjson-c-dev		# --json
	libxml2-dev		# tlat compare --junit
	libcmocka-dev
	clang bpftool libbpf-dev	# the BPF collector (built without them, tlat falls back)
	libclang-rt-14-dev	# clang's libFuzzer and sanitizer runtimes (make fuzz, unit-test)
	rt-tests		# cyclictest, the benchmark's anchor
	trace-cmd		# the record tests read tlat's trace.dat with trace-cmd report
	man-db groff-base	# the man page tests render with man -l
	python3-jsonschema	# the live tests validate --json against its schema
	procps util-linux	# ps, pkill, setpriv, unshare, taskset in the live tests
	gnuplot-nox		# tlat hist --plot draws with it
	file python3		# the plot tests check PNG and SVG files
	jq			# the live and VM tests read --json documents
	python3-yaml lava-common	# tests/ci checks the CI examples with LAVA's schemas
	debhelper dh-dkms lintian	# make deb
)

missing=()
for p in "${PKGS[@]}"; do
	[ "$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null)" = "install ok installed" ] ||
		missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" != 0 ]; then
	echo "install-deps.sh: run as root to install: ${missing[*]}" >&2
	exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}"
