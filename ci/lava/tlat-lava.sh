#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# tlat-lava.sh - the steps of the LAVA test definition ci/lava/tlat.yaml, run
# on the device under test: measure with tlat hist --json, compare with a
# baseline's JSON (tlat compare --junit --json), and report LAVA test cases:
#   tlat-hist                         pass, or fail (tlat's exit status)
#   cpuN-CTX-{min,avg,max}-latency    pass, with the value in us (as Linaro's
#   all-CTX-{min,avg,max}-latency     rt-tests parser), each CPU and context
#   compare-cpuN-CTX, compare-all-CTX the cell's verdict (fail on a regression),
#                                     with the change of the verdict's percentile
#   tlat-compare                      pass (exit 0), or fail (2: a regression;
#                                     1: an error, said in the log)
# Outside LAVA (no lava-test-case) the cases are printed, one per line.
#
# usage: tlat-lava.sh [-d DURATION] [-b BASELINE] [-o OUTDIR] [-t TLAT]
#                     [-a "HIST_ARGS"] [-A "COMPARE_ARGS"] [-u UPLOAD_URL]
#        tlat-lava.sh -i [DEB_URL]	install tlat (the .deb at DEB_URL, or
#					built from this source tree)
# BASELINE: a tlat hist --json file (or a directory of them, or a URL);
# none: this run is reported alone, and its OUTDIR/new.json is the baseline
# to keep. UPLOAD_URL: the JSON and the JUnit are PUT there (curl -T) and
# referenced with lava-test-reference (LAVA keeps no files of its own).
# Exit status: tlat compare's (0, 2 on a regression), 1 on an error.
set -u

usage() {
	sed -n 's/^# usage: /usage: /p; s/^#        /       /p' "$0" | head -n 4 >&2
	exit 1
}

say() {
	echo "tlat-lava.sh: $*" >&2
}

# report NAME RESULT [MEASUREMENT UNITS]
report() {
	if command -v lava-test-case > /dev/null; then
		if [ $# -ge 4 ]; then
			lava-test-case "$1" --result "$2" --measurement "$3" --units "$4"
		else
			lava-test-case "$1" --result "$2"
		fi
	else
		echo "$*"
	fi
}

install_tlat() {
	if [ -n "${1:-}" ]; then
		curl -fsSL -o /tmp/tlat.deb "$1" || return 1
		apt-get install -y /tmp/tlat.deb
		return
	fi
	command -v tlat > /dev/null && return 0
	# from the source tree this definition came from
	top=$(dirname "$0")/../..
	apt-get build-dep -y "$top" && make -C "$top" -j "$(nproc)" tlat &&
		make -C "$top" PREFIX=/usr install
}

# the per CPU and context latencies of a tlat hist --json document, in us
report_hist() {
	jq -r '
		def us: . / 1000 | . * 1000 | round / 1000;
		(.cpus[] | .cpu as $c | ["irq", "thread", "user"][] as $x |
			select(.[$x] != null and .[$x].count > 0) |
			["cpu\($c)-\($x)", .[$x]]),
		(.all | ["irq", "thread", "user"][] as $x |
			select(.[$x] != null and .[$x].count > 0) |
			["all-\($x)", .[$x]]) |
		.[0] as $n | .[1] |
		"\($n)-min-latency \(.min | us)",
		"\($n)-avg-latency \(.avg | us)",
		"\($n)-max-latency \(.max | us)"' "$1" |
	while read -r name value; do
		report "$name" pass "$value" us
	done
}

# each cell of a tlat compare --json document: its verdict, and the change of
# the verdict's percentile in us
report_compare() {
	jq -r '.settings.metric as $m | .cells[] |
		"compare-" + (if .cpu == null then "all" else "cpu\(.cpu)" end) +
		"-\(.context) " +
		(if .verdict == "regression" then "fail"
		 elif .verdict == "skipped" or .metrics == null then "skip"
		 else "pass" end) + " " +
		(if .metrics == null then "-"
		 else (.metrics[$m].change / 1000 | tostring) end)' "$1" |
	while read -r name result change; do
		if [ "$change" = - ]; then
			report "$name" "$result"
		else
			report "$name" "$result" "$change" us
		fi
	done
}

upload() {
	[ -n "$UPLOAD_URL" ] || return 0
	for f in "$@"; do
		[ -f "$f" ] || continue
		if curl -fsS -T "$f" "$UPLOAD_URL/"; then
			command -v lava-test-reference > /dev/null &&
				lava-test-reference "$(basename "$f" | tr . -)" \
					--result pass --reference "$UPLOAD_URL/$(basename "$f")"
		else
			say "could not upload $f to $UPLOAD_URL"
		fi
	done
}

if [ "${1:-}" = -i ]; then
	install_tlat "${2:-}"
	exit
fi

DURATION=5m BASELINE='' OUTDIR=output TLAT=tlat HIST_ARGS='' COMPARE_ARGS='' UPLOAD_URL=''
while getopts "d:b:o:t:a:A:u:h" opt; do
	case $opt in
	d) DURATION=$OPTARG ;;
	b) BASELINE=$OPTARG ;;
	o) OUTDIR=$OPTARG ;;
	t) TLAT=$OPTARG ;;
	a) HIST_ARGS=$OPTARG ;;
	A) COMPARE_ARGS=$OPTARG ;;
	u) UPLOAD_URL=$OPTARG ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
[ $# -eq 0 ] || usage
command -v jq > /dev/null || { say "jq is needed"; exit 1; }

mkdir -p "$OUTDIR" || exit 1
"$TLAT" --version
# HIST_ARGS is a list of options: split on purpose
# shellcheck disable=SC2086
"$TLAT" hist -d "$DURATION" --json "$OUTDIR/new.json" $HIST_ARGS > "$OUTDIR/hist.txt"
rc=$?
cat "$OUTDIR/hist.txt"
if [ $rc -eq 0 ]; then
	report tlat-hist pass
else
	report tlat-hist fail
fi
[ -s "$OUTDIR/new.json" ] || { say "tlat hist wrote no JSON (exit status $rc)"; exit 1; }
report_hist "$OUTDIR/new.json"

case $BASELINE in
http://* | https://*)
	curl -fsSL -o "$OUTDIR/base.json" "$BASELINE" || {
		say "could not fetch the baseline $BASELINE"
		report tlat-compare fail
		exit 1
	}
	BASELINE=$OUTDIR/base.json
	;;
"")
	say "no baseline: keep $OUTDIR/new.json as one"
	upload "$OUTDIR/new.json"
	exit 0
	;;
esac

# shellcheck disable=SC2086
"$TLAT" compare --junit "$OUTDIR/compare.xml" --json "$OUTDIR/compare.json" \
	$COMPARE_ARGS "$BASELINE" "$OUTDIR/new.json"
rc=$?
case $rc in
0) report tlat-compare pass ;;
2) report tlat-compare fail ;;
*) say "tlat compare failed (exit status $rc)"; report tlat-compare fail; rc=1 ;;
esac
[ -s "$OUTDIR/compare.json" ] && report_compare "$OUTDIR/compare.json"
upload "$OUTDIR/new.json" "$OUTDIR/compare.json" "$OUTDIR/compare.xml"
exit $rc
