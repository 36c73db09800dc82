# SPDX-License-Identifier: GPL-2.0
#
# In-VM tests of --collector kernel, the tracepoint source's BPF collector:
# its programs are CO-RE, built against the build host's BTF, and must load
# on each VM kernel's. Sourced by run-tests.sh after tool-tests.sh (uses
# check, ok, not_ok, diag, global_snapshot, global_same, within, $NCPU).

KC_OUT=/tmp/kc.out
KC_ERR=/tmp/kc.err

global_snapshot > /tmp/kc.before
show_kc() {
	while read -r l; do diag "tlat: $l"; done < $KC_OUT
	while read -r l; do diag "tlat (stderr): $l"; done < $KC_ERR
}

tlat info > $KC_OUT 2> $KC_ERR
if sed -n '/^kernel collectors/,/^sources,/p' $KC_OUT | grep -q '^  tracepoints  available$'; then
	ok "tlat info: the BPF collector loads on $(uname -r)"
else
	not_ok "tlat info: the BPF collector loads on $(uname -r)"
	show_kc
fi

tlat top -d 5 -q --source tracepoints --collector kernel -D --sample-log /tmp/kc.log \
	> $KC_OUT 2> $KC_ERR
rc=$?
dropped=$(sed -n 's/^tlat: tracepoints: \([0-9]*\) activations dropped.*/\1/p' $KC_ERR)
diag "--collector kernel: ${dropped:-?} activations dropped in 5 s at 1 ms on $NCPU CPUs"
if [ $rc = 0 ] && grep -qx 'tlat: tracepoints: collector kernel (BPF)' $KC_ERR; then
	ok "--collector kernel: exit 0, counted in the kernel"
else
	not_ok "--collector kernel: exit 0, counted in the kernel (exit $rc)"
	show_kc
fi
# every measured CPU about 5000 activations (TCG skips some periods), the
# same in the sample log, and every activation whole and in order
kc_counts_ok() {
	awk '/^ *[0-9]+ #[0-9]+/ { n++; c = substr($2, 2); if (c < 4000 || c > 5005) bad = 1 }
		END { exit !(n > 0 && !bad) }' $KC_OUT
}
check "--collector kernel: every CPU has a row of 4000 to 5000 activations" kc_counts_ok ||
	show_kc
kc_order_ok() {
	awk '{ k = $1 " " $2; lat[k, $3] = $4; keys[k] = 1 }
		END { for (k in keys) { n++
			if (!((k, "irq") in lat) || !((k, "thread") in lat) || !((k, "user") in lat) ||
			    lat[k, "irq"] > lat[k, "thread"] || lat[k, "thread"] > lat[k, "user"]) bad++ }
		      exit !(n > 0 && !bad) }' /tmp/kc.log
}
check "--collector kernel: every activation has IRQ <= thread <= user-return" kc_order_ok
kc_dropped_ok() { [ -n "$dropped" ] && [ "$dropped" -le $((NCPU * 50)) ]; }
check "--collector kernel: at most 1% of the activations dropped" kc_dropped_ok

tlat top -d 1 -q --source timerlat --collector kernel > $KC_OUT 2> $KC_ERR
rc=$?
if [ $rc = 1 ] && [ "$(wc -l < $KC_ERR)" = 1 ] &&
   grep -qx 'tlat: --collector kernel: the timerlat source has no kernel collector' $KC_ERR; then
	ok "--collector kernel with the timerlat source: one line, exit 1"
else
	not_ok "--collector kernel with the timerlat source: one line, exit 1 (exit $rc)"
	show_kc
fi
check "--collector runs left the system as they found it" global_same /tmp/kc.before
