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
export OUT BASELINES
prog=$(basename "$0")
prog_args=$*

# seriesci CMD ARG...: the command CMD of the package scripts/seriesci
# (python3 -m seriesci CMD), its messages under this script's name.  -S:
# no site-packages, which the package (standard library only) does not
# need and whose .pth files cost a start tens of milliseconds.
seriesci() {
	PYTHONPATH=$REPO/scripts${PYTHONPATH:+:$PYTHONPATH} SERIESCI_PROG=$prog \
		python3 -B -S -m seriesci "$@"
}

# The baselines and the version rule (scripts/seriesci/baseline.py, the
# one reader of scripts/baselines; python3 -m seriesci baseline --help):
# upstream_of DEBVERSION: the kernel's name of a Debian version
# (7.3~rc7-1~exp1 is 7.3-rc7); pinned_base: the first pin's, the
# baseline the series is kept on; baseline_line BASE: "package debversion
# sha256 suite" of BASE (upstream or Debian) from the pins, or nothing;
# default_base: the pinned base, or, when that has left the archive and
# this OUT has no copy of it, the version scripts/fetch-baseline fell back
# to; package_of BASE: the Debian package that carries BASE.
upstream_of() { seriesci baseline upstream-of "$1"; }
# base_name REF: the name in OUT of a baseline given as REF: with
# LINUX_GIT the tag or the git describe of its commit, else the upstream
# version of a Debian one (7.3~rc7-1~exp1: 7.3-rc7) or REF itself.
base_name() { seriesci baseline name "$1"; }
pinned_base() { seriesci baseline pinned; }
baseline_line() { seriesci baseline line "$1"; }
default_base() { seriesci baseline default; }
package_of() { seriesci baseline package-of "$1"; }
# BASE_GIVEN=1 when the caller chose BASE (environment or make BASE=).
# BASE_AUTO, exported, is the BASE a script took by default, so that its
# children can tell it from one the user gave.
if [ -n "${LINUX_GIT:-}" ] && command -v python3 > /dev/null 2>&1; then
	# A git tree as the baseline (python3 -m seriesci baseline git --help):
	# BASE a tag, branch or commit of the clone LINUX_GIT (default: the
	# tag of the pinned version, vPINNED), named in OUT by the tag or by
	# its commit's git describe; BASE_COMMIT_ID and BASE_DESCRIBE say
	# which commit it is.
	# A command that a command of this run started takes the commit its
	# caller resolved (BASE_RESOLVED), even when the branch has moved since.
	if [ -z "${BASE_COMMIT_ID:-}" ] || [ "${BASE_RESOLVED:-}" != "$LINUX_GIT:${BASE:-}" ]; then
		_g=$(seriesci baseline git "${BASE:-v$(pinned_base)}") || exit 1
		BASE=${_g%% *}
		_g=${_g#* }
		BASE_COMMIT_ID=${_g%% *}
		BASE_DESCRIBE=${_g#* }
	fi
	BASE_RESOLVED=$LINUX_GIT:$BASE
	BASE_GIVEN=1
	BASE_AUTO=
	export LINUX_GIT BASE_COMMIT_ID BASE_DESCRIBE BASE_RESOLVED
elif [ -n "${BASE:-}" ] && [ "$BASE" != "${BASE_AUTO:-}" ]; then
	BASE_GIVEN=1
	# Debian's form of a version (7.3~rc7-1~exp1, 6.12.118-1~deb12u1) is
	# the same baseline as the upstream one: one src/, one tree.
	case $BASE in
	*~*|[0-9]*.*-[0-9]*) BASE=$(base_name "$BASE") ;;
	esac
elif [ -n "${BASE_AUTO:-}" ] && [ "${BASE:-}" = "$BASE_AUTO" ]; then
	# the default a command of this run took: its children take it too
	BASE_GIVEN=
elif ! command -v python3 > /dev/null 2>&1; then
	# the package reads the pins: only scripts/deps, which installs
	# python3, goes on without it (and without a BASE)
	if [ "${LIB_WITHOUT_PYTHON:-}" != 1 ]; then
		echo "$prog: error: 'python3' not found: install the Debian package 'python3' (make deps does it)" >&2
		exit 1
	fi
	BASE_GIVEN=
	BASE=
else
	BASE_GIVEN=
	BASE=$(default_base)
	BASE_AUTO=$BASE
fi
DL=$OUT/dl
SRC=$OUT/src/$BASE
TREE=${TREE:-$OUT/linux-$BASE}
QUILT_PATCHES=${QUILT_PATCHES:-$REPO/patches}
QUILT_SERIES=${QUILT_SERIES:-$REPO/series}
QUILTRC=${QUILTRC:-$REPO/scripts/quiltrc}
export OUT BASE BASE_AUTO QUILT_PATCHES QUILT_SERIES QUILTRC

die() {
	printf '%s: error: %s\n' "$prog" "$*" >&2
	exit 1
}

# print_help: the comment at the top of the script, its usage line to the
# line before "set -eu", as -h/--help prints it.
print_help() {
	sed -n '3,/^set -eu/{ /^set -eu/d; s/^# \{0,1\}//; s/^#$//; p; }' "$0"
}

warn() {
	printf '%s: warning: %s\n' "$prog" "$*" >&2
}

# config_targets [--file F] [--tier T] [--field F] [--sort] [NAME...]: the
# targets of configs/targets ($TARGETS_FILE, else $CONFIGS/targets), one a
# line, or one field of each (name arch cross tier vars line); an unknown
# NAME is an error.  scripts/seriesci/targets.py is the one reader of the
# file (python3 -m seriesci targets --help).
config_targets() {
	seriesci targets "$@"
}

# record_write [--result] [--from SRC] FILE KEY=VALUE... [-- ...]: write
# the key=value files of a ci-series record (python3 -m seriesci record
# write --help): every key and value checked in one place, the files
# written atomically; one python start for all the files given.
record_write() {
	seriesci record write "$@"
}

# seriesci_args CMD ARG...: judge the arguments of the command CMD of
# the package before any lock or work: -h/--help prints its usage (argparse)
# and exits 0, a bad option exits 2 with argparse's message.
seriesci_args() {
	_c=$1
	shift
	for _a; do
		case $_a in -h|--help) seriesci_exec "$_c" --help ;; esac
	done
	seriesci "$_c" --check-args "$@" || exit $?
}

# seriesci_exec CMD ARG...: run the command CMD of the package in place
# of the script (python3 -m seriesci CMD), under the script's name.
seriesci_exec() {
	PYTHONPATH=$REPO/scripts${PYTHONPATH:+:$PYTHONPATH} SERIESCI_PROG=$prog \
		exec python3 -B -S -m seriesci "$@"
}

# ci_fingerprint ACTION TARGET TOOLCHAIN ARG...: python3 -m seriesci
# fingerprint ACTION (check-ok, write-ok) for the one TARGET's column,
# with what decides a ci-series step besides the series, the patches and
# configs/ (which it reads itself): the baseline's pin, what
# scripts/build-arch --toolchain prints of TARGET (kept in the file
# TOOLCHAIN, made when missing) and CODEGEN (default 1, as ci-series has it).
ci_fingerprint() {
	_act=$1 _t=$2 _tc=$3
	shift 3
	if [ ! -f "$_tc" ]; then
		"$REPO/scripts/build-arch" --toolchain "$_t" > "$_tc.tmp" || return 1
		mv "$_tc.tmp" "$_tc"
	fi
	seriesci fingerprint "$_act" "$@" --targets "$_t" --base "$BASE" \
		--toolchain "$_tc" --set "CODEGEN=${CODEGEN:-1}"
}

# help_exit: for -h/--help: print the script's header comment (its usage
# and what it does) on stdout and exit 0, doing nothing else.
help_exit() {
	awk 'NR == 1 { next } !/^#/ { exit }
	{ sub(/^# ?/, ""); if (!/^SPDX-License-Identifier/) print }' "$0"
	exit 0
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

# The patches of the series file, in order, without comments or options
# (scripts/seriesci/series.py, the one reader of the file).
series_patches() {
	[ -f "$QUILT_SERIES" ] || return 0
	seriesci series patches
}

# series_check: the series file must read the same to quilt and to these
# scripts, or stop naming the line: no carriage return (CRLF), no comment
# that does not start in column 1 (quilt reads "#" as a patch name), no
# patch listed twice, every patch file present, and none with CRLF lines
# (python3 -m seriesci series check).  --report: print what is wrong as
# lint's FAIL lines and return 1.
series_check() {
	[ -f "$QUILT_SERIES" ] || return 0
	_err=$(seriesci series check) && return 0
	[ -n "$_err" ] || die "could not read the series file $QUILT_SERIES (above)"
	if [ "${1:-}" = --report ]; then
		printf '%s\n' "$_err" | sed 's/^/  FAIL    /'
		return 1
	fi
	printf '%s: error: %s\n' "$prog" "$_err" >&2
	exit 1
}

# disk_error DIR: read a command's messages on standard input; when they
# name a write error (a full disk, a quota, an I/O error, a read-only file
# system), print it with df's figure for DIR, "No space left on device
# (0 free of 4.0M on /mnt)", and succeed; else fail.
disk_error() {
	_e=$(grep -Eo -m 1 'No space left on device|Disk quota exceeded|Input/output error|Read-only file system') ||
		return 1
	_df=$(df -Ph "$1" 2>/dev/null | awk 'NR == 2 { print $4 " free of " $2 " on " $6 }')
	echo "$_e${_df:+ ($_df)}"
}

# identity_ok ID: ID is one line "Name <local@domain.tld>": one @, no
# blank or <> in the address, a dot in the domain (lint's From: and
# Signed-off-by: rule, export's sender rule).
identity_ok() {
	case $1 in *"
"*|*"$(printf '\r')"*) return 1 ;; esac
	printf '%s\n' "$1" | grep -Eq '^[^<>@]*[^<>@ ] <[^<>@ ]+@[^<>@ .]+(\.[^<>@ .]+)+>$'
}

# sq WORD: WORD quoted for a shell, when it needs it (printed commands
# must work when pasted).
sq() {
	case $1 in
	"" | *[!A-Za-z0-9_./:=+,@%^-]*) printf "'%s'" "$(printf '%s' "$1" | sed "s/'/'\\\\''/g")" ;;
	*) printf '%s' "$1" ;;
	esac
}
# paste_env: the variables a printed make command needs to act on the same
# OUT, BASE, TREE and series as this run, shell-quoted.
paste_env() {
	printf 'OUT=%s BASE=%s TREE=%s' "$(sq "$OUT")" "$(sq "$BASE")" "$(sq "$TREE")"
	[ "$QUILT_PATCHES" = "$REPO/patches" ] || printf ' QUILT_PATCHES=%s' "$(sq "$QUILT_PATCHES")"
	[ "$QUILT_SERIES" = "$REPO/series" ] || printf ' QUILT_SERIES=%s' "$(sq "$QUILT_SERIES")"
	[ "$BASELINES" = "$REPO/scripts/baselines" ] || printf ' BASELINES=%s' "$(sq "$BASELINES")"
}

# The quilt command the wrappers use: the repo's patches/, series and quiltrc.
q() {
	quilt --quiltrc "$QUILTRC" "$@"
}

# take_lock FILE: hold an exclusive lock on FILE (on fd 9) until the
# script ends; a second run waits, saying for which PID and command,
# rather than share the files the lock guards.  The holder writes
# "PID command" into FILE.  Children inherit the lock: one that asks for
# the same FILE goes on at once.  A caller that holds the machine's build
# lock (KBUILD_LOCK_HELD=1) and finds FILE held by a run queued for that
# build lock stops rather than wait for ever.
take_lock() {
	[ "${_LOCK_HELD:-}" = "$1" ] && return 0
	need flock util-linux
	mkdir -p "$(dirname "$1")"
	exec 9>>"$1"
	if ! flock -n 9; then
		_who=$(head -n 1 "$1" 2>/dev/null || :)
		if [ -n "$_who" ]; then
			step WAIT "waiting for PID ${_who%% *} (${_who#* }), which holds $1" >&2
		else
			step WAIT "waiting for another run, which holds $1" >&2
		fi
		if [ "${KBUILD_LOCK_HELD:-}" = 1 ]; then
			while ! flock -n 9; do
				_who=$(head -n 1 "$1" 2>/dev/null || :)
				_kq=${KBUILD_LOCK:-/tmp/kbuild.lock}.q
				if [ -n "$_who" ] && ls "$_kq" 2>/dev/null | grep -q -- "-${_who%% *}\$"; then
					die "PID ${_who%% *} (${_who#* }) holds $1 and waits for the build lock this run holds: take $1 before the build lock (run this again when it is done)"
				fi
				sleep 1
			done
		else
			flock 9
		fi
	fi
	printf '%s %s\n' "$$" "$prog${prog_args:+ $prog_args}" > "$1"
	_LOCK_HELD=$1
	export _LOCK_HELD
}

# out_lock: the one lock of OUT ($OUT/.lock), taken by every command that
# writes in OUT: fetch and unpack, tree, push/pop/refresh, rebase, export,
# submit-check, nightly, ci-series.  The path is OUT's real one, so that
# a child given OUT another way (a trailing /, a symlink) knows it holds it.
out_lock() {
	mkdir -p "$OUT"
	take_lock "$(cd "$OUT" && pwd -P)/.lock"
}

# in_tree: cd to the working tree and keep quilt's records of where the
# series lives pointing at this checkout (it may have moved since).
in_tree() {
	[ -d "$TREE" ] || die "no tree at $TREE: run 'make tree BASE=$BASE' first"
	cd "$TREE"
	# written only when they change: read-only commands need no writable tree
	[ -d .pc ] || mkdir .pc
	[ -f .pc/.version ] || echo 2 > .pc/.version
	[ "$(cat .pc/.quilt_patches 2>/dev/null)" = "$QUILT_PATCHES" ] ||
		echo "$QUILT_PATCHES" > .pc/.quilt_patches
	[ "$(cat .pc/.quilt_series 2>/dev/null)" = "$QUILT_SERIES" ] ||
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
# it failed (python3 -m seriesci record first-error --help); nothing for a
# missing or empty log.
first_error() {
	seriesci record first-error "$1"
}

# codegen_stamps: fix what Kbuild stamps into an image (time, user, host,
# build number), so that the same code makes the same vmlinux.
codegen_stamps() {
	export KBUILD_BUILD_TIMESTAMP="Thu Jan  1 00:00:00 UTC 1970"
	export KBUILD_BUILD_USER=codegen KBUILD_BUILD_HOST=compare KBUILD_BUILD_VERSION=1
}

# --- The project's own apt: Debian's archive without touching the machine's
# apt configuration.  Sources list, package lists and cache live in
# $OUT/apt; the archive's address is read from the machine's apt sources
# (or DEBIAN_ARCHIVE / DEBIAN_SECURITY), never written into the repo.
APT_DIR=$OUT/apt
# The suites searched for baselines, mainline first.
APT_SUITES=${APT_SUITES:-experimental unstable bookworm bookworm-updates bookworm-security}
APT_KEYRING=${APT_KEYRING:-/usr/share/keyrings/debian-archive-keyring.gpg}

# machine_archive [security]: the URI of the machine's Debian archive (the
# first source of component main for a Debian release suite), or of its
# security archive, from its one-line and deb822 apt sources (python3 -m
# seriesci baseline archive --help).
machine_archive() {
	seriesci baseline archive ${1:+--security}
}

# apt_sources: write $APT_DIR/sources.list for $APT_SUITES (a suite named
# *-security goes to the security archive).
apt_sources() {
	arch=${DEBIAN_ARCHIVE:-$(machine_archive)}
	[ -n "$arch" ] || die "no Debian archive in the machine's apt sources (/etc/apt/sources.list*): set DEBIAN_ARCHIVE=URI"
	sec=${DEBIAN_SECURITY:-$(machine_archive security)}
	mkdir -p "$APT_DIR/lists/partial" "$APT_DIR/cache/archives/partial" "$APT_DIR/none"
	opt="signed-by=$APT_KEYRING"
	[ "${APT_TRUSTED:-}" = 1 ] && opt="trusted=yes"
	for s in $APT_SUITES; do
		case $s in
		*-security) [ -n "$sec" ] && echo "deb [$opt] $sec $s main" ;;
		*) echo "deb [$opt] $arch $s main" ;;
		esac
	done > "$APT_DIR/sources.list.tmp"
	if ! cmp -s "$APT_DIR/sources.list.tmp" "$APT_DIR/sources.list" 2>/dev/null; then
		mv "$APT_DIR/sources.list.tmp" "$APT_DIR/sources.list"
		rm -f "$APT_DIR/updated"
	else
		rm -f "$APT_DIR/sources.list.tmp"
	fi
}

# papt CMD ARGS: apt-get or apt-cache on the project's sources only.
papt() {
	mkdir -p "$APT_DIR/none"
	_c=$1
	shift
	"$_c" -o Dir::Etc::sourcelist="$APT_DIR/sources.list" \
		-o Dir::Etc::sourceparts="$APT_DIR/none" \
		-o Dir::Etc::preferencesparts="$APT_DIR/none" \
		-o Dir::Etc::preferences="$APT_DIR/none/preferences" \
		-o APT::Sandbox::User=root \
		-o Dir::State::Lists="$APT_DIR/lists" -o Dir::Cache="$APT_DIR/cache" \
		-o Dir::State::status=/dev/null "$@"
}

# apt_update [--force]: refresh the project's package lists when they are
# missing, older than APT_MAX_AGE minutes (default 360) or forced.  A
# suite that is not served or a Release file that does not verify stops
# with apt's own words; the lists of a failed update are not kept.
apt_update() {
	need apt-get apt
	[ -n "${_APT_UPDATED:-}" ] && return 0
	_APT_UPDATED=1
	apt_sources
	if [ "${1:-}" != --force ] && [ -f "$APT_DIR/updated" ] &&
	   [ -z "$(find "$APT_DIR/updated" -mmin +"${APT_MAX_AGE:-360}")" ]; then
		return 0
	fi
	step APT "update $(echo $APT_SUITES | tr ' ' ,) (lists in $APT_DIR)"
	if ! papt apt-get -q update > "$APT_DIR/update.log" 2>&1 ||
	   grep -q '^\(E:\|W: GPG error\|W: Failed to fetch\|Err:\)' "$APT_DIR/update.log"; then
		sed -n '/^\(E\|W\|Err\):/p' "$APT_DIR/update.log" | sed 's/^/    /' >&2
		rm -f "$APT_DIR/updated"
		rm -rf "$APT_DIR/lists"
		_why="apt-get update of the project's sources ($APT_DIR/sources.list) failed"
		_s=$(sed -n "s/.* \([^ ]*\) Release' does not have a Release file.*/\1/p; s/.*[ /]dists\/\([^/ ]*\)\/.*\(404\|File not found\).*/\1/p" "$APT_DIR/update.log" | head -n 1)
		if [ -n "$_s" ]; then
			_why="the archive does not serve the suite $_s (APT_SUITES: $APT_SUITES)"
		elif grep -q 'NO_PUBKEY\|is not signed\|signatures couldn.t be verified\|not signed\|BADSIG\|EXPKEYSIG' "$APT_DIR/update.log"; then
			_why="a Release file does not verify against $APT_KEYRING: the archive's signature is missing, bad or by a key the keyring lacks (install or update debian-archive-keyring)"
		elif grep -q 'Could not resolve\|Failed to fetch\|Connection\|Temporary failure' "$APT_DIR/update.log"; then
			_why="the archive cannot be reached (no network?)"
		fi
		die "$_why; nothing was downloaded (log: $APT_DIR/update.log)"
	fi
	touch "$APT_DIR/updated"
}
