# SPDX-License-Identifier: GPL-2.0
# tests/tap.sh - the little TAP every test uses.  Source it from a test:
#   . "$(dirname "$0")/tap.sh"
#   plan 3
#   check "tree is unpacked" test -f "$SRC/Makefile"
#   is "$(cat x)" "expected" "x holds expected"
#   skip_all "why"          (before plan: nothing to test here)
# The repository's scripts/lib.sh is sourced too, so OUT, BASE, SRC, TREE
# and friends are those the scripts see.  TMP is a scratch folder removed
# at exit.

T_NUM=0
T_FAIL=0
T_DIR=$(cd "$(dirname "$0")" && pwd)
. "$T_DIR/../scripts/lib.sh"
TMP=$(mktemp -d "${TMPDIR:-/tmp}/test.XXXXXX")
trap 'rm -rf "$TMP"' EXIT

plan() {
	echo "1..$1"
}

skip_all() {
	echo "1..0 # SKIP $*"
	exit 0
}

_result() {
	T_NUM=$((T_NUM + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $T_NUM - $2"
	else
		T_FAIL=$((T_FAIL + 1))
		echo "not ok $T_NUM - $2"
	fi
}

# skip [DESC] WHY: a test not run here, counted as TAP's "ok ... # SKIP WHY"
skip() {
	T_NUM=$((T_NUM + 1))
	if [ $# -ge 2 ]; then
		echo "ok $T_NUM - $1 # SKIP $2"
	else
		echo "ok $T_NUM # SKIP $1"
	fi
}

# check DESC CMD...: passes when CMD exits 0; its output goes to the TAP
# stream as diagnostics when it fails.
check() {
	_d=$1
	shift
	if "$@" > "$TMP/.out" 2>&1; then
		_result 0 "$_d"
	else
		_result 1 "$_d"
		sed 's/^/# /' "$TMP/.out" | tail -n 40
	fi
}

# fails DESC CMD...: passes when CMD exits non-zero.
fails() {
	_d=$1
	shift
	if "$@" > "$TMP/.out" 2>&1; then
		_result 1 "$_d (command succeeded, failure expected)"
		sed 's/^/# /' "$TMP/.out" | tail -n 40
	else
		_result 0 "$_d"
	fi
}

# is GOT WANT DESC
is() {
	if [ "$1" = "$2" ]; then
		_result 0 "$3"
	else
		_result 1 "$3"
		printf '#   got:  %s\n#   want: %s\n' "$1" "$2"
	fi
}

# isnt GOT UNWANTED DESC
isnt() {
	if [ "$1" != "$2" ]; then
		_result 0 "$3"
	else
		_result 1 "$3"
		printf '#   got:  %s, which it must not be\n' "$1"
	fi
}

# like TEXT PATTERN DESC: TEXT matches the extended regex PATTERN.
like() {
	if printf '%s\n' "$1" | grep -Eq -- "$2"; then
		_result 0 "$3"
	else
		_result 1 "$3"
		printf '%s\n' "$1" | tail -n 20 | sed 's/^/#   got: /'
		printf '#   want match: %s\n' "$2"
	fi
}

# am_matches_tree: make export (as a stand-in sender, uncommitted changes
# and a placeholder in the patches' content allowed), then, destination after destination in series order, b4 am of
# the mails b4 send wrote, offline, and git am of what b4 am gives, onto a
# checkout of the baseline commit; the result must be $TREE byte for byte.
am_matches_tree() {
	SENDER="Round Trip <round-trip@example.com>" ALLOW_DIRTY=1 ALLOW_PLACEHOLDER=1 \
		make -s -C "$REPO" export > "$TMP/export.log" 2>&1 || { cat "$TMP/export.log"; return 1; }
	_x=$OUT/export/$BASE
	_g=$_x/git
	git --git-dir="$_g" worktree prune
	rm -rf "$TMP/am" "$TMP/am-b4"
	git --git-dir="$_g" worktree add -q --detach "$TMP/am" "baseline-$BASE" || return 1
	for _dn in $(cut -f1 "$_x/destinations"); do
		mkdir -p "$TMP/am-b4/$_dn"
		# b4 send -o writes one mail a file: make them an mbox
		for _p in "$_x/$_dn"/*.eml; do
			echo "From mboxrd@z Thu Jan  1 00:00:00 1970"
			sed 's/^\(>*From \)/>\1/' "$_p"
		done > "$TMP/am-b4/$_dn.mbox"
		(cd "$TMP/am" && b4 --offline-mode am -C -m - -o "$TMP/am-b4/$_dn" -n "$_dn") \
			< "$TMP/am-b4/$_dn.mbox" > "$TMP/am-b4/$_dn.log" 2>&1 || { cat "$TMP/am-b4/$_dn.log"; return 1; }
		(cd "$TMP/am" && git -c user.name=t -c user.email=t@t am -q "$TMP/am-b4/$_dn/$_dn.mbx") || return 1
	done
	# the export writes the sender on the placeholder's M: lines of
	# MAINTAINERS (Documentation/submitting.md): undo that stamp alone
	[ ! -f "$TMP/am/MAINTAINERS" ] ||
		sed -i 's/^M:\tRound Trip <round-trip@example.com>$/M:\tasm-generic series <series@example.org>/' \
			"$TMP/am/MAINTAINERS"
	_rc=0
	diff -r --no-dereference -x .pc -x .git "$TMP/am" "$TREE" || _rc=1
	git --git-dir="$_g" worktree remove --force "$TMP/am" 2>/dev/null || true
	return $_rc
}

done_testing() {
	[ "$T_FAIL" -eq 0 ]
}

# checker_valid TREE: TREE/scripts/checker-valid.sh as Linux 7.3 has it
# (Kbuild's test of its checker, which build-arch --sparse runs first):
# 1 when "$@" (sparse and its flags) takes __typeof_unqual__, else 0
checker_valid() {
	mkdir -p "$1/scripts"
	cat > "$1/scripts/checker-valid.sh" <<'CHECKER'
#!/bin/sh -eu
[ ! -x "$(command -v "$1")" ] && exit 1
tmp_file=$(mktemp)
trap "rm -f $tmp_file" EXIT
cat << EOF >$tmp_file
static inline int u(const int *q)
{
	__typeof_unqual__(*q) v = *q;
	return v;
}
EOF
$@ $tmp_file 2>&1 | awk -v c=1 '/error/{c=0}END{print c}'
CHECKER
}
