# SPDX-License-Identifier: GPL-2.0
#
# In-VM tests of the module source's kernel collector with -T, the
# auto-analysis deferred: tlat.ko's aggregates stop at the sample that
# crosses -T and say which, the run takes that as its hit (exit 2, the hit
# line, the actions, continue), and the analysis's events, kept in the
# instance in overwrite mode, are decoded only then. Sourced by
# run-tests.sh and modaa.sh (uses check, ok, not_ok, diag, show_tlat, $NCPU).
#
# A hog on CPU 1 spins 10 ms every second at FIFO 99: with -T 6000 (TCG's
# latencies, see tool-aa.sh) a hit comes within a second or two, on CPU 1.

MA_OUT=/tmp/ma.out
MA_ERR=/tmp/ma.err
MA_JSON=/tmp/ma.json
MA_T=6000
MA_CPU=1

ma_show() { show_tlat $MA_OUT $MA_ERR; }
ma_check() {
	desc=$1
	shift
	if "$@"; then ok "$desc"; else not_ok "$desc"; ma_show; fi
}
ma_said() { grep -qxF "$1" $MA_ERR; }

# ma_run TLAT-OPTIONS...: a run of the module source beside the hog
ma_run() {
	rm -f $MA_JSON
	/tests/tlat-hog -c $MA_CPU -s 10000 -e 1000 -l /tmp/ma-hog.log &
	ma_hog=$!
	sleep 1
	tlat top -q --source module --json $MA_JSON -D "$@" > $MA_OUT 2> $MA_ERR
	rc=$?
	kill $ma_hog
	wait $ma_hog 2> /dev/null
}

# the hit's CPU, context and latency from the document; "" when none
ma_hit() { jq -r '.threshold.sample | "\(.cpu) \(.context) \(.latency_ns)"' $MA_JSON 2>/dev/null; }

# the statistics hold the samples up to the hit: its CPU's thread max is
# the hit's latency, every other CPU stayed under -T (the first sample over
# it stopped the counting everywhere), and each CPU's thread count is its
# IRQ count or one less (an activation whose thread had not run yet)
ma_stats_ok() {
	set -- $(ma_hit)
	[ "$2" = thread ] && [ "$3" -ge $((MA_T * 1000)) ] || return 1
	jq -e --argjson cpu "$1" --argjson lat "$3" --argjson t $((MA_T * 1000)) '
		[.cpus[] | if .cpu == $cpu then .thread.max == $lat else .thread.max < $t end,
		 (.irq.count - .thread.count | . == 0 or . == 1), .thread.count > 0] | all' \
		$MA_JSON > /dev/null
}

# the analysis is printed, names the hit's CPU, and explains the hit's latency
ma_aa_ok() {
	set -- $(ma_hit)
	lat=$(awk -v ns="$3" 'BEGIN { printf "%.2f", ns / 1000 }')
	grep -qx "## CPU $1 hit stop tracing, analyzing it ##" $MA_OUT &&
		grep -qE "^  Thread latency: +$lat us \(100%\)$" $MA_OUT
}

ma_decoded() { sed -n 's/^tlat: \([0-9]*\) records decoded for the auto-analysis at hits$/\1/p' $MA_ERR; }

if [ ! -x /tests/tlat-hog ] || ! command -v jq > /dev/null; then
	not_ok "module -T, kernel collector: /tests/tlat-hog or jq is missing from the initramfs"
	return 0
fi

tlat info > $MA_OUT 2> $MA_ERR
ma_info_ok() {
	grep -A1 -x "  module       available" $MA_OUT | grep -qxF \
		"    with the auto-analysis: the samples' and its events in overwrite mode, decoded only at a hit"
}
ma_check "tlat info: the module's kernel collector is available and serves the analysis at a hit" \
	ma_info_ok

for ma_how in "--collector kernel" "--collector auto" "--collector kernel -k" \
	      "--collector kernel --warm-up 2"; do
	ma_run -d 60 -T $MA_T $ma_how
	ma_check "module -T $MA_T $ma_how: exit 2, the hit line" \
		eval '[ $rc = 2 ] && grep -qx "timerlat hit stop tracing" $MA_OUT'
	ma_check "module -T $MA_T $ma_how: -D says the kernel collector, the analysis deferred" \
		eval 'ma_said "tlat: module: collector kernel (/dev/tlat_agg)" &&
		      ma_said "tlat: module: the auto-analysis'"'"'s events in overwrite mode, decoded only at a hit"'
	diag "module -T $MA_T $ma_how: hit $(ma_hit), $(ma_decoded) records decoded"
	ma_check "module -T $MA_T $ma_how: the analysis names the hit's CPU and latency" ma_aa_ok
	ma_check "module -T $MA_T $ma_how: the statistics hold the samples up to the hit" ma_stats_ok
	ma_check "module -T $MA_T $ma_how: records were decoded at the hit" \
		eval '[ "$(ma_decoded)" -gt 0 ]'
	ma_check "module -T $MA_T $ma_how: the document says the hit" \
		jq -e '.threshold.hit and .exit_status == 2 and .end == "threshold"' $MA_JSON
done

ma_run -d 60 -T $MA_T --no-aa --collector kernel
ma_check "module --no-aa -T $MA_T --collector kernel: exit 2, the hit line, no analysis" \
	eval '[ $rc = 2 ] && grep -qx "timerlat hit stop tracing" $MA_OUT &&
	      ! grep -q "hit stop tracing, analyzing it" $MA_OUT'
ma_check "module --no-aa -T $MA_T --collector kernel: -D says no event per sample" \
	ma_said "tlat: module: collector kernel (/dev/tlat_agg): no event per sample needed"
ma_check "module --no-aa -T $MA_T --collector kernel: the statistics hold the samples up to the hit" \
	ma_stats_ok

# continue: each hit analysed, the aggregates counting again after each
ma_run -d 8 -T $MA_T --collector kernel --on-threshold continue --report-hits
ma_hits=$(grep -c '^timerlat hit stop tracing$' $MA_OUT)
# a hit on another CPU than the hog's (TCG's own stalls) is analysed too
ma_analysed=$(grep -c "^## CPU [0-9]* hit stop tracing, analyzing it ##$" $MA_OUT)
diag "module continue: $ma_hits hits, $ma_analysed analyses, $(ma_decoded) records decoded"
ma_check "module -T $MA_T --collector kernel, continue: exit 2, several hits, each analysed" \
	eval '[ $rc = 2 ] && [ $ma_hits -ge 2 ] && [ $ma_analysed = $ma_hits ] &&
	      grep -qx "threshold hit $ma_hits times" $MA_OUT &&
	      jq -e --argjson n $ma_hits ".threshold.hits == \$n" $MA_JSON > /dev/null'
ma_check "module continue: counted on after the hits (CPU 0 has 2000 activations or more)" \
	jq -e '[.cpus[] | select(.cpu == 0) | .irq.count >= 2000] == [true]' $MA_JSON

# no hit: nothing decoded
tlat top -q -d 3 --source module -T 5000000 --collector kernel -D > $MA_OUT 2> $MA_ERR
rc=$?
ma_check "module -T 5 s --collector kernel: exit 0, 0 records decoded" \
	eval '[ $rc = 0 ] && [ "$(ma_decoded)" = 0 ] &&
	      ma_said "tlat: module: collector kernel (/dev/tlat_agg)"'

# the trace collector, as before
ma_run -d 60 -T $MA_T --collector trace
ma_check "module -T $MA_T --collector trace: exit 2, -D says why, analysed" \
	eval '[ $rc = 2 ] && ma_said "tlat: module: collector trace: --collector trace" && ma_aa_ok'
ma_check "module -T $MA_T --collector trace: its statistics too hold the samples up to the hit" \
	ma_stats_ok
