# SPDX-License-Identifier: GPL-2.0
# completion.sh - live tests of the bash completion (completion/tlat), sourced
# by run.sh (uses check, show, $TLAT, $WORK): it is loaded into a clean bash,
# driven through COMP_WORDS as bash drives it, and its option lists are
# compared with what each command's --help prints (top, hist, and record and
# report in both modes), so that
# neither can drift from the other.

COMPLETION=completion/tlat

# complete WORDS...: what the completion offers for the last word, one a line
complete_words() {
	bash --norc --noprofile -c '
		. "$1" || exit 1
		shift
		COMP_WORDS=("$@")
		COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
		COMP_LINE="$*"
		COMP_POINT=${#COMP_LINE}
		_tlat
		printf "%s\n" "${COMPREPLY[@]}"' bash "$COMPLETION" "$@" | sort -u
}

# completes WANT WORDS...: the completion offers exactly WANT (words, any order)
completes() {
	local want got
	want=$(printf '%s\n' $1 | sort -u)
	shift
	got=$(complete_words "$@")
	[ "$got" = "$want" ] || { echo "# '$*' gave: $(echo $got), want: $(echo $want)"; return 1; }
}

check "completion: bash -n accepts it and it registers for tlat" \
	bash --norc -c ". $COMPLETION && complete -p tlat | grep -q -- '-F _tlat tlat\$'"
check "completion: 'tlat h<TAB>' -> hist" completes "hist" tlat h
check "completion: 'tlat <TAB>' -> the commands" completes "top hist record report info compare" \
	tlat ""
check "completion: 'tlat top --st<TAB>' -> --stack --stack-format" \
	completes "--stack --stack-format" tlat top --st
check "completion: 'tlat hist --source <TAB>' -> the four sources" \
	completes "auto timerlat module tracepoints" tlat hist --source ""
check "completion: 'tlat top --source=t<TAB>' -> timerlat tracepoints" \
	completes "timerlat tracepoints" tlat top --source = t
check "completion: 'tlat top --stack-format <TAB>' -> truncate skip full" \
	completes "truncate skip full" tlat top --stack-format ""
check "completion: 'tlat hist -P <TAB>' -> the policy prefixes" \
	completes "o: r: f: d:" tlat hist -P ""
check "completion: 'tlat hist -c <TAB>' -> the online CPUs" \
	completes "$(cat /sys/devices/system/cpu/online)" tlat hist -c ""
check "completion: 'tlat top -p <TAB>' -> nothing (a number)" completes "" tlat top -p ""
check "completion: 'tlat top --plo<TAB>' -> nothing (hist only)" completes "" tlat top --plo
check "completion: 'tlat --qu<TAB>' -> --quiet (no command is top)" \
	completes "--quiet" tlat --qu
check "completion: 'tlat info -<TAB>' -> nothing (no options)" completes "" tlat info -

# file values: in a directory of known files
COMP_DIR=$WORK/complete
mkdir -p "$COMP_DIR/sub"
touch "$COMP_DIR/a.png" "$COMP_DIR/b.svg" "$COMP_DIR/c.txt" "$COMP_DIR/D.PNG"
check "completion: 'tlat hist --plot <TAB>' -> .png and .svg files and directories" \
	completes "$COMP_DIR/a.png $COMP_DIR/b.svg $COMP_DIR/D.PNG $COMP_DIR/sub" \
	tlat hist --plot "$COMP_DIR/"
check "completion: 'tlat top --sample-log <TAB>' -> any file" \
	completes "$COMP_DIR/a.png $COMP_DIR/b.svg $COMP_DIR/c.txt $COMP_DIR/D.PNG $COMP_DIR/sub" \
	tlat top --sample-log "$COMP_DIR/"
touch "$COMP_DIR/rec.dat"
check "completion: 'tlat report h<TAB>' -> hist" completes "hist" tlat report h
check "completion: 'tlat report <dir>/<TAB>' -> the .dat files" \
	completes "$COMP_DIR/rec.dat $COMP_DIR/sub" tlat report "$COMP_DIR/"
check "completion: 'tlat report hist <TAB>' -> the .dat files" \
	completes "$COMP_DIR/rec.dat $COMP_DIR/sub" tlat report hist "$COMP_DIR/"
check "completion: 'tlat record <TAB>' -> top hist" completes "top hist" tlat record ""
check "completion: 'tlat record hist -o <TAB>' -> any file" \
	completes "$COMP_DIR/rec.dat" tlat record hist -o "$COMP_DIR/r"
touch "$COMP_DIR/base.json"
check "completion: 'tlat compare <dir>/<TAB>' -> the .json files and directories" \
	completes "$COMP_DIR/base.json $COMP_DIR/sub" tlat compare "$COMP_DIR/"
check "completion: 'tlat compare --junit <TAB>' -> any file" \
	completes "$COMP_DIR/base.json" tlat compare --junit "$COMP_DIR/ba"
check "completion: 'tlat report top --plo<TAB>' -> nothing (hist only)" \
	completes "" tlat report top --plo
check "completion: 'tlat top -t <TAB>' -> any file" \
	completes "$COMP_DIR/c.txt" tlat top -t "$COMP_DIR/c"

# --- the lists are those of --help, both ways -------------------------------------
help_opts() {
	"$TLAT" "$@" --help | grep -oE -- '(^|[ [|/])--?[a-zA-Z][a-z-]*' | sed 's/^[ [|/]//' |
		grep -vx -- '-[a-z][a-z-]\+' | sort -u
}
for mode in top hist "record top" "record hist" "report top" "report hist" compare; do
	name=${mode/ /-}
	help_opts $mode > "$WORK/help-$name.opts"
	complete_words tlat $mode - > "$WORK/comp-$name.opts"
	check "completion: 'tlat $mode -<TAB>' offers exactly the options of $mode --help" \
		diff -u "$WORK/help-$name.opts" "$WORK/comp-$name.opts" ||
		diff -u "$WORK/help-$name.opts" "$WORK/comp-$name.opts" | show
	check "completion: $mode --help lists at least 10 options (the parse works)" \
		[ "$(wc -l < "$WORK/help-$name.opts")" -ge 10 ]
done
check "completion: the commands are those of tlat --help" \
	completes "$("$TLAT" --help | sed -n 's/^ \{5\}\([a-z]\+\) \+- .*/\1/p')" tlat ""
check "completion: the --source values are those of --help" \
	completes "$("$TLAT" top --help | sed -n 's/.*--source \([a-z|]*\):.*/\1/p' | tr '|' ' ')" \
	tlat top --source ""
check "completion: the --stack-format values are those of --help" \
	completes "$("$TLAT" top --help | sed -n 's/.*--stack-format \([a-z|]*\):.*/\1/p' |
		   tr '|' ' ')" tlat top --stack-format ""
