#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# tests/kbuild-lock.t - scripts/kbuild-lock hands the build lock out in
# the order it was asked for, even to a caller that asks again at once
# (which plain flock(1) lets win), and never to two callers together.
. "$(dirname "$0")/tap.sh"

plan 5
kl=$REPO/scripts/kbuild-lock
export KBUILD_LOCK=$TMP/lock
L=$TMP/order

# job NAME SECONDS: hold the lock SECONDS, logging start and end
job() {
	"$kl" sh -c 'echo "start $1" >> "$3"; sleep "$2"; echo "end $1" >> "$3"' sh "$1" "$2" "$L"
}

# a holds it; b, c, d queue up in that order; when a is done, it asks again
( job a 2; job a2 0.2 ) &
sleep 0.5
job b 0.3 &
sleep 0.3
job c 0.3 &
sleep 0.3
job d 0.3 &
wait
order=$(awk '$1 == "start" { printf "%s ", $2 }' "$L")
is "$order" "a b c d a2 " "the lock goes in the order it was asked for"
overlap=$(awk '$1 == "start" { n++; if (n > 1) bad = 1 } $1 == "end" { n-- } END { print bad + 0 }' "$L")
is "$overlap" 0 "never two holders at once"

# a dead caller's ticket does not block the queue
mkdir -p "$KBUILD_LOCK.q"
: > "$KBUILD_LOCK.q/1000000000000000000-999999"
out=$(timeout 10 "$kl" echo ran 2>&1)
is "$out" "ran" "a ticket left by a dead process is skipped"

# the status of the command, and KBUILD_LOCK_HELD inside it
st=0
"$kl" sh -c 'exit 3' || st=$?
is "$st" 3 "the command's exit status comes back"
is "$("$kl" sh -c 'echo $KBUILD_LOCK_HELD')" 1 "the command runs with KBUILD_LOCK_HELD=1"
done_testing
