#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# tests/merge-sparse.t - scripts/merge-results joins the shards' sparse
# results: each shard runs sparse on the touched files its own targets
# compile, so they differ without conflicting.
. "$(dirname "$0")/tap.sh"

plan 4
# shard DIR SHARD TARGET STATUS FILES UNBUILT WARNINGS: a one-patch record
shard() {
	mkdir -p "$1/000-baseline" "$1/001-p.patch"
	printf 'base=9.9.1\nseries=p.patch\nshard=%s\ntier=\ntargets=\n' "$2" > "$1/info"
	for s in 000-baseline 001-p.patch; do
		printf 'target=%s\nstatus=ok\nstage=built\nseconds=1\nwarnings=0\nlog=x\ntree=/t\nbase=9.9.1\nnew_warnings=0\n' \
			"$3" > "$1/$s/$3.result"
		touch "$1/$s/done"
	done
	printf 'status=%s\nwarnings=%s\nfiles=%s\nunbuilt=%s\nlog=x\n' "$4" "$7" "$5" "$6" > "$1/001-p.patch/sparse.result"
	echo "sparse of $2" > "$1/001-p.patch/sparse.log"
}
shard "$TMP/a" 1/2 alpha fail "alpha:arch/alpha/mm/fault.c" "fs/a.c" 3
shard "$TMP/b" 2/2 x86_64 ok "x86_64:fs/a.c" "arch/alpha/mm/fault.c" 2
"$REPO/scripts/merge-results" -o "$TMP/m" "$TMP/a" "$TMP/b" > "$TMP/log" 2>&1 ||
	{ sed 's/^/# /' "$TMP/log"; }
r=$TMP/m/001-p.patch/sparse.result
is "$(sed -n 's/^status=//p' "$r") $(sed -n 's/^warnings=//p' "$r")" "fail 5" \
	"a sparse failure in one shard and ok in another: fail, the warnings added up"
is "$(sed -n 's/^files=//p' "$r")" "alpha:arch/alpha/mm/fault.c x86_64:fs/a.c" "the files both shards checked"
is "$(sed -n 's/^unbuilt=//p' "$r")" "" "a file one shard could not compile but the other checked is not unbuilt"
is "$(cat "$TMP/m/001-p.patch/sparse.log")" "sparse of 1/2
sparse of 2/2" "both shards' logs"
done_testing
