# SPDX-License-Identifier: GPL-2.0
#
# tool-upstream.sh - upstream rtla's own timerlat test cases against tlat in
# the VM (tests/tools/rtla-upstream.sh, through a link named rtla; which
# upstream version, there): on the timerlat source and on the module source.
# The priority case checks the measuring threads by name: rtla's timerlatu/N
# for tlat's threads on timerlat_fd (the kernel's timerlat/N where there is
# no timerlat_fd, as before 6.8), tlat's own tlat/N with the module.
# Sourced by run-tests.sh after tool-tests.sh (busybox sh, its check, ok,
# diag, $T); also a suite of its own: run.sh --suite tests/vm/tool-upstream.sh.

UP_CASES=22
up_alone=
if ! command -v vm_summary > /dev/null 2>&1; then
	. /tests/lib.sh
	up_alone=1
fi

# up_run SOURCE THREADS: every case a check, then one that all ran and passed
up_run() {
	bash /tests/rtla-upstream.sh --threads "$2" --extra "--source $1" \
		--keep /tmp/upstream-$1 /usr/bin/tlat > /tmp/upstream-$1.out 2>&1
	up_rc=$?
	while IFS= read -r line; do
		case $line in
		"ok "*) ok "upstream rtla timerlat.t, $1 source: ${line#ok * - }" ;;
		"not ok "*) not_ok "upstream rtla timerlat.t, $1 source: ${line#not ok * - }" ;;
		"#"*) echo "$line" ;;
		esac
	done < /tmp/upstream-$1.out
	check "upstream rtla timerlat.t, $1 source: all $UP_CASES cases ran and passed (exit $up_rc)" \
		grep -qx "$UP_CASES passed, 0 failed" /tmp/upstream-$1.out
}

if ! command -v bash > /dev/null 2>&1 || [ ! -f /tests/rtla-upstream.sh ]; then
	not_ok "upstream rtla timerlat.t: bash or /tests/rtla-upstream.sh missing from the VM"
elif ! grep -qw timerlat $T/available_tracers; then
	not_ok "upstream rtla timerlat.t: this kernel has no timerlat tracer"
else
	if [ -e $T/osnoise/per_cpu/cpu0/timerlat_fd ]; then
		up_run timerlat timerlatu/
	else
		up_run timerlat timerlat/
	fi
	up_run module tlat/
fi

[ -n "$up_alone" ] && vm_summary
