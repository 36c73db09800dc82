# SPDX-License-Identifier: GPL-2.0
#
# In-VM tests of measured CPUs that are offline when tlat starts, sourced by
# run-tests.sh among the tool tests, or by offline.sh alone (uses check, ok,
# not_ok, diag, $T from lib.sh). The host cannot offline CPUs safely. A CPU
# named with -c that is offline is refused with one line naming it, exit 1,
# nothing changed; the default set measures the online CPUs only, as rtla.

OFF_OUT=/tmp/offline.out
OFF_ERR=/tmp/offline.err
OFF_CPU=/sys/devices/system/cpu/cpu1/online

show_off() { show_tlat $OFF_OUT $OFF_ERR; }
no_tlat_instance() { ! ls $T/instances | grep -q '^tlat_'; }
# the CPUs of the summary's lines ("  N #COUNT |..."), one line
summary_cpus() { grep -E '^ *[0-9]+ +#[0-9]+' $OFF_OUT | awk '{ print $1 }' | tr '\n' ' '; }

if [ ! -w $OFF_CPU ]; then
	not_ok "offline CPUs: CPU 1 cannot be taken offline here (one vCPU, or no hotplug)"
	return 0
fi
# which sources run here with every CPU online: only they can show the default set
runs=""
for src in timerlat module tracepoints; do
	if tlat top -q -d 1 --source $src > $OFF_OUT 2> $OFF_ERR; then
		runs="$runs $src"
	else
		diag "$src source: does not run here with every CPU online: $(cat $OFF_ERR)"
	fi
done
[ -d /sys/module/tlat ] && rmmod tlat
echo 0 > $OFF_CPU
check "offline CPUs: CPU 1 is offline" test "$(cat $OFF_CPU)" = 0
global_snapshot > /tmp/offline.before

for src in timerlat module tracepoints; do
	for cpus in 1 0-1; do
		tlat top -q -d 2 -c $cpus --source $src > $OFF_OUT 2> $OFF_ERR
		rc=$?
		if [ $rc = 1 ] && [ "$(wc -l < $OFF_ERR)" = 1 ] && [ ! -s $OFF_OUT ] &&
		   grep -qx 'tlat: CPU 1 is offline' $OFF_ERR; then
			ok "$src source: -c $cpus with CPU 1 offline: exit 1, '$(cat $OFF_ERR)'"
		else
			not_ok "$src source: -c $cpus with CPU 1 offline (exit $rc, wanted 1 and one line)"
			show_off
		fi
		check "$src source: -c $cpus refused: no tlat_* instance left" no_tlat_instance
		check "$src source: -c $cpus refused: nothing changed" global_same /tmp/offline.before
	done

	case " $runs " in
	*" $src "*) ;;
	*) ok "# SKIP $src source: the default set: the source does not run here at all"
	   continue ;;
	esac
	tlat top -q -d 2 --source $src > $OFF_OUT 2> $OFF_ERR
	rc=$?
	if [ $rc = 0 ]; then
		ok "$src source: the default set with CPU 1 offline: exit 0"
	else
		not_ok "$src source: the default set with CPU 1 offline: exit 0 (exit $rc)"
		show_off
	fi
	check "$src source: the default set measures the online CPU 0 only ($(summary_cpus))" \
		test "$(summary_cpus)" = "0 "
	check "$src source: the default set: no tlat_* instance left" no_tlat_instance
	check "$src source: the default set: nothing changed" global_same /tmp/offline.before
done

echo 1 > $OFF_CPU
check "offline CPUs: CPU 1 is online again" test "$(cat $OFF_CPU)" = 1
[ -d /sys/module/tlat ] && rmmod tlat
