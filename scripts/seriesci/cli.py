# SPDX-License-Identifier: GPL-2.0
"""The one entry point: python3 -m seriesci SUBCOMMAND ... (-h on each).

Exit codes (common.Exit): 0 done, 1 an error (nothing written; results:
a malformed result file, shown as a failure), 2 usage, 3 reach only:
provably unreached, 4 report only: a regression, 5 report only: not
decided (cells not built).  The scripts of the same names in
scripts/ run these subcommands.
"""
import argparse
import os
import sys

from seriesci import common


def _results(sub):
	p = sub.add_parser(allow_abbrev=False, name='results', help='render a ci-series record as results.json, .md, .html',
			   description='Render a record folder of scripts/ci-series as DIR/results.json '
			   '(every cell, for programs), DIR/results.md (the patch-by-target matrix) and '
			   'DIR/results.html (the same as one static page, each cell linked to its log). '
			   'Paths inside are relative to DIR.  Reads only; re-running rewrites the three files.')
	p.add_argument('dir', nargs='?', metavar='DIR',
		       help='the record folder (default: $OUT/ci/$BASE)')
	p.set_defaults(func=lambda a: __import__('seriesci.render').render.run(a))


def _merge(sub):
	p = sub.add_parser(allow_abbrev=False, name='merge-results', help='merge the records of several shards into one',
			   description='One matrix from the record folders of several ci-series runs on '
			   'disjoint target sets: every step of every RECORD copied into OUTDIR, then '
			   'rendered (results).  Errors, and nothing is written, when the records differ '
			   'in baseline or series, or a cell conflicts (a target with different results '
			   'in two records; checkpatch, boot or push ok in one and fail in another). '
			   "Sparse results are joined; skip gives way to a record that ran the check. "
			   'A step is done when it is done in every record.  OUTDIR must be empty, new '
			   'or an earlier merge: re-running rewrites it.')
	p.add_argument('-o', dest='outdir', metavar='OUTDIR',
		       help='the merged record folder (default: $OUT/ci/merged)')
	p.add_argument('records', nargs='+', metavar='RECORD',
		       help='a ci-series record folder, or its results.json')
	p.set_defaults(func=lambda a: __import__('seriesci.merge').merge.run(a))


def _reach(sub):
	p = sub.add_parser(allow_abbrev=False, name='reach', help='can the change since a kept build reach it',
			   description='Can the change since a kept build reach that build?  Decided '
			   "from Kbuild's own .cmd files and include/config/auto.conf.cmd, indexed "
			   'into BUILD_DIR/.reach by --record after a build.  Exit 3: provably '
			   'unreached (nothing to build), and only then; exit 0: reached, with the '
			   'first reason; any other exit is no proof either (callers build).  $TREE '
			   'is the source tree.')
	p.add_argument('-q', dest='quiet', action='store_true', help='print nothing')
	p.add_argument('--key', default='', metavar='KEY',
		       help="the build's key now (compiler, make variables, fragments): a different one reaches")
	p.add_argument('--files', action='store_true',
		       help='the arguments before BUILD_DIR are tree-relative changed files '
		       '(what a patch touches) instead of what changed in $TREE since the build')
	p.add_argument('--record', action='store_true',
		       help="after a successful build: index BUILD_DIR's dependencies into "
		       'BUILD_DIR/.reach; the arguments are BUILD_DIR STAMP [KEY] (STAMP: a file made '
		       'just before the build began, kept as its time)')
	p.add_argument('args', nargs='+', metavar='ARG',
		       help='[FILE...] BUILD_DIR, or with --record: BUILD_DIR STAMP [KEY]')
	p.set_defaults(func=lambda a: __import__('seriesci.reach').reach.run(a))


def _proof(sub):
	p = sub.add_parser(allow_abbrev=False, name='codegen-proof', help="a patch's generated-code paragraph from a record",
			   description="The generated-code paragraph of a patch's message, from what a "
			   "ci-series record says of the patch's step: the targets whose vmlinux stayed "
			   'the same byte for byte, those where only data changed (the same objdump -d), '
			   'those whose code changed, the touched architectures no target builds, and '
			   'the targets of touched architectures not built yet.')
	p.add_argument('-w', dest='write', action='store_true',
		       help='write the paragraph into patches/PATCH in place of the one that starts '
		       '"Generated code, from scripts/ci-series" (the diff is not touched)')
	p.add_argument('-r', dest='record', metavar='RECORD',
		       help='the record folder (default: $OUT/ci/merged, else $OUT/ci/$BASE)')
	p.add_argument('patches', nargs='+', metavar='PATCH', help='a patch name of the series file')
	p.set_defaults(func=lambda a: __import__('seriesci.proof').proof.run(a))


def _targets(sub):
	from seriesci import targets
	p = sub.add_parser(allow_abbrev=False, name='targets', help='the build targets of configs/targets',
			   description='Print the targets of configs/targets, one a line, in file '
			   'order, or one field of each.  The one reader of the file.')
	p.add_argument('--file', metavar='FILE',
		       help='the targets file (default: $TARGETS_FILE, else $CONFIGS/targets, '
		       'else configs/targets)')
	p.add_argument('--tier', metavar='TIER', help='only the targets of this tier (quick, full)')
	p.add_argument('--with', dest='with_var', metavar='VAR=VALUE',
		       help='only the targets whose line sets this variable (TOOLCHAIN=crosstool)')
	p.add_argument('--field', default='name', choices=targets.FIELDS + ('line',),
		       help='what to print of each target (default: name; vars: the make '
		       'variables; line: the whole line)')
	p.add_argument('--sort', action='store_true', help='in name order instead of file order')
	p.add_argument('names', nargs='*', metavar='TARGET',
		       help='only these targets, in this order (an unknown one is an error)')
	p.set_defaults(func=targets.run)


def _report(sub):
	p = sub.add_parser(allow_abbrev=False, name='report', help='the per-commit bisect report, as 0-day mails it',
			   description='The bisect report of a ci-series record, one plain-text mail per '
			   'destination series of the series file ("#@ destination:" lines): its verdict, the '
			   'first bad commit and the targets it breaks, every failure (new ones marked ">>"), '
			   'the new warnings (marked "+"), the cells not built, and the commands that rebuild '
			   'the first bad cell on a clean machine.  Reads only.  Exit 0: no regression and '
			   'every cell decided; 4: a first bad commit; 5: no regression, but cells not built '
			   'or unreadable (never reported as success).')
	p.add_argument('dir', nargs='?', metavar='DIR', help='the record folder (default: $OUT/ci/$BASE)')
	p.add_argument('--series', metavar='FILE',
		       help='the series file whose destinations group the patches (default: '
		       '$QUILT_SERIES, else the repository\'s series)')
	p.add_argument('-d', '--destination', action='append', metavar='NAME',
		       help='only this destination (again for more)')
	p.add_argument('-o', dest='output', metavar='FILE', help='write the report to FILE instead of stdout')
	p.set_defaults(func=lambda a: __import__('seriesci.report').report.run(a))


def _kcidb(sub):
	p = sub.add_parser(allow_abbrev=False, name='kcidb', help="a whole run as KernelCI KCIDB v5 JSON",
			   description='Export a ci-series record as KCIDB I/O data (schema v5.0): a '
			   'checkout per step (the baseline and the patchset up to it, with its files and '
			   'hash), a build per target cell, boot and sparse as tests.  The mapping is in '
			   'Documentation/results.md.  Exit 1 when a result file is malformed (its build '
			   'is exported with status ERROR).')
	p.add_argument('dir', nargs='?', metavar='DIR', help='the record folder (default: $OUT/ci/$BASE)')
	p.add_argument('-o', dest='output', metavar='FILE',
		       help='the output file, - for stdout (default: DIR/kcidb.json)')
	p.add_argument('--origin', default='asm_generic_series', metavar='NAME',
		       help="the CI system's name, the prefix of every id (default: asm_generic_series; "
		       'lower-case letters, digits, _)')
	p.add_argument('--url', metavar='URL',
		       help='where the record folder is published: log URLs are URL/STEP/TARGET.log '
		       '(default: file:// of DIR)')
	p.add_argument('--patches', metavar='DIR',
		       help='the patch files, for patchset_hash (default: $QUILT_PATCHES, else the '
		       "repository's patches/)")
	p.add_argument('--patches-url', metavar='URL',
		       help='where the patch files are published (default: file:// of --patches)')
	p.set_defaults(func=lambda a: __import__('seriesci.kcidb').kcidb.run(a))


def _census(sub):
	p = sub.add_parser(allow_abbrev=False, name='census', help='the census of duplicated arch headers (dup-census)',
			   description='Count the header lines that architectures still duplicate in '
			   'arch/*/include/asm and arch/*/include/uapi/asm of TREE (only read), grouped by '
			   'kind and name against asm-generic: the census (removable shared normalised '
			   'lines), or with --raw the raw-line census beside it.  The precise definitions '
			   'are the text of scripts/seriesci/census.py and Documentation/dup-census.md.  '
			   'Output: per subsystem (most removable lines first) its removable lines, then a '
			   'line per group: kind, header, class, copies x lines = removable, arches.',
			   epilog='Exit codes: 0 done, 1 an error (no kernel tree, diff missing), 2 usage.')
	mode = p.add_mutually_exclusive_group()
	mode.add_argument('--tsv', dest='mode', action='store_const', const='tsv',
			  help='one row per group instead, after a "#" header line: kind subsystem header '
			  'class arches lines removable (arches comma separated; lines: the shared '
			  "lines, with --raw the centre's raw lines)")
	mode.add_argument('--total', dest='mode', action='store_const', const='total',
			  help='print only the total')
	p.add_argument('--lines', action='store_true',
		       help="add each group's shared normalised lines to the report (no effect with --raw)")
	p.add_argument('--top', type=common.whole, default=0, metavar='N',
		       help='keep the first N subsystems of the report (default 0: all; not with --tsv, --total)')
	p.add_argument('--near', type=common.whole, default=10, metavar='PCT',
		       help='a copy joins a near group when at most PCT%% of its lines (at least 1) '
		       'are outside the common lines (default 10; 0: no near groups; no effect with --raw)')
	p.add_argument('--raw', action='store_true',
		       help='the raw-line census: copies within --changed lines of a centre count '
		       'their raw file lines')
	p.add_argument('--changed', type=common.whole, metavar='N',
		       help='with --raw: the most changed lines (deleted plus added, by GNU diff -d) '
		       'between a copy and its centre (default 10)')
	p.add_argument('tree', nargs='?', metavar='TREE',
		       help='a kernel source tree (default: $TREE, else the pristine baseline $OUT/src/$BASE)')
	p.set_defaults(func=lambda a: __import__('seriesci.census').census.run(a), mode='text')


def _abi(sub):
	from seriesci import abi
	abi.add_parser(sub)


def _rebase_state(sub):
	from seriesci import rebase_state
	rebase_state.add_parser(sub)


def _steps(sub):
	from seriesci import steps
	steps.add_parser(sub)


def _record(sub):
	from seriesci import record
	p = sub.add_parser(allow_abbrev=False, name='record', help='write the key=value files of a ci-series record',
			   description='The one writer of the key=value files of a ci-series record, '
			   'as scripts/ci-series and scripts/build-arch call it (the reader is '
			   'scripts/seriesci/record.py).')
	rs = p.add_subparsers(dest='record_command', metavar='ACTION', required=True)
	w = rs.add_parser(allow_abbrev=False, name='write', help='write record files',
			  usage='%(prog)s [--result] [--from SRC] FILE [KEY=VALUE...] [-- ...]',
			  description='Write FILE as KEY=VALUE lines, in the order given, atomically.  '
			  'With --from SRC: the lines of SRC byte for byte, every line of a KEY given '
			  'set to its VALUE in place, and the KEYs SRC lacks added at the end (SRC may '
			  'be FILE: changed in place).  With --result: refused unless the file reads '
			  'back as a result (status= ok, fail or skip; numbers where numbers go).  '
			  "A KEY is [a-z_][a-z0-9_]*; a VALUE with a newline is refused (the reader "
			  'splits at newlines); undecodable bytes of a VALUE are written as U+FFFD.  '
			  'More files after "--", each with its own options: every file is checked '
			  'before any is written (one python start for all the files of a step).',
			  epilog='Exit codes: 0 written, 1 refused (nothing written), 2 usage.')
	w.add_argument('args', nargs=argparse.REMAINDER, metavar='ARG',
		       help='[--result] [--from SRC] FILE [KEY=VALUE...], groups separated by --')
	w.set_defaults(func=lambda a: record.write_files(a.args))
	e = rs.add_parser(allow_abbrev=False, name='first-error',
			  help="the line of a build or boot log that best says why it failed",
			  description=' '.join(record.first_error.__doc__.split()) + '  (lib.sh first_error)')
	e.add_argument('log', metavar='LOG')
	e.set_defaults(func=lambda a: print(record.first_error(a.log)) or common.Exit.OK)


def _fingerprint(sub):
	from seriesci import fingerprint
	fingerprint.add_parser(sub)


def _baseline(sub):
	from seriesci import baseline
	baseline.add_parser(sub)


def _series(sub):
	from seriesci import series
	series.add_parser(sub)


def _ci_series(sub):
	from seriesci import ci_series
	ci_series.add_parser(sub)


def _build_all(sub):
	from seriesci import build_all
	build_all.add_parser(sub)


def _bench(sub):
	from seriesci import bench
	bench.add_parser(sub)


def _timing(sub):
	from seriesci import timing
	timing.add_parser(sub)


# Each subcommand and the function that adds its parser: a start builds
# only the parser of the subcommand it runs.
COMMANDS = {
	'results': _results, 'merge-results': _merge, 'reach': _reach, 'codegen-proof': _proof,
	'targets': _targets, 'report': _report, 'kcidb': _kcidb, 'census': _census,
	'abi-report': _abi, 'rebase-state': _rebase_state, 'compare-steps': _steps, 'sticky': _steps,
	'record': _record, 'fingerprint': _fingerprint, 'csum-placements': _bench,
	'check-times': _timing, 'baseline': _baseline, 'series': _series, 'ci-series': _ci_series,
	'build-all': _build_all,
}


def parser(only=None):
	"""The parser of every subcommand, or of ONLY's alone."""
	p = argparse.ArgumentParser(
		prog='seriesci', allow_abbrev=False, description=__doc__.split('\n\n')[0],
		epilog='Exit codes: 0 done, 1 error, 2 usage, 3 (reach) unreached, '
		'4 (report) a regression, 5 (report) not decided.')
	sub = p.add_subparsers(dest='command', metavar='SUBCOMMAND', required=True)
	fs = [COMMANDS[only]] if only in COMMANDS else list(dict.fromkeys(COMMANDS.values()))
	for f in fs:
		f(sub)
	return p


def main(argv=None):
	argv = sys.argv[1:] if argv is None else argv
	# checkpatch and record write have grammars of their own that argparse
	# cannot read (record write: groups of options, FILE and KEY=VALUE,
	# separated by --; its parser only gives its help)
	if argv[:1] == ['checkpatch']:
		# positional: each --as names the PATCH after it
		os.environ.setdefault('SERIESCI_PROG', 'checkpatch')
		from seriesci import checkpatch
		return checkpatch.main(argv[1:])
	if argv[:2] == ['record', 'write'] and argv[2:3] not in (['-h'], ['--help']):
		os.environ.setdefault('SERIESCI_PROG', 'record write')
		from seriesci import record
		try:
			return int(record.write_files(argv[2:]))
		except common.Usage as e:
			print(f'{common.prog()}: error: {e}\nusage: {record.WRITE_USAGE}', file=sys.stderr)
			return int(common.Exit.USAGE)
		except common.Error as e:
			print(f'{common.prog()}: error: {e}', file=sys.stderr)
			return int(common.Exit.FAILURE)
		except OSError as e:
			print(f'{common.prog()}: error: {e.filename or ""}: {e.strerror or e}', file=sys.stderr)
			return int(common.Exit.FAILURE)
	p = parser(argv[0] if argv else None)
	# the wrappers in scripts/ call us by their own name
	subs = p._subparsers._group_actions[0].choices
	if argv and argv[0] in subs:
		# the subcommand's own parser: its name in every message
		os.environ.setdefault('SERIESCI_PROG', argv[0])
		subs[argv[0]].prog = os.environ['SERIESCI_PROG']
		args = subs[argv[0]].parse_args(argv[1:])
	else:
		args = p.parse_args(argv)
	try:
		return int(args.func(args))
	except common.Usage as e:
		subs[argv[0]].error(str(e))
	except common.Error as e:
		print(f'{common.prog()}: error: {e}', file=sys.stderr)
		return int(common.Exit.FAILURE)
	except BrokenPipeError:
		return int(common.Exit.FAILURE)
	except OSError as e:
		# an unreadable file, a full disk: a clear message, not a traceback
		print(f'{common.prog()}: error: {e.filename or ""}: {e.strerror or e}', file=sys.stderr)
		return int(common.Exit.FAILURE)
