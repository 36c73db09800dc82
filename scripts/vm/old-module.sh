#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# old-module.sh SERIES REV OUT - tlat.ko as the git revision REV has it,
# built for Debian's SERIES -rt kernel (fetch-kernel.sh), as tlat-old.ko in
# the tar archive OUT, which run.sh --disk hands to the guest as /dev/vda:
# tests/vm/modaa-v1.sh checks this tree's tlat against that older tlat.ko.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
series=${1:?usage: old-module.sh SERIES REV OUT}
rev=${2:?usage: old-module.sh SERIES REV OUT}
out=${3:?usage: old-module.sh SERIES REV OUT}

eval "$("$here/fetch-kernel.sh" "$series")"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
git -C "$repo" archive "$rev" kernel | tar -x -C "$work"
make -s -C "$KDIR" M="$work/kernel" modules >&2
cp "$work/kernel/tlat.ko" "$work/tlat-old.ko"
tar -cf "$out" -C "$work" tlat-old.ko
