# SPDX-License-Identifier: GPL-2.0
# plot.sh - live tests of tlat hist --plot, sourced by run.sh (uses check,
# show, same_as_before, $TLAT, $WORK): real runs drawn by gnuplot into PNG
# and SVG files that are checked against the text histogram of the same run,
# and bad paths that must fail before anything is measured.

PLOT_DIR=$WORK/plots
SVG_CHECK=tests/tools/check-plot-svg.py
mkdir -p "$PLOT_DIR"

if ! command -v gnuplot > /dev/null || ! command -v file > /dev/null ||
   ! command -v python3 > /dev/null; then
	not_ok "plot: gnuplot, file and python3 are needed (scripts/install-deps.sh)"
	return 0
fi

png_magic() {
	[ "$(head -c 8 "$1" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ]
}

# only what the test put there: no temporary file of tlat's is left behind
no_leftovers() {
	local extra
	extra=$(ls -A "$PLOT_DIR" |
		grep -v -x -e x.png -e x.svg -e noirq.svg -e int.png -e keep.png)
	[ -z "$extra" ] || { echo "# left in $PLOT_DIR: $extra"; return 1; }
}

# --- a PNG, replacing an older file of that name ---------------------------------
echo old > "$PLOT_DIR/x.png"
"$TLAT" hist -d 2 --plot "$PLOT_DIR/x.png" > "$WORK/plot-png.out" 2> "$WORK/plot-png.err"
rc=$?
check "plot: hist -d 2 --plot x.png exits 0" [ $rc = 0 ] || show "$WORK/plot-png.err"
check "plot: x.png starts with the PNG signature" png_magic "$PLOT_DIR/x.png"
check "plot: file(1) says x.png is a 1000 x 600 PNG image" \
	bash -c "file -b $PLOT_DIR/x.png | grep -q '^PNG image data, 1000 x 600'" ||
	file "$PLOT_DIR/x.png" | show
check "plot: the text histogram is printed as without --plot" \
	bash -c "grep -q '^# RTLA timerlat histogram$' $WORK/plot-png.out &&
		 grep -q '^ALL:  ' $WORK/plot-png.out && [ ! -s $WORK/plot-png.err ]"

# --- an SVG: one curve per CPU and context, its key matching the text ------------
"$TLAT" hist -d 2 --plot "$PLOT_DIR/x.svg" > "$WORK/plot-svg.out" 2>&1
rc=$?
check "plot: hist -d 2 --plot x.svg exits 0" [ $rc = 0 ] || show "$WORK/plot-svg.out"
python3 $SVG_CHECK "$PLOT_DIR/x.svg" "$WORK/plot-svg.out" > "$WORK/plot-svg.check"
rc=$?
cat "$WORK/plot-svg.check"
check "plot: x.svg parses as XML with one curve per CPU and context, max: and over: as printed" \
	[ $rc = 0 ]
check "plot: the SVG has curves for all $NCPU CPUs" \
	bash -c "[ \$(grep -c '<title>CPU [0-9]* thread: ' $PLOT_DIR/x.svg) = $NCPU ]"

# --no-irq and -b: the IRQ curves go, the buckets widen
"$TLAT" hist -d 2 --no-irq -b 2 --plot "$PLOT_DIR/noirq.svg" > "$WORK/plot-noirq.out" 2>&1
rc=$?
check "plot: --no-irq -b 2 --plot: no IRQ curve, a curve per remaining column" \
	bash -c "[ $rc = 0 ] && python3 $SVG_CHECK $PLOT_DIR/noirq.svg $WORK/plot-noirq.out \
		 > /dev/null && ! grep -q '<title>CPU [0-9]* IRQ' $PLOT_DIR/noirq.svg &&
		 grep -q 'Latency (us), buckets of 2 us' $PLOT_DIR/noirq.svg" ||
	python3 $SVG_CHECK "$PLOT_DIR/noirq.svg" "$WORK/plot-noirq.out"

# --- Ctrl-C ends the run normally: the plot is drawn ------------------------------
"$TLAT" hist --plot "$PLOT_DIR/int.png" > "$WORK/plot-int.out" 2>&1 &
pid=$!
sleep 2
kill -INT $pid
wait $pid
rc=$?
check "plot: SIGINT ends hist --plot with exit 0 and a PNG" \
	bash -c "[ $rc = 0 ] && file -b $PLOT_DIR/int.png | grep -q '^PNG image data'" ||
	show "$WORK/plot-int.out"
check "plot: no temporary file is left next to the plots" no_leftovers

# --- bad input fails at once, before measuring, and changes nothing ------------
# each: exit 1, one line on stderr, nothing on stdout, in well under the -d 5
echo keep > "$PLOT_DIR/keep.png"
FAKE_BIN=$WORK/fakebin
mkdir -p "$FAKE_BIN"
plot_fails_early() {
	local want=$1 t0 t1 rc
	shift
	t0=$(date +%s%N)
	"$@" > "$WORK/plot-bad.out" 2> "$WORK/plot-bad.err"
	rc=$?
	t1=$(date +%s%N)
	[ $rc = 1 ] && [ ! -s "$WORK/plot-bad.out" ] && [ "$(wc -l < "$WORK/plot-bad.err")" = 1 ] &&
	grep -q -- "$want" "$WORK/plot-bad.err" && [ $(((t1 - t0) / 1000000)) -lt 1000 ] ||
		{
			echo "# rc $rc, $(((t1 - t0) / 1000000)) ms"
			show "$WORK/plot-bad.err"
			return 1
		}
}
check "plot: --plot x.jpg fails before measuring" \
	plot_fails_early "must end in .png or .svg" "$TLAT" hist -d 5 --plot "$PLOT_DIR/x.jpg"
check "plot: --plot with no extension fails before measuring" \
	plot_fails_early "must end in .png or .svg" "$TLAT" hist -d 5 --plot "$PLOT_DIR/plot"
check "plot: --plot into a missing directory fails before measuring" \
	plot_fails_early "cannot write the plot to $WORK/none/x.png: No such file" \
	"$TLAT" hist -d 5 --plot "$WORK/none/x.png"
check "plot: --plot into /proc (not writable) fails before measuring" \
	plot_fails_early "cannot write the plot to /proc/x.png" "$TLAT" hist -d 5 --plot /proc/x.png
mkdir -p "$WORK/dir.png"
check "plot: --plot naming a directory fails before measuring" \
	plot_fails_early "Is a directory" "$TLAT" hist -d 5 --plot "$WORK/dir.png"
check "plot: --plot without gnuplot in PATH fails before measuring" \
	plot_fails_early "needs gnuplot" env PATH="$FAKE_BIN" "$TLAT" hist -d 5 \
	--plot "$PLOT_DIR/keep.png"
check "plot: top has no --plot" plot_fails_early "unknown option '--plot'" \
	"$TLAT" top -d 5 --plot "$PLOT_DIR/keep.png"
check "plot: failed runs left keep.png as it was and nothing in /proc" \
	bash -c "[ \"\$(cat $PLOT_DIR/keep.png)\" = keep ] && [ ! -e /proc/x.png ]"
check "plot: failed runs left no temporary file" no_leftovers

# --- gnuplot failing after the measurement: one line, exit 1, no file -------------
cat > "$FAKE_BIN/gnuplot" << 'EOF'
#!/bin/sh
[ "$1" = --version ] && exec echo "gnuplot 5.4 (fake)"
cat > /dev/null
echo "fake gnuplot: cannot draw" >&2
echo "second line" >&2
exit 3
EOF
chmod +x "$FAKE_BIN/gnuplot"
PATH="$FAKE_BIN:$PATH" "$TLAT" hist -d 1 --plot "$PLOT_DIR/keep.png" \
	> "$WORK/plot-fail.out" 2> "$WORK/plot-fail.err"
rc=$?
check "plot: gnuplot failing: exit 1 with its first line, the histogram still printed" \
	bash -c "[ $rc = 1 ] && [ \"\$(cat $WORK/plot-fail.err)\" = \
		 'tlat: gnuplot failed (exit status 3): fake gnuplot: cannot draw' ] &&
		 grep -q '^ALL:  ' $WORK/plot-fail.out" || show "$WORK/plot-fail.err"
check "plot: gnuplot failing left keep.png as it was" \
	bash -c "[ \"\$(cat $PLOT_DIR/keep.png)\" = keep ]"
check "plot: gnuplot failing left no temporary file" no_leftovers

check "plot runs left tracefs as they found it" same_as_before
