# SPDX-License-Identifier: GPL-2.0
# tests/archive.sh - a stand-in Debian archive for the fetch tests: a
# file:// repository under $TMP/archive with suites of linux-source-9.9
# stand-ins (mini.sh's .debs), read through the project's own apt
# configuration exactly as the real archive is.  Unsigned, so apt is told
# to trust it (APT_TRUSTED=1) unless a test wants the signature refused.
# Source it after tap.sh and mini.sh.

archive_setup() {
	ARCHIVE=$TMP/archive
	mkdir -p "$ARCHIVE"
	DEBIAN_ARCHIVE=file://$ARCHIVE
	DEBIAN_SECURITY=file://$ARCHIVE
	APT_SUITES="experimental unstable bookworm"
	APT_TRUSTED=1
	APT_MAX_AGE=0
	export DEBIAN_ARCHIVE DEBIAN_SECURITY APT_SUITES APT_TRUSTED APT_MAX_AGE
	for _s in $APT_SUITES; do
		archive_index "$_s"
	done
}

# archive_index SUITE: write the suite's Packages and Release from the
# .debs in its pool folder.
archive_index() {
	_d=$ARCHIVE/dists/$1/main/binary-amd64
	mkdir -p "$_d" "$ARCHIVE/pool/$1"
	(cd "$ARCHIVE" && dpkg-scanpackages -m "pool/$1" /dev/null 2>/dev/null) > "$_d/Packages"
	{
		echo "Suite: $1"
		echo "Codename: $1"
		echo "Architectures: amd64"
		echo "Components: main"
		echo "Date: $(LC_ALL=C date -u -R)"
		echo "SHA256:"
		printf ' %s %s main/binary-amd64/Packages\n' \
			"$(sha256sum < "$_d/Packages" | cut -d' ' -f1)" "$(wc -c < "$_d/Packages")"
	} > "$ARCHIVE/dists/$1/Release"
}

# archive_put SUITE DEB: serve DEB in SUITE.
archive_put() {
	cp "$2" "$ARCHIVE/pool/$1/"
	archive_index "$1"
}

# archive_drop SUITE VERSION: the suite no longer serves VERSION.
archive_drop() {
	rm -f "$ARCHIVE/pool/$1/"*_"$2"_all.deb
	archive_index "$1"
}
