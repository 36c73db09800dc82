#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# rtla-upstream.sh - upstream rtla's own timerlat test cases, run against tlat
# through a link named "rtla".
#
# The cases are facts transcribed from the kernel tree's
# tools/tracing/rtla/tests/timerlat.t: each is a command line, the exit
# status rtla gives and a pattern (grep -E) its output (stdout and stderr)
# must match. The harness is tlat's own. Upstream runs every case twice, with
# RTLA_NO_BPF=0 and 1, which only rtla reads: here each runs once.
#
# Upstream version: timerlat.t as of "rtla/tests: Test timerlat -P option
# using actions" (Tomas Glozar, 2025, Linux 6.17): 10 basic and 12 action
# cases. Later versions (check_top_hist, running each case for top and hist,
# check-priority.sh without a thread-name argument) are not transcribed yet;
# when adding them, update this line and the count in the test that runs this.
#
# The priority case runs upstream's tests/scripts/check-priority.sh with the
# measuring threads' name; this harness writes its own script under that
# path, which checks every thread whose name starts with NAME (chrt -p). The
# name is rtla's, timerlatu/, which tlat's threads on timerlat_fd carry; with
# other sources --threads gives tlat's own (tlat/).
#
# Usage: tests/tools/rtla-upstream.sh [--threads NAME] [--extra ARGS]
#	 [--stack-cpus LIST] [--only REGEX] [--keep DIR] TLAT
#   --threads NAME  the measuring threads' name prefix for the priority case
#		    (default timerlatu/)
#   --extra ARGS    appended to every command (such as "--source module")
#   --stack-cpus LIST  run the -s case on these CPUs only (-c LIST): those
#		    on which the kernel saves stacks (tests/tools/kstack-cpus.sh)
#   --only REGEX    run only the cases whose description matches
#   --keep DIR	    work in DIR (outputs kept there) instead of a temporary one
# Prints TAP ("ok N - ...", the output of a failed case as comments), then
# "N passed, N failed"; exit status 0 when every case passed, 1 otherwise.
# Needs root, as rtla does.
set -u

threads=timerlatu/
extra=
stack_cpus=
only=
keep=
while [ $# -gt 1 ]; do
	case $1 in
	--threads) threads=$2; shift 2 ;;
	--extra) extra=$2; shift 2 ;;
	--stack-cpus) stack_cpus=$2; shift 2 ;;
	--only) only=$2; shift 2 ;;
	--keep) keep=$2; shift 2 ;;
	*) break ;;
	esac
done
if [ $# -ne 1 ] || [ ! -x "$1" ]; then
	echo "usage: $0 [--threads NAME] [--extra ARGS] [--stack-cpus LIST] [--only REGEX]" \
	     "[--keep DIR] TLAT" >&2
	exit 1
fi
tlat=$(realpath "$1")

if [ -n "$keep" ]; then
	mkdir -p "$keep" || exit 1
	work=$(realpath "$keep")
else
	work=$(mktemp -d /tmp/tlat-rtla-upstream.XXXXXX) || exit 1
	trap 'rm -rf "$work"' EXIT
fi
mkdir -p "$work/bin" "$work/tests/scripts"
ln -sf "$tlat" "$work/bin/rtla"
RTLA=$work/bin/rtla

# upstream's check-priority.sh NAME POLICY PRIO, written here: every thread
# named NAME* has that policy and priority (rt_priority and policy, fields 40
# and 41 of its stat, rather than chrt: the VM has no chrt), and there is one.
# POSIX sh: the VM's bash is not at /bin/bash.
cat > "$work/tests/scripts/check-priority.sh" <<'EOF'
#!/bin/sh
n=0
for d in /proc/[0-9]*/task/[0-9]*; do
	comm=$(cat "$d/comm" 2>/dev/null) || continue
	case $comm in "$1"*) ;; *) continue ;; esac
	stat=$(cat "$d/stat" 2>/dev/null) || continue
	set -- "$1" "$2" "$3" ${stat##*) }
	# field k of stat (state is 3) is now ${k+1}: rt_priority 40, policy 41
	prio=${41}
	case ${42} in 0) pol=SCHED_OTHER ;; 1) pol=SCHED_FIFO ;; 2) pol=SCHED_RR ;;
	3) pol=SCHED_BATCH ;; 5) pol=SCHED_IDLE ;; 6) pol=SCHED_DEADLINE ;; *) pol=? ;; esac
	[ "$pol" = "$2" ] && [ "$prio" = "$3" ] || exit 1
	n=$((n + 1))
done
[ $n -gt 0 ] && echo "Priorities are set correctly"
EOF
chmod +x "$work/tests/scripts/check-priority.sh"

export LC_ALL=C
# upstream's; busybox (the VM) has a timeout of its own, stdbuf and col not
if timeout --version 2>/dev/null | grep -q coreutils; then
	TIMEOUT="timeout -v -k 15s 2m"
else
	TIMEOUT="timeout -k 15 120"
fi
command -v stdbuf > /dev/null && TIMEOUT="stdbuf -oL $TIMEOUT"
col=cat
command -v col > /dev/null && col="col -b"
nr=0
nr_fail=0

# check DESCRIPTION COMMAND [STATUS [PATTERN]]: as upstream's engine.sh
check() {
	local desc=$1 cmd=$2 want=${3:-0} pattern=${4:-} result rc why=

	[ -n "$only" ] && ! grep -qE -- "$only" <<< "$desc" && return 0
	nr=$((nr + 1))
	result=$(cd "$work" && eval $TIMEOUT "$RTLA" $cmd $extra 2>&1)
	rc=$?
	[ "$rc" -eq "$want" ] || why="exit status $rc, expected $want"
	if [ -n "$pattern" ] && ! grep -qE -- "$pattern" <<< "$result"; then
		why="${why:+$why; }no match for \"$pattern\""
	fi
	if [ -z "$why" ]; then
		echo "ok $nr - $desc"
		return 0
	fi
	nr_fail=$((nr_fail + 1))
	echo "not ok $nr - $desc: $why"
	echo "# rtla $cmd $extra"
	echo "$result" | $col | sed 's/^/# /'
}

# --- the cases of upstream's timerlat.t, in its order ------------------------------
prio="tests/scripts/check-priority.sh $threads SCHED_FIFO 1"

# Basic tests
check "verify help page" \
	"timerlat --help" 0 "timerlat version"
check "verify -s/--stack" \
	"timerlat top -s 3 -T 10 -t${stack_cpus:+ -c $stack_cpus}" 2 "Blocking thread stack trace"
check "verify -P/--priority" \
	"timerlat top -P F:1 -c 0 -d 10s -q -T 1 --on-threshold shell,command=\"$prio\"" \
	2 "Priorities are set correctly"
check "test in nanoseconds" \
	"timerlat top -i 2 -c 0 -n -d 10s" 2 "ns"
check "set the automatic trace mode" \
	"timerlat top -a 5" 2 "analyzing it"
check "dump tasks" \
	"timerlat top -a 5 --dump-tasks" 2 "Printing CPU tasks"
check "print the auto-analysis if hits the stop tracing condition" \
	"timerlat top --aa-only 5" 2
check "disable auto-analysis" \
	"timerlat top -s 3 -T 10 -t --no-aa" 2
check "verify -c/--cpus" \
	"timerlat hist -c 0 -d 10s"
check "hist test in nanoseconds" \
	"timerlat hist -i 2 -c 0 -n -d 10s" 2 "ns"

# Actions tests
check "trace output through -t" \
	"timerlat hist -T 2 -t" 2 "^  Saving trace to timerlat_trace.txt$"
check "trace output through -t with custom filename" \
	"timerlat hist -T 2 -t custom_filename.txt" 2 "^  Saving trace to custom_filename.txt$"
check "trace output through --on-threshold trace" \
	"timerlat hist -T 2 --on-threshold trace" 2 "^  Saving trace to timerlat_trace.txt$"
check "trace output through --on-threshold trace with custom filename" \
	"timerlat hist -T 2 --on-threshold trace,file=custom_filename.txt" 2 \
	"^  Saving trace to custom_filename.txt$"
check "exec command" \
	"timerlat hist -T 2 --on-threshold shell,command='echo TestOutput'" 2 "^TestOutput$"
check "multiple actions" \
	"timerlat hist -T 2 --on-threshold shell,command='echo -n 1' --on-threshold shell,command='echo 2'" \
	2 "^12$"
check "hist stop at failed action" \
	"timerlat hist -T 2 --on-threshold shell,command='echo -n 1; false' --on-threshold shell,command='echo -n 2'" \
	2 "^1# RTLA timerlat histogram$"
check "top stop at failed action" \
	"timerlat top -T 2 --on-threshold shell,command='echo -n 1; false' --on-threshold shell,command='echo -n 2'" \
	2 "^1ALL"
check "hist with continue" \
	"timerlat hist -T 2 -d 1s --on-threshold shell,command='echo TestOutput' --on-threshold continue" \
	0 "^TestOutput$"
check "top with continue" \
	"timerlat top -q -T 2 -d 1s --on-threshold shell,command='echo TestOutput' --on-threshold continue" \
	0 "^TestOutput$"
check "hist with trace output at end" \
	"timerlat hist -d 1s --on-end trace" 0 "^  Saving trace to timerlat_trace.txt$"
check "top with trace output at end" \
	"timerlat top -d 1s --on-end trace" 0 "^  Saving trace to timerlat_trace.txt$"

echo "$((nr - nr_fail)) passed, $nr_fail failed"
[ $nr -gt 0 ] && [ $nr_fail -eq 0 ]
