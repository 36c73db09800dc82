# SPDX-License-Identifier: GPL-2.0
#
# In-VM tests of -e/--filter/--trigger, -A/--aligned and --deepest-idle-state
# with the kernel sources (timerlat and module), sourced by run-tests.sh after
# tool-tests.sh (uses check, ok, not_ok, diag, $T, $NCPU from there). The
# host has neither the timerlat tracer nor hist triggers and cannot load
# modules: those cases are tested here; tests/live/opts.sh does the rest.

OPTS_OUT=/tmp/opts.out
OPTS_ERR=/tmp/opts.err

if ! tlat top --help 2>&1 | grep -q -- '--aligned'; then
	not_ok "this tlat has no -A/--aligned"
	return 0
fi

global_snapshot > /tmp/opts.before
show_opts() { show_tlat $OPTS_OUT $OPTS_ERR; }

# opts_refused DESC NEEDLE CMD...: exit 1, one line naming NEEDLE, nothing changed
opts_refused() {
	desc=$1
	needle=$2
	shift 2
	"$@" > $OPTS_OUT 2> $OPTS_ERR
	rc=$?
	if [ $rc = 1 ] && [ "$(wc -l < $OPTS_ERR)" = 1 ] && [ ! -s $OPTS_OUT ] &&
	   grep -qF -- "$needle" $OPTS_ERR && global_same /tmp/opts.before; then
		ok "refused: $desc: $(cat $OPTS_ERR)"
	else
		not_ok "refused: $desc (exit $rc, wanted one line with '$needle')"
		show_opts
	fi
}

# the prio of every sched_wakeup record of a saved trace
wakeup_prios() { sed -n 's/.*: sched_wakeup: .* prio=\([0-9]*\) .*/\1/p' "$1"; }
has_wakeups() { [ "$(wakeup_prios "$1" | awk -v min="${2:-0}" '$1 >= min' | wc -l)" -gt 0 ]; }
no_wakeups_from() { ! has_wakeups "$1" "$2"; }

# aligned_ok LOG STEP_US: the IRQ samples' expiries (time - latency) have, per
# CPU, one phase in the period, CPU k's = CPU 0's + k * STEP_US. The sample's
# time is its trace record's, a little after the timer read that made its
# latency: each phase is the per-CPU median, compared within 20 us.
aligned_ok() {
	for c in $(awk '{ print $1 }' "$1" | sort -un); do
		awk -v c=$c '$1 == c && $3 == "irq" { print ($5 - $4) % 1000000 }' "$1" |
			sort -n | awk -v c=$c '{ v[NR] = $1 } END { if (NR) print c, v[int((NR + 1) / 2)], NR }'
	done | awk -v step="$2" '
		{ diag = diag " cpu" $1 "=" $2 "ns(" $3 ")"
		  if (NR == 1) { base = $2; next }
		  d = ($2 - base - ($1 * step * 1000) % 1000000 + 3000000) % 1000000
		  if (d > 500000) d = 1000000 - d
		  if (d > 20000) bad = 1 }
		END { print "# phases:" diag; exit !(NR >= 2 && !bad) }'
}

# ---- -e, --filter, -t and hist: triggers, with each kernel source ----------------
for src in timerlat module; do
	rm -f /tmp/ev.txt
	tlat top -q -d 20 -T 1 -t /tmp/ev.txt --source $src \
		-e sched:sched_wakeup --filter 'prio<100' > $OPTS_OUT 2> $OPTS_ERR
	rc=$?
	check "$src source: -e sched:sched_wakeup --filter 'prio<100' -T 1 -t: exit 2" test $rc = 2 ||
		show_opts
	check "$src source: the saved trace has the filtered sched_wakeup records" \
		has_wakeups /tmp/ev.txt
	check "$src source: ... all with prio < 100" no_wakeups_from /tmp/ev.txt 100
	check "$src source: -e --filter: nothing left changed" global_same /tmp/opts.before

	rm -f /tmp/sched_sched_wakeup_hist.txt
	(cd /tmp && tlat top -q -d 2 --source $src -e sched:sched_wakeup \
		--trigger 'hist:keys=common_pid' > $OPTS_OUT 2> $OPTS_ERR)
	rc=$?
	check "$src source: --trigger hist:keys=common_pid: exit 0" test $rc = 0 || show_opts
	check "$src source: '  Saving event sched:sched_wakeup hist to sched_sched_wakeup_hist.txt'" \
		grep -qx '  Saving event sched:sched_wakeup hist to sched_sched_wakeup_hist.txt' $OPTS_OUT
	check "$src source: the hist file holds the kernel's histogram by common_pid" \
		grep -q '^{ common_pid: ' /tmp/sched_sched_wakeup_hist.txt
	check "$src source: the hist trigger is removed, the instance too" global_same /tmp/opts.before
done
# the example of tlat-hist(8)
rm -f /tmp/osnoise_irq_noise_hist.txt
(cd /tmp && tlat hist -d 2 --source timerlat -e osnoise:irq_noise \
	--trigger 'hist:keys=desc:vals=duration' > $OPTS_OUT 2> $OPTS_ERR)
check "timerlat source: hist -e osnoise:irq_noise --trigger 'hist:keys=desc:vals=duration'" \
	grep -qx '  Saving event osnoise:irq_noise hist to osnoise_irq_noise_hist.txt' $OPTS_OUT ||
	show_opts
check "timerlat source: ... the interrupt noise by handler, with durations" \
	grep -q '^{ desc: .* duration: *[0-9]' /tmp/osnoise_irq_noise_hist.txt
check "timerlat source: ... nothing left changed" global_same /tmp/opts.before
opts_refused "a bad hist trigger (the kernel's reason)" "--trigger" \
	tlat top -q -d 1 -e sched:sched_wakeup --trigger 'hist:keys=no_such_field'

# ---- -A: the timerlat tracer has it from 7.1 (TIMERLAT_ALIGN) ---------------------
if grep -q 'TIMERLAT_ALIGN' $T/osnoise/options 2>/dev/null; then
	tlat top -q -d 3 -k -A 200 --source timerlat --sample-log /tmp/a.log > $OPTS_OUT 2> $OPTS_ERR
	check "timerlat source: -k -A 200 exits 0" test $? = 0 || show_opts
	check "timerlat source: -A 200: CPU k's expiries are k * 200 us after CPU 0's" \
		aligned_ok /tmp/a.log 200
	check "timerlat source: -A: osnoise/options and timerlat_align_us restored" global_same /tmp/opts.before
else
	diag "this kernel's timerlat has no TIMERLAT_ALIGN: -A must be refused"
	opts_refused "timerlat source: -A without TIMERLAT_ALIGN" "TIMERLAT_ALIGN" \
		tlat top -q -d 1 -A 0 --source timerlat
fi

# ---- -A with tlat.ko: its align_us parameter ---------------------------------------
for threads in -k -u; do
	for step in 0 200; do
		tlat top -q -d 3 $threads -A $step --source module --sample-log /tmp/a.log \
			> $OPTS_OUT 2> $OPTS_ERR
		check "module source: $threads -A $step exits 0" test $? = 0 || show_opts
		check "module source: $threads -A $step: CPU k's expiries are k * $step us after CPU 0's" \
			aligned_ok /tmp/a.log $step
		check "module source: $threads -A $step: nothing left changed (module unloaded)" global_same /tmp/opts.before
	done
done

# ---- --deepest-idle-state: a QEMU guest may have no cpuidle states -----------------
if ls /sys/devices/system/cpu/cpu0/cpuidle/state0 > /dev/null 2>&1; then
	diag "this guest has cpuidle states: tested on the host (tests/live/opts.sh)"
else
	tlat top -q -d 1 -D --deepest-idle-state 0 > $OPTS_OUT 2> $OPTS_ERR
	check "--deepest-idle-state without cpuidle states: a no-op, exit 0" test $? = 0 || show_opts
	check "--deepest-idle-state without cpuidle states: -D says so" \
		grep -q 'has no cpuidle states' $OPTS_ERR
fi
