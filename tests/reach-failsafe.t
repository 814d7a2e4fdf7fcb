#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# tests/reach-failsafe.t - scripts/reach answers "unreached" (exit 3, the
# only answer on which build-arch skips a build) only from a whole,
# intact index: a missing, emptied or edited index file, or an error of
# its own, is "build".  A made-up tree and one build folder, as in
# tests/reach.t; then build-arch with REACH=1 on a made-up tree whose
# "make" is a stand-in (no kernel is built): it skips on exit 3 only.
. "$(dirname "$0")/tap.sh"

plan 21
T=$TMP/tree
export TREE=$T
mkdir -p "$T/include/linux" "$T/kernel" "$T/Documentation"
for f in include/linux/bar.h kernel/fork.c kernel/Makefile Documentation/x.rst Kconfig Makefile; do
	echo "/* $f */" > "$T/$f"
done
t=$(cd "$T" && pwd -P)
B=$TMP/B
mkdir -p "$B/kernel" "$B/include/config"
cat > "$B/kernel/.fork.o.cmd" <<EOF
savedcmd_kernel/fork.o := gcc -nostdinc -I$t/include -c -o kernel/fork.o $t/kernel/fork.c

source_kernel/fork.o := $t/kernel/fork.c

deps_kernel/fork.o := \\
  $t/include/linux/bar.h \\

kernel/fork.o: \$(deps_kernel/fork.o)
EOF
printf 'deps_config := \\\n\tKconfig\n\ninclude/config/auto.conf: $(deps_config)\n' > "$B/include/config/auto.conf.cmd"

# record: a fresh index of B, as build-arch leaves it after a build
record() {
	rm -rf "$B/.reach"
	touch "$B/.stamp"
	"$REPO/scripts/reach" --record "$B" "$B/.stamp" key1
}
# answer: reach's exit status for a documentation change, which B never read
answer() {
	"$REPO/scripts/reach" -q --key key1 --files Documentation/x.rst "$B" && return 0 || return $?
}
rc() {
	answer && echo 0 || echo $?
}

record
is "$(rc)" 3 "an intact index and a change the build never read: unreached, exit 3"
is "$(cd "$B/.reach" && ls sums 2>/dev/null)" sums "the index records the sha256 of its files"
"$REPO/scripts/reach" -q --key key1 --files kernel/fork.c "$B"
is $? 0 "a change the build read: reached, exit 0"

for f in dirs idirs names gen key tree; do
	record
	rm "$B/.reach/$f"
	r=$(rc)
	[ "$r" = 0 ] || break
done
is "$r" 0 "an index with a file missing (dirs, idirs, names, gen, key, tree): reached"
like "$("$REPO/scripts/reach" --key key1 --files Documentation/x.rst "$B")" \
	'incomplete \(no tree\)' "it says which file is missing"

record
: > "$B/.reach/dirs"
is "$(rc)" 0 "an emptied index file (dirs): reached"

record
echo "arch/nosuch/include" >> "$B/.reach/idirs"
is "$(rc)" 0 "an index file edited by hand (idirs): reached"
like "$("$REPO/scripts/reach" --key key1 --files Documentation/x.rst "$B")" 'damaged' \
	"it says the index is damaged"

record
: > "$B/.reach/deps"
is "$(rc)" 0 "an emptied deps: reached"

record
rm -r "$B/.reach"
mkdir "$B/.reach"
is "$(rc)" 0 "an empty index folder: reached"

# an index of before the sums, whole: still trusted
record
rm "$B/.reach/sums"
is "$(rc)" 3 "a whole index without sums (written before them): still unreached"

# the tree as it is, the build named by a relative path: a file the
# build read changed since, so reached (find must not lose the stamp)
record
sleep 1.1
touch "$T/include/linux/bar.h"
(cd "$TMP" && "$REPO/scripts/reach" -q --key key1 B)
is $? 0 "a changed dependency, the build folder given relative: reached"

# errors are not proofs: usage (2)
"$REPO/scripts/reach" --bogus "$B" 2>/dev/null
isnt $? 3 "a usage error is not exit 3"

# build-arch, REACH=1, on the stand-in make of tests/stand-in-make.sh
. "$T_DIR/stand-in-make.sh"
standin_setup
ba() {
	PATH=$TMP/bin:$PATH OUT=$TMP/out TREE=$T2 CONFIGS=$R/configs REACH=1 \
		"$R/scripts/build-arch" t > /dev/null 2>&1 || :
	sed -n 's/^stage=//p' "$TMP/out/build/$BASE/t.result"
}
is "$(ba)" built "build-arch: the first build builds (and records its index)"
res=$(cat "$TMP/out/build/$BASE/t.result")
like "$res" '^compiler=gcc .*[0-9]' "the result names the compiler (first line of its --version)"
like "$res" '^binutils=GNU ld ' "and the linker"
is "$(ba)" unreached "nothing changed: unreached, not rebuilt"
rm "$TMP/out/build/$BASE/t/.reach/dirs"
is "$(ba)" built "an index with a file missing: built"
touch "$T2/notes.txt"
is "$(ba)" unreached "a change the build never read: unreached"
printf '#!/bin/sh\necho "reach: error: broken" >&2\nexit 1\n' > "$R/scripts/reach"
is "$(ba)" built "scripts/reach failing (exit 1): built, not skipped"
like "$(cat "$TMP/out/build/$BASE/t.log")" 'scripts/reach failed \(exit 1: reach: error: broken\)' \
	"the log says reach failed and why"
done_testing
