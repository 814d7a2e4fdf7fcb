#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# tests/sparse-target.t - scripts/build-arch --sparse tells a file sparse
# finds wrong (exit 1) from a target sparse cannot check at all (exit 3:
# sparse stopped on scripts/mod/empty.c before it got to the file, as
# Debian 12's sparse does on riscv), so that ci-series takes another
# target instead of failing the patch.  A stand-in tree and a stand-in
# make that prints what Kbuild prints: no kernel build, under a second.
. "$(dirname "$0")/tap.sh"

plan 9

tree=$TMP/tree
mkdir -p "$tree/arch/alpha" "$TMP/configs" "$TMP/bin"
: > "$tree/Makefile"
: > "$tree/arch/alpha/Kconfig"
: > "$TMP/configs/base.config"
: > "$TMP/configs/t.config"
echo "t alpha nosuch-linux-gnu- quick" > "$TMP/configs/targets"
mkdir -p "$TMP/out/build/$BASE/t"
: > "$TMP/out/build/$BASE/t/.config"

# make: FAKE_SPARSE=ok, warn (sparse's complaint about the file) or
# cannot (sparse stops in prepare, before the file)
cat > "$TMP/bin/make" <<'EOF'
#!/bin/sh
for a; do case $a in *.o) f=${a%.o}.c ;; esac; done
echo "  CHECK   $TREE/scripts/mod/empty.c"
if [ "$FAKE_SPARSE" = cannot ]; then
	echo "invalid argument to '-march': '_zicsr_zifencei'"
	echo
	echo "make[3]: *** [scripts/Makefile.build:235: scripts/mod/empty.o] Error 1"
	exit 2
fi
echo "  CHECK   $TREE/$f"
if [ "$FAKE_SPARSE" = warn ]; then
	echo "$TREE/$f:3:1: error: bad constant expression"
	exit 2
fi
EOF
printf '#!/bin/sh\nexit 0\n' > "$TMP/bin/sparse"
chmod +x "$TMP/bin/make" "$TMP/bin/sparse"

sp() {
	PATH=$TMP/bin:$PATH CONFIGS=$TMP/configs OUT=$TMP/out TREE=$tree CC=true \
		"$REPO/scripts/build-arch" --sparse t "$@" > "$TMP/sp.out" 2>&1 && echo 0 || echo $?
}

is "$(FAKE_SPARSE=ok sp fs/fcntl.c)" 0 "sparse clean on the file: exit 0"
is "$(FAKE_SPARSE=warn sp fs/fcntl.c)" 1 "sparse finds the file wrong: exit 1"
is "$(FAKE_SPARSE=cannot sp fs/fcntl.c)" 3 "sparse cannot run in the target: exit 3"
like "$(cat "$TMP/sp.out")" "sparse cannot check t \(it stopped before fs/fcntl.c\): invalid argument to '-march'" \
	"and says why, with sparse's own complaint"
# Kbuild that finds sparse too old goes on without it and exits 0
printf '#!/bin/sh\necho "$TREE/Makefile:1311: C=2 specified, but sparse is not available or not up to date"\n' > "$TMP/bin/make"
is "$(sp fs/fcntl.c)" 3 "sparse too old for Kbuild (nothing checked, make exits 0): exit 3, not a pass"
like "$(cat "$TMP/sp.out")" "sparse cannot check t: Kbuild says 'sparse is not available or not up to date'" \
	"and says why"
# another file of the same name elsewhere does not count as checked
cat > "$TMP/bin/make" <<'EOF'
#!/bin/sh
echo "  CHECK   $TREE/scripts/mod/empty.c"
echo "  CHECK   $TREE/net/fcntl.c"
echo "sparse: bad"
exit 2
EOF
is "$(sp fs/fcntl.c)" 3 "a CHECK line of another path does not count as the file's"
# the log is sparse's own file, not the build's
is "$(cat "$TMP/out/build/$BASE/t.log" 2>/dev/null)" "" "the build's log is left alone"
like "$(cat "$TMP/out/build/$BASE/t.sparse.log")" "CHECK +$tree/net/fcntl.c" "the make output is in TARGET.sparse.log"
