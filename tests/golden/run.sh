#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tests/golden/run.sh - what tlat prints of fixed recordings does not change:
# the recordings in tests/golden/recordings/ (one per source and kernel, each
# stopped by a threshold hit; see make-recordings.sh) are reported in several
# ways, and each output must equal the one saved in tests/golden/expected/,
# byte for byte, but for tlat's version. Needs no root: tlat report reads
# files only.
#
# Usage: tests/golden/run.sh [--update] [path/to/tlat]
#   --update  write the expected outputs instead (only for new recordings,
#             or for an output that changed on purpose: say why in the commit)
set -u
cd "$(dirname "$0")/../.."
. tests/live/lib.sh

update=0
if [ "${1:-}" = --update ]; then
	update=1
	shift
fi
TLAT=$(realpath "${1:-./tlat}")
REC=tests/golden/recordings
EXP=tests/golden/expected
WORK=$(mktemp -d /tmp/tlat-golden.XXXXXX)
trap 'rm -rf "$WORK"' EXIT

# each way a recording is reported: a name for the expected file, then the
# options (the recorded thresholds apply: a stop and its analysis)
VARIANTS=(
	"top|"
	"top-nostop|-T 0"
	"hist|hist"
	"hist-nano|hist -n -b 1000 -E 50 --with-zeros"
	"json-top|--json -"
	"json-hist|hist --json -"
	"json-rt-tests|hist --json - --json-format rt-tests"
	"tasks|--dump-tasks --stack-format full"
	"extras|--aa-extras"
)

# tlat's version is the one thing allowed to differ
# (the tool's: the line after "name": "tlat", not uname's)
mask_version() {
	awk '{
		if (tool && /"version": /)
			sub(/"version": "[^"]*"/, "\"version\": \"VERSION\"")
		sub(/"rt_test_version:": "[^"]*"/, "\"rt_test_version:\": \"VERSION\"")
		tool = /"name": "tlat",$/
		print
	}' "$1"
}

# a name and a path that do not depend on where the test runs: the report's
# own command line is in the documents of trace-cmd's recordings
ln -s "$TLAT" "$WORK/tlat"
[ -d $REC ] && [ -n "$(ls $REC/*.dat.xz 2> /dev/null)" ] ||
	{ not_ok "golden: no recordings in $REC"; finish; exit; }
mkdir -p $EXP
for xz in $REC/*.dat.xz; do
	name=$(basename "$xz" .dat.xz)
	xz -dc "$xz" > "$WORK/$name.dat"
	for v in "${VARIANTS[@]}"; do
		variant=${v%%|*}
		read -ra opts <<< "${v#*|}"
		exp=$EXP/$name.$variant
		(cd "$WORK" && ./tlat report "${opts[@]}" "$name.dat" > out 2> err; echo "exit $?" >> err)
		cat "$WORK/out" "$WORK/err" > "$WORK/all"
		if [ $update = 1 ]; then
			mask_version "$WORK/all" > "$exp"
			ok "golden: $name: tlat report ${opts[*]}: written to $exp"
			continue
		fi
		mask_version "$WORK/all" > "$WORK/masked"
		if cmp -s "$exp" "$WORK/masked"; then
			ok "golden: $name: tlat report ${opts[*]}: as saved"
		else
			not_ok "golden: $name: tlat report ${opts[*]}: differs from $exp"
			diff "$exp" "$WORK/masked" | head -n 40 | show
		fi
	done
done
finish
