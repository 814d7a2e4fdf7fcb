#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# tests/sockios.t - alpha's and sh's uapi <asm/sockios.h> use _IOR() and
# _IOW() without including <asm/ioctl.h>: a program that includes
# <linux/sockios.h> and uses SIOCATMARK does not compile.  The uapi
# header test expands no macro, so only a use finds it.  Mainline's
# installed headers must fail here, and pass with the series' fix of
# each arch (patches/ARCH-uapi-sockios.h-*.patch).
. "$(dirname "$0")/tap.sh"

[ -f "$SRC/Makefile" ] || skip_all "no baseline at $SRC"
command -v gcc >/dev/null || skip_all "no gcc"
command -v patch >/dev/null || skip_all "no patch"

ARCHES="alpha sh"
plan 6

cat > "$TMP/use.c" <<'EOF'
#include <linux/sockios.h>
unsigned long v[] = { FIOGETOWN, FIOSETOWN, SIOCATMARK };
EOF

use() {		# use INCLUDE-DIR: compile use.c against installed headers
	gcc -Werror -fsyntax-only -nostdinc -I"$1" "$TMP/use.c"
}

for a in $ARCHES; do
	h=$TMP/$a/include
	check "$a: make headers_install of $BASE" \
		make -s -C "$SRC" ARCH="$a" O="$TMP/o-$a" \
		INSTALL_HDR_PATH="$TMP/$a" headers_install
	fails "$a: mainline's asm/sockios.h needs <asm/ioctl.h> for SIOCATMARK" \
		use "$h"
	p=$(ls "$T_DIR/../patches/$a-uapi-sockios.h-"*.patch 2>/dev/null | head -n 1)
	if [ -n "$p" ] && [ -f "$h/asm/sockios.h" ] &&
	   patch -s -o "$TMP/$a.sockios.h" "$h/asm/sockios.h" < "$p" \
		> "$TMP/$a.patch.log" 2>&1; then
		cp "$TMP/$a.sockios.h" "$h/asm/sockios.h"
		check "$a: with $(basename "$p") it compiles" use "$h"
	else
		_result 1 "$a: the fix patch applies to the installed header"
		sed 's/^/# /' "$TMP/$a.patch.log" 2>/dev/null
	fi
done
done_testing
