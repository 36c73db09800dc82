# SPDX-License-Identifier: GPL-2.0
#
# In-VM tests of --on-threshold continue on the two kernel sources, sourced
# by run-tests.sh (uses check, ok, not_ok, diag, uptime_ms, $T). There the
# kernel itself stops tracing at a threshold (the timerlat tracer's
# osnoise/stop_tracing_*_us, tlat.ko's traceoff trigger): tlat must turn the
# instance back on and measure on, and the timerlat_fd user threads must
# live through it (the kernel SIGKILLs them, tlat with them, if the tracer
# is stopped). A hog on CPU 1 spins 10 ms every 2 s; with a 6 ms threshold
# (TCG's latencies, see tool-aa.sh) that is a hit every 2 s or so. Each hit
# stops the measurement for as long as its actions take, which under TCG is
# up to a second (the trace is formatted and written).

ACT_OUT=/tmp/act.out
ACT_CPU=1
ACT_T=6000
ACT_D=10

act_show() { while read -r l; do diag "$1: $l"; done < "$2"; }

# At each hit, a shell action reads the tlat instance's tracing_on (the
# pattern leaves out a second instance, tlat_PID_trace): 0 there is the
# kernel's stop. A hit seen stopped after an earlier stopped hit could only
# be measured because tlat turned tracing back on in between. (A poller of
# tracing_on every 20 ms saw one re-arm of five under a loaded host: the
# off times are short and TCG's sleeps are long.)
ACT_ON_CMD="cat $T/instances/tlat_[0-9]*[0-9]/tracing_on >> /tmp/act-on.log"

# act_continue SOURCE THREADS: ACT_D seconds of continue beside the hog
act_continue() {
	src=$1
	label="$1 $2"
	rm -f /tmp/act-hits /tmp/act-trace.txt /tmp/act-never /tmp/act-on.log
	/tests/tlat-hog -c $ACT_CPU -s 10000 -e 2000 -l /tmp/act-hog.log &
	act_hog=$!
	sleep 1
	t0=$(uptime_ms)
	# the warm-up keeps TCG's slow first activations out of it
	tlat top -c $ACT_CPU -T $ACT_T -d $ACT_D --warm-up 1 -q --source $src $2 \
		--on-threshold trace,file=/tmp/act-trace.txt \
		--on-threshold "shell,command=echo hit >> /tmp/act-hits" \
		--on-threshold "shell,command=$ACT_ON_CMD" \
		--on-threshold continue --on-threshold "shell,command=touch /tmp/act-never" \
		--report-hits --sample-log /tmp/act.samples > $ACT_OUT 2>&1
	rc=$?
	ms=$(($(uptime_ms) - t0))
	kill $act_hog
	wait $act_hog
	act_show "$label" $ACT_OUT
	hits=$(grep -c '^timerlat hit stop tracing$' $ACT_OUT)
	count=$(awk -v cpu=$ACT_CPU '$1 == cpu && $2 ~ /^#/ { print substr($2, 2) }' $ACT_OUT)
	check "$label: --report-hits: exit 2 after the whole -d $ACT_D and warm-up ($ms ms)" \
		test $rc = 2 -a $ms -ge $(((ACT_D + 1) * 1000))
	check "$label: 'threshold hit $hits times' at the end" \
		grep -qx "threshold hit $hits times\?" $ACT_OUT
	# Under TCG, saving the trace at each hit takes seconds: 2 hits in
	# 10 s is enough. The number of analyses was seen once one short and
	# once over the number of hits (left open, see the issue notes), so
	# only that each hit ran its actions, and that hits were analysed,
	# is required here.
	hits_ok() {
		act_analysed=$(grep -c "^## CPU $ACT_CPU hit stop tracing, analyzing it ##$" $ACT_OUT)
		[ "$act_analysed" != "$hits" ] && diag "$label: $act_analysed analyses for $hits hits"
		[ "$hits" -ge 2 ] && [ "$(wc -l < /tmp/act-hits)" = "$hits" ] &&
		[ ! -e /tmp/act-never ] && [ "$act_analysed" -ge 1 ]
	}
	check "$label: $hits hits, each ran the actions up to continue, analysed" hits_ok
	# samples long after the first hit: measuring went on (TCG makes each
	# hit's actions slow: the count itself is no measure of it)
	after=$(awk -v t=$((ACT_T * 1000)) '$4 >= t && !hit { hit = $5 } { last = $5 }
		END { printf "%.0f\n", hit ? int((last - hit) / 1e6) : 0 }' /tmp/act.samples)
	check "$label: samples go on $after ms past the first hit (count $count)" \
		test "$after" -ge 3000
	# the kernel's own text: timerlat's tracer, or tlat.ko's events with none
	case $src in
	timerlat) act_tracer=timerlat ;;
	module) act_tracer=nop ;;
	*) act_tracer=$src ;;
	esac
	check "$label: the trace action saved the $src source's trace (# tracer: $act_tracer)" \
		grep -q "^# tracer: $act_tracer\$" /tmp/act-trace.txt
	stopped=$(grep -c '^0$' /tmp/act-on.log)
	diag "$label: tracing_on at each hit: $(tr '\n' ' ' < /tmp/act-on.log)"
	check "$label: the kernel stopped tracing and tlat turned it back on ($((stopped - 1)) times)" \
		test "$stopped" -ge 2
}

if [ ! -x /tests/tlat-hog ]; then
	not_ok "actions: /tests/tlat-hog is missing from the initramfs"
	return 0
fi

if grep -qw timerlat $T/available_tracers; then
	stops_before=$(cat $T/osnoise/stop_tracing_us $T/osnoise/stop_tracing_total_us)
	act_continue timerlat -k
	if [ -f $T/osnoise/per_cpu/cpu0/timerlat_fd ]; then
		act_continue timerlat -u
	fi
	check "timerlat: osnoise/stop_tracing_* restored" \
		test "$(cat $T/osnoise/stop_tracing_us $T/osnoise/stop_tracing_total_us)" = \
		"$stops_before"
else
	not_ok "actions: this kernel has no timerlat tracer"
fi

act_continue module -k
act_continue module -u
check "actions: no tlat instance left behind" sh -c "! ls $T/instances | grep -q '^tlat_'"
