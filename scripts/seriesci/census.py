# SPDX-License-Identifier: GPL-2.0
"""census: the header lines that architectures still duplicate (dup-census).

Two censuses of arch/*/include/asm/NAME and arch/*/include/uapi/asm/NAME
(NAME may sit in a subfolder: vdso/foo.h) of a kernel tree, which is only
read.  Headers are grouped by kind (asm, uapi: never mixed) and NAME,
against the asm-generic copy of their kind, include/asm-generic/NAME or
include/uapi/asm-generic/NAME, if any.

Normalised text: /* */ and // comments (so SPDX lines) removed, outside
string and character literals; whitespace runs made one space, lines
trimmed, "# define" made "#define"; blank lines dropped; then the include
guard dropped: a first "#ifndef X" (or "#if !defined(X)"), a second
"#define X" (or "#define X 1") and a last "#endif" that closes it.  A
"line" below is always a line of normalised text.

Skipped: one-line wrappers (normalised text is just #include
<asm-generic/...> or <uapi/asm-generic/...>) and generated headers (any
path with /generated/, or "auto-generated" / "automatically generated" /
"do not edit" in the first five lines).  A wrapper or empty asm-generic
copy counts as no generic copy.  Headers empty once normalised (a guard
and comments) are listed as class "empty" when k >= 2 arches have one,
with 0 lines: removing them removes no line.

The census (default).  Classes (every copy is in at most one group):
  generic       copies equal to the asm-generic one after normalisation
  identical     k >= 2 byte-identical copies, no generic equal
  normalised    k >= 2 copies equal after normalisation, not byte-identical
  empty         k >= 2 copies with no line (0 removable)
  near          copies, or groups of the above, whose common lines (the
                longest common subsequence of their normalised text, as
                GNU diff -d finds it) leave at most PCT% (default 10, at
                least 1 line; --near 0: no near groups) of each copy
                outside, with at least 3 common lines; "near-generic" when
                the asm-generic copy is one of them.  Near groups grow
                greedily from the copy with the most near neighbours; a
                copy (or an exact group) joins only if that raises the
                removable lines, so an exact group may be reported as part
                of a near one.
Removable lines of a group of k arch copies sharing L lines (L = the
copies' line count, or for near groups the common lines):
  (k - 1) * L   when no asm-generic copy is in the group: one copy moves to
                asm-generic, the k - 1 others become generic-y;
  k * L         when the asm-generic copy is in the group (generic,
                near-generic): every arch copy becomes generic-y.
For near groups this counts only the shared lines; the lines that differ
stay behind in the arches.  The total is the sum over all groups.  A
subsystem is a header name or a family of them (FAMILIES), asm and uapi
together.

The raw-line census (--raw), beside the one above, which it leaves as it
is: raw file lines instead of shared normalised lines.  The same headers
are read, skipped and grouped (empty copies take part).  Two copies are
within reach when their normalised texts differ by at most N changed
lines (--changed, default 10: the lines GNU diff -d deletes plus the lines
it adds) and, unless they are equal, have at least 3 lines in common.
Groups form greedily: the centre is the copy with the most copies within
reach (ties: the most raw lines they hold, then the first arch), the group
is the centre and those copies; again on the copies left.  Every copy of a
group but the centre counts its raw lines (its lines as awk reads them:
comments, SPDX line, guard, blank lines and all) as removable.  Classes:
raw-equal (all equal to the centre once normalised), raw-near.

Everything is compared as bytes (latin-1 in, latin-1 out), headers in
byte order of their paths, as scripts/dup-census's awk did under C.UTF-8.
"""
import collections
import os
import re
import shutil
import stat
import subprocess
import sys
import tempfile

from seriesci import common

# Families: subsystem name, then its headers (any kind).  A header not
# here is its own subsystem.
FAMILIES = {
	'ipc': ('ipcbuf.h', 'msgbuf.h', 'sembuf.h', 'shmbuf.h'),
	'termios': ('termbits.h', 'termios.h', 'ioctls.h'),
	'signal': ('signal.h', 'sigcontext.h', 'siginfo.h'),
	'posix_types': ('posix_types.h', 'posix_types_32.h', 'posix_types_64.h'),
	'spinlock': ('spinlock.h', 'spinlock_types.h'),
	'socket': ('socket.h', 'sockios.h'),
	'stat': ('stat.h', 'statfs.h'),
	'byteorder': ('byteorder.h', 'swab.h'),
}
SUBSYSTEM = {h: fam for fam, hs in FAMILIES.items() for h in hs}

# the least common lines of two copies in one group, in either census
MIN_COMMON = 3

_QUOTE_OR_COMMENT = re.compile(r'/\*|//|"|\'')
_SPACE = re.compile(r'[ \t\r\f\v]+')
_GENERATED = re.compile(r'auto(matically)?[- ]?generated|do not edit')
_IFNDEF = re.compile(r'#ifndef ([A-Za-z_][A-Za-z_0-9]*)')
_IF_NOT_DEFINED = re.compile(r'#if !defined ?\( ?([A-Za-z_][A-Za-z_0-9]*) ?\)')
_WRAPPER = re.compile(r'#include [<"](uapi/)?asm-generic/')
_LITERAL = {q: re.compile(r'(?:[^%s\\]|\\.?)*%s?' % (q, q)) for q in '"\''}
_ASCII_LOWER = str.maketrans('ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz')


split_lines = common.awk_lines


def strip_comments(lines):
	"""The lines without /* */ and // comments, outside string and
	character literals (a comment becomes a space); whitespace runs one
	space, lines trimmed, "# " made "#"; blank lines dropped."""
	out_lines = []
	incom = False
	for line in lines:
		if not incom and '/' not in line and '"' not in line and "'" not in line:
			out = [line]
			rest = ''
		else:
			out = []
			rest = line
		while rest:
			if incom:
				c = rest.find('*/')
				if c < 0:
					break
				rest = rest[c + 2:]
				incom = False
				out.append(' ')
				continue
			m = _QUOTE_OR_COMMENT.search(rest)
			if not m:
				out.append(rest)
				break
			out.append(rest[:m.start()])
			tok = m.group()
			rest = rest[m.end():]
			if tok == '/*':
				incom = True
				out.append(' ')
				continue
			if tok == '//':
				break
			# a literal, up to its closing quote on this line (a
			# backslash takes the character after it along)
			i = _LITERAL[tok].match(rest).end()
			out.append(tok + rest[:i])
			rest = rest[i:]
		# one space at most is left at either end
		s = _SPACE.sub(' ', ''.join(out)).strip(' ')
		if s.startswith('# '):
			s = '#' + s[2:]
		if s:
			out_lines.append(s)
	return out_lines


def drop_guard(lines):
	"""LINES without their include guard, when they have one: a first
	#ifndef X (or #if !defined(X)), a second #define X (or #define X 1),
	a last #endif that closes the first #if."""
	n = len(lines)
	if n < 3 or lines[-1] != '#endif':
		return lines
	m = _IFNDEF.fullmatch(lines[0]) or _IF_NOT_DEFINED.fullmatch(lines[0])
	if not m:
		return lines
	g = m.group(1)
	if lines[1] not in ('#define ' + g, '#define ' + g + ' 1'):
		return lines
	depth = 0
	for l in lines[2:-1]:
		if l.startswith('#if'):
			depth += 1
		elif l.startswith('#endif'):
			depth -= 1
			if depth < 0:
				return lines
	return lines[2:-1] if depth == 0 else lines


def normalise(lines):
	"""The normalised lines of a header's LINES (see the module's text)."""
	return drop_guard(strip_comments(lines))


def looks_generated(lines):
	"""Says one of the first five lines the header is generated?"""
	return any(_GENERATED.search(l.translate(_ASCII_LOWER)) for l in lines[:5])


def is_wrapper(norm):
	"""A one-line wrapper of an asm-generic header?"""
	return len(norm) == 1 and bool(_WRAPPER.match(norm[0]))


class Copy:
	"""One header file: ARCH's copy, its bytes, normalised and raw lines."""
	__slots__ = ('arch', 'data', 'norm', 'text', 'raw', 'generated')

	def __init__(self, arch, data):
		self.arch = arch
		self.data = data
		lines = split_lines(data)
		self.raw = len(lines)
		self.generated = looks_generated(lines)
		self.norm = normalise(lines)
		self.text = '\n'.join(self.norm)

	@property
	def n(self):
		return len(self.norm)


def read_copy(path, arch):
	"""The Copy of the header at PATH, None when it cannot be read."""
	try:
		with open(path, 'rb') as f:
			data = f.read()
	except (FileNotFoundError, IsADirectoryError, NotADirectoryError):
		return None
	return Copy(arch, data.decode('latin-1'))


def allowed(n, near):
	"""The lines a copy of N lines may have outside a near group."""
	a = n * near // 100
	return 1 if a < 1 and near > 0 else a


def value(k, gen, lines):
	"""Removable lines of K arch copies sharing LINES lines, GEN 1 when
	the asm-generic copy is in the group."""
	return 0 if k < 1 else (k - 1 + gen) * lines


def multiset_common(a, b):
	"""The lines A and B have in common as multisets: never below the
	longest common subsequence, so a cheap bound before GNU diff."""
	cb = collections.Counter(b)
	return sum(min(c, cb[l]) for l, c in collections.Counter(a).items())


class Differ:
	"""GNU diff -d on normalised texts, the one judge of common and
	changed lines in both censuses (the definition says "as GNU diff
	finds it", so no other LCS stands in for it).  Texts go to files in
	a private folder, each written once."""

	def __init__(self):
		self.diff = shutil.which('diff')
		if not self.diff:
			raise common.Error("'diff' not found: install the Debian package 'diffutils' (make deps does it)")
		self.dir = tempfile.mkdtemp(prefix='census.')
		self.files = {}
		self.calls = 0

	def close(self):
		shutil.rmtree(self.dir, ignore_errors=True)

	def __enter__(self):
		return self

	def __exit__(self, *exc):
		self.close()

	def _file(self, lines):
		key = '\n'.join(lines)
		f = self.files.get(key)
		if f is None:
			f = os.path.join(self.dir, str(len(self.files)))
			with open(f, 'wb') as w:
				w.write((key + '\n' if lines else '').encode('latin-1'))
			self.files[key] = f
		return f

	def _run(self, a, b, old, new, unchanged):
		self.calls += 1
		p = subprocess.run([self.diff, '-d', '--old-line-format=' + old, '--new-line-format=' + new,
				    '--unchanged-line-format=' + unchanged, self._file(a), self._file(b)],
				   stdout=subprocess.PIPE, stderr=subprocess.PIPE, check=False)
		if p.returncode not in (0, 1):
			raise common.Error('diff failed: ' + p.stderr.decode('latin-1').strip())
		return split_lines(p.stdout.decode('latin-1'))

	def common(self, a, b):
		"""The lines A and B have in common, in order, as diff -d keeps them."""
		if a == b and '\0' not in '\n'.join(a):
			return list(a)
		return self._run(a, b, '', '', '%L')

	def changed(self, a, b):
		"""The lines diff -d deletes from A plus those it adds from B."""
		if a == b and '\0' not in '\n'.join(a):
			return 0
		return len(self._run(a, b, '%L', '%L', ''))


class Row:
	"""A group of the report: kind, header, class, the arches (sorted),
	the arches as shown, lines (L, or the centre's raw lines), removable
	lines, the shared text (--lines)."""
	__slots__ = ('kind', 'sub', 'name', 'cls', 'arches', 'disp', 'lines', 'rem', 'text')

	def __init__(self, kind, name, cls, arches, disp, lines, rem, text=()):
		self.kind, self.name, self.cls = kind, name, cls
		self.sub = SUBSYSTEM.get(name, name)
		self.arches = sorted(arches)
		self.disp, self.lines, self.rem, self.text = disp, lines, rem, list(text)

	def __repr__(self):
		return f'Row({self.kind} {self.name} {self.cls} {self.arches} {self.lines} {self.rem})'


class _Rep:
	"""Copies equal once normalised: the census's unit."""
	__slots__ = ('norm', 'copies', 'gen', 'byte')

	def __init__(self, norm):
		self.norm, self.copies, self.gen, self.byte = norm, [], 0, True

	@property
	def k(self):
		return len(self.copies)

	@property
	def weight(self):
		return len(self.copies) + self.gen

	@property
	def n(self):
		return len(self.norm)

	def arches(self):
		return [c.arch for c in self.copies]


def census_group(kind, name, copies, generic, near, differ):
	"""The Rows of the census of one group: COPIES (the arch Copies in
	path order), GENERIC (the asm-generic Copy or None), --near NEAR."""
	gen = generic if generic is not None and generic.n > 0 and not is_wrapper(generic.norm) else None
	if len(copies) < 2 and gen is None:
		return []
	reps = []
	by_text = {}
	for c in ([gen] if gen is not None else []) + list(copies):
		r = by_text.get(c.text)
		if r is None:
			r = by_text[c.text] = _Rep(c.norm)
			reps.append(r)
		if c is gen:
			r.gen = 1
			continue
		if r.copies and r.copies[0].data != c.data:
			r.byte = False
		r.copies.append(c)
	nr = len(reps)
	# near neighbours, by the multiset bound (never below the true LCS)
	nb = [[False] * nr for _ in range(nr)]
	for a in range(nr):
		ra = reps[a]
		for b in range(a + 1, nr):
			rb = reps[b]
			if ra.n - rb.n > allowed(ra.n, near) or rb.n - ra.n > allowed(rb.n, near):
				continue
			cm = multiset_common(ra.norm, rb.norm)
			if cm >= MIN_COMMON and ra.n - cm <= allowed(ra.n, near) and rb.n - cm <= allowed(rb.n, near):
				nb[a][b] = nb[b][a] = True
	rows = []
	done = set()
	grouped = set()
	# near groups, grown greedily from the rep with the most copies within reach
	while True:
		best, bw = None, 0
		for a in range(nr):
			if a in done:
				continue
			near_ones = [b for b in range(nr) if b not in done and nb[a][b]]
			w = sum(reps[b].weight for b in near_ones) + reps[a].weight
			if near_ones and w > bw:
				best, bw = a, w
		if best is None:
			break
		done.add(best)
		r = reps[best]
		members = [best]
		k, g, c = r.k, r.gen, r.n
		centre = r.norm
		# candidates: most copies first (a stable sort keeps path order)
		cands = sorted((b for b in range(nr) if b not in done and nb[best][b]), key=lambda b: -reps[b].weight)
		for b in cands:
			rb = reps[b]
			shared = differ.common(centre, rb.norm)
			c2 = len(shared)
			ok = c2 >= MIN_COMMON and rb.n - c2 <= allowed(rb.n, near)
			ok = ok and all(reps[j].n - c2 <= allowed(reps[j].n, near) for j in members)
			# join only if the removable lines grow beyond the two apart
			if ok and value(k + rb.k, g + rb.gen, c2) <= value(k, g, c) + value(rb.k, rb.gen, rb.n):
				ok = False
			if not ok:
				continue
			centre = shared
			members.append(b)
			done.add(b)
			k, g, c = k + rb.k, g + rb.gen, c2
		if len(members) < 2:
			continue
		arches, disp = [], []
		for j in members:
			rj = reps[j]
			grouped.add(j)
			if not rj.k:
				continue
			arches += rj.arches()
			t = ' '.join(rj.arches())
			disp.append('[' + t + ']' if rj.k > 1 else t)
		d = ' '.join(disp) + (' ~asm-generic' if g else '')
		rows.append(Row(kind, name, 'near-generic' if g else 'near', arches, d, c, value(k, g, c), centre))
	# what is left: exact groups
	for a, r in enumerate(reps):
		if a in grouped:
			continue
		t = ' '.join(r.arches())
		if r.n == 0:
			if r.k >= 2:
				rows.append(Row(kind, name, 'empty', r.arches(), t, 0, 0))
		elif r.gen and r.k >= 1:
			rows.append(Row(kind, name, 'generic', r.arches(), t + ' =asm-generic', r.n, value(r.k, 1, r.n), r.norm))
		elif r.k >= 2:
			rows.append(Row(kind, name, 'identical' if r.byte else 'normalised', r.arches(), t, r.n,
					value(r.k, 0, r.n), r.norm))
	return rows


def raw_distance(a, b, rawmax, differ):
	"""The changed lines between Copies A and B (what diff -d deletes and
	adds), or RAWMAX + 1 when over RAWMAX or, unless equal, fewer than 3
	lines in common.  A multiset bound (never above the true count)
	spares diff the pairs that cannot be within reach."""
	if abs(a.n - b.n) > rawmax:
		return rawmax + 1
	if a.n + b.n - 2 * multiset_common(a.norm, b.norm) > rawmax:
		return rawmax + 1
	c = differ.changed(a.norm, b.norm)
	if c > 0 and a.n + b.n - c < 2 * MIN_COMMON:
		return rawmax + 1
	return c


def raw_group(kind, name, copies, rawmax, differ):
	"""The Rows of the raw-line census of one group: a centre and the
	copies within RAWMAX changed lines of it, greedily; every copy but
	the centre counts its raw lines."""
	m = len(copies)
	if m < 2:
		return []
	dist = [[0] * m for _ in range(m)]
	for a in range(m):
		for b in range(a + 1, m):
			dist[a][b] = dist[b][a] = raw_distance(copies[a], copies[b], rawmax, differ)
	taken = set()
	rows = []
	while m - len(taken) >= 2:
		best, bc, br = None, 0, 0
		for a in range(m):
			if a in taken:
				continue
			reach = [b for b in range(m) if b != a and b not in taken and dist[a][b] <= rawmax]
			c, r = len(reach), sum(copies[b].raw for b in reach)
			if c > bc or (c == bc and c and r > br):
				best, bc, br = a, c, r
		if best is None:
			break
		taken.add(best)
		centre = copies[best]
		arches, disp = [centre.arch], [centre.arch + '*']
		rem = dmax = 0
		for b in range(m):
			if b in taken or dist[best][b] > rawmax:
				continue
			taken.add(b)
			d = dist[best][b]
			rem += copies[b].raw
			dmax = max(dmax, d)
			arches.append(copies[b].arch)
			disp.append(copies[b].arch + (f'~{d}' if d else ''))
		rows.append(Row(kind, name, 'raw-near' if dmax else 'raw-equal', arches, ' '.join(disp), centre.raw, rem))
	return rows


class Tree:
	"""The arch headers of a kernel tree, read and sorted into groups."""

	def __init__(self, tree):
		self.tree = tree
		self.headers = self.wrappers = self.generated = self.empty = 0
		self.groups = {}        # (kind, name) -> [Copy], in path order
		self.paths = header_paths(tree)
		for path in self.paths:
			self._add(path)

	def _add(self, path):
		p = path.split('/')
		arch = p[1]
		if p[3] == 'uapi':
			kind, o = 'uapi', 5
		else:
			kind, o = 'asm', 4
		name = '/'.join(p[o:])
		self.headers += 1
		c = read_copy(os.path.join(self.tree, path), arch)
		if c is None:
			return
		if c.generated:
			self.generated += 1
			return
		if is_wrapper(c.norm):
			self.wrappers += 1
			return
		if c.n == 0:
			self.empty += 1
		self.groups.setdefault((kind, name), []).append(c)

	def generic(self, kind, name):
		d = 'include/uapi/asm-generic/' if kind == 'uapi' else 'include/asm-generic/'
		return read_copy(os.path.join(self.tree, d + name), 'asm-generic')


def header_paths(tree):
	"""The arch headers of TREE, tree-relative, in byte order: every
	*.h file (no symlink) under arch/*/include/asm and
	arch/*/include/uapi/asm, none under a generated/ folder."""
	tb = os.fsencode(tree)
	try:
		arches = sorted(a for a in os.listdir(os.path.join(tb, b'arch')) if not a.startswith(b'.'))
	except OSError as e:
		raise common.Error(f'cannot read {tree}/arch: {e.strerror}') from None
	starts = []
	for sub in (b'include/asm', b'include/uapi/asm'):
		for a in arches:
			d = b'arch/' + a + b'/' + sub
			if os.path.isdir(os.path.join(tb, d)):
				starts.append(d)
	if not starts:
		raise common.Error(f'no arch/*/include/asm in {tree}')
	paths = []
	for d in starts:
		if os.path.islink(os.path.join(tb, d)):
			continue        # find without -L does not enter it
		for top, dirs, files in os.walk(os.path.join(tb, d)):
			rel = d + top[len(os.path.join(tb, d)):]
			for f in files:
				p = rel + b'/' + f
				if not f.endswith(b'.h') or b'/generated/' in p:
					continue
				try:
					if not stat.S_ISREG(os.lstat(os.path.join(tb, p)).st_mode):
						continue
				except OSError:
					continue
				paths.append(p)
	return [p.decode('latin-1') for p in sorted(paths)]


def census(tree, raw=False, near=10, rawmax=10, differ=None):
	"""The Rows of every group of TREE (a Tree), in the order the groups
	come (path order of their first copy)."""
	rows = []
	for (kind, name), copies in tree.groups.items():
		if raw:
			rows += raw_group(kind, name, copies, rawmax, differ)
		else:
			rows += census_group(kind, name, copies, tree.generic(kind, name), near, differ)
	return rows


def order(rows):
	"""The subsystems, most removable lines first (then by name), each
	with its rows, most removable first (then in the order found)."""
	subs = {}
	for r in rows:
		subs[r.sub] = subs.get(r.sub, 0) + r.rem
	names = sorted(subs, key=lambda s: (-subs[s], s))
	ordered = sorted(rows, key=lambda r: -r.rem)
	return [(s, subs[s], [r for r in ordered if r.sub == s]) for s in names]


def render(tree, rows, mode='text', top=0, show_lines=False, raw=False, rawmax=10, label=None):
	"""The report of ROWS: --total, --tsv or the text report (a str)."""
	total = sum(r.rem for r in rows)
	if mode == 'total':
		return f'{total}\n'
	subs = order(rows)
	out = []
	a = out.append
	if mode == 'tsv':
		a('#kind\tsubsystem\theader\tclass\tarches\tlines\tremovable')
		for _, _, rs in subs:
			for r in rs:
				a(f'{r.kind}\t{r.sub}\t{r.name}\t{r.cls}\t{",".join(r.arches)}\t{r.lines}\t{r.rem}')
		return '\n'.join(out) + '\n'
	a(f'dup-census{" --raw" if raw else ""} of {label if label is not None else tree.tree}: '
	  f'{tree.headers} arch headers, {len(rows)} groups in {len(subs)} subsystems'
	  f' ({tree.wrappers} wrappers and {tree.generated} generated skipped, {tree.empty} empty)')
	a('')
	a('%9s  %s' % ('removable', 'subsystem / kind header class: copies x lines = removable, arches'))
	for i, (s, rem, rs) in enumerate(subs):
		if top and i >= top:
			break
		a('%9d  %s' % (rem, s))
		for r in rs:
			if raw:
				a(f'{"":11}{r.kind} {r.name} {r.cls}: {len(r.arches)} copies, {r.rem} raw lines '
				  f"beyond the centre's {r.lines}, {r.disp}")
			else:
				a(f'{"":11}{r.kind} {r.name} {r.cls}: {len(r.arches)} x {r.lines} = {r.rem}, {r.disp}')
			if show_lines:
				for l in r.text:
					a(f'{"":13}| {l}')
	if top and len(subs) > top:
		a('%9s  (%d more subsystems)' % ('...', len(subs) - top))
	a('')
	if raw:
		a(f'total raw duplicated lines (copies within {rawmax} changed lines): {total}')
	else:
		a(f'total removable duplicated lines: {total}')
	return '\n'.join(out) + '\n'


def default_tree():
	"""$TREE, else the pristine baseline $OUT/src/$BASE."""
	t = os.environ.get('TREE')
	if t:
		return t
	return os.path.join(common.out_dir(), 'src', os.environ.get('BASE', ''))


def run(args):
	if args.changed is not None and not args.raw:
		raise common.Usage('--changed counts only with --raw')
	rawmax = 10 if args.changed is None else args.changed
	tree = args.tree or default_tree()
	if not os.path.isdir(os.path.join(tree, 'arch')) or not os.path.isdir(os.path.join(tree, 'include/asm-generic')):
		raise common.Error(f'no kernel tree at {tree} (arch/ and include/asm-generic/ expected): '
				   'run scripts/fetch-baseline or name a TREE')
	with Differ() as differ:
		t = Tree(tree)
		rows = census(t, raw=args.raw, near=args.near, rawmax=rawmax, differ=differ)
	text = render(t, rows, mode=args.mode, top=args.top, show_lines=args.lines, raw=args.raw, rawmax=rawmax,
		      label=os.fsencode(tree).decode('latin-1'))
	sys.stdout.flush()
	sys.stdout.buffer.write(text.encode('latin-1'))
	sys.stdout.buffer.flush()
	return common.Exit.OK
