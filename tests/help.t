#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# tests/help.t - every command of scripts/ describes itself: -h and --help
# print its usage on stdout and exit 0 without doing any work, and an
# unknown option is an error (non-zero exit, a message on stderr).  "No
# work": run in a sandbox whose OUT and TREE do not exist and whose PATH
# starts with stand-ins for make, quilt, git, apt-get, flock, QEMU and
# friends that note being called; nothing may be called, nothing made.
# Commands owned by other work in progress (TODO below) are run only
# when they mention --help, and as TODO tests: their failure is listed,
# not fatal.  python3 -m seriesci's own subcommands are checked by
# tests/unit.t.
. "$(dirname "$0")/tap.sh"

# the commands that do not handle --help yet, and who is converting them
todo_of() {
	case $1 in
	rebase|tree|push|q|lint|export|fetch-baseline|nightly|submit-check) echo "issue 24 (H24)" ;;
	dup-census) echo "issue 19 (H19)" ;;
	boot-example|arch-size) echo "issue 21 (H21)" ;;
	esac
}

cmds=
for f in "$REPO"/scripts/*; do
	[ -f "$f" ] && [ -x "$f" ] && cmds="$cmds ${f##*/}"
done
set -- $cmds
plan $(($# * 3))

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
	todo=$(todo_of "$c")
	if [ -n "$todo" ] && ! grep -q -- '--help' "$REPO/scripts/$c"; then
		for w in "-h" "--help" "an unknown option"; do
			echo "not ok $((T_NUM += 1)) - $c $w # TODO $todo: not run, it has no --help yet"
		done
		continue
	fi
	sfx=${todo:+ # TODO $todo}
	for h in -h --help; do
		sandbox "$c" "$h"
		rc=$?
		w=$(worked)
		# usage on stdout: a "usage" line or at least the command's name
		if [ $rc -eq 0 ] && [ -z "$w" ] && [ -s "$TMP/stdout" ] &&
		   grep -qi -e usage -e "$c" "$TMP/stdout"; then
			echo "ok $((T_NUM += 1)) - $c $h: usage on stdout, exit 0, no work$sfx"
		else
			echo "not ok $((T_NUM += 1)) - $c $h: usage on stdout, exit 0, no work$sfx"
			echo "#   exit $rc; $w; stdout: $(head -c 200 "$TMP/stdout" | head -n 2)"
			[ -n "$todo" ] || T_FAIL=$((T_FAIL + 1))
		fi
	done
	sandbox "$c" --no-such-option
	rc=$?
	w=$(worked)
	if [ $rc -ne 0 ] && [ -z "$w" ] && [ -s "$TMP/stderr" ]; then
		echo "ok $((T_NUM += 1)) - $c --no-such-option: an error, no work$sfx"
	else
		echo "not ok $((T_NUM += 1)) - $c --no-such-option: an error, no work$sfx"
		echo "#   exit $rc; $w; stderr: $(head -c 200 "$TMP/stderr" | head -n 2)"
		[ -n "$todo" ] || T_FAIL=$((T_FAIL + 1))
	fi
done
done_testing
