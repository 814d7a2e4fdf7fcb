#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# tests/sparse-target.t - scripts/build-arch --sparse tells a file sparse
# finds wrong (exit 1) from a target sparse cannot check at all (exit 3:
# sparse stopped on scripts/mod/empty.c before it got to the file, as
# Debian 12's sparse does on riscv; or a sparse that fails the tree's
# scripts/checker-valid.sh, with which Kbuild checks nothing), so that
# ci-series takes another target instead of failing the patch, and says
# why.  A host target's sparse runs in a runtime through
# scripts/sparse-runtime as Kbuild's CHECK=, and the result names the
# sparse.  A stand-in tree, a stand-in make that prints what Kbuild
# prints, and stand-ins for the runtime's chroot and mounts: no kernel
# build, a few seconds.
. "$(dirname "$0")/tap.sh"

plan 26

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

# SPARSE_RUNTIME= : this machine's sparse (the stand-in)
sp() {
	PATH=$TMP/bin:$PATH CONFIGS=$TMP/configs OUT=$TMP/out TREE=$tree CC=true SPARSE_RUNTIME= \
		"$REPO/scripts/build-arch" --sparse t "$@" > "$TMP/sp.out" 2>&1 && echo 0 || echo $?
}

is "$(FAKE_SPARSE=ok sp fs/fcntl.c)" 0 "sparse clean on the file: exit 0"
is "$(FAKE_SPARSE=warn sp fs/fcntl.c)" 1 "sparse finds the file wrong: exit 1"
is "$(FAKE_SPARSE=cannot sp fs/fcntl.c)" 3 "sparse cannot run in the target: exit 3"
like "$(cat "$TMP/sp.out")" "sparse cannot check t: it stopped before fs/fcntl.c: invalid argument to '-march'" \
	"and says why, with sparse's own complaint"
# Kbuild that finds sparse too old goes on without it and exits 0
printf '#!/bin/sh\necho "$TREE/Makefile:1311: C=2 specified, but sparse is not available or not up to date"\n' > "$TMP/bin/make"
is "$(sp fs/fcntl.c)" 3 "sparse too old for Kbuild (nothing checked, make exits 0): exit 3, not a pass"
like "$(cat "$TMP/sp.out")" "sparse cannot check t: Kbuild says 'sparse is not available or not up to date'" \
	"and says why"
# a make that exits 0 without sparse getting to the file (syncconfig
# reading no answer from /dev/null, say) checked nothing either
printf '#!/bin/sh\necho "Error in reading or end of file."\n' > "$TMP/bin/make"
is "$(sp fs/fcntl.c)" 3 "make exits 0 with no CHECK line for the file: exit 3, not a pass"
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

R=$TMP/out/build/$BASE/t.sparse.result
L=$TMP/out/build/$BASE/t.sparse.log
# a sparse that fails the tree's own checker (Linux 7.3's wants
# __typeof_unqual__, which Debian 12's 0.6.4 lacks): exit 3 before any
# make, the reason in the log and the result, naming the sparse
mkdir -p "$tree/scripts"
checker_valid "$tree"
# sparse: the version of FAKE_VERSION; an old one (0.6.4-3) fails on
# __typeof_unqual__; it notes every file it is given in $TMP/sparse.calls
cat > "$TMP/bin/sparse" <<'EOF'
#!/bin/sh
v=${FAKE_VERSION:-0.6.4 (Debian: 0.6.4-3)}
[ "${1:-}" = --version ] && { echo "$v"; exit 0; }
for f; do :; done
echo "${IN_ROOT:-here} $f" >> "$SPARSE_CALLS"
case $v in *0.6.4-3*)
	if grep -q __typeof_unqual__ "$f"; then echo "$f:3:31: error: Expected ; at end of statement" >&2; fi ;;
esac
exit 0
EOF
# make: as Kbuild, runs $CHECK (its words) on the file and prints CHECK
cat > "$TMP/bin/make" <<'EOF'
#!/bin/sh
echo "make $*" >> "$MAKE_CALLS"
chk=
for a; do case $a in *.o) f=${a%.o}.c ;; CHECK=*) chk=${a#CHECK=} ;; esac; done
echo "  CHECK   $TREE/$f"
$chk -D__linux__ "$TREE/$f"
EOF
chmod +x "$TMP/bin/sparse" "$TMP/bin/make"
export SPARSE_CALLS="$TMP/sparse.calls" MAKE_CALLS="$TMP/make.calls"
: > "$MAKE_CALLS"
is "$(sp fs/fcntl.c)" 3 "a sparse that fails the tree's scripts/checker-valid.sh: exit 3, not a pass"
is "$(cat "$MAKE_CALLS")" "" "and no make (Kbuild would check nothing)"
like "$(cat "$L")" "sparse cannot check t: sparse 0\\.6\\.4 \\(Debian: 0\\.6\\.4-3\\) fails $BASE's scripts/checker-valid\\.sh \\(__typeof_unqual__\\): error: Expected ; at end of statement" \
	"the log says why: the version, the checker, sparse's own error"
like "$(cat "$R")" "reason=sparse 0\\.6\\.4 \\(Debian: 0\\.6\\.4-3\\) fails .*__typeof_unqual__" "so does the result's reason="
like "$(cat "$R")" "status=skip" "status=skip"
# a sparse that passes: make gets CHECK=sparse, the result names it
: > "$SPARSE_CALLS"
is "$(FAKE_VERSION='0.6.4 (Debian: 0.6.5~rc1-2)' sp fs/fcntl.c)" 0 "a sparse that passes the checker checks the file: exit 0"
like "$(cat "$R")" "sparse=0\\.6\\.4 \\(Debian: 0\\.6\\.5~rc1-2\\)" "the result names the sparse version"
like "$(cat "$SPARSE_CALLS")" "here $tree/fs/fcntl.c" "sparse got the file (here: SPARSE_RUNTIME=)"

# A host target's sparse in a runtime (the default): scripts/sparse-runtime
# as CHECK=, run by scripts/runtime in a root of its own.  Stand-ins: a
# root "fake" with its key; unshare, mount and a chroot that runs the
# command here with the root's bin folders first in PATH (IN_ROOT=root).
if [ "$(id -u)" -ne 0 ]; then
	for i in 1 2 3 4 5 6 7 8; do echo "ok $((T_NUM + i)) # SKIP the runtime stand-ins need root"; done
	T_NUM=$((T_NUM + 8))
	done_testing
	exit
fi
RD=$TMP/rt
printf 'make\n# check: sh\n' > "$TMP/configs/runtime-fake.packages"
root=$RD/fake
mkdir -p "$root/usr/bin" "$root/usr/local/bin"
cp /bin/sh "$root/usr/bin/sh"
# what checker-valid.sh uses, from this machine; no sparse
for c in mktemp cat awk rm grep head sed tail; do
	ln -s "$(command -v $c)" "$root/usr/bin/$c"
done
CONFIGS=$TMP/configs RUNTIME_DIR=$RD "$REPO/scripts/runtime" key fake > "$root/.runtime-key"
mkdir -p "$TMP/rbin"
cat > "$TMP/rbin/chroot" <<'EOF'
#!/bin/sh
r=$1
shift
IN_ROOT=$r PATH=$r/usr/local/bin:$r/usr/bin exec "$@"
EOF
cat > "$TMP/rbin/unshare" <<'EOF'
#!/bin/sh
while :; do case $1 in --propagation) shift 2 ;; -*) shift ;; *) break ;; esac; done
exec "$@"
EOF
printf '#!/bin/sh\nexit 0\n' > "$TMP/rbin/mount"
# the root is current: nothing may be made
printf '#!/bin/sh\necho "mmdebstrap called" >&2\nexit 1\n' > "$TMP/rbin/mmdebstrap"
chmod +x "$TMP/rbin/chroot" "$TMP/rbin/unshare" "$TMP/rbin/mount" "$TMP/rbin/mmdebstrap"
# the root's sparse passes; this machine's (TMP/bin) would not
cat > "$root/usr/local/bin/sparse" <<EOF
#!/bin/sh
FAKE_VERSION='0.6.4 (Debian: 0.6.5~rc1-2)' exec "$TMP/bin/sparse" "\$@"
EOF
chmod +x "$root/usr/local/bin/sparse"
sprt() {
	PATH=$TMP/rbin:$TMP/bin:$PATH CONFIGS=$TMP/configs OUT=$TMP/out TREE=$tree CC=true \
		SPARSE_RUNTIME=fake RUNTIME_DIR=$RD RUNTIME_UID=0 \
		"$REPO/scripts/build-arch" --sparse t "$@" > "$TMP/sp.out" 2>&1 && echo 0 || echo $?
}
: > "$SPARSE_CALLS"
: > "$MAKE_CALLS"
is "$(sprt fs/fcntl.c)" 0 "in the runtime: the file is checked, exit 0"
like "$(cat "$MAKE_CALLS")" "C=2 CHECK=$REPO/scripts/sparse-runtime -- fs/fcntl\\.o" \
	"make's CHECK= is scripts/sparse-runtime --"
like "$(cat "$SPARSE_CALLS")" "^$root $tree/fs/fcntl\\.c\$" "sparse ran in the runtime's root, on the file"
like "$(cat "$R")" "sparse=0\\.6\\.4 \\(Debian: 0\\.6\\.5~rc1-2\\)" "the result names the runtime's sparse"
like "$(cat "$R")" "sparse_runtime=fake" "and the runtime"
# a runtime whose pinned sparse could not be had: exit 3, why
rm "$root/usr/local/bin/sparse"
echo "sparse none no sparse in unstable,forky (the pin: 0.6.5~rc1-2): pin one that the suites have" > "$root/.runtime-debs"
: > "$MAKE_CALLS"
is "$(sprt fs/fcntl.c)" 3 "no sparse in the runtime: exit 3"
like "$(cat "$L")" "sparse cannot check t: no sparse in the runtime fake: no sparse in unstable,forky \\(the pin: 0\\.6\\.5~rc1-2\\)" \
	"the log says why, with the runtime's own reason"
is "$(cat "$MAKE_CALLS")" "" "and no make"
done_testing
