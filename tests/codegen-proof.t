#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# tests/codegen-proof.t - scripts/codegen-proof writes the generated-code
# paragraph of a patch from a ci-series record: the targets where vmlinux
# stayed the same, those where only data or the code changed, touched
# arches no target builds, and targets of touched arches not yet built;
# -w puts it in place of the old paragraph and leaves the rest of the
# patch alone.  Fixture series, patches, targets and record.
. "$(dirname "$0")/tap.sh"

plan 8

P=$TMP/patches
rec=$TMP/r
mkdir -p "$P" "$rec"
printf 'one.patch\n# a comment\ntwo.patch\n' > "$TMP/series"
printf 'aa  alpha  x-  full\nbb  bee  y-  full\nb2  bee  y-  full\ncc  cee  z-  full\n' > "$TMP/targets"
# mkpatch NAME ARCH...: a patch whose diff touches arch/ARCH/x.h
mkpatch() {
	n=$1
	shift
	{ printf 'Subject: [PATCH] %s\n\nWhy.\n\n' "$n"
	  printf 'Generated code, from scripts/ci-series (old text\nover two lines).\n\nSigned-off-by: s <s@e.org>\n---\n'
	  for a in "$@"; do
		printf -- '--- a/arch/%s/x.h\n+++ b/arch/%s/x.h\n@@ -1 +1 @@\n-a\n+b\n' "$a" "$a"
	  done
	  printf 'Generated code, from scripts/ci-series in the diff\n'; } > "$P/$n"
}
mkpatch one.patch alpha bee
mkpatch two.patch cee dee
# res STEP TARGET CODEGEN
res() {
	mkdir -p "$rec/$1"
	printf 'target=%s\nstatus=ok\ncodegen=%s\n' "$2" "$3" > "$rec/$1/$2.result"
}
res 001-one.patch aa identical
res 001-one.patch bb identical
res 001-one.patch cc identical
printf 'status=ok\n' > "$rec/001-one.patch/checkpatch.result"
res 002-two.patch aa identical
res 002-two.patch bb same
res 002-two.patch cc differs

proof() { QUILT_PATCHES=$P QUILT_SERIES=$TMP/series TARGETS_FILE=$TMP/targets \
	"$REPO/scripts/codegen-proof" -r "$rec" "$@"; }

is "$(proof one.patch)" "Generated code, from scripts/ci-series (KBUILD_BUILD_* fixed; the sha256
of vmlinux and of its objdump -d, against the tree without this patch):
vmlinux the same, byte for byte, on all 3 targets built: aa, bb, cc.
Not yet built: b2." "all identical: every target named, a touched arch's missing target too"
is "$(proof two.patch)" "Generated code, from scripts/ci-series (KBUILD_BUILD_* fixed; the sha256
of vmlinux and of its objdump -d, against the tree without this patch):
vmlinux the same, byte for byte, on aa; the same code (objdump -d),
other bytes changed, on bb; the code changes on cc.  Not built here: dee
(no Debian compiler the kernel builds with)." "changes named; a touched arch with no target"
fails "a patch not in the series is an error" proof three.patch
rm -r "$rec/002-two.patch"
fails "a step the record lacks is an error" proof two.patch
proof -w one.patch > /dev/null 2>&1 || :
check "-w rewrote the patch" grep -q '^Not yet built: b2\.$' "$P/one.patch"
is "$(grep -c 'old text\|over two lines' "$P/one.patch")" 0 "-w: the old paragraph is gone"
is "$(sed -n '/^Signed-off-by/,$p' "$P/one.patch" | md5sum)" \
	"$(mkpatch x.patch alpha bee; sed -n '/^Signed-off-by/,$p' "$P/x.patch" | md5sum)" \
	"-w: the trailer and the diff are as they were"
sed -i '/^Generated code/,/^$/d' "$P/x.patch"
printf 'x.patch\n' >> "$TMP/series"
res 003-x.patch aa identical
fails "-w on a patch without the paragraph is an error" proof -w x.patch
