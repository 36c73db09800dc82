#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# run.sh - build tlat.ko for PREEMPT_RT kernels, boot each kernel in QEMU
# with the in-VM tests (tests/vm/), and report.
#
#   scripts/vm/run.sh                    Debian's current 6.1 and 6.12 -rt
#   scripts/vm/run.sh --series 6.12      one series (repeatable)
#   scripts/vm/run.sh --kernel BZIMAGE --kdir DIR
#                                        a kernel built elsewhere (an RT CI):
#                                        DIR is its build tree, or its
#                                        headers, or /lib/modules/VER/build
#
# Options:
#   --timeout SEC     per VM (default 1500, env TLAT_VM_TIMEOUT)
#   --tool PATH       tlat binary to put in the VM (default: ./tlat if built)
#   --no-tool         do not put the tool in the VM
#   --no-checkpatch   skip checkpatch.pl --strict on kernel/
#   --no-dkms         skip the DKMS build of kernel/dkms.conf
#   --append ARGS     extra kernel command line
#   --suite FILE      run FILE in the VM instead of tests/vm/run-tests.sh
#   --disk FILE       a raw disk image, /dev/vda in the VM (the virtio modules
#                     are loaded at boot): how a suite hands files back
#   --smp N           vCPUs (default 2, env TLAT_VM_SMP); the default suite
#                     expects 2, tests/vm/many-cpus.sh any number
#   --icount OPTS     QEMU -icount options, e.g. shift=3,sleep=off: guest
#                     time independent of host load (6.12 boots with it,
#                     6.1 hangs at SMP bring-up); default: off
#   --deb DIR         test the Debian packages in DIR (make deb's build/deb)
#                     instead of this tree: dpkg --unpack puts tlat-dkms in
#                     a scratch root, DKMS builds tlat.ko from the source it
#                     installed (as its postinst would), and the VM gets that
#                     tlat.ko in /lib/modules/KREL/updates/dkms, kmod's
#                     modprobe, and the tlat .deb, which the suite installs
#                     with the guest's (busybox) dpkg: tests/vm/deb.sh
#   --keep            keep the work directory (kept anyway on failure)
#   --prepare         install the host's dependencies and package lists, then
#                     exit: parallel.sh does it once before its runs, which
#                     would otherwise contend for apt's lock
#
# Environment: TLAT_VM_CACHE (download cache, default /var/cache/tlat-vm),
# TLAT_VM_TIMEOUT, TLAT_VM_ICOUNT (as --icount), TLAT_VM_CPU (QEMU -cpu,
# default max).
#
# Downloads are cached in ${TLAT_VM_CACHE:-/var/cache/tlat-vm}. Results are
# TAP-like lines; the last line is "N passed, N failed" and the exit status
# is non-zero if any test failed, a VM panicked or hung, or a kernel log
# showed a WARN, BUG or lockdep splat.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
export TLAT_VM_CACHE=${TLAT_VM_CACHE:-/var/cache/tlat-vm}

series=()
kernel=""
kdir=""
timeout=${TLAT_VM_TIMEOUT:-1500}
tool=""
use_tool=1
checkpatch=1
dkms=1
append=""
keep=0
prepare=0
suite=""
disk=""
deb=""
icount=${TLAT_VM_ICOUNT:-}
smp=${TLAT_VM_SMP:-2}

usage() {
	sed -n '4,48p' "$0" | sed 's/^# \{0,1\}//'
	exit "${1:-0}"
}

while [ $# -gt 0 ]; do
	case $1 in
	--series) series+=("$2"); shift ;;
	--kernel) kernel=$2; shift ;;
	--kdir) kdir=$2; shift ;;
	--timeout) timeout=$2; shift ;;
	--tool) tool=$2; shift ;;
	--no-tool) use_tool=0 ;;
	--no-checkpatch) checkpatch=0 ;;
	--no-dkms) dkms=0 ;;
	--append) append=$2; shift ;;
	--keep) keep=1 ;;
	--prepare) prepare=1 ;;
	--icount) icount=$2; shift ;;
	--smp) smp=$2; shift ;;
	--suite) suite=$(realpath "$2"); shift ;;
	--disk) disk=$(realpath "$2"); shift ;;
	--deb) deb=$(realpath "$2"); shift ;;
	-h|--help) usage 0 ;;
	*) echo "run.sh: unknown argument '$1'" >&2; usage 2 >&2 ;;
	esac
	shift
done
if [ -n "$kernel" ] || [ -n "$kdir" ]; then
	if [ -z "$kernel" ] || [ -z "$kdir" ]; then
		echo "run.sh: --kernel and --kdir go together" >&2
		exit 2
	fi
	kernel=$(realpath "$kernel")
	kdir=$(realpath "$kdir")
elif [ ${#series[@]} -eq 0 ]; then
	series=(6.1 6.12)
fi

passed=0
failed=0
ok() { passed=$((passed + 1)); echo "ok - $*"; }
not_ok() { failed=$((failed + 1)); echo "not ok - $*"; }
log() { echo "# $*"; }

# ---- host dependencies, installed once
ensure_deps() {
	local pkgs=(qemu-system-x86 busybox-static gcc-12 gcc libc6-dev make
		    dwarves kmod cpio dkms rtla trace-cmd jq)
	local missing=() p
	for p in "${pkgs[@]}"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null |
			grep -q 'install ok installed' || missing+=("$p")
	done
	[ ${#missing[@]} -eq 0 ] && return 0
	log "installing ${missing[*]}"
	export DEBIAN_FRONTEND=noninteractive
	if ! apt-get install -y -q --no-install-recommends "${missing[@]}" >&2; then
		apt-get update -q >&2
		apt-get install -y -q --no-install-recommends "${missing[@]}" >&2
	fi
}

work=$(mktemp -d "${TMPDIR:-/tmp}/tlat-vm.XXXXXX")
qpid=""
cleanup() {
	if [ -n "$qpid" ]; then
		kill "$qpid" 2>/dev/null || true
		wait "$qpid" 2>/dev/null || true
	fi
	if [ $keep = 0 ] && [ $failed = 0 ]; then
		rm -rf "$work"
	else
		echo "# work directory kept: $work"
	fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

ensure_deps
# apt-get download and apt-cache need package lists.
if [ -n "${series[*]}" ] && ! apt-cache show linux-image-rt-amd64 >/dev/null 2>&1; then
	apt-get update -q >&2
fi
[ $prepare = 0 ] || exit 0

if [ $use_tool = 1 ] && [ -z "$tool" ] && [ -x "$repo/tlat" ]; then
	tool=$repo/tlat
fi
[ $use_tool = 1 ] || tool=""
if [ -n "$deb" ]; then
	# the packages' tlat, not this tree's
	tool=""
	deb_tlat=$(ls "$deb"/tlat_*.deb)
	deb_dkms=$(ls "$deb"/tlat-dkms_*.deb)
	dpkg-deb -x "$deb_tlat" "$work/deb-tlat"
fi

# ---- the user-space test helper, static so that it needs no library
gcc -O2 -Wall -Wextra -static -pthread -o "$work/ufd_test" \
	"$repo/tests/vm/ufd_test.c"
gcc -O2 -Wall -Wextra -static -pthread -I"$repo/kernel" -o "$work/dev_storm" \
	"$repo/tests/vm/dev_storm.c"
gcc -O2 -Wall -Wextra -static -o "$work/tlat-hog" "$repo/tests/tools/tlat-hog.c"

# ---- checkpatch, once
if [ $checkpatch = 1 ]; then
	if cp=$("$here/fetch-checkpatch.sh" 2>"$work/checkpatch.err") &&
	   make -s -C "$repo/kernel" checkpatch CHECKPATCH="$cp" \
		> "$work/checkpatch.log" 2>&1; then
		ok "checkpatch --strict: kernel/ is clean"
	else
		cat "$work/checkpatch.err" "$work/checkpatch.log" 2>/dev/null
		not_ok "checkpatch --strict: kernel/"
	fi
fi

# build_module NAME KDIR: W=1 build of kernel/ in a private copy; echoes the
# path of tlat.ko.
build_module() {
	local name=$1 dir=$2 b=$work/$1/build
	mkdir -p "$b"
	cp "$repo"/kernel/Kbuild "$repo"/kernel/*.[ch] "$b/"
	if ! make -C "$dir" M="$b" W=1 modules > "$work/$name/build.log" 2>&1; then
		cat "$work/$name/build.log" >&2
		return 1
	fi
	if grep -E 'warning:|error:' "$work/$name/build.log" >&2; then
		return 1
	fi
	echo "$b/tlat.ko"
}

# dkms_build NAME KDIR KREL: build the module the way kernel/README tells users to
# install it, with dkms.conf, in a private DKMS tree, from the source that
# "make install" puts in /usr/src/tlat-<version>.
dkms_build() {
	local name=$1 dir=$2 krel=$3 d=$work/$1/dkms ver
	ver=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"/\1/p' "$repo/kernel/dkms.conf")
	mkdir -p "$d/tree"
	make -s -C "$repo" install DESTDIR="$d/root" DKMS_SRCDIR="/src/tlat-$ver" > "$d/log" 2>&1 &&
	dkms add --dkmstree "$d/tree" --sourcetree "$d/root/src" -m tlat -v "$ver" \
		>> "$d/log" 2>&1 &&
	dkms build --dkmstree "$d/tree" --sourcetree "$d/root/src" -m tlat -v "$ver" \
		-k "$krel" --kernelsourcedir "$dir" >> "$d/log" 2>&1 &&
	[ -n "$(find "$d/tree" -name 'tlat.ko*')" ] && return 0
	cat "$d/log"
	return 1
}

# deb_dkms NAME KDIR KREL: tlat-dkms installed the way dpkg installs it, in
# a scratch root (dpkg --root, its dependencies in the root's database by
# deb-root.sh), but unpacked only: its postinst would run DKMS on this
# host's kernels. DKMS then does what that postinst does (dkms add, dkms
# build) from the source the package put in ROOT/usr/src, in a private DKMS
# tree, for KREL against KDIR; echoes the path of the tlat.ko it built.
deb_dkms() {
	local name=$1 dir=$2 krel=$3 d=$work/$1/deb-dkms ver
	ver=$(dpkg-deb -f "$deb_dkms" Version)
	mkdir -p "$d/tree"
	"$here/deb-root.sh" "$d/root" "$deb_dkms" > "$d/log" 2>&1 &&
	dpkg --root="$d/root" --unpack "$deb_dkms" >> "$d/log" 2>&1 &&
	dpkg --root="$d/root" -s tlat-dkms >> "$d/log" 2>&1 &&
	dkms add --dkmstree "$d/tree" --sourcetree "$d/root/usr/src" -m tlat -v "$ver" \
		>> "$d/log" 2>&1 &&
	dkms build --dkmstree "$d/tree" --sourcetree "$d/root/usr/src" -m tlat -v "$ver" \
		-k "$krel" --kernelsourcedir "$dir" >> "$d/log" 2>&1 &&
	find "$d/tree" -name tlat.ko | grep . && return 0
	cat "$d/log" >&2
	return 1
}

# copy_libs FILE ROOT: the shared libraries FILE needs.
copy_libs() {
	local f=$1 root=$2 lib
	for lib in $(ldd "$f" 2>/dev/null | awk '/=> \// { print $3 } /^\t\// { print $1 }') \
		   $(gcc -print-file-name=libgcc_s.so.1); do
		# glibc dlopen()s libgcc_s at thread exit; ldd does not list it.
		[ -e "$lib" ] || continue
		mkdir -p "$root$(dirname "$lib")"
		cp -L "$lib" "$root$lib"
		case $lib in
		*/libgcc_s.so.1) mkdir -p "$root/lib/x86_64-linux-gnu"
				 cp -L "$lib" "$root/lib/x86_64-linux-gnu/" ;;
		esac
	done
}

# copy_with_libs FILE ROOT: FILE, in ROOT/usr/bin, and the shared libraries it needs.
copy_with_libs() {
	install -D -m 755 "$1" "$2/usr/bin/$(basename "$1")"
	copy_libs "$1" "$2"
}

# make_initramfs NAME KO KREL: echoes the path of the cpio archive.
make_initramfs() {
	local name=$1 ko=$2 krel=$3 root=$work/$1/root
	mkdir -p "$root"/{bin,sbin,usr/bin,usr/sbin,proc,sys,dev,tmp,tests,lib/tlat}
	cp /bin/busybox "$root/bin/busybox"
	install -m 755 "$repo/tests/vm/init.sh" "$root/init"
	install -m 755 "$repo"/tests/vm/*.sh "$root/tests/"
	install -m 644 "$repo/tests/tools/parse_rtla_hist.awk" "$root/tests/"
	rm -f "$root/tests/init.sh"
	[ -n "$suite" ] && install -m 755 "$suite" "$root/tests/custom.sh"
	# --disk: init loads these, in order, before the suite runs
	if [ -n "$disk" ] && [ -d "${DISK_MODULES_DIR:-}" ]; then
		mkdir -p "$root/lib/tlat-disk"
		cp "$DISK_MODULES_DIR"/* "$root/lib/tlat-disk/"
	fi
	install -m 755 "$work/ufd_test" "$root/tests/ufd_test"
	install -m 755 "$work/dev_storm" "$root/tests/dev_storm"
	# the auto-analysis tests' hog and checker, shared with the live tests
	install -m 755 "$work/tlat-hog" "$root/tests/tlat-hog"
	install -m 755 "$repo/tests/tools/check-aa-hog.sh" "$root/tests/"
	# upstream rtla's test cases (tests/vm/tool-upstream.sh): bash runs them
	install -m 755 "$repo/tests/tools/rtla-upstream.sh" "$root/tests/"
	copy_with_libs /bin/bash "$root"
	install -m 644 "$ko" "$root/lib/tlat/tlat.ko"
	if [ -n "$deb" ]; then
		# where dkms install puts it on Debian; kmod's modprobe, as
		# Debian's (busybox's has no -n, which tlat's loadable check runs)
		install -D -m 644 "$ko" "$root/lib/modules/$krel/updates/dkms/tlat.ko"
		copy_with_libs /usr/bin/kmod "$root"
		ln -s /usr/bin/kmod "$root/sbin/modprobe"
		# the tlat .deb, for the suite's dpkg -i; the dependencies'
		# entries in the database, and the libraries tlat loads
		mkdir -p "$root/debs"
		cp "$deb_tlat" "$root/debs/"
		"$here/deb-root.sh" "$root" "$deb_tlat"
		copy_libs "$work/deb-tlat/usr/bin/tlat" "$root"
		copy_with_libs /usr/bin/jq "$root"
	else
		# Also where modprobe looks, for the tool's module loading.
		install -D -m 644 "$ko" "$root/lib/modules/$krel/extra/tlat.ko"
	fi
	depmod -b "$root" "$krel" 2>/dev/null || true
	if [ -n "$tool" ]; then
		copy_with_libs "$tool" "$root"
		# The tool also loads kernel/tlat.ko found next to its binary
		# (busybox modprobe has no -n for its "loadable" check).
		install -D -m 644 "$ko" "$root/usr/bin/kernel/tlat.ko"
		# Debian's rtla, for side-by-side tests of the timerlat source.
		if [ -x /usr/bin/rtla ]; then
			copy_with_libs /usr/bin/rtla "$root"
		fi
		# upstream rtla (scripts/vm/fetch-rtla.sh), for tests/vm/aa-rtla.sh
		if [ -n "${TLAT_VM_RTLA:-}" ] && [ -x "$TLAT_VM_RTLA" ]; then
			copy_with_libs "$TLAT_VM_RTLA" "$root"
		fi
		# Debian's trace-cmd: recordings for tlat report, and a reader of tlat's
		if [ -x /usr/bin/trace-cmd ]; then
			copy_with_libs /usr/bin/trace-cmd "$root"
		fi
		# jq: the in-VM tests read tlat's --json documents with it
		copy_with_libs /usr/bin/jq "$root"
	fi
	(cd "$root" && find . | cpio -o -H newc --quiet) > "$work/$name/initrd.cpio"
	echo "$work/$name/initrd.cpio"
}

SPLAT='WARNING:|BUG:|Oops|Kernel panic|general protection|Call Trace:|INFO: task .* blocked|rcu: INFO|detected stall|possible recursive locking|circular locking|UBSAN|KASAN|refcount_t:|list_add corruption|list_del corruption|scheduling while atomic|sleeping function called'

# run_vm NAME BZIMAGE INITRD: boot, wait (bounded), evaluate the console log.
run_vm() {
	local name=$1 bz=$2 initrd=$3 con=$work/$1/console.log rc=0 t0 sum

	t0=$(date +%s)
	# KVM is not usable here and multi-threaded TCG has been seen to oops
	# in text_poke_bp(), so: single-threaded TCG. Its guest clock is the
	# host clock: when QEMU does not get the CPU, the guest misses timer
	# periods, hence the raised host priority.
	local icount_args="" disk_args=""
	[ -n "$icount" ] && icount_args="-icount $icount"
	[ -n "$disk" ] && disk_args="-drive file=$disk,format=raw,if=virtio"
	timeout -k 10 "$timeout" nice -n -10 qemu-system-x86_64 \
		-accel tcg,thread=single $icount_args $disk_args -cpu ${TLAT_VM_CPU:-max} -smp "$smp" -m 1024 \
		-nographic -no-reboot -kernel "$bz" -initrd "$initrd" \
		-append "console=ttyS0 panic=-1 loglevel=4 $append" \
		< /dev/null > "$con" 2>&1 &
	qpid=$!
	wait "$qpid" || rc=$?
	qpid=""
	log "$name: VM ran $(($(date +%s) - t0)) s, qemu exit $rc"

	# The in-VM output, from the begin marker on.
	sed -n '/TLAT-VM-BEGIN/,$p' "$con" | tr -d '\r'
	if grep -q 'TLAT-VM-BEGIN' "$con"; then
		ok "$name: VM booted"
	else
		tail -n 60 "$con"
		not_ok "$name: VM booted"
	fi
	if grep -q 'TLAT-VM-END rc=0' "$con"; then
		ok "$name: in-VM suite finished cleanly"
	elif [ $rc = 124 ] || [ $rc = 137 ]; then
		not_ok "$name: in-VM suite finished (timed out after $timeout s: hang)"
	else
		not_ok "$name: in-VM suite finished cleanly"
	fi
	if grep -E "$SPLAT" "$con" | grep -v -E '^(not )?ok |^# ' ; then
		not_ok "$name: console has no WARN/BUG/panic/lockdep splat"
	else
		ok "$name: console has no WARN/BUG/panic/lockdep splat"
	fi
	sum=$(tr -d '\r' < "$con" | sed -n 's/^# tlat-vm: \([0-9]*\) passed, \([0-9]*\) failed$/\1 \2/p' | tail -n 1)
	if [ -n "$sum" ]; then
		passed=$((passed + ${sum% *}))
		failed=$((failed + ${sum#* }))
		log "$name: in-VM tests: ${sum% *} passed, ${sum#* } failed"
	fi
}

# run_kernel NAME BZIMAGE KDIR
run_kernel() {
	local name=$1 bz=$2 dir=$3 ko krel initrd
	mkdir -p "$work/$name"
	log "== $name: kernel $bz, headers $dir"
	if ! ko=$(build_module "$name" "$dir"); then
		not_ok "$name: tlat.ko builds warning-free with W=1"
		return
	fi
	ok "$name: tlat.ko builds warning-free with W=1"
	krel=$(modinfo -F vermagic "$ko" | awk '{ print $1 }')
	log "$name: module vermagic $(modinfo -F vermagic "$ko")"
	if [ $dkms = 1 ]; then
		if dkms_build "$name" "$dir" "$krel"; then
			ok "$name: dkms build of the source make install puts in /usr/src"
		else
			not_ok "$name: dkms build of the source make install puts in /usr/src"
		fi
	fi
	if [ -n "$deb" ]; then
		if ko=$(deb_dkms "$name" "$dir" "$krel"); then
			ok "$name: dkms builds tlat.ko from the source of the tlat-dkms package dpkg installed"
		else
			not_ok "$name: dkms builds tlat.ko from the source of the tlat-dkms package dpkg installed"
			return
		fi
	fi
	initrd=$(make_initramfs "$name" "$ko" "$krel")
	run_vm "$name" "$bz" "$initrd"
}

if [ -n "$kernel" ]; then
	run_kernel custom "$kernel" "$kdir"
fi
for s in "${series[@]}"; do
	if ! vars=$("$here/fetch-kernel.sh" "$s"); then
		not_ok "$s: fetch Debian's PREEMPT_RT kernel and headers"
		continue
	fi
	eval "$vars"
	run_kernel "$KREL" "$BZIMAGE" "$KDIR"
done

echo "$passed passed, $failed failed"
[ $failed = 0 ]
