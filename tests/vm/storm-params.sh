# SPDX-License-Identifier: GPL-2.0
#
# storm-params.sh - malformed writes to every parameter of tlat.ko (sourced,
# after lib.sh and storm-lib.sh): negative, huge, non-numeric, empty, blank,
# overlong (5000 characters, past sysfs's page), with a NUL byte, each with
# and without a newline, STORM_PARAM_ROUNDS times over, in
# /sys/module/tlat/parameters/ while the module measures into an instance.
# Each write must be refused, or leave a value in the parameter's range
# (kernel/README); the measuring threads must run on. Then the same values on
# insmod's command line (every STORM_INSMOD_STEP-th parameter and value pair):
# refused, or loaded with values in range. The
# parameters are restored at the end.

SP=$T/instances/tlatparam

# param_sane NAME: the value of parameter NAME is in its range
param_sane() {
	v=$(cat $P/$1) || return 1
	case $1 in
	enabled|kthreads|trace_samples) [ "$v" = Y ] || [ "$v" = N ] ;;
	cpus) echo "$v" | grep -q -E '^[0-9]+(-[0-9]+)?(,[0-9]+(-[0-9]+)?)*$' ;;
	prio) awk -v v="$v" 'BEGIN { exit !(v ~ /^[0-9]+$/ && v >= 1 && v <= 99) }' ;;
	period_us) awk -v v="$v" 'BEGIN { exit !(v ~ /^[0-9]+$/ && v >= 100 && v <= 1000000) }' ;;
	align_us) awk -v v="$v" 'BEGIN { exit !(v ~ /^-?[0-9]+$/ && v >= -1 && v <= 1000000000) }' ;;
	*) awk -v v="$v" 'BEGIN { exit !(v ~ /^[0-9]+$/ && v <= 4294967295) }' ;;
	esac
}

# the malformed values, one a line; the empty line is the empty value
params_values() {
	cat <<-'EOF'
	-1
	-2147483648
	-9223372036854775809
	4294967296
	18446744073709551615
	18446744073709551616
	99999999999999999999999999999999
	abc
	0x
	0xfffffffffffffffff
	1e3
	1.5
	+
	-
	--1
	12abc
	 7
	7 7
	0-
	-0
	1-0
	0,,1
	0-4294967295
	4294967295-0
	0-1:1/0
	0-1:0/1
	%s%n%x
	../../etc
	yes please

	EOF
	awk 'BEGIN { s = ""; for (i = 0; i < 5000; i++) s = s "9"; print s
		     s = ""; for (i = 0; i < 5000; i++) s = s "A"; print s
		     s = ""; for (i = 0; i < 2500; i++) s = s "0,"; print s "1" }'
}

# param_write NAME VALUE: with a newline, then without, then with a NUL
# byte after its first character; counts refused and accepted writes
param_write() {
	for how in nl raw nul; do
		case $how in
		nl) printf '%s\n' "$2" > "$P/$1" ;;
		raw) printf '%s' "$2" > "$P/$1" ;;
		nul) printf '%s\0%s' "${2%"${2#?}"}" "${2#?}" > "$P/$1" ;;
		esac 2> /dev/null
		if [ $? = 0 ]; then
			pw_acc=$((pw_acc + 1))
		else
			pw_ref=$((pw_ref + 1))
		fi
		if ! param_sane "$1"; then
			pw_bad="$pw_bad $1=$(head -c 40 $P/$1)(after '$(echo "$2" | head -c 40)',$how)"
		fi
	done
}

# threads_ok: one tlat/N per online CPU, once the writes are undone
threads_ok() { [ "$(grep -l '^tlat/' /proc/[0-9]*/comm 2> /dev/null | wc -l)" = "$NCPU" ]; }

# events_written: the tlat events the instance has had, kept or overwritten
events_written() {
	cat $SP/per_cpu/cpu*/stats | awk '/^(entries|overrun):/ { s += $2 } END { printf "%.0f\n", s }'
}
# samples_coming: the CPUs still measure: tlat_sample keeps coming. Not
# /dev/tlat_agg: a stop_*_us the storm set for a moment stops the
# aggregates, by design, until a reset or a resume (kernel/README).
samples_coming() {
	a=$(events_written)
	sleep 0.5
	[ "$(events_written)" -gt "$a" ]
}

storm_params_run() {
	storm_begin params
	params_values > /tmp/storm.values
	nvals=$(wc -l < /tmp/storm.values)
	storm_load || { not_ok "params storm: insmod"; return; }
	mkdir -p $SP
	echo 1 > $SP/events/tlat/enable
	for f in $P/*; do echo "$(basename $f) $(cat $f)"; done > /tmp/storm.params
	pw_acc=0
	pw_ref=0
	pw_bad=""
	t0=$(uptime_ms)
	r=0
	while [ $r -lt "$STORM_PARAM_ROUNDS" ]; do
		for f in $P/*; do
			name=$(basename $f)
			while IFS= read -r v; do
				param_write "$name" "$v"
			done < /tmp/storm.values
			# undo what was accepted (a bool took "yes please")
			grep "^$name " /tmp/storm.params | cut -d' ' -f2- > "$f"
		done
		r=$((r + 1))
	done
	dt=$(($(uptime_ms) - t0))
	diag "storm-figures params: $STORM_PARAM_ROUNDS rounds of $nvals values x 3 forms x $(ls $P | wc -l) parameters in $dt ms: $pw_ref refused, $pw_acc accepted"
	[ -z "$pw_bad" ] || diag "values out of range:$pw_bad"
	check "params storm: every write refused or leaving its parameter in range" test -z "$pw_bad"
	restored_ok() {
		for f in $P/*; do echo "$(basename $f) $(cat $f)"; done | cmp -s - /tmp/storm.params
	}
	check "params storm: the parameters restored" restored_ok
	check "params storm: one measuring thread per CPU" wait_for 5 threads_ok
	check "params storm: the CPUs still measure (tlat_sample keeps coming)" samples_coming
	echo 0 > $SP/events/tlat/enable
	rmdir $SP
	check "params storm: tlat.ko's reference count is 0" refcnt_zero
	storm_unload

	# the same values given to insmod (name=VALUE; busybox insmod passes
	# them whole): refused, or loaded with values in range
	ins_ref=0
	ins_acc=0
	ins_bad=""
	k=0
	for name in $(cut -d' ' -f1 /tmp/storm.params); do
		while IFS= read -r v; do
			[ ${#v} -gt 100 ] && continue	# the module loader's limit is the page
			# the short storm: every STORM_INSMOD_STEP-th pair, in turn
			k=$((k + 1))
			[ $((k % STORM_INSMOD_STEP)) = 0 ] || continue
			if insmod "$KO" "$name=$v" 2> /dev/null; then
				ins_acc=$((ins_acc + 1))
				param_sane "$name" || ins_bad="$ins_bad $name=$v"
				storm_unload || ins_bad="$ins_bad (rmmod after $name=$v)"
			else
				ins_ref=$((ins_ref + 1))
				[ ! -d /sys/module/tlat ] || { ins_bad="$ins_bad (loaded, failing, $name=$v)"; rmmod tlat; }
			fi
		done < /tmp/storm.values
	done
	diag "storm-figures params (insmod): $ins_ref refused, $ins_acc loaded with values in range"
	[ -z "$ins_bad" ] || diag "insmod:$ins_bad"
	check "params storm: insmod with each value refused or in range" test -z "$ins_bad"
	storm_end params /tmp/storm.slab.params
}

storm_params_run
