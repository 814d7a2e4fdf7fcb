#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# scripts/codegen-compare on a fixture tree of three arches, with a stand-in
# for build-arch that compiles one C file per arch with the host compiler:
# a patch that changes only a comment is "same", one that changes a value
# of an asm-generic header DIFFERS on the arch that uses it, a build that
# fails the same way on both sides is compared object by object, and the
# tree is left at the patch it was at; a patch that renames data only is
# "same" with bytes that differ outside the code, and the symbol tables'
# diff names the symbol.
. "$(dirname "$0")/tap.sh"

command -v quilt >/dev/null 2>&1 || skip_all "no quilt"
command -v objdump >/dev/null 2>&1 || skip_all "no objdump"
command -v cc >/dev/null 2>&1 || skip_all "no cc"
plan 20

CC_=$REPO/scripts/codegen-compare
F=$TMP/tree
mkdir -p "$F/arch/alpha/include/asm" "$F/arch/beta/include/asm" \
	"$F/arch/gamma" "$F/include/asm-generic" "$TMP/patches" "$TMP/configs"
cat > "$F/arch/alpha/code.c" <<-'X'
	/* alpha: the old comment */
	#include <asm/val.h>
	int f(int x) { return x * VAL + 3; }
X
echo '#define VAL 7' > "$F/arch/alpha/include/asm/val.h"
cat > "$F/arch/beta/code.c" <<-'X'
	#include <asm-generic/gen.h>
	int g(int x) { return x + GEN; }
X
echo 'generic-y += gen.h' > "$F/arch/beta/include/asm/Kbuild"
echo '#define GEN 5' > "$F/include/asm-generic/gen.h"
echo 'int h(int x) { return x - 1; }' > "$F/arch/gamma/code.c"
cat > "$TMP/patches/alpha-comment.patch" <<-'X'
	Subject: alpha: a new comment

	--- a/arch/alpha/code.c
	+++ b/arch/alpha/code.c
	@@ -1,3 +1,3 @@
	-/* alpha: the old comment */
	+/* alpha: the new comment, the same code */
	 #include <asm/val.h>
	 int f(int x) { return x * VAL + 3; }
X
cat > "$TMP/patches/generic-gen.patch" <<-'X'
	Subject: asm-generic: another GEN

	--- a/include/asm-generic/gen.h
	+++ b/include/asm-generic/gen.h
	@@ -1 +1 @@
	-#define GEN 5
	+#define GEN 6
X
cat > "$TMP/patches/gamma-touch.patch" <<-'X'
	Subject: gamma: a comment

	--- a/arch/gamma/code.c
	+++ b/arch/gamma/code.c
	@@ -1 +1,2 @@
	+/* gamma */
	 int h(int x) { return x - 1; }
X
printf '%s\n' alpha-comment.patch generic-gen.patch gamma-touch.patch > "$TMP/patches/series"
printf '%s\n' "alpha alpha - full" "beta beta - full" "gamma gamma - full" > "$TMP/configs/targets"
# build-arch's stand-in: the "vmlinux" is the arch's code.c compiled;
# gamma makes an object, then fails
cat > "$TMP/build" <<-'X'
	#!/bin/sh
	t=$1
	mkdir -p "$BUILD/$t"
	cc -O2 -c -I"$TREE/arch/$t/include" -I"$TREE/include" \
		-o "$BUILD/$t/code.o" "$TREE/arch/$t/code.c" || exit 1
	if [ "$t" = gamma ]; then
		printf 'status=fail\nfirst_error=gamma: error: no linker\n' > "$BUILD/$t.result"
		exit 1
	fi
	cp "$BUILD/$t/code.o" "$BUILD/$t/vmlinux"
	printf 'status=ok\nfirst_error=\n' > "$BUILD/$t.result"
X
chmod +x "$TMP/build"
export TREE="$F" QUILT_PATCHES="$TMP/patches" QUILT_SERIES="$TMP/patches/series" \
	CONFIGS="$TMP/configs" CODEGEN_BUILD="$TMP/build" BUILD="$TMP/cg" \
	KBUILD_LOCK="$TMP/lock" OUT="$TMP/out"
"$REPO/scripts/push" -a > "$TMP/push.log" 2>&1

is "$("$CC_" -n --patch alpha-comment.patch 2>&1)" "alpha-comment.patch: alpha" \
	"the targets of an arch patch: that arch's"
is "$("$CC_" -n --patch generic-gen.patch 2>&1)" "generic-gen.patch: beta" \
	"the targets of an asm-generic patch: the arches that use the header"
out=$("$CC_" --patch alpha-comment.patch 2>&1)
rc=$?
is "$rc" 0 "a patch that changes a comment only: exit 0"
like "$out" '^\[ 1/1\] alpha +same +[0-9]+ lines +vmlinux bytes identical$' "and alpha is reported same"
out=$("$CC_" --patch generic-gen.patch 2>&1)
rc=$?
is "$rc" 1 "a patch that changes a value: exit 1"
like "$out" '^\[ 1/1\] beta +DIFFERS +[0-9]+ of [0-9]+ lines' "and beta is reported DIFFERS"
like "$(cat "$TMP/cg/beta.diff")" '^>.*0x6' "the diff of the disassembly shows the new value"
out=$("$CC_" --patch generic-gen.patch alpha beta 2>&1)
like "$out" '\[ 1/2\] alpha +same.*
\[ 2/2\] beta +DIFFERS' "named targets: each its own line"
like "$out" 'BUILD +beta before' "a before folder left at the patch itself is built again"
is "$(echo "$out" | grep -c 'alpha before')" 0 \
	"the before folder the previous patch left is used as it is"
like "$("$CC_" 2>&1)" '^\[ 1/1\] gamma +same +1 objects \(both builds fail' \
	"default patch: the topmost; both builds failing alike: the objects are compared"
is "$(cat "$F/.pc/applied-patches" | tr '\n' ' ')" \
	"alpha-comment.patch generic-gen.patch gamma-touch.patch " \
	"the tree is left with every patch applied, as it was"
fails "an unknown target is an error" "$CC_" --patch alpha-comment.patch zeta
(cd "$F" && quilt --quiltrc "$REPO/scripts/quiltrc" pop -q >/dev/null 2>&1)
like "$("$CC_" --patch gamma-touch.patch 2>&1)" "gamma-touch.patch is not applied in .*: push it first" \
	"a patch that is not applied is an error naming the fix"
check "--before builds the folders before a patch not applied yet" "$CC_" --before --patch gamma-touch.patch
"$REPO/scripts/push" > /dev/null 2>&1
out=$("$CC_" 2>&1)
like "$out" '^\[ 1/1\] gamma +same' "the patch pushed: same"
is "$(echo "$out" | grep -c 'gamma before')" 0 "and the folders --before built are used as they are"

# the same code, other bytes: a data symbol of another name
cat > "$TMP/patches/alpha-data.patch" <<-'X'
	Subject: alpha: a tag

	--- a/arch/alpha/code.c
	+++ b/arch/alpha/code.c
	@@ -1,3 +1,4 @@
	 /* alpha: the new comment, the same code */
	 #include <asm/val.h>
	 int f(int x) { return x * VAL + 3; }
	+const char alpha_tag[] = "tag";
X
echo alpha-data.patch >> "$TMP/patches/series"
"$REPO/scripts/push" > /dev/null 2>&1
out=$("$CC_" --patch alpha-data.patch 2>&1)
is "$?" 0 "a patch that adds data only: exit 0"
like "$out" '^\[ 1/1\] alpha +same +[0-9]+ lines +vmlinux bytes differ outside the code; symbols: [0-9]+ lines differ, .*/alpha\.syms\.diff$' \
	"and alpha is same, its bytes differ outside the code, and the symbol tables' diff is kept"
like "$(cat "$TMP/cg/alpha.syms.diff" 2>&1)" '^>.* alpha_tag$' "the diff names the new symbol"
done_testing
