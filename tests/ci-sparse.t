#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# tests/ci-sparse.t - what ci-series records when sparse cannot check a
# touched file: a file some target compiles, whose every target sparse
# cannot check (build-arch --sparse exit 3), is "unchecked" with the
# reason and the sparse named, never "compiled by none"; a file no
# target compiles stays "unbuilt".  The mini fixture series plus a patch
# that touches two .c files, one target whose kept build compiles one of
# them, a stand-in make and a stand-in sparse of Debian 12's version
# that fails the tree's scripts/checker-valid.sh on __typeof_unqual__,
# as Linux 7.3's does.  No kernel make; seconds.
. "$(dirname "$0")/tap.sh"
. "$T_DIR/mini.sh"

command -v quilt >/dev/null 2>&1 || skip_all "no quilt"
command -v flock >/dev/null 2>&1 || skip_all "no flock"
plan 8
mini_setup
cat > "$TMP/patches/touch-c.patch" <<'EOP'
Subject: [PATCH] lib: two stand-in C files

---
--- /dev/null
+++ b/lib/x.c
@@ -0,0 +1 @@
+int x;
--- /dev/null
+++ b/lib/y.c
@@ -0,0 +1 @@
+int y;
EOP
echo touch-c.patch >> "$QUILT_SERIES"
npatch=$(series_patches | wc -l)
"$REPO/scripts/tree" > "$TMP/tree.log" 2>&1 || { cat "$TMP/tree.log"; exit 1; }
mkdir -p "$TREE/scripts" "$TMP/configs" "$TMP/bin"
printf '#!/bin/sh\necho "total: 0 errors, 0 warnings, 0 checks"\n' > "$TREE/scripts/checkpatch.pl"
chmod +x "$TREE/scripts/checkpatch.pl"
checker_valid "$TREE"
: > "$TMP/configs/base.config"
: > "$TMP/configs/a.config"
echo "a alpha nosuch-linux-gnu- quick" > "$TMP/configs/targets"
# make: any build fails at once; C=2 runs $CHECK as Kbuild does
cat > "$TMP/bin/make" <<'EOF'
#!/bin/sh
chk=
for a; do case $a in *.o) f=${a%.o}.c ;; CHECK=*) chk=${a#CHECK=} ;; esac; done
[ -n "$chk" ] || { echo "make: *** stand-in: no kernel build here"; exit 2; }
echo "  CHECK   $TREE/$f"
$chk "$TREE/$f"
EOF
cat > "$TMP/bin/sparse" <<'EOF'
#!/bin/sh
[ "${1:-}" = --version ] && { echo "0.6.4 (Debian: 0.6.4-3)"; exit 0; }
for f; do :; done
grep -q __typeof_unqual__ "$f" && echo "$f:3:31: error: Expected ; at end of statement" >&2
exit 0
EOF
chmod +x "$TMP/bin/make" "$TMP/bin/sparse"
# the kept build of a compiles lib/x.c, not lib/y.c
B=$OUT/build/$BASE/a
mkdir -p "$B/lib"
: > "$B/.config"
: > "$B/lib/.x.o.cmd"
export CONFIGS="$TMP/configs" KBUILD_LOCK="$TMP/lock" PATH="$TMP/bin:$PATH" CC=true SPARSE_RUNTIME=
unset KBUILD_LOCK_HELD TARGETS TIER SHARD
ci=$OUT/ci/$BASE
s=$(printf '%03d-touch-c.patch' "$npatch")

"$REPO/scripts/ci-series" --steps="$npatch" > "$TMP/ci.log" 2>&1 || :
r=$ci/$s/sparse.result
is "$(sed -n 's/^status=//p' "$r")" skip "sparse could check nothing: skip, not ok"
is "$(sed -n 's/^unchecked=//p' "$r")" lib/x.c "the file a target compiles is unchecked"
is "$(sed -n 's/^unbuilt=//p' "$r")" lib/y.c "the file no target compiles is unbuilt"
like "$(sed -n 's/^reason=//p' "$r")" "^a: sparse 0\\.6\\.4 \\(Debian: 0\\.6\\.4-3\\) fails $BASE's scripts/checker-valid\\.sh \\(__typeof_unqual__\\)" \
	"the reason: the target, the sparse, the checker"
is "$(sed -n 's/^sparse=//p' "$r")" "0.6.4 (Debian: 0.6.4-3)" "the sparse version is named"
like "$(sed -n 's/^first_error=//p' "$r")" "^not checked: lib/x\\.c: a: sparse .* fails" "and the skip's why is its first_error"
like "$(cat "$ci/$s/sparse.log")" "compiled, but sparse can check none of the targets that compile them \\(above\\): lib/x\\.c" \
	"the log says so"
is "$(grep -c 'compiled by none.*x\.c' "$ci/$s/sparse.log")" 0 "and does not call lib/x.c compiled by none"
done_testing
