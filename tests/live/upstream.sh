# SPDX-License-Identifier: GPL-2.0
# upstream.sh - upstream rtla's own timerlat test cases against tlat, through
# a link named rtla (tests/tools/rtla-upstream.sh; which upstream version,
# there), sourced by run.sh (uses check, show, $TLAT, $WORK). On this host
# the tracepoint source runs; its threads are tlat/N, the priority case's
# name. Each case is a check of its own. The 22 cases take about two
# minutes: they run in the machine state CI runs in ("none") only.
#
# The -s case runs on the CPUs where this kernel saves a stack at a timer IRQ
# from idle: the hosts' kernel saves almost none on CPU 1
# (tests/tools/kstack-cpus.sh, which says why). If it saves none anywhere,
# the case runs on all CPUs, and fails.

UPSTREAM_CASES=22

if [ "${TLAT_LIVE_STATE:-none}" = none ]; then
	stack_cpus=$(tests/tools/kstack-cpus.sh 2> "$WORK/kstack-cpus.err")
	check "the kernel's stacks at timer IRQs measured (CPUs with stacks: ${stack_cpus:-none})" \
		test -n "$stack_cpus" || show "$WORK/kstack-cpus.err"
	sed 's/^/# /' "$WORK/kstack-cpus.err"
	tests/tools/rtla-upstream.sh --threads tlat/ --stack-cpus "$stack_cpus" --keep "$WORK/upstream" "$TLAT" \
		> "$WORK/upstream.out" 2>&1
	up_rc=$?
	while read -r line; do
		case $line in
		"ok "*) ok "upstream rtla timerlat.t: ${line#ok * - }" ;;
		"not ok "*) not_ok "upstream rtla timerlat.t: ${line#not ok * - }" ;;
		"#"*) echo "$line" ;;
		esac
	done < "$WORK/upstream.out"
	check "upstream rtla timerlat.t: all $UPSTREAM_CASES cases ran and passed (exit $up_rc)" \
		bash -c "[ $up_rc = 0 ] && grep -qx '$UPSTREAM_CASES passed, 0 failed' $WORK/upstream.out" ||
		tail -5 "$WORK/upstream.out" | show
else
	ok "# SKIP upstream rtla timerlat.t: run in machine state none only"
fi
