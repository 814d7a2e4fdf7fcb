#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# tests/ci-warnings.t - new_warnings= of an incremental ci-series: a
# warning is new only against a step that compiled what printed it.  A
# stand-in tree whose kernel/fork.c has always warned (as sh's clone3
# #warning) and includes include/linux/h.h, a series whose first patch
# brings a really new warning into kernel/b.c, whose second touches h.h
# (so fork.c is recompiled there) and whose third only adds a document
# and a source no object compiles (scripts/reach: unreached), and a stand-in make in PATH that compiles
# an object when it is missing or its sources changed, printing Kbuild's
# "  CC" line and the #warning lines of the source as GCC would.
# Walking up, fork.c's old warning at the header patch is undecided
# ("ok +1w?"), not new; walking down (ci-columns, ci-full), the sticky
# recompiles put it into every lower step's log: not new, and the
# really new one is new, nothing undecided.
. "$(dirname "$0")/tap.sh"
. "$T_DIR/mini.sh"

command -v quilt >/dev/null 2>&1 || skip_all "no quilt"
command -v flock >/dev/null 2>&1 || skip_all "no flock"
plan 14
mini_setup

# the baseline: the mini tree plus the files the stand-in make compiles
W=$TMP/wtree
cp -a "$T_DIR/fixtures/mini/tree" "$W"
mkdir -p "$W/kernel/configs" "$W/include/linux" "$W/scripts/kconfig"
printf '#include <linux/h.h>\n#warning clone3() entry point is missing\n' > "$W/kernel/fork.c"
printf 'int b;\n' > "$W/kernel/b.c"
printf '/* h */\n' > "$W/include/linux/h.h"
: > "$W/kernel/configs/tiny-base.config"
: > "$W/kernel/configs/tiny.config"
printf '#!/bin/sh\nshift 3\nfor f; do cat "$f"; done >> "$1"\n' > "$W/scripts/kconfig/merge_config.sh"
chmod +x "$W/scripts/kconfig/merge_config.sh"
: > "$BASELINES"
mini_baseline 9.9.1 "$W"

# the series
P=$QUILT_PATCHES
patch_file() { # NAME SUBJECT DIFF
	printf 'From: asm-generic series <series@example.org>\nSubject: [PATCH] %s\n\n%s\n\nSigned-off-by: asm-generic series <series@example.org>\n---\n%s\n' \
		"$2" "A test patch." "$3" > "$P/$1"
}
patch_file a-warn.patch "b: a really new warning" '--- a/kernel/b.c
+++ b/kernel/b.c
@@ -1 +1,2 @@
 int b;
+#warning really new'
patch_file b-header.patch "h: a header fork.c includes" '--- a/include/linux/h.h
+++ b/include/linux/h.h
@@ -1 +1,2 @@
 /* h */
+/* changed */'
patch_file c-doc.patch "doc: a note" '--- /dev/null
+++ b/Documentation/note.txt
@@ -0,0 +1 @@
+a note
--- /dev/null
+++ b/kernel/unused.c
@@ -0,0 +1 @@
+int unused;'
printf 'a-warn.patch\nb-header.patch\nc-doc.patch\n' > "$QUILT_SERIES"

"$REPO/scripts/tree" > "$TMP/tree.log" 2>&1 || { cat "$TMP/tree.log"; exit 1; }
mkdir -p "$TREE/scripts" "$TMP/configs" "$TMP/bin"
printf '#!/bin/sh\necho "total: 0 errors, 0 warnings, 0 checks"\n' > "$TREE/scripts/checkpatch.pl"
chmod +x "$TREE/scripts/checkpatch.pl"
: > "$TMP/configs/base.config"
: > "$TMP/configs/w.config"
echo "w alpha - quick" > "$TMP/configs/targets"

# the stand-in kernel make (build-all's own make is the real one):
# configures by concatenation; vmlinux compiles each object whose
# sources (their cksum) changed or that is missing, with the .cmd file
# scripts/reach reads
printf '#!/bin/sh\nMAKE=%s\n' "$(command -v make)" > "$TMP/bin/make"
cat >> "$TMP/bin/make" <<'MAKE'
o=
for a; do case $a in O=*) o=${a#O=} ;; esac; t=$a; done
[ -n "$o" ] || exec "$MAKE" "$@"
case $t in
tinyconfig) echo CONFIG_X=y > "$o/.config" ;;
clean) rm -f "$o"/kernel/*.o "$o"/kernel/.*.cmd "$o"/kernel/.*.sum "$o/vmlinux" ;;
vmlinux)
	mkdir -p "$o/kernel"
	for s in fork:"kernel/fork.c include/linux/h.h" b:kernel/b.c; do
		n=${s%%:*}
		src=
		for f in ${s#*:}; do src="$src $TREE/$f"; done
		sum=$(cat $src | cksum)
		[ -f "$o/kernel/$n.o" ] && [ "$(cat "$o/kernel/.$n.sum" 2>/dev/null)" = "$sum" ] && continue
		echo "  CC      kernel/$n.o"
		sed -n "s|^#warning \(.*\)|$TREE/kernel/$n.c:2:2: warning: #warning \1 [-Wcpp]|p" "$TREE/kernel/$n.c"
		echo "$sum" > "$o/kernel/.$n.sum"
		: > "$o/kernel/$n.o"
		{
			echo "savedcmd_kernel/$n.o := gcc -c -o kernel/$n.o $TREE/kernel/$n.c"
			echo
			echo "source_kernel/$n.o := $TREE/kernel/$n.c"
			echo
			echo "deps_kernel/$n.o := \\"
			for f in $src; do echo "  $f \\"; done
			echo
		} > "$o/kernel/.$n.o.cmd"
		touch "$o/.relink"
	done
	if [ -f "$o/.relink" ] || [ ! -f "$o/vmlinux" ]; then
		echo "  LD      vmlinux"
		echo vmlinux > "$o/vmlinux"
		rm -f "$o/.relink"
	fi ;;
esac
MAKE
chmod +x "$TMP/bin/make"
PATH=$TMP/bin:$PATH
CC=true
export PATH CC CONFIGS="$TMP/configs" KBUILD_LOCK="$TMP/lock"
unset KBUILD_LOCK_HELD TARGETS TIER SHARD
ci=$OUT/ci/$BASE

# verdicts: "STEP new undecided" of every step
verdicts() {
	for s in 000-baseline 001-a-warn.patch 002-b-header.patch 003-c-doc.patch; do
		echo "${s%%-*} $(sed -n 's/^new_warnings=//p' "$ci/$s/w.result")" \
			"$(sed -n 's/^undecided_warnings=//p' "$ci/$s/w.result")"
	done | tr '\n' ';'
}

# up: every build is one patch after the one before
"$REPO/scripts/ci-series" --restart > "$TMP/up.log" 2>&1 || { cat "$TMP/up.log"; exit 1; }
is "$(verdicts)" "000 0 0;001 1 0;002 0 1;003 0 0;" \
	"up: the really new warning is new; fork.c's old one, recompiled for the header, undecided"
like "$(grep '^| 2 ' "$ci/results.md")" '\| ok \+1w\? \|' "results.md shows it as ok +1w?, not as new"
like "$(grep -o '<td class="ok undecided"[^>]*>' "$ci/results.html")" 'data-col="w"' \
	"results.html paints it undecided"
is "$(grep -c '^stage=unreached' "$ci/003-c-doc.patch/w.result")" 1 "the document patch is unreached"
# coverage: what each step's build read of its patch's files
is "$(sed -n 's/^covers=//p' "$ci/002-b-header.patch/w.result")" "include/linux/h.h:1" \
	"a cell names how many objects read each file of its patch"
like "$(grep '^- 3 ' "$ci/results.md")" '^- 3 c-doc.patch: \*\*not covered\*\*: kernel/unused.c NOT COVERED \(read by none of w\)$' \
	"a step whose change no object reads is not covered, documentation not counted"
is "$(grep '^| [123] ' "$ci/results.md" | head -n 3 | awk -F' [|] ' '{ sub(/ [|]$/, "", $NF); print $NF }' | tr '\n' ';')" "covered;covered;**not covered**;" \
	"results.md has a covered column"

# down: what the ci-full columns run, from the kept build of the top
# (the up walk's): b.c's warning is in no log unless the first step is
# built in full, as its patch's step does not recompile b.c (the step
# below does, reverting it)
"$REPO/scripts/ci-series" --down --restart > "$TMP/down.log" 2>&1 || { cat "$TMP/down.log"; exit 1; }
is "$(verdicts)" "000 0 0;001 1 0;002 0 0;003 0 0;" \
	"down: the really new warning is new, the old one nowhere, nothing undecided"
like "$(cat "$ci/003-c-doc.patch/w.log")" '# rebuilt in full, the first step of a ci-series --down run' \
	"the first step of the walk is built in full"
like "$(grep '^  STICKY.*rebuilt for' "$TMP/down.log" | head -n 1)" 'w: 2 rebuilt .*kernel/b.o kernel/fork.o' \
	"ci-series names what it rebuilds for the warnings above"
is "$(grep -c '^stage=built' "$ci/002-b-header.patch/w.result")" 1 \
	"a step reach finds unreached is built for them"
like "$(cat "$ci/002-b-header.patch/w.log")" '# rebuilt for the warnings of the steps above: kernel/b.o kernel/fork.o' \
	"and its log says so"
is "$(grep -c 'fork.c:2:2: warning' "$ci"/0*/w.log | grep -c ':1$')" 4 \
	"every step's log has fork.c's warning"
is "$(ls "$OUT/build/$BASE"/*.rebuild 2>/dev/null | wc -l)" 0 "no rebuild list is left behind"
done_testing
