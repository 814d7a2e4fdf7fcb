#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# tests/build-config.t - scripts/build-arch --configure: a fragment option
# Kconfig drops (another arch's symbol, a missing dependency, one forced on
# by a select) fails naming it; the real x86_64 fragment passes; an
# unchanged fragment is not reconfigured.  Configure only, host gcc, about
# 25 s, under the build lock (/tmp/kbuild.lock unless KBUILD_LOCK_HELD=1).
. "$(dirname "$0")/tap.sh"

tree=${TREE_FOR_TESTS:-$SRC}
[ -f "$tree/Makefile" ] || skip_all "no kernel tree at $tree (make fetch)"
command -v gcc >/dev/null 2>&1 || skip_all "no gcc"
command -v flock >/dev/null 2>&1 || skip_all "no flock"
plan 9

# A configs/ of our own with one target, t, and its own OUT.
mkdir -p "$TMP/configs"
cp "$REPO/configs/base.config" "$TMP/configs/"
echo "t x86 - quick" > "$TMP/configs/targets"
export CONFIGS="$TMP/configs" OUT="$TMP/out" TREE="$tree"
res=$OUT/build/$BASE/t.result
log=$OUT/build/$BASE/t.log

conf() {
	if [ "${KBUILD_LOCK_HELD:-}" = 1 ]; then
		"$REPO/scripts/build-arch" --configure t
	else
		flock "${KBUILD_LOCK:-/tmp/kbuild.lock}" "$REPO/scripts/build-arch" --configure t
	fi
}

# 1. one fragment with three options this tree cannot give: another
# arch's symbol, one whose dependency is unset, one asked off that a
# select forces on.  Each is named in the log.
printf '%s\n' CONFIG_64BIT=y CONFIG_ARCH_RV32I=y CONFIG_SERIAL_8250_CONSOLE=y \
	'# CONFIG_X86_LOCAL_APIC is not set' > "$TMP/configs/t.config"
fails "a fragment with impossible options fails the configure" conf
like "$(conf 2>&1)" 'CONFIG_ARCH_RV32I dropped' "the first dropped option is on the line"
is "$(grep '^stage=' "$res")" "stage=check" "the result says the check failed"
like "$(cat "$log")" 'CONFIG_SERIAL_8250_CONSOLE dropped' \
	"an option whose dependency is unset is named"
like "$(cat "$log")" 'CONFIG_X86_LOCAL_APIC requested off' \
	"an option asked off but selected on is named"

# 3. the real fragment
cp "$REPO/configs/x86_64.config" "$TMP/configs/t.config"
check "the x86_64 fragment configures" conf
is "$(grep '^status=' "$res")" "status=ok" "the result says ok"
grep -q 'tinyconfig' "$log"
is $? 0 "the fragment change made it reconfigure"
conf > /dev/null 2>&1
grep -q 'tinyconfig' "$log"
is $? 1 "an unchanged fragment is not reconfigured"
done_testing
