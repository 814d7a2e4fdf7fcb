#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# tests/build-progress.t - a long build shows progress: build-arch prints,
# while the image builds, a line in Kbuild's quiet form with the Kbuild
# steps so far (against the last build's count from the second build on)
# and the time, on a terminal or with PROGRESS=1, never with PROGRESS=0;
# the log stays complete.  On the stand-in make of tests/stand-in-make.sh:
# 4 Kbuild lines a second apart, no kernel built.
. "$(dirname "$0")/tap.sh"
. "$T_DIR/stand-in-make.sh"
standin_setup
plan 6

ba() {	# ba: build t; its standard error, less build-all's own line
	PATH=$TMP/bin:$PATH OUT=$TMP/out TREE=$T2 CONFIGS=$R/configs STANDIN_STEPS=4 STANDIN_SLEEP=1 \
		PROGRESS_EVERY=1 "$R/scripts/build-arch" t 2>&1 >/dev/null
}
out=$(PROGRESS=1 ba)
like "$out" "^  BUILD   t +[0-9] Kbuild steps, 0m0[1-9]s \\(log: " "PROGRESS=1: a progress line, in Kbuild's quiet form"
is "$(sed -n 's/^stage=//p' "$TMP/out/build/$BASE/t.result")" built "and the build is done"
is "$(grep -c '^  CC      kernel/fork.o' "$TMP/out/build/$BASE/t.log")" 4 "the log holds every Kbuild line"
rm -f "$TMP/out/build/$BASE/t/vmlinux"
out=$(PROGRESS=1 ba)
like "$out" "Kbuild steps of ~4 \\(the last build\\)" "the second build counts against the first"
rm -f "$TMP/out/build/$BASE/t/vmlinux"
is "$(PROGRESS=0 ba | grep -c 'BUILD ')" 0 "PROGRESS=0: no progress line"
rm -f "$TMP/out/build/$BASE/t/vmlinux"
unset PROGRESS
is "$(ba | grep -c 'BUILD ')" 0 "not a terminal, no PROGRESS: no progress line"
