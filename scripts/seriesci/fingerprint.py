# SPDX-License-Identifier: GPL-2.0
"""fingerprint: what decides a ci-series step, so that a record is reused
only for the series it judged.

A step NNN-NAME of a record is built for

  base        the baseline ($BASE and its pin: package, version, sha256)
  targets     the targets the run builds, in its order
  configs     their configs/targets lines and Kconfig fragments
              (configs/base.config, the "# include:" ones, TARGET.config)
  toolchain   what scripts/build-arch --toolchain says of each target
              (the compiler command, its and the linker's --version)
  settings    the environment that changes what is recorded (CODEGEN=)
  patch_NNN   for each patch 1..N of the step: sha256 of its diff (the
              patch file from its first file header on: a "diff --git"
              or "Index:" line, or a "--- " line followed by "+++ "; the
              message and diffstat before it are not built) and its
              series line (comments and spacing dropped)
  scheme      2 (scheme 1 took the whole patch file; below)

and its checkpatch cell judges, besides, what patch N says and the lines
of scripts/checkpatch-ignore for it:

  patch       sha256 of the whole file of patch N, message and all
  checkpatch  sha256 of the lines of scripts/checkpatch-ignore for patch
              N and "*"

STEP/fingerprint holds them, key=value: fingerprint=, the sha256 of the
built-for lines, then patch= and checkpatch=, then those lines.  A done
step is kept when both are the ones of the series now; when only patch=
or checkpatch= differs (a patch's message, its ignore lines) only its
checkpatch cell is redone ("recheck"); else the step is redone, and the
first thing that differs says why ("patch X changed").  Since step N
holds patches 1..N, a patch K whose diff changed redoes the steps from K
on and keeps those before.  The CI's own scripts (build-arch,
boot-example, checkpatch) are not in it: after changing how a step is
judged, run ci-series --restart.

A column of scripts/ci-columns is done when DIR/TARGET.ok holds
fingerprint= of the top step of the series now for that target and
checkpatch=, the sha256 of every step's patch= and checkpatch=.

A record of scheme 1 (a fingerprint file without scheme=; its patch_NNN
the sha256 of the whole patch file, its checkpatch= inside fingerprint=)
is migrated where it judged the files now: a step whose stored
fingerprint= is the scheme-1 fingerprint of the series now gets the
current one, and a TARGET.ok likewise; where it is not, the step is
redone as before.  So migrate before editing messages: any run of
ci-series or ci-columns (check-ok) on the unchanged series does it.
"""
import hashlib
import os
import re
import time

from seriesci import baseline, checkpatch, common, record, series as series_mod, targets as targets_mod

FILE = 'fingerprint'
PLAN = '.plan'
SCHEME = '2'
_DIFF_START = (b'diff --git ', b'Index: ')
_INCLUDE_RE = re.compile(rb'^# include: *([^ \n]*\.config)', re.M)


def sha(data):
	return hashlib.sha256(data).hexdigest()


def _read(path):
	with open(path, 'rb') as f:
		return f.read()


def _signature(pairs):
	"""The sha256 of key=value lines."""
	return sha(''.join(f'{k}={v}\n' for k, v in pairs).encode('utf-8', 'surrogateescape'))


def diff_part(data):
	"""The diff of a patch file's bytes: from its first file header on (a
	"diff --git" or "Index:" line, or a "--- " line followed by "+++ ").
	All of it when it has none."""
	lines = data.split(b'\n')
	for i, l in enumerate(lines):
		if l.startswith(_DIFF_START) or (l.startswith(b'--- ') and i + 1 < len(lines)
						 and lines[i + 1].startswith(b'+++ ')):
			return b'\n'.join(lines[i:])
	return data


class Inputs:
	"""Everything the fingerprints of a record's steps are made of."""

	def __init__(self, base, base_id, target_names, targets_file, configs,
		     toolchain, settings, series_file, patches_dir, ignore_file):
		self.base = f'{base} {base_id}'.strip()
		self.targets = list(target_names)
		by = {t.name: t for t in targets_mod.read(targets_file)}
		h = hashlib.sha256()
		for n in self.targets:
			if n not in by:
				raise common.Error(f"unknown target '{n}': see {targets_file}")
			h.update(b'line ' + by[n].line.encode('utf-8', 'surrogateescape') + b'\n')
			for f in self._fragments(configs, n):
				try:
					data = _read(f)
					h.update(b'fragment %s %d\n' % (os.path.basename(f).encode(), len(data)) + data)
				except FileNotFoundError:
					h.update(b'no fragment %s\n' % os.path.basename(f).encode())
		self.configs = h.hexdigest()
		self.toolchain = sha(toolchain)
		self.settings = ' '.join(settings)
		self.series = series_mod.entries(series_file)
		self.patch_sha = []	# of the diff: what is built
		self.file_sha = []	# of the whole file: what checkpatch reads
		for name, _ in self.series:
			p = os.path.join(patches_dir, name)
			try:
				data = _read(p)
			except OSError as e:
				raise common.Error(f'{p}: {e.strerror}: the series lists it')
			self.patch_sha.append(sha(diff_part(data)))
			self.file_sha.append(sha(data))
		self.ignore = checkpatch.ignore_lines(ignore_file)
		self.patches_dir = patches_dir
		self.paths = [series_file, targets_file, ignore_file] + [
			os.path.join(patches_dir, n) for n, _ in self.series]

	@staticmethod
	def _fragments(configs, name):
		own = os.path.join(configs, name + '.config')
		try:
			incl = [m.decode('utf-8', 'surrogateescape') for m in _INCLUDE_RE.findall(_read(own))]
		except FileNotFoundError:
			incl = []
		return [os.path.join(configs, 'base.config')] + [os.path.join(configs, i) for i in incl] + [own]

	def steps(self):
		return ['000-baseline'] + [f'{i:03d}-{n}' for i, (n, _) in enumerate(self.series, 1)]

	def _checkpatch(self, n):
		"""[(patch, ...), (checkpatch, ...)] of step N: what its checkpatch
		cell judges besides the build (nothing for the baseline)."""
		if not n:
			return []
		name = self.series[n - 1][0]
		cp = '\n'.join(l for w, l in self.ignore if w in (name, '*'))
		return [('patch', self.file_sha[n - 1]), ('checkpatch', sha(cp.encode('utf-8', 'surrogateescape')))]

	def _body(self, n, shas):
		body = [('base', self.base), ('targets', ' '.join(self.targets)),
			('configs', self.configs), ('toolchain', self.toolchain),
			('settings', self.settings)]
		for i in range(n):
			body.append((f'patch_{i + 1:03d}', f'{shas[i]} {self.series[i][1]}'))
		return body

	def pairs(self, n):
		"""The fingerprint file of step N: [(key, value)], fingerprint= first,
		then patch= and checkpatch= (not in fingerprint=), then the lines
		fingerprint= is the sha256 of."""
		body = self._body(n, self.patch_sha) + [('scheme', SCHEME)]
		return [('fingerprint', _signature(body))] + self._checkpatch(n) + body

	def legacy_pairs(self, n, checkpatch=None):
		"""Step N's fingerprint file as scheme 1 wrote it: the whole patch
		files, checkpatch= inside fingerprint= (CHECKPATCH in place of
		the one of the ignore lines now, if given)."""
		body = self._body(n, self.file_sha)
		if n:
			body.append(('checkpatch', checkpatch or self._checkpatch(n)[1][1]))
		return [('fingerprint', _signature(body))] + body

	def checkpatch_sum(self):
		"""The sha256 of every step's patch= and checkpatch=: TARGET.ok's
		checkpatch=."""
		return _signature([kv for n in range(len(self.series) + 1) for kv in self._checkpatch(n)])


def why_differs(stored, cur):
	"""The first thing that differs between a stored fingerprint (a dict)
	and the current pairs, in words."""
	cur = dict(cur)
	if stored.get('base') != cur['base']:
		return f"the baseline changed ({stored.get('base', '?')} -> {cur['base']})"
	for i in range(1, 1000):
		k = f'patch_{i:03d}'
		if k not in stored and k not in cur:
			break
		if stored.get(k) == cur.get(k):
			continue
		if k not in cur:
			return f'the series is shorter now (no patch {i})'
		sha_now, _, line_now = cur[k].partition(' ')
		if k not in stored:
			return f'patch {i} ({line_now}) was not in the recorded series'
		sha_was, _, line_was = stored[k].partition(' ')
		if line_was.split()[:1] != line_now.split()[:1]:
			return f'series line {i} was {line_was}, now {line_now}'
		if line_was != line_now:
			return f'the series line of {line_now.split()[0]} changed ({line_was} -> {line_now})'
		return f'patch {line_now.split()[0]} changed'
	if stored.get('targets') != cur['targets']:
		return f"the targets changed ({stored.get('targets', '?')} -> {cur['targets']})"
	if stored.get('configs') != cur['configs']:
		return 'the configs/targets lines or Kconfig fragments of its targets changed'
	if stored.get('toolchain') != cur['toolchain']:
		return 'the toolchain changed (build-arch --toolchain)'
	if stored.get('settings') != cur['settings']:
		return f"the settings changed ({stored.get('settings', '?')} -> {cur['settings']})"
	if stored.get('checkpatch') != cur.get('checkpatch') and 'scheme' not in stored:
		return 'its lines of scripts/checkpatch-ignore changed'
	return 'its fingerprint file does not match (damaged?)'


def recheck_why(stored, cur, name):
	"""Why a step built for the series now must have its checkpatch cell
	redone ('' when it need not): its patch's message or its lines of
	scripts/checkpatch-ignore changed."""
	cur = dict(cur)
	if stored.get('patch') != cur.get('patch'):
		return f'the message of {name} changed'
	if stored.get('checkpatch') != cur.get('checkpatch'):
		return 'its lines of scripts/checkpatch-ignore changed'
	return ''


def migrate(path, inp, n):
	"""A scheme-1 fingerprint file PATH of step N that judged the patch
	files now (its fingerprint= is their scheme-1 one, with the
	checkpatch= it has) is rewritten in the current scheme, keeping that
	checkpatch= (so that the step is rechecked if the ignore lines have
	changed since): True.  Else (another scheme, other files, no file)
	False."""
	stored = record.read_kv(path)
	if not stored or 'scheme' in stored:
		return False
	if stored.get('fingerprint') != inp.legacy_pairs(n, stored.get('checkpatch'))[0][1]:
		return False
	cur = inp.pairs(n)
	if n:
		cur = [(k, stored['checkpatch'] if k == 'checkpatch' else v) for k, v in cur]
	record.write_kv(path, cur)
	return True


def first_changed_patch(stored, cur):
	"""The number of the first patch whose content or series line
	differs, or 0."""
	cur = dict(cur)
	for i in range(1, 1000):
		k = f'patch_{i:03d}'
		if k not in stored or k not in cur:
			return 0
		if stored[k] != cur[k]:
			return i
	return 0


def adoptable(inp, d, n):
	"""'' when the done step D (without a fingerprint) may be adopted:
	its done mark newer than the series file, the targets file, the
	checkpatch-ignore file and patches 1..N; else why not."""
	try:
		done = os.stat(os.path.join(d, 'done')).st_mtime
	except OSError:
		return 'not done'
	for p in inp.paths[:3] + inp.paths[3:3 + n]:
		try:
			m = os.stat(p).st_mtime
		except OSError:
			continue
		if m > done:
			when = time.strftime('%Y-%m-%d %H:%M', time.gmtime(m))
			return f'{p} changed ({when} UTC) after this step was done'
	return ''


def tree_stale(tree, inp):
	"""The number of the first patch applied on the quilt tree TREE whose
	patch file is newer than its push (.pc/PATCH/.timestamp): the tree
	may have another version of it.  0: none (or no such tree).  Counted
	along the series; the tree's first patch that is not the series'
	counts too."""
	try:
		applied = _read(os.path.join(tree, '.pc', 'applied-patches')).decode(
			'utf-8', 'surrogateescape').split()
	except (FileNotFoundError, NotADirectoryError):
		return 0
	for i, name in enumerate(applied, 1):
		if i > len(inp.series) or inp.series[i - 1][0] != name:
			return i
		try:
			pushed = os.stat(os.path.join(tree, '.pc', name, '.timestamp')).st_mtime
			now = os.stat(os.path.join(inp.patches_dir, name)).st_mtime
		except OSError:
			return i
		if now > pushed:
			return i
	return 0


def plan(rec, inp, adopt=False, tree=None):
	"""Decide each step of the record RECORD against the series now.
	Writes RECORD/.plan/STEP (the fingerprint a step gets when it is
	done; with adopt, STEP/fingerprint of the steps adopted; a scheme-1
	one that judged the files now is migrated).  Returns (lines, first):
	lines "STEP keep", "STEP run" (not done), "STEP redo: WHY", "STEP
	recheck: WHY" (built for the series now: only its checkpatch cell is
	redone), "STEP adopted"; first: the number of the first patch whose
	diff differs from what a done step recorded or, with TREE, that the
	tree may have another version of (tree_stale) (0: none)."""
	pdir = os.path.join(rec, PLAN)
	os.makedirs(pdir, exist_ok=True)
	lines = []
	first = 0
	for n, s in enumerate(inp.steps()):
		cur = inp.pairs(n)
		record.write_kv(os.path.join(pdir, s), cur)
		d = os.path.join(rec, s)
		if not os.path.isfile(os.path.join(d, 'done')):
			lines.append(f'{s} run')
			continue
		migrate(os.path.join(d, FILE), inp, n)
		stored = record.read_kv(os.path.join(d, FILE))
		if stored is None:
			why = adoptable(inp, d, n) if adopt else 'no fingerprint (done before ci-series kept them)'
			if not why:
				record.write_kv(os.path.join(d, FILE), cur)
				lines.append(f'{s} adopted')
				continue
			lines.append(f'{s} redo: {why}')
			# nothing says which patches it judged: the tree pops them all
			first = 1
			continue
		if 'scheme' not in stored:
			# scheme 1, of other files than these: its reason in its terms
			cur = inp.legacy_pairs(n)
		elif stored.get('fingerprint') == cur[0][1]:
			why = recheck_why(stored, cur, inp.series[n - 1][0] if n else '')
			lines.append(f'{s} recheck: {why}' if why else f'{s} keep')
			continue
		lines.append(f'{s} redo: {why_differs(stored, cur)}')
		k = first_changed_patch(stored, cur)
		if k:
			first = k if not first else min(first, k)
	k = tree_stale(tree, inp) if tree else 0
	if k:
		first = k if not first else min(first, k)
	return lines, first


def column_ok(okfile, inp):
	"""'' when DIR/TARGET.ok holds the fingerprint of the top step now and
	the checkpatch= of every step now, else why not.  A scheme-1 TARGET.ok
	of the series now is migrated, with its record's steps."""
	kv = record.read_kv(okfile)
	if kv is None:
		return f'no {okfile}'
	if not kv.get('fingerprint'):
		return f'{okfile} has no fingerprint (written before ci-columns kept them)'
	rec = okfile[:-len('.ok')]
	n = len(inp.series)
	if 'scheme' not in kv and kv['fingerprint'] == inp.legacy_pairs(n)[0][1]:
		for i, s in enumerate(inp.steps()):
			migrate(os.path.join(rec, s, FILE), inp, i)
		try:
			write_ok(okfile, rec, inp)
		except common.Error as e:
			return f'{okfile} is of scheme 1 and its record could not be migrated: {e}'
		kv = record.read_kv(okfile)
	if 'scheme' not in kv:
		return (f'{okfile} is of the earlier fingerprint scheme and not of the patch files now '
			'(the column runs again: its steps that judged these diffs are kept)')
	top = inp.pairs(n)
	if kv['fingerprint'] != top[0][1]:
		stored = record.read_kv(os.path.join(rec, inp.steps()[-1], FILE))
		if stored and 'scheme' not in stored:
			top = inp.legacy_pairs(n)
		why = why_differs(stored, top) if stored else 'the series is not the one it was run on'
		return f'{okfile} is of another series: {why}'
	if kv.get('checkpatch') != inp.checkpatch_sum():
		return f'{okfile}: the message or the checkpatch-ignore lines of a patch changed (its checkpatch cell is redone)'
	return ''


def write_ok(okfile, rec, inp):
	"""Write DIR/TARGET.ok for the record REC when every step of the
	series now is done in it with its current fingerprint (a scheme-1 one
	of the files now is migrated)."""
	for n, s in enumerate(inp.steps()):
		f = os.path.join(rec, s, FILE)
		migrate(f, inp, n)
		stored = record.read_kv(f)
		if not os.path.isfile(os.path.join(rec, s, 'done')) or not stored:
			raise common.Error(f'{rec}/{s} is not done with a fingerprint: not marking the column done')
		cur = inp.pairs(n)
		if 'scheme' not in stored:
			raise common.Error(f'{rec}/{s}: {why_differs(stored, inp.legacy_pairs(n))}: '
					   'not marking the column done')
		if stored.get('fingerprint') != cur[0][1]:
			raise common.Error(f'{rec}/{s}: {why_differs(stored, cur)}: '
					   'not marking the column done')
		why = recheck_why(stored, cur, inp.series[n - 1][0] if n else '')
		if why:
			raise common.Error(f'{rec}/{s}: {why}: not marking the column done')
	top = inp.pairs(len(inp.series))
	record.write_bytes(okfile, record.compose([('fingerprint', top[0][1]), ('checkpatch', inp.checkpatch_sum()),
						   ('steps', str(len(inp.series) + 1)), ('scheme', SCHEME)]))


def inputs(args):
	configs = os.environ.get('CONFIGS') or os.path.join(common.repo(), 'configs')
	tfile = os.environ.get('TARGETS_FILE') or os.path.join(configs, 'targets')
	tc = b''
	if args.toolchain:
		try:
			tc = _read(args.toolchain)
		except OSError as e:
			raise common.Error(f'--toolchain {args.toolchain}: {e.strerror}')
	patches = os.environ.get('QUILT_PATCHES') or os.path.join(common.repo(), 'patches')
	series = os.environ.get('QUILT_SERIES') or os.path.join(common.repo(), 'series')
	ignore = os.environ.get('CHECKPATCH_IGNORE') or os.path.join(common.repo(), 'scripts', 'checkpatch-ignore')
	for s in args.set:
		k, eq, v = s.partition('=')
		if not eq or not re.match(r'^[A-Za-z_][A-Za-z0-9_]*$', k) or '\n' in v:
			raise common.Usage(f'--set {s!r}: want NAME=VALUE on one line')
	names = args.targets.split()
	base = args.base or os.environ.get('BASE', '')
	base_id = args.base_id if args.base_id is not None else baseline.pin_line(base)
	return Inputs(base, base_id, names, tfile, configs,
		      tc, args.set, series, patches, ignore)


def add_parser(sub):
	p = sub.add_parser(
		allow_abbrev=False, name='fingerprint',
		help="what decides each ci-series step: reuse a record's steps only for the series now",
		description=__doc__.split('\n\n')[0].replace('\n', ' ') + '.  ' +
		' '.join(__doc__.split('\n\n')[2].split()),
		epilog='The series, patches and configs are $QUILT_SERIES, $QUILT_PATCHES, $CONFIGS '
		'(or $TARGETS_FILE) and $CHECKPATCH_IGNORE, as the scripts read them.  '
		'Exit codes: 0 done (check-ok: honoured), 1 an error (check-ok: not honoured, '
		'with why), 2 usage.')
	rs = p.add_subparsers(dest='action', metavar='ACTION', required=True)

	def common_opts(q):
		q.add_argument('--targets', required=True, metavar='"T..."',
			       help="the run's targets, in its order (build-all --list)")
		q.add_argument('--base', metavar='BASE', help='the baseline (default: $BASE)')
		q.add_argument('--base-id', metavar='TEXT',
			       help="the baseline's pin (default: its line of the pins, seriesci baseline line)")
		q.add_argument('--toolchain', metavar='FILE',
			       help='what scripts/build-arch --toolchain printed for each target')
		q.add_argument('--set', action='append', default=[], metavar='NAME=VALUE',
			       help='a setting that changes what is recorded (CODEGEN=1); again for more')

	q = rs.add_parser(allow_abbrev=False, name='plan',
			  help="decide each step of a record: keep, redo (and why) or run",
			  description='Print a line per step of the series now: "STEP keep" (done, '
			  'same fingerprint), "STEP redo: WHY" (done, for another series or inputs, or '
			  'without a fingerprint), "STEP adopted" (--adopt), "STEP run" (not done); then '
			  '"first N": the first patch that differs from what a done step recorded, or '
			  'that --tree may have another version of (0: none; 1 when a done step has no '
			  'fingerprint): a tree with it applied must be popped below it.  Writes RECORD/.plan/STEP, the fingerprint each step '
			  'gets when it is done.')
	q.add_argument('record', metavar='RECORD', help='the record folder')
	q.add_argument('--adopt', action='store_true',
		       help='a done step without a fingerprint (recorded before they were kept) is '
		       'given the current one, when its done mark is newer than the series file, the '
		       "targets file, scripts/checkpatch-ignore and the step's patches; else redone")
	q.add_argument('--tree', metavar='TREE',
		       help='the quilt tree the run walks: its first applied patch whose file is '
		       'newer than its push counts for "first" too')
	common_opts(q)
	q.set_defaults(func=run_plan)

	q = rs.add_parser(allow_abbrev=False, name='check-ok', help="is a ci-columns column's TARGET.ok current",
			  description='Exit 0 when OKFILE holds the fingerprint of the top step of the '
			  'series now (with these targets and inputs); else print why not and exit 1.')
	q.add_argument('okfile', metavar='OKFILE')
	common_opts(q)
	q.set_defaults(func=run_check_ok)

	q = rs.add_parser(allow_abbrev=False, name='write-ok', help="mark a ci-columns column done",
			  description="Write OKFILE (fingerprint=, steps=) when every step of the "
			  'series now is done in RECORD with its current fingerprint; else an error, '
			  'nothing written.')
	q.add_argument('okfile', metavar='OKFILE')
	q.add_argument('record', metavar='RECORD')
	common_opts(q)
	q.set_defaults(func=run_write_ok)
	return p


def run_plan(args):
	if not os.path.isdir(args.record):
		raise common.Error(f'no record folder {args.record}')
	lines, first = plan(args.record, inputs(args), args.adopt, args.tree)
	for l in lines:
		print(l)
	print(f'first {first}')
	return common.Exit.OK


def run_check_ok(args):
	why = column_ok(args.okfile, inputs(args))
	if why:
		print(why)
		return common.Exit.FAILURE
	return common.Exit.OK


def run_write_ok(args):
	write_ok(args.okfile, args.record, inputs(args))
	return common.Exit.OK
