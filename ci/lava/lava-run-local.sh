#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# lava-run-local.sh - Debian's LAVA dispatcher (lava-run, bookworm's
# lava-dispatcher 2023.01) running ci/lava/tlat.yaml end to end on the local
# machine, in a QEMU guest of Debian's 6.12 PREEMPT_RT kernel, without a LAVA
# server.
#
#   ci/lava/lava-run-local.sh DEBDIR [BASELINE.json]
#
# DEBDIR: make deb's build/deb (the guest runs the tlat of its tlat .deb).
# BASELINE: a tlat --json file put in the guest as the test's BASELINE.
# Run it as root: it boots one QEMU guest (single-threaded TCG, one host
# CPU, 1 GB), fetches Debian's 6.12 RT kernel with scripts/vm/fetch-kernel.sh
# (into the cache of scripts/vm/run.sh) and needs qemu-system-x86_64,
# busybox, jq and cpio. What else it takes, and why (see ci/lava/README.md):
#  - lava-dispatcher is not installed: its .deb and the Python modules and
#    libraries it imports are unpacked in a scratch directory (apt-get
#    download, dpkg-deb -x); installing it would pull in 115 packages
#    (systemd-sysv, udev, grub, lvm2, libguestfs ...).
#  - the device dictionary is rendered from lava-server's qemu.jinja2 (its
#    .deb unpacked likewise), as a LAVA server renders it.
#  - ci/lava/job-qemu.yaml itself cannot run here: its URLs are examples,
#    its rootfs deploy needs libguestfs's appliance (ApplyOverlayGuest), and
#    it asks for KVM. The job written below is the same test action on a
#    ramdisk deploy (LAVA appends its overlay to a cpio.newc image itself,
#    no guestfs), file:// URLs, and single-threaded TCG (no KVM needed).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
debdir=$(realpath "$1")
baseline=${2:+$(realpath "$2")}
work=${LAVA_WORK:-$(mktemp -d /tmp/tlat-lava.XXXXXX)}
echo "# work directory: $work"

# ---- lava-dispatcher, unpacked
L=$work/lava
if [ ! -x "$L/root/usr/bin/lava-run" ]; then
	mkdir -p "$L/debs"
	(cd "$L/debs" && apt-get download -q lava-dispatcher lava-dispatcher-host lava-server \
		python3-pexpect python3-ptyprocess python3-setproctitle python3-netifaces \
		python3-magic python3-jinja2 python3-markupsafe python3-requests \
		python3-configobj python3-pyudev python3-tz python3-urllib3 python3-idna \
		python3-certifi python3-charset-normalizer python3-chardet python3-guestfs libguestfs0 \
		libvirt0 libfuse2 libyajl2 libssh-4 python3-bpfcc libbpfcc python3-aiohttp \
		python3-multidict python3-yarl python3-async-timeout python3-frozenlist \
		python3-aiosignal) 2>&1 | grep -v '^W: Download is performed unsandboxed'
	for d in "$L"/debs/*.deb; do dpkg-deb -x "$d" "$L/root"; done
fi
export PYTHONPATH=$L/root/usr/lib/python3/dist-packages
export LD_LIBRARY_PATH=$L/root/usr/lib/x86_64-linux-gnu:$L/root/lib/x86_64-linux-gnu

# ---- the guest: 6.12 RT, a busybox ramdisk with the packaged tlat and jq
eval "$("$repo/scripts/vm/fetch-kernel.sh" 6.12)"
R=$work/ramdisk
rm -rf "$R"
mkdir -p "$R"/{bin,sbin,usr/bin,usr/sbin,proc,sys,dev,tmp,root}
cp /bin/busybox "$R/bin/busybox"
dpkg-deb -x "$(ls "$debdir"/tlat_*.deb)" "$R"
copy() {
	local f=$1 lib
	install -D -m 755 "$f" "$R/usr/bin/$(basename "$f")"
	for lib in $(ldd "$f" | awk '/=> \// { print $3 } /^\t\// { print $1 }'); do
		mkdir -p "$R$(dirname "$lib")"
		cp -L "$lib" "$R$lib"
	done
}
copy /usr/bin/jq
for lib in $(ldd "$R/usr/bin/tlat" | awk '/=> \// { print $3 } /^\t\// { print $1 }'); do
	mkdir -p "$R$(dirname "$lib")"
	cp -L "$lib" "$R$lib"
done
[ -z "$baseline" ] || cp "$baseline" "$R/root/baseline.json"
# tests/vm/init.sh mounts the kernel's file systems and runs
# /tests/custom.sh: here a shell on the console, for LAVA's test shell
install -m 755 "$repo/tests/vm/init.sh" "$R/init"
mkdir -p "$R/tests"
cat > "$R/tests/custom.sh" <<'EOT'
export HOME=/root PS1='root@tlat-vm:~# '
cd /root
exec setsid cttyhack sh
EOT
(cd "$R" && find . | cpio -o -H newc --quiet | gzip -1) > "$work/ramdisk.cpio.gz"

# ---- the job: job-qemu.yaml's test action, local images
rev=$(git -C "$repo" rev-parse HEAD)
cat > "$work/job.yaml" <<EOT
device_type: qemu
job_name: tlat on $KREL (qemu, TCG), ci/lava/tlat.yaml
priority: medium
visibility: public
timeouts:
  job: {minutes: 20}
  action: {minutes: 10}
  connection: {minutes: 2}
context:
  arch: amd64
  # qemu.jinja2 gives amd64 "-cpu host -enable-kvm" unless no_kvm, and QEMU
  # refuses -enable-kvm beside -accel tcg: no KVM here
  no_kvm: true
  extra_options:
    - -cpu max
    - -smp 2
    - -accel tcg,thread=single
actions:
  - deploy:
      to: tmpfs
      timeout: {minutes: 5}
      images:
        kernel:
          image_arg: -kernel {kernel} -append "console=ttyS0 panic=-1 loglevel=4"
          url: file://$BZIMAGE
        ramdisk:
          image_arg: -initrd {ramdisk}
          url: file://$work/ramdisk.cpio.gz
          compression: gz
          format: cpio.newc
          overlays:
            lava: true
  - boot:
      method: qemu
      media: tmpfs
      timeout: {minutes: 5}
      # loglevel=4 keeps "Linux version", LAVA's default start message, off
      # the console: the guest's own first line stands for it
      parameters:
        kernel-start-message: TLAT-VM-BEGIN
      prompts:
        - "root@tlat-vm:~# "
  - test:
      timeout: {minutes: 10}
      definitions:
        - repository: $repo
          from: git
          revision: $rev
          path: ci/lava/tlat.yaml
          name: tlat
          skip_install: [deps]
          parameters:
            DURATION: 20s
            BASELINE: "${baseline:+/root/baseline.json}"
EOT
# ---- the device: lava-server's qemu device type, rendered with the job's
# context as the server renders it for each job
cat > "$work/qemu01.jinja2" <<'EOT'
{% extends 'qemu.jinja2' %}
{% set netdevice = 'user' %}
{% set mac_addr = '52:54:00:12:34:59' %}
{% set memory = 1024 %}
EOT
/usr/bin/python3 - "$work" "$L/root/usr/share/lava-server/device-types" <<'EOT'
import sys, jinja2, yaml
ctx = yaml.safe_load(open(sys.argv[1] + "/job.yaml"))["context"]
env = jinja2.Environment(loader=jinja2.FileSystemLoader([sys.argv[1], sys.argv[2]]),
                         trim_blocks=True, autoescape=False)
open(sys.argv[1] + "/qemu01.yaml", "w").write(env.get_template("qemu01.jinja2").render(**ctx))
EOT

rm -rf "$work/out"
# LAVA_VALIDATE=1: lava-run --validate only (no guest)
/usr/bin/python3 "$L/root/usr/bin/lava-run" --job-id 1 --output-dir "$work/out" \
	${LAVA_VALIDATE:+--validate} --device "$work/qemu01.yaml" "$work/job.yaml" > "$work/lava.log" 2>&1 || true
# the results, and the guest's console lines
jq -r 'select(.lvl == "results") | .msg | "\(.definition) \(.case) \(.result) \(.measurement // "")"' \
	"$work/lava.log" 2>/dev/null || grep '"results"' "$work/lava.log"
echo "# lava.log: $work/lava.log"
