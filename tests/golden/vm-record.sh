#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# tests/golden/vm-record.sh - the in-VM half of tests/golden/make-recordings.sh:
# run as the VM's suite (scripts/vm/run.sh --suite, with --disk), it records
# the timerlat and module sources with a threshold hit, and trace-cmd's own
# recording of the timerlat tracer, and writes them as a tar to /dev/vda for
# the host to read back. Nothing here is a test: the files become test data
# once, by hand.

K=$(uname -r | cut -d. -f1,2)
OUT=/tmp/golden
# the hog blocks CPU 1 for 10 ms every 200 ms; a SCHED_OTHER spinner keeps
# that vCPU out of idle, so that the hog, not a late idle exit, is the story
# (see tests/vm/tool-aa.sh)
HOG_CPU=1
T_US=6000

mkdir -p $OUT

# record NAME SOURCE [tlat options...]: a run that stops at the hog's hit
record() {
	name=$1
	src=$2
	shift 2
	taskset -c $HOG_CPU sh -c 'while :; do :; done' &
	spinner=$!
	/tests/tlat-hog -c $HOG_CPU -s 10000 -l /tmp/hog.log &
	hog=$!
	sleep 1
	tlat record -o "$OUT/$name.dat" --source "$src" -c 0,1 -T $T_US -s $T_US -d 30 -q \
		--warm-up 1 --dump-tasks "$@" > "/tmp/$name.out" 2>&1
	echo "# $name: tlat record exit $?"
	kill $hog $spinner
	wait $hog $spinner 2> /dev/null
	sed 's/^/# /' "/tmp/$name.out"
}

record "timerlat-$K" timerlat
record "module-$K" module
# trace-cmd's recording of the timerlat tracer with its noise events, no stop
trace-cmd record -p timerlat -e osnoise -o "$OUT/tc-timerlat-$K.dat" sleep 3 \
	> /tmp/tc.out 2>&1
echo "# tc-timerlat-$K: trace-cmd record exit $?"
if [ -b /dev/vda ]; then
	(cd $OUT && md5sum *.dat > MD5SUMS && tar cf /dev/vda *.dat MD5SUMS)
	sync
	echo "# written to /dev/vda: $(ls $OUT | tr '\n' ' ')"
else
	echo "# no /dev/vda: run with scripts/vm/run.sh --disk"
fi
echo "# tlat-vm: 0 passed, 0 failed"
