#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# tests/reach.t - scripts/reach decides from Kbuild's .cmd files which
# kept builds a change can reach.  A made-up tree and three build folders
# written the way fixdep and Kbuild write them: arch "a" wraps the
# asm-generic foo.h in an asm/foo.h of its own (no generic-y line names
# it), arch "b" carries its own copy, and "um" reads arch/x86's headers.
# Where a guess from paths would skip wrongly, the .cmd files say build.
. "$(dirname "$0")/tap.sh"

plan 24
T=$TMP/tree
export TREE=$T
mkdir -p "$T/include/asm-generic" "$T/include/linux" "$T/arch/a/include/asm" \
	"$T/arch/b/include/asm" "$T/arch/x86/include/asm" "$T/kernel" \
	"$T/Documentation" "$T/scripts" "$T/lib"
for f in include/asm-generic/foo.h include/asm-generic/qux.h include/linux/bar.h \
	arch/a/include/asm/foo.h arch/b/include/asm/foo.h arch/x86/include/asm/baz.h \
	kernel/fork.c kernel/Makefile lib/Makefile lib/csum.c Documentation/x.rst \
	scripts/Makefile.build arch/a/include/asm/Kbuild arch/b/include/asm/Kbuild \
	arch/a/Kconfig arch/b/Kconfig Kconfig Makefile; do
	echo "/* $f */" > "$T/$f"
done
t=$(cd "$T" && pwd -P)

# mkbuild NAME ARCH DEP...: a build folder whose kernel/fork.o read DEPs
# (tree-relative, or O-relative when they start with "gen:").
mkbuild() {
	b=$TMP/$1
	a=$2
	shift 2
	mkdir -p "$b/kernel" "$b/include/config" "$b/arch/$a/include/generated/asm"
	{
		echo "savedcmd_kernel/fork.o := gcc -Wp,-MMD,kernel/.fork.o.d -nostdinc -I$t/arch/$a/include -I./arch/$a/include/generated -I$t/include -include $t/include/linux/bar.h -c -o kernel/fork.o $t/kernel/fork.c"
		echo
		echo "source_kernel/fork.o := $t/kernel/fork.c"
		echo
		echo "deps_kernel/fork.o := \\"
		for d in "$@"; do
			case $d in
			gen:*) echo "  ${d#gen:} \\" ;;
			*) echo "  $t/$d \\" ;;
			esac
		done
		echo "  \$(wildcard include/config/FOO) \\"
		echo
		echo "kernel/fork.o: \$(deps_kernel/fork.o)"
		echo
		echo "\$(deps_kernel/fork.o):"
	} > "$b/kernel/.fork.o.cmd"
	printf 'deps_config := \\\n\tKconfig \\\n\tarch/%s/Kconfig\n\ninclude/config/auto.conf: $(deps_config)\n' \
		"$a" > "$b/include/config/auto.conf.cmd"
	touch "$b/.stamp"
	"$REPO/scripts/reach" --record "$b" "$b/.stamp" key1
}
mkbuild A a include/asm-generic/foo.h arch/a/include/asm/foo.h gen:arch/a/include/generated/asm/qux.h \
	include/bar2.h
mkbuild B b arch/b/include/asm/foo.h gen:arch/b/include/generated/asm/qux.h
mkbuild UM um arch/x86/include/asm/baz.h

# builds FILE...: which of A B UM the files reach ("-" for none)
builds() {
	o=
	for b in A B UM; do
		"$REPO/scripts/reach" -q --key key1 --files "$@" "$TMP/$b" && o="$o $b"
	done
	echo ${o:--}
}

is "$(builds include/asm-generic/foo.h)" "A" \
	"an asm-generic header reaches the arch that includes it from its own asm/foo.h (no generic-y names it), not the one with its own copy"
is "$(builds arch/x86/include/asm/baz.h)" "UM" \
	"an arch/x86 header reaches um, whose build reads it (a guess from ARCH would skip it)"
is "$(builds include/linux/bar.h)" "A B UM" "a header given with -include reaches every build"
is "$(builds kernel/fork.c)" "A B UM" "a source reaches every build that compiles it"
is "$(builds Documentation/x.rst)" "-" "documentation reaches no build"
is "$(builds lib/csum.c)" "-" "a source no build compiles reaches none"
is "$(builds arch/b/include/asm/Kbuild)" "B" "an arch's header Kbuild reaches only the builds that read that folder"
is "$(builds arch/a/Kconfig)" "A" "a Kconfig file reaches the builds whose configuration read it"
is "$(builds kernel/Makefile)" "A B UM" "a Makefile of a folder the build visits reaches it"
is "$(builds lib/Makefile)" "-" "a Makefile of a folder no build visits reaches none"
is "$(builds scripts/Makefile.build)" "A B UM" "anything under scripts/ reaches every build"
is "$(builds Makefile)" "A B UM" "the top Makefile reaches every build"
is "$(builds arch/b/include/asm/qux.h)" "B" \
	"a new arch/b asm/qux.h would shadow the generated one in b's build only"
is "$(builds include/asm-generic/qux.h)" "-" \
	"a header in a folder the builds read, under a name none of them includes, reaches nothing"
is "$(builds kernel/bar2.h)" "A" \
	"a new kernel/bar2.h would shadow a quoted \"bar2.h\" that A found as include/bar2.h"
is "$(builds include/uapi/asm-generic/qux.h)" "-" \
	"a header in a folder no build reads, under a name none includes, reaches nothing"
is "$(builds Documentation/x.rst include/asm-generic/foo.h)" "A" "one reaching file of several is enough"
like "$("$REPO/scripts/reach" --key key1 --files arch/x86/include/asm/baz.h "$TMP/UM")" \
	'^reached: arch/x86/include/asm/baz.h: a dependency' "it says why"
check "another key (compiler, configuration) reaches" "$REPO/scripts/reach" -q --key key2 --files Documentation/x.rst "$TMP/A"
check "no recorded build: reached" "$REPO/scripts/reach" -q --key key1 --files Documentation/x.rst "$TMP/nosuch"

# the tree as it is: files changed since the recorded build began
sleep 1.1
fails "nothing changed since the build: unreached" "$REPO/scripts/reach" -q --key key1 "$TMP/A"
touch "$T/Documentation/x.rst"
fails "a changed documentation file: unreached" "$REPO/scripts/reach" -q --key key1 "$TMP/A"
touch "$T/include/asm-generic/foo.h"
check "a changed dependency (newer than the build): reached" "$REPO/scripts/reach" -q --key key1 "$TMP/A"
rm "$T/arch/b/include/asm/foo.h"
like "$("$REPO/scripts/reach" --key key1 "$TMP/B")" 'arch/b/include/asm/foo.h: a dependency of the build, deleted' \
	"a deleted dependency reaches"
done_testing
