# SPDX-License-Identifier: GPL-2.0
#
# In-VM tests of the tlat tool with the module source, sourced by
# run-tests.sh when /usr/bin/tlat is in the initramfs (it uses check, ok,
# diag, $T ... from there). The module is not loaded at this point: the tool
# loads it (modprobe finds it in /lib/modules/$(uname -r)/extra).
#
# Written against rtla-compatible options: -d, -q, -p, -T, -u, --source.

if ! tlat top --help 2>&1 | grep -q 'module'; then
	ok "# SKIP tool tests: this tlat has no module source yet"
	return 0
fi

TOOL_OUT=/tmp/tool.out

show_tool_out() { while read -r l; do diag "tlat: $l"; done < $TOOL_OUT; }

tlat top -d 5 -q -p 1000 --source module > $TOOL_OUT 2>&1
rc=$?
show_tool_out
check "tlat top -d 5 -q --source module exits 0" test $rc = 0
check "tlat top --source module: every CPU counts between 2500 and 5000 (+2%)" tool_counts_ok 5 1000

tlat top -d 3 -q -u --source module > $TOOL_OUT 2>&1
rc=$?
show_tool_out
check "tlat top -u --source module exits 0" test $rc = 0
# The user-return group is the fourth "|"-separated group of a CPU line.
uret_ok() {
	grep -E '^ *[0-9]+ +#[0-9]+' $TOOL_OUT |
		awk -F'|' 'NF < 4 || $4 !~ /[1-9]/ { bad = 1 } END { exit bad }'
}
check "tlat top -u --source module fills the user-ret columns" uret_ok

t0=$(uptime_ms)
tlat top -d 20 -q -T 1 --source module > $TOOL_OUT 2>&1
show_tool_out
check "tlat top -T 1 stops early on the threshold" test $(($(uptime_ms) - t0)) -lt 15000
check "tlat top -T 1 leaves the top-level tracing_on at 1" test "$(cat $T/tracing_on)" = 1

if [ -d /sys/module/tlat ]; then
	rmmod tlat
fi
