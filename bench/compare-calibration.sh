#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# compare-calibration.sh - how often tlat compare calls a regression where
# there is none (A/A pairs) and how often it finds an injected one.
#
#   run DIR FIRST LAST   blocks FIRST..LAST of runs, as root, with the
#                        machine otherwise idle (one call per batch of
#                        blocks; 90 s a block). A
#                        block is three 30 s runs of
#                          tlat hist --source tracepoints -d 30 --json F
#                        on all CPUs: A1, A2 (nothing else), then H, the same
#                        with tests/tools/tlat-hog (SCHED_FIFO 99, CPU 1, -r:
#                        each spin at a random point of its slot) spinning
#                        one of the HOGS sizes, in turn by block number;
#                        HOG_ONLY=1: H alone. DIR/tlat is the binary measured (copied
#                        once, so that every run uses the same).
#   analyze DIR [TLAT]   the A/A verdicts (block b's A1 against A2) and the
#                        detection per hog size (its H against A2), with
#                        TLAT compare (default ./tlat), under the defaults
#                        and a few other settings; then the same against a
#                        baseline of 3 runs (A2 of blocks b, b+1, b+2): the
#                        counts of each (the defaults' pair by pair in
#                        DIR/verdicts-default-k*.txt).
set -eu
cd "$(dirname "$0")/.."
# spin_us:every_ms, the hog sizes, smallest first
HOGS=${HOGS:-"30:50 100:50 100:10 300:10"}
DURATION=${DURATION:-30}

one_run() { # OUT [hog spin:every]
	local out=$1 hog=${2:-} hog_pid=
	if [ -n "$hog" ]; then
		tests/tools/tlat-hog -c 1 -p 99 -s "${hog%%:*}" -e "${hog##*:}" -r \
			-d $((DURATION + 3)) &
		hog_pid=$!
		sleep 0.5
	fi
	unshare -m --propagation private "$DIR/tlat" hist --source tracepoints \
		-d "$DURATION" --json "$out.tmp" > /dev/null 2> "$out.err" || true
	[ -n "$hog_pid" ] && { kill "$hog_pid" 2> /dev/null; wait "$hog_pid" || true; }
	[ -s "$out.tmp" ] && mv "$out.tmp" "$out" && rm -f "$out.err"
	return 0
}

run() {
	local first=$1 last=$2 b hogs k
	[ -x "$DIR/tlat" ] || cp ./tlat "$DIR/tlat"
	read -ra hogs <<< "$HOGS"
	for b in $(seq "$first" "$last"); do
		k=$(( (b - 1) % ${#hogs[@]} ))
		if [ -z "${HOG_ONLY:-}" ]; then
			one_run "$DIR/b$b-a1.json"
			one_run "$DIR/b$b-a2.json"
		fi
		one_run "$DIR/b$b-h${hogs[$k]/:/x}.json" "${hogs[$k]}"
		echo "$(date -u +%T) block $b done"
	done
}

# verdicts DIR TLAT K OPTS...: "kind size block exit" per pair. The blocks
# with A runs, in order: NEW is the i-th one's A1 (A/A), or a hog run of
# block b (i = (b - 1) mod their number); BASE is A2 of the K blocks from the
# i-th on (wrapping): K = 1 compares single runs, K > 1 against a baseline
# of K runs. Hog runs named -fh (fixed phase, before tlat-hog -r) count apart.
verdicts() {
	local dir=$1 tlat=$2 k=$3 i j b h rc size
	local -a blocks base
	shift 3
	# in block order (a glob's is b1, b10, b11, ...)
	for h in $(ls "$dir" | sed -n 's/^b\([0-9]*\)-a2\.json$/\1/p' | sort -n); do
		blocks+=("b$h")
	done
	for i in "${!blocks[@]}"; do
		base[$i]=
		for j in $(seq 0 $((k - 1))); do
			base[$i]+=${base[$i]:+,}$dir/${blocks[$(( (i + j) % ${#blocks[@]} ))]}-a2.json
		done
		b=${blocks[$i]}
		[ -f "$dir/$b-a1.json" ] || continue
		rc=0; "$tlat" compare "$@" "${base[$i]}" "$dir/$b-a1.json" > /dev/null 2>&1 || rc=$?
		echo "aa - $b $rc"
	done
	for h in "$dir"/b*-h*.json "$dir"/b*-fh*.json; do
		[ -f "$h" ] || continue
		b=${h##*/}; b=${b%%-*}; b=${b#b}
		size=${h##*-}; size=${size%.json}
		i=$(( (b - 1) % ${#blocks[@]} ))
		rc=0; "$tlat" compare "$@" "${base[$i]}" "$h" > /dev/null 2>&1 || rc=$?
		echo "hog $size b$b $rc"
	done
}

# the counts of one setting's verdicts: A/A false alarms, detections per size
tally() {
	awk '$4 == 1 { err++ }
	     $1 == "aa" { aa++; if ($4 == 2) fa++ }
	     $1 == "hog" { n[$2]++; if ($4 == 2) d[$2]++ }
	     END {
		printf "  A/A pairs %d, called regressions %d (%.1f%%)%s\n", aa, fa,
			aa ? 100 * fa / aa : 0, err ? sprintf(", %d errors", err) : ""
		fflush()
		for (s in n) {
			split(s, x, "x")
			ph = x[1] ~ /^fh/ ? "fixed " : "random"
			sub(/^f?h/, "", x[1])
			printf "  hog %4d us every %3d ms (duty %.2f%%, %s phase): pairs %d, detected %d (%.0f%%)\n",
				x[1], x[2], x[1] / (10 * x[2]), ph, n[s], d[s], 100 * d[s] / n[s] | "sort -k6n"
		}
		close("sort -k6n")
	}'
}

analyze() {
	local tlat=${1:-./tlat} setting
	local -a settings=(
		""
		"--threshold-us 20 --threshold-pct 10"
		"--threshold-us 50 --threshold-pct 30"
		"--threshold-us 10 --threshold-pct 10"
		"-p 99.9"
		"-p 99.9 --threshold-us 100 --threshold-pct 100"
		"-p 99.99"
	)
	echo "# $(date -u +%F) $(uname -r), $(nproc) CPUs; runs in $DIR:" \
		"$(ls "$DIR"/b*-a1.json 2> /dev/null | wc -l) blocks"
	echo "# each run: tlat hist --source tracepoints -d $DURATION --json F (all CPUs, 1000 us);"
	echo "# hogs: tests/tools/tlat-hog -c 1 -p 99 -s SPIN -e EVERY during the run"
	for k in 1 3; do
		echo "## BASE: $k run(s) (A2 of blocks b..b+$((k - 1))), NEW: one run (A1 or H of block b)"
		for setting in "${settings[@]}"; do
			echo "tlat compare ${setting:-(defaults: -p 99 --threshold-us 30 --threshold-pct 20)}"
			# shellcheck disable=SC2086
			verdicts "$DIR" "$tlat" $k $setting > "$DIR/verdicts.tmp"
			tally < "$DIR/verdicts.tmp"
			[ -n "$setting" ] || cp "$DIR/verdicts.tmp" "$DIR/verdicts-default-k$k.txt"
		done
	done
	rm -f "$DIR/verdicts.tmp"
}

[ $# -ge 2 ] || { echo "usage: $0 run DIR FIRST LAST | analyze DIR [TLAT] [options]" >&2; exit 1; }
cmd=$1 DIR=$2
shift 2
case $cmd in
run) run "$@" ;;
analyze) analyze "$@" ;;
*) echo "$0: $cmd: unknown (run, analyze)" >&2; exit 1 ;;
esac
