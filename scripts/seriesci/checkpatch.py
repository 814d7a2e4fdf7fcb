# SPDX-License-Identifier: GPL-2.0
"""checkpatch: the one checkpatch policy of the series.

scripts/lint, ci-series and scripts/submit-check all run it.  For each
PATCH: the kernel tree's scripts/checkpatch.pl --strict --no-color
--show-types, run on the tree (--root; from a scratch folder, so that
nothing is written into the tree), with --ignore of the types
scripts/checkpatch-ignore accepts for it (its own line and the "*" line).
Before checkpatch's words, each line of scripts/checkpatch-ignore it uses
is printed with its reason:
  # checkpatch-ignore: NAME: TYPE[,TYPE...]: reason
A patch is known by its file name (patches/NAME); --as NAME names the
PATCH that follows it (a mail of the export, say).  A quilt patch has no
git header lines; its mail does.  checkpatch asks whether MAINTAINERS
needs updating (FILE_PATH_CHANGES) when it sees "new file mode" or
"deleted file mode": the patch goes to checkpatch.pl with those lines
where the mail will have them (git_form), so that lint and ci-series
judge what submit-check judges.

scripts/checkpatch-ignore (CHECKPATCH_IGNORE), the one reader of it: a
line "PATCH TYPE[,TYPE...] # reason" (PATCH "*": every patch); comment
lines start with "#"; a line without a reason is an error.
"""
import dataclasses
import os
import re
import shutil
import subprocess
import sys
import tempfile

from seriesci import common, record

USAGE = ('usage: checkpatch [--tree DIR] [-q] [--as NAME] PATCH [[--as NAME] PATCH...]\n'
	 '       checkpatch --ignored NAME')


def ignore_file():
	return os.environ.get('CHECKPATCH_IGNORE') or os.path.join(common.repo(), 'scripts', 'checkpatch-ignore')


def _text(path):
	"""The file's text, None when there is none."""
	try:
		return record.read_text(path)
	except FileNotFoundError:
		return None


def ignore_lines(path):
	"""The lines of the file, comments and blank lines dropped, as (first
	word, line): what a step's fingerprint is made of."""
	out = []
	for l in (_text(path) or '').split('\n'):
		if l.startswith('#') or not l.split():
			continue
		out.append((l.split()[0], l.rstrip()))
	return out


@dataclasses.dataclass
class Entry:
	name: str
	types: str
	reason: str


class NoReason(common.Error):
	"""A line of the file without a reason (exit 2)."""


def entries(path, name):
	"""The lines of the file for NAME and for "*", in file order;
	NoReason names every such line without a reason."""
	text = _text(path)
	if text is None:
		return []
	out, bad = [], []
	for i, l in enumerate(common.awk_lines(text), 1):
		w = l.split()
		if not w or l.lstrip().startswith('#') or w[0] not in (name, '*'):
			continue
		reason = l.split('#', 1)[1].strip() if '#' in l else ''
		if not reason:
			bad.append(f'checkpatch: {path} line {i}: {w[0]} {w[1] if len(w) > 1 else ""} '
				   'has no reason (PATCH TYPES # reason)')
			continue
		out.append(Entry(w[0], w[1] if len(w) > 1 else '', reason))
	if bad:
		raise NoReason('\n'.join(bad))
	return out


def git_form(data):
	"""DATA (a patch, bytes) with git's "new file mode" and "deleted file
	mode" lines before each ---/+++ pair that adds or deletes a file,
	when it has no git header lines of its own; else DATA."""
	lines = data.split(b'\n')
	if any(l.startswith(b'diff --git ') for l in lines) or \
	   not any(re.match(rb'^[-+]{3} /dev/null', l) for l in lines):
		return data
	out = []
	pending = None
	for l in lines:
		if pending is None and l.startswith(b'--- '):
			pending = l
			continue
		if pending is not None:
			if pending.startswith(b'--- /dev/null') and l.startswith(b'+++ '):
				out.append(b'new file mode 100644')
			elif l.startswith(b'+++ /dev/null'):
				out.append(b'deleted file mode 100644')
			out.append(pending)
			pending = None
			if l.startswith(b'--- '):
				pending = l
				continue
		out.append(l)
	if pending is not None:
		out.append(pending)
	return b'\n'.join(out)


def check(tree, patch, name, quiet, scratch, path):
	"""Run the policy on one PATCH file known as NAME; its exit code."""
	es = entries(path, name)
	for e in es:
		print(f'# checkpatch-ignore: {e.name}: {e.types}: {e.reason}')
	types = ','.join(e.types for e in es if e.types)
	with open(patch, 'rb') as f:
		data = f.read()
	form = git_form(data)
	if form is not data:
		os.makedirs(os.path.join(scratch, 'git'), exist_ok=True)
		patch = os.path.join(scratch, 'git', os.path.basename(patch))
		with open(patch, 'wb') as f:
			f.write(form)
	cpl = os.path.join(tree, 'scripts', 'checkpatch.pl')
	# the kernel's is executable; a stand-in may be a perl file that is not
	cmd = [cpl] if os.access(cpl, os.X_OK) else ['perl', cpl]
	cmd += [f'--root={tree}', '--strict', '--no-color', '--show-types'] + (['-q'] if quiet else [])
	cmd += (['--ignore', types] if types else []) + [patch]
	sys.stdout.flush()
	# from a folder of its own: checkpatch.pl writes its CamelCase cache
	# (.checkpatch-camelcase.*) into the folder it runs in, and the tree
	# (by default the pristine baseline, which hard-linked trees share)
	# must not gain a file
	return subprocess.call(cmd, cwd=scratch, stdin=subprocess.DEVNULL)


def main(argv):
	"""scripts/checkpatch's command line (its grammar is positional: each
	--as names the PATCH after it)."""
	path = ignore_file()
	if argv[:1] in (['-h'], ['--help']):
		print(USAGE + '\n\n' + __doc__.split('\n\n', 1)[1].rstrip() +
		      '\n\n  --tree DIR      the kernel tree whose checkpatch.pl runs (default: the\n'
		      '                  pristine baseline, $OUT/src/BASE)\n'
		      '  -q              checkpatch.pl -q: nothing for a clean patch\n'
		      '  --ignored NAME  print what NAME may keep, "TYPE<tab>reason" a line\n'
		      'Exit status: 0 every PATCH clean, 1 one is not, 2 usage or a line of\n'
		      'scripts/checkpatch-ignore without a reason.\n'
		      'Environment: CHECKPATCH_IGNORE, the file (default scripts/checkpatch-ignore).')
		return 0
	try:
		if argv[:1] == ['--ignored']:
			if len(argv) != 2:
				raise common.Usage('--ignored takes one NAME')
			for e in entries(path, argv[1]):
				for t in e.types.split(','):
					print(f'{t}\t{e.reason}')
			return 0
		tree = os.path.join(common.out_dir(), 'src', os.environ.get('BASE', ''))
		quiet = False
		i = 0
		while i < len(argv):
			a = argv[i]
			if a == '--tree' and i + 1 < len(argv):
				tree, i = argv[i + 1], i + 2
			elif a == '-q':
				quiet, i = True, i + 1
			elif a == '--':
				i += 1
				break
			elif a == '--as' or not a.startswith('-'):
				break
			else:
				raise common.Usage(f'unknown option {a}')
		rest = argv[i:]
		if not rest:
			raise common.Usage('no PATCH')
		if not os.path.isfile(os.path.join(tree, 'scripts', 'checkpatch.pl')):
			raise common.Error(f'{tree} has no scripts/checkpatch.pl: is it a kernel tree?')
		tree = os.path.abspath(tree)
		if not os.access(os.path.join(tree, 'scripts', 'checkpatch.pl'), os.X_OK) and not shutil.which('perl'):
			raise common.Error("'perl' not found: install the Debian package 'perl' (make deps does it)")
		rc = 0
		scratch = tempfile.mkdtemp(prefix='checkpatch.', dir=os.environ.get('TMPDIR') or None)
		try:
			name = None
			j = 0
			while j < len(rest):
				if rest[j] == '--as':
					if j + 1 >= len(rest):
						raise common.Usage('--as needs NAME')
					name, j = rest[j + 1], j + 2
					continue
				f = os.path.abspath(rest[j])
				j += 1
				if not os.path.isfile(f):
					print(f'checkpatch: {rest[j - 1]}: no such file', file=sys.stderr)
					rc, name = 1, None
					continue
				if check(tree, f, name or os.path.basename(rest[j - 1]), quiet, scratch, path):
					rc = 1
				name = None
		finally:
			shutil.rmtree(scratch, ignore_errors=True)
		return rc
	except NoReason as e:
		print(e, file=sys.stderr)
		return 2
	except common.Usage as e:
		print(f'checkpatch: error: {e}\n{USAGE}', file=sys.stderr)
		return 2
	except common.Error as e:
		print(f'checkpatch: error: {e}', file=sys.stderr)
		return 1
