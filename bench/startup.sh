#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# startup.sh - tlat's start-up against upstream rtla's: the time from exec
# to the first sample, in the 6.12 guest under QEMU (the only kernel here
# where both tools run, with -k and with -u). Boots the guest with
# bench/startup-guest.sh as its suite (what it measures, and how, is said
# there); upstream rtla is the one scripts/vm/fetch-rtla.sh builds.
#
# Usage: bench/startup.sh [ROUNDS]   (as root, from a built tree; default
#        5 rounds of rtla -k, tlat -k, rtla -u, tlat -u; about 8 minutes)
# The guest's lines are printed as they come; the figures are its
# "# startup:" lines.
set -euo pipefail
cd "$(dirname "$0")/.."

rounds=${1:-5}
rtla=$(scripts/vm/fetch-rtla.sh)
echo "# bench/startup.sh $rounds, $(date -u '+%Y-%m-%d %H:%M UTC'), tlat $(git describe --always --dirty 2>/dev/null || echo '?')"
# the kernel hands a parameter it does not know to init's environment
TLAT_VM_RTLA=$rtla scripts/vm/run.sh --series 6.12 --no-checkpatch --no-dkms --timeout 900 \
	--append "STARTUP_ROUNDS=$rounds" --suite bench/startup-guest.sh
