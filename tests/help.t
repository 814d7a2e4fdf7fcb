#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# tests/help.t - every command of scripts/ describes itself: -h and --help
# print its usage on stdout, a line "usage: ... COMMAND ..." (any case, as
# argparse writes it) among them, and exit 0 without doing any work; an
# unknown option is an error: exit 2, a message on stderr.  "No
# work": run in a sandbox whose OUT and TREE do not exist and whose PATH
# starts with stand-ins for make, quilt, git, apt-get, flock, QEMU and
# friends that note being called; nothing may be called, nothing made.
# An unknown option exits 2, the usage error's code.  scripts/q passes its
# arguments to quilt: an unknown option or command is refused before
# OUT's lock, even while another command holds it.  python3 -m seriesci's
# own subcommands are checked by tests/unit.t.
. "$(dirname "$0")/tap.sh"

cmds=
for f in "$REPO"/scripts/*; do
	[ -f "$f" ] && [ -x "$f" ] && cmds="$cmds ${f##*/}"
done
set -- $cmds
plan $(($# * 3 + 2))

mkdir -p "$TMP/bin"
for c in make quilt git apt-get apt dpkg-query dpkg flock b4 curl wget ccache gcc cc \
	clang mmdebstrap chroot unshare sudo qemu-system-riscv64 qemu-system-x86_64 \
	checkpatch.pl sparse objdump rsync; do
	printf '#!/bin/sh\necho "%s $*" >> "%s/called"\nexit 1\n' "$c" "$TMP" > "$TMP/bin/$c"
	chmod +x "$TMP/bin/$c"
done

# sandbox CMD ARG...: run a command of scripts/ where work would show
sandbox() {
	rm -f "$TMP/called"
	env PATH="$TMP/bin:$PATH" OUT="$TMP/out" BASE=9.9.9 TREE="$TMP/tree" \
		KBUILD_LOCK="$TMP/lock" RECORD="$TMP/out/ci" timeout 60 "$REPO/scripts/$@" \
		> "$TMP/stdout" 2> "$TMP/stderr" < /dev/null
}
# worked: what the last sandbox run did (nothing, when it was good)
worked() {
	[ -f "$TMP/called" ] && echo "called: $(head -n 3 "$TMP/called" | tr '\n' ';')"
	[ -e "$TMP/out" ] && echo "made $TMP/out"
	[ -e "$TMP/lock.q" ] && echo "queued for the build lock"
	rm -rf "$TMP/out" "$TMP/lock" "$TMP/lock.q"
	:
}

for c; do
	for h in -h --help; do
		sandbox "$c" "$h"
		rc=$?
		w=$(worked)
		# a usage line on stdout that names the command (scripts/C or C)
		if [ $rc -eq 0 ] && [ -z "$w" ] &&
		   grep -Eqi "^usage:(.*[ /])?$c( |\$)" "$TMP/stdout"; then
			_result 0 "$c $h: a usage line on stdout, exit 0, no work"
		else
			_result 1 "$c $h: a usage line on stdout, exit 0, no work"
			echo "#   exit $rc; $w; stdout: $(head -c 200 "$TMP/stdout" | head -n 2)"
		fi
	done
	sandbox "$c" --no-such-option
	rc=$?
	w=$(worked)
	if [ $rc -eq 2 ] && [ -z "$w" ] && [ -s "$TMP/stderr" ]; then
		_result 0 "$c --no-such-option: an error (exit 2, stderr), no work"
	else
		_result 1 "$c --no-such-option: an error (exit 2, stderr), no work"
		echo "#   exit $rc; $w; stderr: $(head -c 200 "$TMP/stderr" | head -n 2)"
	fi
done

# scripts/q while another command holds OUT's lock: refused at once
mkdir -p "$TMP/held"
OUT=$TMP/held sh -c '. "$1/scripts/lib.sh"; out_lock; echo held > "$2/held.up"; exec sleep 30' sh "$REPO" "$TMP" \
	> /dev/null 2>&1 &
holder=$!
n=0
while [ ! -e "$TMP/held.up" ] && [ $n -lt 100 ]; do sleep 0.1; n=$((n + 1)); done
for a in --no-such-option nosuchcommand; do
	rc=0
	env PATH="$TMP/bin:$PATH" OUT="$TMP/held" BASE=9.9.9 TREE="$TMP/tree" timeout 5 "$REPO/scripts/q" $a \
		> /dev/null 2> "$TMP/stderr" < /dev/null || rc=$?
	is "$rc $(grep -c WAIT "$TMP/stderr")" "2 0" "scripts/q $a with OUT's lock held elsewhere: exit 2 at once, no wait"
done
kill "$holder" 2>/dev/null
wait "$holder" 2>/dev/null
done_testing
