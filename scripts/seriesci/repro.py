# SPDX-License-Identifier: GPL-2.0
"""repro: a reproducer per failing build cell, as tuxmake and 0-day give.

	DIR/NNN-NAME/TARGET.reproduce.sh

A POSIX sh script that rebuilds that cell on a clean Debian 12 machine
from a clone of this repository: install what the series needs
(scripts/deps, as make deps), fetch the baseline (scripts/fetch-baseline:
the pinned, checked linux-source package), copy it, push the series up
to the cell's patch with quilt, configure the target as scripts/build-arch
does (tinyconfig, the Kconfig fragments merged with merge_config.sh -m,
olddefconfig), and build its image with the same compiler, in the same
runtime (scripts/runtime run NAME) when configs/targets gives one.

Run it from the top of the clone:  sh 001-x.patch/arm64.reproduce.sh
  --dry-run   check the clone (the series holds the patch at the same
              place as in the run, the patches and fragments are there)
              and print the commands without running them
The work goes into $OUT/repro-STEP-TARGET (OUT default: out/).
"""
import os
import shlex


def q(s):
	return shlex.quote(s)


def script(base, series, index, target, bc, result):
	"""The reproducer's text.  series: the record's patches; index: the
	step (0: the baseline); bc: the target's metadata.BuildConfig;
	result: the cell's result (a key=value dict)."""
	patch = series[index - 1] if index else ''
	step = f'{index:03d}-{patch or "baseline"}'
	cc_line = result.get('compiler', '')
	err = ' '.join(result.get('first_error', '').split())
	run_in = f'"$REPO/scripts/runtime" run {q(bc.runtime)} ' if bc.runtime else ''
	if bc.llvm:
		llvm_sfx = bc.llvm if bc.llvm.startswith('-') else ''
		llvm_pre = bc.llvm if bc.llvm.endswith('/') else ''
		cc_cmd = f'{llvm_pre}clang{llvm_sfx}'
	else:
		cc_cmd = f'{bc.cross}gcc{bc.gcc_suffix}'
	frags = ' '.join(f'"$REPO"/{q(f)}' for f in bc.fragments)
	prefix = ' '.join(series[:index])
	L = []
	a = L.append
	a('#!/bin/sh')
	a('# SPDX-License-Identifier: GPL-2.0')
	a("# shellcheck disable=SC2015,SC2016 # runsh's command lines expand in their own sh")
	a(f'# Reproduce the build of {target} at step {step} of the asm-generic series on {base}')
	a('# (written by scripts/results from the ci-series record; see Documentation/results.md).')
	if err:
		a(f'# It failed: {err}')
	if cc_line:
		a(f'# Compiler of the run: {cc_line}')
	if bc.runtime:
		a(f'# Built in the Debian root of scripts/runtime {bc.runtime} (configs/runtime-{bc.runtime}.packages).')
	a('#')
	a('# On a clean Debian 12 machine, from the top of a clone of the repository:')
	a(f'#   sh {step}/{target}.reproduce.sh [--dry-run]')
	a('# --dry-run checks the clone and prints the commands without running them.')
	a('# scripts/deps installs packages and makes runtimes: run it as root, or')
	a('# install first (make deps) and pass --no-deps.')
	a('set -eu')
	a('dry=')
	a('deps=1')
	a('for a; do')
	a('\tcase $a in')
	a('\t--dry-run|-n) dry=1 ;;')
	a('\t--no-deps) deps= ;;')
	a("\t-h|--help) sed -n '4,/^set -eu/p' \"$0\" | sed '$d'; exit 0 ;;")
	a('\t*) echo "usage: $0 [--dry-run] [--no-deps]" >&2; exit 2 ;;')
	a('\tesac')
	a('done')
	a('REPO=${REPO:-$(pwd)}')
	a('OUT=${OUT:-$REPO/out}')
	a(f'BASE={q(base)}')
	a(f'T="$OUT"/repro-{q(step)}-{q(target)}/linux')
	a(f'B="$OUT"/repro-{q(step)}-{q(target)}/build')
	a('export REPO OUT BASE T B')
	a('die() { echo "reproduce: $*" >&2; exit 1; }')
	a('# run CMD...: print it, run it unless --dry-run')
	a('run() {')
	a('\tprintf \'+ %s\\n\' "$*"')
	a('\t[ -n "$dry" ] || "$@"')
	a('}')
	a('# runsh CMD: the same for a command line that needs the shell')
	a('runsh() {')
	a('\tprintf \'+ %s\\n\' "$1"')
	a('\t[ -n "$dry" ] || sh -c "$1"')
	a('}')
	a('')
	a('# The clone must hold what the run applied: the same patches in the same')
	a('# order up to this step, every Kconfig fragment of the target.')
	a('[ -f "$REPO/series" ] && [ -d "$REPO/patches" ] || die "$REPO: not a clone of the series (no series file, no patches/): run from its top or set REPO="')
	a(f'want={q(prefix)}')
	a(f'n={index}')
	a("have=$(sed -e 's/#.*//' \"$REPO/series\" | awk 'NF { print $1 }' | head -n \"$n\" | tr '\\n' ' ')")
	a('[ "$have" = "$want${want:+ }" ] || die "$REPO/series does not start with the run\'s $n patches (the run: $want); check out the commit the run used"')
	a('for p in $want; do')
	a('\t[ -f "$REPO/patches/$p" ] || die "no patches/$p in $REPO"')
	a('done')
	a(f'for f in {frags}; do')
	a('\t[ -f "$f" ] || die "no Kconfig fragment $f in $REPO"')
	a('done')
	a('')
	for comment, kind, cmd in commands(base, series, index, bc):
		if comment:
			a(f'# {comment}')
		if kind == 'deps':
			a('if [ -n "$deps" ]; then')
			a(f'\trun {cmd}')
			a('fi')
		elif kind == 'run':
			a(f'run {cmd}')
		else:
			if kind == 'build' and cc_line:
				a(f'want_cc={q(cc_line)}')
				a('if [ -z "$dry" ]; then')
				a(f'\thave_cc=$({run_in}{q(cc_cmd)} --version 2>/dev/null | head -n 1) || have_cc=')
				a('\t[ "$have_cc" = "$want_cc" ] ||')
				a('\t\techo "reproduce: warning: the compiler is \\"$have_cc\\", the run\'s was \\"$want_cc\\"" >&2')
				a('fi')
			a(f'runsh {q(cmd)}')
	a('[ -n "$dry" ] || echo "reproduce: built; the log above, the build in $B"')
	return '\n'.join(L) + '\n'


def commands(base, series, index, bc):
	"""The reproducer's steps: (comment, kind, command) with kind deps,
	run (a plain command) or sh/build (a shell command line); $REPO,
	$OUT, $BASE, $T (the tree) and $B (the build) in them."""
	patch = series[index - 1] if index else ''
	run_in = f'"$REPO/scripts/runtime" run {q(bc.runtime)} ' if bc.runtime else ''
	make = (f'{run_in}make -C "$T" O="$B" ARCH={q(bc.arch)} CROSS_COMPILE={q(bc.cross)}'
		+ (f' CC={q(bc.cc())}' if bc.cc() else '')
		+ ''.join(' ' + q(v) for v in bc.makevars))
	frags = ' '.join(f'"$REPO"/{q(f)}' for f in bc.fragments)
	out = [('1. What the series needs (Debian packages, toolchain runtimes): make deps',
		'deps', '"$REPO/scripts/deps"'),
	       ('2. The baseline: the pinned linux-source package, checked, unpacked in $OUT/src',
		'run', '"$REPO/scripts/fetch-baseline" "$BASE"'),
	       ('', 'run', 'rm -rf "$T" "$B"'),
	       ('', 'run', 'mkdir -p "$B"'),
	       ('', 'run', 'cp -a "$OUT/src/$BASE" "$T"')]
	if index:
		out.append((f'3. The series up to {patch} (patch {index} of {len(series)})', 'sh',
			    'cd "$T" && QUILT_PATCHES="$REPO/patches" QUILT_SERIES="$REPO/series" '
			    f'quilt --quiltrc "$REPO/scripts/quiltrc" push {q(patch)}'))
	out += [(f'4. Configure as scripts/build-arch: tinyconfig, then {", ".join(bc.fragments)}',
		 'sh', make + ' tinyconfig'),
		('', 'sh', 'cd "$B" && "$T/scripts/kconfig/merge_config.sh" -m -O "$B" "$B/.config" ' + frags),
		('', 'sh', make + ' olddefconfig'),
		('5. Build with the compiler of the run' + (f' (in the runtime {bc.runtime})' if bc.runtime else ''),
		 'build', make + ' -j$(nproc) ' + bc.image)]
	return out


def write(path, text):
	tmp = f'{path}.new.{os.getpid()}'
	with open(tmp, 'w', encoding='utf-8') as f:
		f.write(text)
	os.chmod(tmp, 0o755)
	os.replace(tmp, path)

