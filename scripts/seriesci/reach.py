# SPDX-License-Identifier: GPL-2.0
"""reach: can the change since a kept build reach that build?

The answer comes from Kbuild's own dependency files, not from paths:
every .*.cmd file of the O= folder (fixdep's deps_ lists, the sources,
the -I and -include paths of the commands) and include/config/
auto.conf.cmd (the Kconfig files read), indexed into BUILD/.reach by
record() after a successful build.  The index also counts, per tree
file, the .cmd files that name it (objects: "N PATH" lines): how many
objects of the build compile a file, which readers() gives ci-series for
its coverage figure.

A changed tree file F reaches the build (why()) when F is one of its
dependencies (or was one and is gone); is under scripts/ or is a
top-level Makefile, Kbuild or Kconfig; is a Makefile, Kbuild, Kconfig or
*.mk file in a folder the build visited; or could shadow a dependency
(it sits in one of the build's include folders under the include name
of a dependency, or in a dependency's folder under a name the build
found in an include folder: a quoted #include looks there first).

Exit 3 (common.Exit.UNREACHED): provably unreached, and only then; exit
0: reached, with the first reason.  Anything else is no proof either.
No index, an incomplete or damaged one, another tree or key: reached.
"""
import hashlib
import os
import re

from seriesci import common

# the index's format: an index of another one is rebuilt, not trusted
FORMAT = '4'
# its files, all needed for an answer (sums: their sha256, since format 3;
# objects since format 4)
INDEX = ('deps', 'gen', 'idirs', 'gidirs', 'names', 'dirs', 'tree', 'format', 'key', 'objects')
# what a word of a command or a deps_ list carries around a path: make's
# ':' and '\\', and the shell's ')', quotes and ';' ($(sed ... FILE)" in a
# savedcmd_ line names FILE)
_TRAIL_RE = re.compile(r'[:)\\"\';]+$')
_LEAD_RE = re.compile(r'^["\']+')
_BUILD_FILE_RE = re.compile(r'^(Makefile|Kbuild|Kconfig).*|.*\.mk$', re.S)


class Reached(Exception):
	"""The build is reached; the argument says why."""


def parse_cmd(text, tree):
	"""What .cmd text says the build read: (deps, gen, idirs, gidirs):
	tree files (tree-relative), generated files (O-relative), the tree's
	-I folders and the build's own.  tree ends with '/'."""
	d, gen, idirs, gidirs = [], [], [], []

	def tok(w, kind):
		w = _TRAIL_RE.sub('', _LEAD_RE.sub('', w))
		if w == '' or w.startswith('$('):
			return
		if w.startswith(tree):
			d.append(w[len(tree):])
		elif kind == 'dep':
			gen.append(w)

	indeps = False
	for line in text.split('\n'):
		if line.startswith('deps_') and ' := ' in line:
			indeps = True
			continue
		f = line.split()
		if indeps:
			if not line.endswith('\\'):
				indeps = False
			for w in f:
				if not w.startswith('$(wildcard') and w != '\\':
					tok(w, 'dep')
			continue
		if line.startswith('source_') or line.startswith('savedcmd_'):
			i = 2
			while i < len(f):
				w = f[i]
				if w.startswith('-I'):
					w = w[2:]
					if w == '' and i < len(f) - 1:
						i += 1
						w = f[i]
					w = w.rstrip('/')
					if w.startswith(tree):
						idirs.append(w[len(tree):])
					elif not w.startswith('/'):
						gidirs.append(w[2:] if w.startswith('./') else w)
				elif not w.startswith('-'):
					tok(w, 'cmd')
				i += 1
	return d, gen, idirs, gidirs


def kconfig_deps(text):
	"""The Kconfig files of auto.conf.cmd's deps_config list."""
	out, on = [], False
	for line in text.split('\n'):
		if not on and line.startswith('deps_config := '):
			on = True
		if on:
			m = re.match(r'^\s+([^ \\]*)', line)
			if m:
				out.append(m.group(1))
			if line == '':
				on = False
	return out


def below(folders, paths):
	"""Each path's rest below any of the folders."""
	pre = [f + '/' for f in folders]
	return [p[len(q):] for p in paths for q in pre if p.startswith(q)]


def _dirname(f):
	return f.rsplit('/', 1)[0] if '/' in f else ''


def _write(path, lines):
	with open(path, 'w', encoding='utf-8', errors='surrogateescape') as f:
		f.write(''.join(l + '\n' for l in lines))


def _read(path):
	with open(path, encoding='utf-8', errors='surrogateescape') as f:
		return f.read()


def _lines(path):
	"""The lines of a file (a last line without its newline included)."""
	text = _read(path)
	lines = text.split('\n')
	return lines[:-1] if text.endswith('\n') or not text else lines


def _sha256(path):
	h = hashlib.sha256()
	with open(path, 'rb') as f:
		for b in iter(lambda: f.read(1 << 16), b''):
			h.update(b)
	return h.hexdigest()


def _tree():
	t = os.environ.get('TREE')
	if not t or not os.path.isdir(t):
		raise common.Error(f'no tree {t or "(TREE not set)"}')
	return os.path.realpath(t)


def record(b, stamp, key=''):
	"""Index the build b into b/.reach (see the module's comment); the
	stamp file is moved into it as the time of the build."""
	if not os.path.isdir(b):
		raise common.Error(f'no build folder {b}')
	if not os.path.isfile(stamp):
		raise common.Error(f'no stamp file {stamp}')
	t = _tree()
	r = os.path.join(b, '.reach')
	new = r + '.new'
	_rmtree(new)
	os.makedirs(new)
	d, gen, idirs, gidirs, cmddirs = [], [], [], [], []
	count = {}
	for top, dirs, files in os.walk(b):
		dirs.sort()
		for n in sorted(files):
			if not (len(n) >= 5 and n.startswith('.') and n.endswith('.cmd')):
				continue
			p = os.path.join(top, n)
			if os.path.islink(p) or not os.path.isfile(p):
				continue
			x = parse_cmd(_read(p), t + '/')
			d += x[0]
			for f in set(x[0]):
				count[f] = count.get(f, 0) + 1
			gen += x[1]
			idirs += x[2]
			gidirs += x[3]
			if top != b:
				cmddirs.append(os.path.relpath(top, b))
	try:
		d += kconfig_deps(_read(os.path.join(b, 'include/config/auto.conf.cmd')))
	except OSError:
		pass
	# dependencies are files of the tree (folders named in commands are not)
	deps = [f for f in sorted(set(d)) if not (f and os.path.isdir(os.path.join(t, f)))]
	gen, idirs, gidirs = sorted(set(gen)), sorted(set(idirs)), sorted(set(gidirs))
	# the names a quoted #include "NAME" can have found in an include folder
	names = sorted(set(below(idirs, deps) + below(gidirs, gen)))
	# the folders the build visits (a folder of B without a .cmd file was
	# made by something else: a failed make of one object, say)
	dirs = sorted(set([_dirname(f) for f in deps if '/' in f] + cmddirs))
	for name, lines in (('deps', deps), ('gen', gen), ('idirs', idirs), ('gidirs', gidirs),
			    ('names', names), ('dirs', dirs), ('tree', [t]), ('format', [FORMAT]),
			    ('key', [key]),
			    ('objects', [f'{count.get(f, 0)} {f}' for f in deps])):
		_write(os.path.join(new, name), lines)
	_write(os.path.join(new, 'sums'), [f'{_sha256(os.path.join(new, n))}  {n}' for n in INDEX])
	os.rename(stamp, os.path.join(new, 'stamp'))
	_rmtree(r)
	os.rename(new, r)
	return common.Exit.OK


def readers(b):
	"""What the last build indexed in b read: ({tree file: the number of
	its .cmd files naming it}, {the folders it visits}), or None when b
	has no complete index of this format (no figure, rather than a wrong
	one)."""
	r = os.path.join(b, '.reach')
	if _cat(os.path.join(r, 'format')) != FORMAT or not os.path.isfile(os.path.join(r, 'stamp')):
		return None
	try:
		count = {}
		for l in _lines(os.path.join(r, 'objects')):
			n, _, f = l.partition(' ')
			if n.isdigit() and f:
				count[f] = int(n)
		return count, set(_lines(os.path.join(r, 'dirs')))
	except OSError:
		return None


def _rmtree(p):
	import shutil
	shutil.rmtree(p, ignore_errors=True)


class Index:
	"""A build's index, checked whole (else Reached)."""

	def __init__(self, b, key):
		r = self.r = os.path.join(b, '.reach')
		if not (os.path.isfile(os.path.join(r, 'stamp')) and _size(os.path.join(r, 'deps'))):
			raise Reached(f'no complete build recorded in {b}')
		if _cat(os.path.join(r, 'format')) != FORMAT:
			raise Reached(f'the index in {r} is of an older scripts/reach')
		for f in INDEX:
			p = os.path.join(r, f)
			if not (os.path.isfile(p) and os.access(p, os.R_OK)):
				raise Reached(f'the index in {r} is incomplete (no {f})')
		if os.path.isfile(os.path.join(r, 'sums')) and not self._sums_ok():
			raise Reached(f'the index in {r} is damaged (not as recorded: {r}/sums)')
		self.tree = _tree()
		was = _cat(os.path.join(r, 'tree'))
		if was != self.tree:
			raise Reached(f'built from another tree, {was}')
		if _cat(os.path.join(r, 'key')) != key:
			raise Reached('another compiler, make variables or configuration')
		self.deps = _lines(os.path.join(r, 'deps'))
		self.depset = set(self.deps)
		self.gen = _lines(os.path.join(r, 'gen'))
		self.idirs = _lines(os.path.join(r, 'idirs'))
		self.dirs = set(_lines(os.path.join(r, 'dirs')))
		self.names = set(_lines(os.path.join(r, 'names')))
		self.stamp = os.stat(os.path.join(r, 'stamp')).st_mtime_ns

	def _sums_ok(self):
		good = 0
		try:
			for l in _read(os.path.join(self.r, 'sums')).split('\n'):
				m = re.match(r'^([0-9a-fA-F]{64}) [ *](.+)$', l)
				if not m:
					continue
				good += 1
				if _sha256(os.path.join(self.r, m.group(2))) != m.group(1).lower():
					return False
		except OSError:
			return False
		return good > 0

	def why(self, f):
		"""Why a changed tree-relative file f reaches the build, or ''."""
		d = _dirname(f)
		n = f.rsplit('/', 1)[-1]
		if f in self.depset:
			return f'{f}: a dependency of the build'
		if f.startswith('scripts/'):
			return f'{f}: under scripts/'
		if _BUILD_FILE_RE.match(n) and (d == '' or d in self.dirs):
			return f'{f}: a build file of {d or "the top folder"}, which the build visits'
		for i in self.idirs:
			if f.startswith(i + '/'):
				name = f[len(i) + 1:]
				if any(x.endswith('/' + name) for x in self.deps + self.gen):
					return f'{f}: may shadow <{name}>, which the build includes (-I{i})'
		if d and d in self.dirs and n in self.names:
			return (f'{f}: may shadow "{n}", which the build finds in an include folder, '
				f'in its folder {d}')
		return ''

	def changed(self):
		"""What changed in the tree since the build began: (files newer
		than the stamp, folders newer than it), tree-relative, in find's
		order; .pc (quilt's) aside."""
		files, dirs = [], set()

		def walk(path, rel):
			st = os.lstat(path)
			if st.st_mtime_ns > self.stamp:
				dirs.add(rel)
			with os.scandir(path) as it:
				for e in it:
					r = f'{rel}/{e.name}' if rel else e.name
					if not rel and e.name == '.pc':
						continue
					if e.is_dir(follow_symlinks=False):
						walk(e.path, r)
					elif (e.is_file(follow_symlinks=False) or e.is_symlink()) and \
					     e.stat(follow_symlinks=False).st_mtime_ns > self.stamp:
						files.append(r)
		try:
			walk(self.tree, '')
		except OSError:
			raise Reached(f'cannot list what changed in {self.tree} since the build')
		return files, dirs


def _size(p):
	try:
		return os.path.getsize(p)
	except OSError:
		return 0


def _cat(p):
	"""A file's text without its trailing newlines (as $(cat) gives it)."""
	try:
		return _read(p).rstrip('\n')
	except OSError:
		return None


def _tree_relative(tree, f):
	"""f as the index names it: relative to the tree, normalized (a//b,
	./a, a/../b); an absolute path under the tree made relative.  A path
	outside the tree cannot be decided: it reaches."""
	if os.path.isabs(f):
		f = os.path.relpath(os.path.normpath(f), os.path.normpath(tree))
	r = os.path.normpath(f)
	if r == '.' or r == '..' or r.startswith('../'):
		raise Reached(f'{f}: not a file of the tree {tree}, cannot be decided')
	return r


def decide(b, key='', files=None):
	"""(True, reason) when a change reaches the build b, (False, summary)
	when provably none does.  files: the changed tree-relative files, or
	None for what changed in $TREE since the build."""
	try:
		ix = Index(b, key)
		if files is None:
			files, dirs = ix.changed()
			for f in ix.deps:
				if _dirname(f) in dirs and not os.path.exists(os.path.join(ix.tree, f)):
					raise Reached(f'{f}: a dependency of the build, deleted')
		n = 0
		for f in files:
			f = _tree_relative(ix.tree, f)
			n += 1
			w = ix.why(f)
			if w:
				raise Reached(w)
		return False, f'{n} changed files, none read by the build ({len(ix.deps)} dependencies)'
	except Reached as e:
		return True, str(e)


def run(args):
	if args.record:
		if len(args.args) < 2:
			raise common.Usage('--record needs BUILD_DIR STAMP [KEY]')
		return record(*args.args[:3])
	if not args.files and len(args.args) != 1:
		raise common.Usage('one BUILD_DIR (changed files go with --files)')
	b = args.args[-1]
	if not b.startswith('/'):
		b = os.path.join(os.getcwd(), b)
	reached, why = decide(b, args.key, args.args[:-1] if args.files else None)
	if not args.quiet:
		print(f'{"reached" if reached else "unreached"}: {why}')
	return common.Exit.OK if reached else common.Exit.UNREACHED
