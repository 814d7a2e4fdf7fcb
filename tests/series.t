#!/bin/sh
# The real series on the real baseline: it applies with quilt, make lint is
# clean (checkpatch --strict, headers, no fuzz, destinations), and b4 am and
# git am of make export's b4 mails, destination after destination, onto the
# baseline reproduce the quilt-applied tree byte for byte.
. "$(dirname "$0")/tap.sh"
M="make -s -C $REPO"

plan 4

check "the baseline $BASE fetches, verifies and unpacks" scripts/fetch-baseline
TREE=$TMP/linux
export TREE
check "the series applies to $BASE" env TREE_COPY=link $M tree
check "make lint: the series is clean" $M lint

check "b4 am + git am of make export's mails onto $BASE reproduce the quilt tree byte for byte" \
	am_matches_tree
done_testing
