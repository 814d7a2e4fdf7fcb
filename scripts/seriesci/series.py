# SPDX-License-Identifier: GPL-2.0
"""The series file: quilt's list of patches, and where each goes upstream.

The one reader of the file.  quilt reads a line's first word as a patch
name (its other words are options) and a line that starts with "#" as a
comment.  The series says where each patch goes upstream in comment
lines that start with "#@" (quilt skips them):

  #@ destination: NAME  the patches below it, up to the next such line,
                        are one series, mailed to NAME's maintainers
                        (NAME: letters, digits, "-", "_", ".")
  #@ version: N         that series' version (default 1)
  #@ prefix: WORD...    extra subject prefixes, e.g. RFC (default none)
  #@ trailer: LINE      a trailer scripts/export adds to each of its
                        commit messages, above the first Signed-off-by:
                        (e.g. Cc: stable@vger.kernel.org)
  #@ cover: FILE        its cover letter, relative to the series file's
                        folder (default: Documentation/cover-letter.NAME
                        of the repository if there is one, else
                        Documentation/cover-letter)

version, prefix, trailer and cover belong to the destination line above
them.  A series file without destination lines is one destination,
"series".  A destination is one run of patches: the same NAME twice, a
patch above the first destination line, a destination with no patch, an
unknown key or a missing cover letter stop it.
"""
import dataclasses
import os
import re

from seriesci import common

_KEY_RE = re.compile(r'^#@[ \t]*([a-z]+):[ \t]*(.*?)[ \t]*$')
_NAME_RE = re.compile(r'^[A-Za-z0-9][A-Za-z0-9._-]*$')
_TRAILER_RE = re.compile(r'^[A-Za-z-]+: [^ ]')
KEYS = ('destination', 'version', 'prefix', 'trailer', 'cover')


def default_file():
	return os.environ.get('QUILT_SERIES') or os.path.join(common.repo(), 'series')


def default_patches():
	return os.environ.get('QUILT_PATCHES') or os.path.join(common.repo(), 'patches')


def _lines(path):
	"""The lines of the file (None when there is none), split at \\n only."""
	try:
		# newline='': a carriage return stays in the line (a check reports it)
		with open(path, encoding='utf-8', errors='surrogateescape', newline='') as f:
			return common.awk_lines(f.read())
	except FileNotFoundError:
		return None


def entries(path):
	"""(name, line) of each patch, in order: the line without its comment,
	its words joined by one space (quilt's options kept); [] when there is
	no such file."""
	out = []
	for l in _lines(path) or []:
		w = l.split('#', 1)[0].split()
		if w:
			out.append((w[0], ' '.join(w)))
	return out


def patches(path):
	"""The patches, in order (no comments, no options)."""
	return [name for name, _ in entries(path)]


def touched(text):
	"""The files a patch's diff touches, in its order: (path, how), how
	'new' (--- /dev/null), 'deleted' (+++ /dev/null) or 'changed'.  Read
	from its "--- a/PATH" and "+++ b/PATH" lines (quilt's and git's
	unified diffs: the first path component is dropped)."""
	out, old = [], None
	for l in common.awk_lines(text):
		if l.startswith('--- ') and not l.startswith('--- \t'):
			old = l[4:].split('\t')[0].strip()
			continue
		if l.startswith('+++ ') and old is not None:
			new = l[4:].split('\t')[0].strip()
			if new == '/dev/null':
				out.append((_strip1(old), 'deleted'))
			elif old == '/dev/null':
				out.append((_strip1(new), 'new'))
			else:
				out.append((_strip1(new), 'changed'))
		old = None
	return out


def _strip1(path):
	return path.split('/', 1)[1] if '/' in path else path


def problems(path, patches_dir):
	"""Why quilt and these scripts would read the file differently, a
	message a line naming the fix: a carriage return (CRLF), a comment
	that does not start in column 1 (quilt reads "#" as a patch name), a
	patch listed twice, a patch file missing or with CRLF lines."""
	lines = _lines(path)
	if lines is None:
		return []
	out = []
	seen = {}
	for i, l in enumerate(lines, 1):
		if '\r' in l:
			out.append(f'{path}:{i}: a carriage return (CRLF line ends): quilt would read the name '
				   f'with it; convert the file: sed -i "s/\\r$//" {path}')
			continue
		if re.match(r'^[ \t]+#', l):
			out.append(f'{path}:{i}: a comment that does not start in column 1: quilt reads "#" as '
				   'a patch name; move the # to column 1')
			continue
		if l.startswith('#') or not l.split():
			continue
		n = l.split()[0]
		if n in seen:
			out.append(f'{path}:{i}: {n} is listed twice (first on line {seen[n]}): quilt would '
				   'apply it twice; delete one line')
			continue
		seen[n] = i
	for n in patches(path):
		f = os.path.join(patches_dir, n)
		try:
			with open(f, 'rb') as fh:
				crlf = b'\r' in fh.read()
		except (FileNotFoundError, IsADirectoryError, NotADirectoryError):
			out.append(f'{path}: {n} is listed but {f} does not exist: restore it (git checkout) '
				   'or delete its line')
			continue
		if crlf:
			out.append(f'{f}: CRLF line ends: patch would apply it with the CRs in the files; '
				   f'convert it: sed -i "s/\\r$//" {f}')
	return out


@dataclasses.dataclass
class Destination:
	name: str
	version: str = '1'
	prefixes: str = ''
	cover: str = ''
	trailers: list = dataclasses.field(default_factory=list)
	patches: list = dataclasses.field(default_factory=list)


def destinations(path, strict=True):
	"""The destinations of the file, in order.  strict: every rule of the
	grammar above is checked (common.Error naming each bad line) and each
	cover letter is resolved to a file that exists.  Not strict (the
	report reads a record's series as it is): patches above the first
	destination line are one destination "(no destination)", and covers
	are not looked for."""
	lines = _lines(path)
	if lines is None:
		return []
	errs = []
	out = []
	seen = set()
	loose = []

	def err(i, m):
		errs.append(f'{path} line {i}: {m}')

	def close(i):
		if out and not out[-1].patches:
			err(i, f'destination {out[-1].name} has no patch')
	for i, l in enumerate(lines, 1):
		if l.startswith('#@'):
			m = _KEY_RE.match(l)
			if not m:
				err(i, f'not "#@ KEY: VALUE": {l}')
				continue
			k, v = m.group(1), m.group(2)
			if k == 'destination':
				if not _NAME_RE.match(v):
					err(i, f'bad destination name "{v}"')
					continue
				if v in seen:
					err(i, f'destination {v} again: a destination is one run of patches')
					continue
				close(i)
				seen.add(v)
				out.append(Destination(v))
				continue
			if not out:
				err(i, f'"#@ {k}:" above the first destination line')
				continue
			d = out[-1]
			if k == 'version':
				if re.match(r'^[1-9][0-9]*$', v):
					d.version = v
				else:
					err(i, f'version {v}: not a number')
			elif k == 'prefix':
				d.prefixes = v or d.prefixes
			elif k == 'trailer':
				if _TRAILER_RE.match(v):
					d.trailers.append(v)
				else:
					err(i, f'trailer {v}: not "Name: value"')
			elif k == 'cover':
				d.cover = v or d.cover
			else:
				err(i, f'unknown key "{k}" ({", ".join(KEYS)})')
			continue
		w = l.split('#', 1)[0].split()
		if not w:
			continue
		if out:
			out[-1].patches.append(w[0])
		else:
			loose.append(w[0])
	close(len(lines))
	if not strict:
		if not out:
			return [Destination('series', patches=loose)] if loose else []
		if loose:
			out.insert(0, Destination('(no destination)', patches=loose))
		return out
	if out and loose:
		errs.append(f'{path}: {loose[0]} is above the first "#@ destination:" line: it has no destination')
	if errs:
		raise common.Error('\n'.join(errs))
	if not out:
		out = [Destination('series', patches=loose)] if loose else []
	sdir = os.path.dirname(os.path.abspath(path))
	doc = os.path.join(common.repo(), 'Documentation')
	for d in out:
		if d.cover:
			c = d.cover if os.path.isabs(d.cover) else os.path.join(sdir, d.cover)
			if not os.path.isfile(c):
				raise common.Error(f'destination {d.name}: no cover letter {c} ("#@ cover:" in {path})')
		elif os.path.isfile(os.path.join(doc, 'cover-letter.' + d.name)):
			c = os.path.join(doc, 'cover-letter.' + d.name)
		elif os.path.isfile(os.path.join(doc, 'cover-letter')):
			c = os.path.join(doc, 'cover-letter')
		else:
			raise common.Error(f'destination {d.name} has no cover letter: write {doc}/cover-letter.{d.name}')
		d.cover = c
	return out


def add_parser(sub):
	p = sub.add_parser(
		allow_abbrev=False, name='series', help='read the series file: its patches, its checks, its destinations',
		description='The one reader of the quilt series file ($QUILT_SERIES, patches in $QUILT_PATCHES).  '
		+ ' '.join(__doc__.split('\n\n')[1].split()),
		epilog='Exit codes: 0 done, 1 the file is wrong (each reason on a line), 2 usage.')
	rs = p.add_subparsers(dest='action', metavar='ACTION', required=True)
	q = rs.add_parser(allow_abbrev=False, name='patches', help='the patches, one a line, in order')
	q.set_defaults(func=lambda a: _print(patches(default_file())))
	q = rs.add_parser(allow_abbrev=False, name='check',
			  help='print why quilt would read the file differently (exit 1), or nothing',
			  description=problems.__doc__.replace('\n\t', ' '))
	q.set_defaults(func=run_check)
	q = rs.add_parser(
		allow_abbrev=False, name='destinations', help='where each patch goes upstream',
		formatter_class=__import__('argparse').RawDescriptionHelpFormatter,
		description=__doc__.split('\n\n', 1)[1] + '\nPrints, in series order, tab-separated records:\n'
		'  dest    NAME  VERSION  PREFIXES  COVER   (PREFIXES "-": none; COVER: a path that exists)\n'
		'  trailer NAME  LINE\n  patch   NAME  PATCH\n')
	q.set_defaults(func=run_destinations)
	return p


def _print(lines):
	for l in lines:
		print(l)
	return common.Exit.OK


def run_check(args):
	bad = problems(default_file(), default_patches())
	_print(bad)
	return common.Exit.FAILURE if bad else common.Exit.OK


def run_destinations(args):
	out = []
	for d in destinations(default_file()):
		out.append(f'dest\t{d.name}\t{d.version}\t{d.prefixes or "-"}\t{d.cover}')
		out += [f'trailer\t{d.name}\t{t}' for t in d.trailers]
		out += [f'patch\t{d.name}\t{p}' for p in d.patches]
	return _print(out)
