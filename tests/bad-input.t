#!/bin/sh
# Bad input gets a clear error and loses nothing: a corrupt download, a
# patch that does not apply, an interrupted unpack and push, a missing tool,
# a baseline that is not pinned.
. "$(dirname "$0")/tap.sh"
. "$T_DIR/mini.sh"
mini_setup
M="make -s -C $REPO"
deb=$OUT/dl/linux-source-9.9_9.9.1-1_all.deb

plan 16

# A corrupt download: clear error, nothing unpacked, the file kept.
cp "$deb" "$TMP/good.deb"
printf 'garbage' >> "$deb"
out=$($M tree 2>&1) && rc=0 || rc=$?
is "$rc" 2 "make tree fails on a .deb whose sha256 does not match"
like "$out" "sha256 .* but .* pins .*: the file is corrupt" "the error names the mismatch and the fix"
is "$(ls "$OUT/src" 2>/dev/null | wc -l)" 0 "nothing was unpacked"
is "$(test -f "$deb" && echo kept)" kept "the corrupt file is kept for the user to look at"
cp "$TMP/good.deb" "$deb"

# An unpack killed part way leaves only its scratch folder: a re-run recovers.
mkdir -p "$OUT/src/.$BASE.unpack/linux-source-9.9"
echo half > "$OUT/src/.$BASE.unpack/linux-source-9.9/Makefile"
check "make tree recovers from an interrupted unpack" $M tree
is "$(head -n 1 "$SRC/Makefile")" "# A stand-in kernel tree for the workflow tests." "the unpacked tree is the real one"

# A patch that does not apply: named, with its file; the tree stays at the
# last good patch; fixing it and re-running resumes.
$M pop Q=-a >/dev/null 2>&1
sed -i 's/^ generic-y += vmalloc.h/ generic-y += nosuch.h/' "$QUILT_PATCHES/beta-param.patch"
out=$($M tree 2>&1) && rc=0 || rc=$?
is "$rc" 2 "make tree fails on a patch that does not apply"
like "$out" "patch beta-param.patch does not apply" "the error names the patch"
like "$out" "arch/beta/include/asm/Kbuild" "the error names the file"
like "$($M top 2>&1)" "^alpha-param.patch$" "the tree stays at the last good patch"
sed -i 's/^ generic-y += nosuch.h/ generic-y += vmalloc.h/' "$QUILT_PATCHES/beta-param.patch"
check "after the fix, make tree resumes" $M tree

# A push killed part way: the patch's backups are in .pc but it is not
# applied.  The next command puts the files back first.
$M pop >/dev/null 2>&1
mkdir -p "$TREE/.pc/beta-param.patch/arch/beta/include/asm"
cp "$TREE/arch/beta/include/asm/Kbuild" "$TREE/.pc/beta-param.patch/arch/beta/include/asm/Kbuild"
echo "half applied" >> "$TREE/arch/beta/include/asm/Kbuild"
check "make push after an interrupted push succeeds" $M push
is "$(grep -c 'half applied' "$TREE/arch/beta/include/asm/Kbuild")" 0 \
	"the half-applied change was rolled back before the push"

# A missing tool names its Debian package.
mkdir -p "$TMP/bin"
for t in sh make awk sed grep cat dirname basename mkdir rm mv cp ls id sha256sum head tail wc printf cut tr env sort; do
	p=$(command -v "$t") && ln -sf "$p" "$TMP/bin/$t"
done
out=$(PATH=$TMP/bin scripts/tree 2>&1) && rc=0 || rc=$?
like "$out" "'quilt' not found: install the Debian package 'quilt'" "a missing quilt names the package"

# A baseline the pins do not know.
out=$(BASE=9.9.7 scripts/fetch-baseline 2>&1) && rc=0 || rc=$?
like "$out" "9.9.7 is not pinned" "an unpinned baseline is refused with what to do"

# A pinned baseline that the archive no longer has: say so, list what it has.
echo "linux-source-6.12 6.12.99-1~deb12u1 0000000000000000000000000000000000000000000000000000000000000000" >> "$BASELINES"
out=$(BASE=6.12.99 scripts/fetch-baseline 2>&1) && rc=0 || rc=$?
like "$out" "6.12.99-1~deb12u1 cannot be downloaded .*offers: .*6\.12\.118" \
	"a pinned version gone from the archive is named, with the versions offered"
done_testing
