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

# am_matches_tree: make export, git am its mails onto a checkout of the
# baseline commit, and compare the result with $TREE byte for byte.
am_matches_tree() {
	make -s -C "$REPO" export >/dev/null 2>&1 || return 1
	_g=$OUT/export/$BASE/git
	git --git-dir="$_g" worktree prune
	rm -rf "$TMP/am"
	git --git-dir="$_g" worktree add -q --detach "$TMP/am" "baseline-$BASE" || return 1
	# every mail but the cover letter (0000-): 0010-, 0020-... too
	set --
	for _p in "$OUT/export/$BASE/mbox"/[0-9][0-9][0-9][0-9]-*.patch; do
		case ${_p##*/} in
		0000-*) ;;
		*) [ -f "$_p" ] && set -- "$@" "$_p" ;;
		esac
	done
	if [ $# -gt 0 ]; then
		(cd "$TMP/am" && git -c user.name=t -c user.email=t@t am -q "$@") || return 1
	fi
	_rc=0
	diff -r --no-dereference -x .pc -x .git "$TMP/am" "$TREE" || _rc=1
	git --git-dir="$_g" worktree remove --force "$TMP/am" 2>/dev/null || true
	return $_rc
}

done_testing() {
	[ "$T_FAIL" -eq 0 ]
}
