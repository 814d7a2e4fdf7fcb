#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# tests/full-disk.t - a full disk is named as one, in one line with df's
# figure, and nothing is lost: make push (quilt cannot write the patch:
# no conflict recipe), the unpack of the baseline and the copy of the
# tree (one line, not one per file).  OUT on a small tmpfs (root only:
# skipped where mount is not allowed), filled with a file of zeros.
. "$(dirname "$0")/tap.sh"
. "$T_DIR/mini.sh"
MNT=$TMP/mnt
mkdir -p "$MNT"
mount -t tmpfs -o size=4m tmpfs "$MNT" 2>/dev/null || skip_all "cannot mount a tmpfs here (not root?)"
trap 'umount "$MNT" 2>/dev/null; rm -rf "$TMP"' EXIT
mini_setup
OUT=$MNT/out
SRC=$OUT/src/$BASE
TREE=$OUT/linux-$BASE
mkdir -p "$OUT/dl"
cp "$TMP"/out/dl/*.deb "$OUT/dl/"
export OUT TREE
"$REPO/scripts/tree" > "$TMP/tree.log" 2>&1 || { sed 's/^/# /' "$TMP/tree.log"; exit 1; }
(cd "$QUILT_PATCHES" && sha256sum *.patch series) > "$TMP/patches.sum"

plan 9

fill() { dd if=/dev/zero of="$OUT/fill" bs=64k 2>/dev/null || :; }
unfill() { rm -f "$OUT/fill"; }

# make push on a full disk
"$REPO/scripts/q" pop -a > /dev/null 2>&1
fill
out=$("$REPO/scripts/push" -a 2>&1) && rc=0 || rc=$?
unfill
like "$rc $(echo $out)" "^1 .*No space left on device .*free of" "push on a full disk: the cause, with df's figure"
is "$(printf '%s\n' "$out" | grep -c 'quilt push -f')" 0 "and no conflict recipe"
out=$("$REPO/scripts/push" -a 2>&1) && rc=0 || rc=$?
is "$rc:$(cat "$TREE/.pc/applied-patches" | wc -l)" 0:2 "with room again, make push applies the series"
check "and patches/ is as it was" sh -c "cd '$QUILT_PATCHES' && sha256sum -c --quiet '$TMP/patches.sum'"

# the unpack of the baseline on a full disk
rm -rf "$SRC" "$OUT/src/.$BASE.ready" "$TREE"
fill
out=$("$REPO/scripts/fetch-baseline" "$BASE" 2>&1) && rc=0 || rc=$?
unfill
like "$rc $(echo $out)" "^1 .*unpack.*No space left on device" "unpack on a full disk: named"
cmp_lines=$(printf '%s\n' "$out" | wc -l)
is "$([ "$cmp_lines" -le 3 ] && echo few || echo "$cmp_lines lines")" few "in a line or two, not one per file"

# the copy of the tree on a full disk
"$REPO/scripts/fetch-baseline" "$BASE" > /dev/null 2>&1
fill
out=$("$REPO/scripts/tree" 2>&1) && rc=0 || rc=$?
unfill
like "$rc $(echo $out)" "^1 .*No space left on device" "the copy of the tree on a full disk: named"
cmp_lines=$(printf '%s\n' "$out" | wc -l)
is "$([ "$cmp_lines" -le 4 ] && echo few || echo "$cmp_lines lines")" few "in a few lines"
check "and no half tree is left" test ! -e "$TREE"
