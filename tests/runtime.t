#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# tests/runtime.t - scripts/runtime, offline and quick: the key follows
# the package list, a root is current only when whole (its key, its
# commands), a half-made one is never used, unknown names and missing
# privilege are clear errors.  With root and mount namespaces, making
# runs with stand-ins for mmdebstrap and chroot: a package the archive
# lacks is named, a leftover .tmp is cleared, a changed list remakes, a
# pinned .deb ("# deb:") is unpacked, or the root made without it, why.
# RUNTIME_TEST=1 also makes the real trixie root in $OUT/runtime (a
# minute or two and 1.1 GB, network) and runs a command in it.
. "$(dirname "$0")/tap.sh"

plan 31
RT=$REPO/scripts/runtime
C=$TMP/configs
RD=$TMP/runtime
mkdir -p "$C" "$TMP/bin"
printf 'make\n# a comment\ncpio\n# check: make\n' > "$C/runtime-trixie.packages"
rt() {
	CONFIGS=$C RUNTIME_DIR=$RD "$RT" "$@"
}
out() {
	rt "$@" 2>&1 || :
}

like "$(out check nosuch)" "unknown runtime 'nosuch': no $C/runtime-nosuch.packages" \
	"an unknown runtime is named, with the file to write"
like "$(out check ../x)" "bad runtime name" "a name that is no suite is refused"
fails "an unknown runtime: ensure fails" rt ensure nosuch

# the key
k1=$(rt key trixie)
like "$k1" '^[0-9a-f]{64}$' "the key is a sha256"
printf 'cpio\n\nmake   # the build\n# check: make\n' > "$C/runtime-trixie.packages"
is "$(rt key trixie)" "$k1" "comments, blank lines and order do not change it"
printf 'make\ncpio\nbc\n# check: make\n' > "$C/runtime-trixie.packages"
k2=$(rt key trixie)
isnt "$k2" "$k1" "another package changes it"
cp "$C/runtime-trixie.packages" "$C/runtime-forky.packages"
isnt "$(rt key forky)" "$k2" "so does the suite"

# fakeroot DIR: a root with its key and its commands (not runnable)
fakeroot() {
	mkdir -p "$1/usr/bin"
	ln -sfn usr/bin "$1/bin"
	for c in sh make; do
		rm -f "$1/usr/bin/$c"	# never write through a link
		printf '#!/bin/sh\n' > "$1/usr/bin/$c"
		chmod +x "$1/usr/bin/$c"
	done
	rt key trixie > "$1/.runtime-key"
}
like "$(out check trixie)" 'stale: not made yet' "no root: not made yet"
fails "no root: check exits 1" rt check trixie
fakeroot "$RD/.trixie.tmp"
like "$(out check trixie)" 'stale: not made yet' "a half-made root (.trixie.tmp) is not used, even with its key"
mv "$RD/.trixie.tmp" "$RD/trixie"
check "a whole root with its key and commands is current" rt check trixie
echo 0000 > "$RD/trixie/.runtime-key"
like "$(out check trixie)" 'stale: made from another package list' "a wrong key: stale"
rm "$RD/trixie/.runtime-key"
like "$(out check trixie)" 'stale: no .runtime-key' "no key (unfinished, not ours): stale"
fakeroot "$RD/trixie"
rm "$RD/trixie/usr/bin/make"
like "$(out check trixie)" "stale: 'make' is missing" "a command of '# check:' deleted: stale"
: > "$RD/trixie/usr/bin/make"
like "$(out check trixie)" "stale: 'make' is missing or empty" "an emptied one: stale"
rm "$RD/trixie/usr/bin/make"
ln -s /usr/bin/nosuch-runtime-test "$RD/trixie/usr/bin/make"
like "$(out check trixie)" "stale: 'make'" "a link out of the root to nothing: stale"

# privilege: only making and running need it
fakeroot "$RD/trixie"
RUNTIME_UID=1000 rt ensure trixie > "$TMP/o" 2>&1
is "$?" 0 "not root, root current: ensure has nothing to do"
rm "$RD/trixie/.runtime-key"
like "$(RUNTIME_UID=1000 out ensure trixie)" 'to make the runtime trixie takes root .*run it as root' \
	"not root, root stale: a clear error"
fakeroot "$RD/trixie"
like "$(RUNTIME_UID=1000 out run trixie true)" 'to run a command in the runtime trixie takes root' \
	"not root: run is a clear error"

# making, with stand-ins for mmdebstrap (which writes the fake root, or
# fails as apt does for a package the archive lacks) and chroot (which
# runs the check here)
if [ "$(id -u)" -ne 0 ] || ! unshare --mount true 2>/dev/null; then
	for i in 1 2 3 4 5 6 7 8 9 10 11; do echo "ok $((T_NUM + i)) # SKIP making needs root and mount namespaces"; done
	T_NUM=$((T_NUM + 11))
else
	cat > "$TMP/bin/mmdebstrap" <<-'EOF'
	#!/bin/sh
	for a; do case $a in --include=*) inc=${a#*=} ;; esac; done
	shift $(($# - 2))
	case ,$inc, in *,nosuch-pkg,*)
		echo "E: Unable to locate package nosuch-pkg"; echo "E: mmdebstrap failed to run"; exit 1 ;;
	esac
	mkdir -p "$1/usr/bin" && ln -s usr/bin "$1/bin"
	for c in sh make; do printf '#!/bin/sh\n' > "$1/usr/bin/$c"; chmod +x "$1/usr/bin/$c"; done
	echo made >> "${1%/*}/made"
	EOF
	printf '#!/bin/sh\nshift\nexec "$@"\n' > "$TMP/bin/chroot"
	chmod +x "$TMP/bin/mmdebstrap" "$TMP/bin/chroot"
	mk() {
		PATH=$TMP/bin:$PATH DEBIAN_ARCHIVE=http://archive.invalid/debian rt "$@" 2>&1 || :
	}
	printf 'make\nnosuch-pkg\n# check: make\n' > "$C/runtime-trixie.packages"
	rm -rf "$RD/trixie"
	like "$(mk ensure trixie)" "has no package 'nosuch-pkg' in trixie: fix $C/runtime-trixie.packages" \
		"a package the archive lacks is named, with the list to fix"
	printf 'make\n# check: make\n' > "$C/runtime-trixie.packages"
	mkdir -p "$RD/.trixie.tmp/junk"
	like "$(mk ensure trixie)" 'RUNTIME trixie: made in [0-9]+ s' "a stale root is made, with a line saying so"
	check "made aside and renamed: current, the leftover .tmp gone" \
		sh -c "CONFIGS=$C RUNTIME_DIR=$RD $RT check trixie && [ ! -e $RD/.trixie.tmp ]"
	mk ensure trixie > /dev/null
	printf 'make\nbc\n# check: make\n' > "$C/runtime-trixie.packages"
	mk ensure trixie > /dev/null
	is "$(wc -l < "$RD/made")" 2 "made again when the list changed, not when it did not"
	printf 'make\nbc\n# check: make nosuch-tool\n' > "$C/runtime-trixie.packages"
	like "$(mk remake trixie)" 'lacks or cannot run: nosuch-tool' "a new root without a checked command is refused"

	# a pinned .deb ("# deb:", as the sparse of the trixie list): a
	# stand-in package in $OUT/dl with the pinned sha256 is unpacked
	# into /opt/deb/PKG, its command linked into /usr/local/bin
	da=$(dpkg --print-architecture)
	mkdir -p "$TMP/pkg/DEBIAN" "$TMP/pkg/usr/bin" "$TMP/out/dl"
	printf 'Package: fakecmd\nVersion: 1.0-1\nArchitecture: %s\nMaintainer: t <t@example.org>\nDescription: t\n' \
		"$da" > "$TMP/pkg/DEBIAN/control"
	printf '#!/bin/sh\necho "fakecmd 1.0"\n' > "$TMP/pkg/usr/bin/fakecmd"
	chmod +x "$TMP/pkg/usr/bin/fakecmd"
	dpkg-deb -b "$TMP/pkg" "$TMP/out/dl/fakecmd_1.0-1_$da.deb" > /dev/null
	sha=$(sha256sum < "$TMP/out/dl/fakecmd_1.0-1_$da.deb" | cut -d' ' -f1)
	printf 'make\nbc\n# check: make\n' > "$C/runtime-trixie.packages"
	k3=$(rt key trixie)
	echo "# deb: fakecmd 1.0-1 $da unstable $sha fakecmd" >> "$C/runtime-trixie.packages"
	isnt "$(rt key trixie)" "$k3" "a deb line changes the key"
	# chroot runs the check here, the root's /usr/local/bin first
	printf '#!/bin/sh\nr=$1\nshift\nPATH=$r/usr/local/bin:$PATH exec "$@"\n' > "$TMP/bin/chroot"
	OUT=$TMP/out mk ensure trixie > "$TMP/o"
	is "$(cat "$RD/trixie/.runtime-debs" 2>/dev/null)" "fakecmd ok 1.0-1 (pinned, sha256 ok, cached in $TMP/out/dl)" \
		"the pinned .deb is unpacked, its outcome in .runtime-debs"
	is "$("$RD/trixie/usr/local/bin/fakecmd" 2>&1)" "fakecmd 1.0" "its command is linked into /usr/local/bin"
	# a pin whose sha256 the cached file does not have, and no archive:
	# the root is made all the same, without it, saying why
	sed -i "s/ $sha / 0000$(echo "$sha" | cut -c5-) /" "$C/runtime-trixie.packages"
	out=$(OUT=$TMP/out mk ensure trixie)
	like "$(cat "$RD/trixie/.runtime-debs" 2>/dev/null)" '^fakecmd none .*(cannot be reached|failed)' \
		"a .deb that cannot be had: the root is made without it, the reason in .runtime-debs"
	sed "s/^/# /" "$RD/trixie/.runtime-debs"
	like "$out" 'fakecmd not installed: .*its targets still build' "and a warning says so"
	check "the root is current all the same" sh -c "CONFIGS=$C RUNTIME_DIR=$RD $RT check trixie"
fi

if [ "${RUNTIME_TEST:-}" = 1 ]; then
	"$RT" ensure trixie
	like "$("$RT" run trixie sh -c 'echo "$(make --version | head -n 1) in $(pwd)"')" \
		"^GNU Make 4.* in $(pwd)\$" "RUNTIME_TEST=1: the real trixie root runs make, in this folder"
else
	echo "ok $((T_NUM + 1)) # SKIP the real root: RUNTIME_TEST=1"
	T_NUM=$((T_NUM + 1))
fi
done_testing
