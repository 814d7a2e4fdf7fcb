# SPDX-License-Identifier: GPL-2.0
# scripts/lib.sh - what every script of the project needs.  Source it with
#   . "$(dirname "$0")/lib.sh"
#
# Variables (all may come from the environment or from make):
#   OUT   the one folder every product lives in (default: <repo>/out)
#   BASE  the upstream baseline version (default: first line of scripts/baselines)
# Derived:
#   REPO  the repository top      DL    downloaded .deb files
#   SRC   the pristine baseline   TREE  the quilt working tree of BASE

REPO=$(cd "$(dirname "$0")/.." && pwd)
OUT=${OUT:-$REPO/out}
case $OUT in /*) ;; *) OUT=$(pwd)/$OUT ;; esac
BASELINES=${BASELINES:-$REPO/scripts/baselines}
# default_base: the baseline the series is kept on (the first pinned line).
default_base() {
	awk '!/^#/ && NF { v = $2; sub(/-[^-]*$/, "", v); print v; exit }' "$BASELINES"
}
BASE=${BASE:-$(default_base)}
DL=$OUT/dl
SRC=$OUT/src/$BASE
TREE=${TREE:-$OUT/linux-$BASE}
QUILT_PATCHES=${QUILT_PATCHES:-$REPO/patches}
QUILT_SERIES=${QUILT_SERIES:-$REPO/series}
QUILTRC=${QUILTRC:-$REPO/scripts/quiltrc}
export OUT BASE QUILT_PATCHES QUILT_SERIES QUILTRC

prog=$(basename "$0")

die() {
	printf '%s: error: %s\n' "$prog" "$*" >&2
	exit 1
}

warn() {
	printf '%s: warning: %s\n' "$prog" "$*" >&2
}

# One short line per step, as Kbuild prints them: "  FETCH   6.12.118".
step() {
	printf '  %-7s %s\n' "$1" "$2"
}

# need CMD PACKAGE: stop with the Debian package to install if CMD is missing.
need() {
	command -v "$1" >/dev/null 2>&1 ||
		die "'$1' not found: install the Debian package '$2' (make deps does it)"
}

# The patches of the series file, in order, without comments or options.
series_patches() {
	[ -f "$QUILT_SERIES" ] || return 0
	sed -e 's/#.*//' "$QUILT_SERIES" | awk 'NF { print $1 }'
}

# baseline_line BASE: "package debversion sha256" of BASE from the pins, or
# nothing.  BASE is an upstream version (6.12.118) or a Debian one.
baseline_line() {
	awk -v b="$1" '!/^#/ && NF == 3 {
		v = $2; u = v; sub(/-[^-]*$/, "", u)
		if (b == v || b == u) { print $1, $2, $3; exit }
	}' "$BASELINES"
}

# package_of BASE: the Debian source package that carries upstream BASE.
package_of() {
	echo "$1" | awk -F. '{ printf "linux-source-%s.%s\n", $1, $2 }'
}

# The quilt command the wrappers use: the repo's patches/, series and quiltrc.
q() {
	quilt --quiltrc "$QUILTRC" "$@"
}

# in_tree: cd to the working tree and keep quilt's records of where the
# series lives pointing at this checkout (it may have moved since).
in_tree() {
	[ -d "$TREE" ] || die "no tree at $TREE: run 'make tree BASE=$BASE' first"
	cd "$TREE"
	mkdir -p .pc
	[ -f .pc/.version ] || echo 2 > .pc/.version
	echo "$QUILT_PATCHES" > .pc/.quilt_patches
	echo "$QUILT_SERIES" > .pc/.quilt_series
}

# recover_push: a push killed part way leaves .pc/<patch>/ with backups of
# the files it had already changed but the patch not in applied-patches.
# Put those files back, as quilt itself does when a patch fails.
recover_push() {
	for d in .pc/*/; do
		[ -d "$d" ] || continue
		p=${d#.pc/}
		p=${p%/}
		grep -qxF "$p" .pc/applied-patches 2>/dev/null && continue
		warn "recovering from an interrupted push of $p"
		(cd ".pc/$p" && find . -type f ! -name .timestamp) |
		while read -r f; do
			f=${f#./}
			if [ -s ".pc/$p/$f" ]; then
				cp -p ".pc/$p/$f" "$f"
			else
				rm -f "$f"
			fi
		done
		rm -rf ".pc/$p"
	done
}

# first_error LOG: the one line of a build (or boot) log that best says why
# it failed: the first compiler, linker or Kconfig error ("error:",
# "Error:", "ERROR:", "undefined reference"), or build-arch's message for
# a fragment option Kconfig dropped; else the first "make: ***" (or
# "make[N]: ***") line; else the last line that is not one of build-arch's
# "# " comments.  Nothing for a missing or empty log.
first_error() {
	[ -f "$1" ] || return 0
	awk '
	!e && (/(error|Error|ERROR):/ || /undefined reference/ ||
	       / dropped by Kconfig: / || / requested off, but /) { e = $0 }
	!m && /\*\*\*/ { m = $0 }
	NF && !/^# / { l = $0 }
	END { print e != "" ? e : m != "" ? m : l }' "$1"
}

# codegen_stamps: fix what Kbuild stamps into an image (time, user, host,
# build number), so that the same code makes the same vmlinux.
codegen_stamps() {
	export KBUILD_BUILD_TIMESTAMP="Thu Jan  1 00:00:00 UTC 1970"
	export KBUILD_BUILD_USER=codegen KBUILD_BUILD_HOST=compare KBUILD_BUILD_VERSION=1
}
