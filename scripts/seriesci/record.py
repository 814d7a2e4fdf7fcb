# SPDX-License-Identifier: GPL-2.0
"""The record folder of scripts/ci-series: the one reader and writer.

	DIR/info                 base=, series=, shard=, tier=, targets= (and,
	                         for a merge, merged=, records=)
	DIR/NNN-NAME/            a step: 000-baseline, 001-<patch>, ...
	    TARGET.result/.log   build-arch's result (key=value lines) and log
	    checkpatch.*, sparse.*, boot.*, push.result, done

A result file is key=value lines; the last of a key counts.  In info the
first counts (as the shell's `sed | head -n 1` read it).
"""
import contextlib
import os
import re

from seriesci import common

# the cells that are not targets
SPECIAL = ('checkpatch', 'sparse', 'boot', 'push')
STEP_RE = re.compile(r'^[0-9]{3}-')
# the control characters the shell's `tr -d` took out of names and
# first error lines read from logs (not tab, not newline)
_STRIP = {c: None for c in list(range(0, 9)) + list(range(11, 32)) + [127]}
# first_error's cut
ERROR_MAX = 400
# a result's statuses, and its keys whose values are numbers (or empty)
STATUSES = ('ok', 'fail', 'skip')
NUMERIC = ('seconds', 'warnings', 'new_warnings', 'undecided_warnings', 'errors', 'vmlinux_size')
_KEY_RE = re.compile(r'^[a-z_][a-z0-9_]*$')
_NUM_RE = re.compile(r'^[0-9]+(\.[0-9]+)?$')


def strip_ctrl(s):
	return s.translate(_STRIP)


def check_kv(path, result=True):
	"""Why the file at path is not a record file (key=value lines; for a
	result, a status= of ok, fail or skip and numbers where numbers go),
	or '' when it is one."""
	try:
		with open(path, 'rb') as f:
			data = f.read()
	except OSError as e:
		return f'unreadable ({e.strerror})'
	return check_data(data, result)


def check_data(data, result=True):
	"""check_kv on the bytes of a file."""
	if not data.strip():
		return 'empty'
	if b'\0' in data:
		return 'binary (NUL bytes), not key=value lines'
	try:
		text = data.decode('utf-8')
	except UnicodeDecodeError:
		return 'not UTF-8 text'
	status = None
	for n, l in enumerate(text.split('\n'), 1):
		if not l:
			continue
		k, eq, v = l.partition('=')
		if not eq or not _KEY_RE.match(k):
			return f'line {n} is not key=value: {l[:60]!r}'
		if k == 'status':
			status = v
		if result and k in NUMERIC and v and not _NUM_RE.match(v):
			return f'line {n}: {k}={v[:40]!r} is not a number'
	if not result:
		return ''
	if status is None:
		return 'no status= line'
	if status not in STATUSES:
		return f'status={status[:40]!r} is not ok, fail or skip'
	return ''


def read_text(path):
	with open(path, encoding='utf-8', errors='surrogateescape') as f:
		return f.read()


def read_kv(path, first=False):
	"""The key=value lines of a file as a dict; None when no such file."""
	try:
		text = read_text(path)
	except (FileNotFoundError, NotADirectoryError, IsADirectoryError):
		return None
	kv = {}
	for l in text.split('\n'):
		k, eq, v = l.partition('=')
		if not eq:
			continue
		if first and k in kv:
			continue
		kv[k] = v
	return kv


def write_kv(path, pairs):
	"""Write key=value lines (pairs: a list of (key, value)) atomically."""
	tmp = f'{path}.new.{os.getpid()}'
	with open(tmp, 'w', encoding='utf-8', errors='surrogateescape') as f:
		for k, v in pairs:
			f.write(f'{k}={v}\n')
	os.replace(tmp, path)


# --- the writer of the shell: `seriesci record write` ---------------------
#
# What scripts/ci-series and scripts/build-arch wrote with printf, a here
# document and sed, in one place, checked: a key is [a-z_][a-z0-9_]*; a
# value is one line (no newline, no NUL: the reader splits at newlines);
# a value that is not UTF-8 (argv gives it as surrogate escapes: a log
# line with a stray byte) is written with U+FFFD for each byte that does
# not decode, where the shell wrote the bytes and the reader then called
# the whole file malformed.  Every other value is written byte for byte
# as printf '%s' wrote it.

def check_pair(key, value):
	"""Why KEY=VALUE cannot be a line of a record file, or ''."""
	if not _KEY_RE.match(key):
		return f'{key[:40]!r} is not a record key ([a-z_][a-z0-9_]*)'
	for c, name in (('\n', 'a newline'), ('\0', 'a NUL byte')):
		if c in value:
			return f'the value of {key} has {name}: the reader splits lines at newlines'
	return ''


def clean_value(value):
	"""VALUE as written: undecodable bytes (surrogate escapes) as U+FFFD."""
	try:
		value.encode('utf-8')
		return value
	except UnicodeEncodeError:
		raw = value.encode('utf-8', 'surrogateescape')
		return raw.decode('utf-8', 'replace')


def parse_pair(arg):
	"""KEY=VALUE -> (key, value), checked."""
	k, eq, v = arg.partition('=')
	if not eq:
		raise common.Usage(f'{arg[:60]!r} is not KEY=VALUE')
	why = check_pair(k, v)
	if why:
		raise common.Error(why)
	return k, clean_value(v)


def _lines_keep(data):
	"""The lines of DATA (bytes), each with its newline (the last may
	have none), as sed reads them."""
	return data.splitlines(keepends=True) if data else []


def compose(pairs, src=None, result=False):
	"""The bytes of a record file: the lines of SRC (bytes of a file,
	kept as they are) with every line of a key in PAIRS set to its value
	in place, as sed 's|^KEY=.*|KEY=VALUE|' did, then the PAIRS whose
	key SRC has no line of, in order.  With result, the file must read
	back as a result (check_kv): a status= of ok, fail or skip, numbers
	where numbers go."""
	want = dict(pairs)
	out = []
	seen = set()
	for l in _lines_keep(src):
		body = l.rstrip(b'\n')
		k, eq, _ = body.partition(b'=')
		key = k.decode('utf-8', 'surrogateescape') if eq else None
		if key in want:
			seen.add(key)
			l = f'{key}={want[key]}'.encode('utf-8') + l[len(body):]
		out.append(l)
	for k, v in pairs:
		if k not in seen:
			out.append(f'{k}={v}\n'.encode('utf-8'))
			seen.add(k)
	data = b''.join(out)
	if result:
		why = check_data(data)
		if why:
			raise common.Error(f'not a result file: {why}')
	return data


def write_bytes(path, data):
	"""DATA into PATH atomically (a temporary file beside it, renamed)."""
	tmp = f'{path}.new.{os.getpid()}'
	try:
		with open(tmp, 'wb') as f:
			f.write(data)
		os.replace(tmp, path)
	except BaseException:
		with contextlib.suppress(OSError):
			os.unlink(tmp)
		raise


WRITE_USAGE = ('record write [--result] [--from SRC] FILE [KEY=VALUE...] '
	       '[-- [--result] [--from SRC] FILE [KEY=VALUE...]]...')


def parse_writes(argv):
	"""The groups of `record write`: [(file, src, result, pairs)]."""
	groups = []
	cur = None
	for a in list(argv) + ['--']:
		if cur is None:
			cur = {'file': None, 'src': None, 'result': False, 'pairs': [], 'want_src': False}
		if cur['want_src']:
			cur['src'] = a
			cur['want_src'] = False
		elif a == '--':
			if cur['file'] is None:
				if cur['src'] is not None or cur['result']:
					raise common.Usage('a group without FILE')
				cur = None
				continue
			groups.append((cur['file'], cur['src'], cur['result'], cur['pairs']))
			cur = None
		elif cur['file'] is None and a == '--result':
			cur['result'] = True
		elif cur['file'] is None and a == '--from':
			cur['want_src'] = True
		elif cur['file'] is None and a.startswith('-') and a != '-':
			raise common.Usage(f'unknown option {a}')
		elif cur['file'] is None:
			cur['file'] = a
		else:
			cur['pairs'].append(parse_pair(a))
	if cur is not None and cur['want_src']:
		raise common.Usage('--from needs SRC')
	if not groups:
		raise common.Usage('no FILE to write')
	return groups


def write_files(argv):
	"""`record write`: every group checked and composed first, then the
	files written (none when one is refused)."""
	return write_groups(parse_writes(argv))


def write_groups(groups):
	"""Write record files, GROUPS a list of (path, src, result, pairs):
	the lines of the file SRC (or None) with PAIRS ((key, value), each
	checked here) set, as compose() says.  Every file is checked and
	composed before any is written: none when one is refused."""
	out = []
	for path, src, result, pairs in groups:
		keys = [k for k, _ in pairs]
		dup = {k for k in keys if keys.count(k) > 1}
		if dup:
			raise common.Error(f'{path}: {", ".join(sorted(dup))} given twice')
		clean = []
		for k, v in pairs:
			why = check_pair(k, v)
			if why:
				raise common.Error(why)
			clean.append((k, clean_value(v)))
		data = None
		if src is not None:
			try:
				with open(src, 'rb') as f:
					data = f.read()
			except OSError as e:
				raise common.Error(f'--from {src}: {e.strerror}')
		out.append((path, compose(clean, data, result)))
	for path, data in out:
		write_bytes(path, data)
	return common.Exit.OK


_ERR_RE = re.compile(r'(error|Error|ERROR):|undefined reference| dropped by Kconfig: | requested off, but ')


def first_error(log):
	"""The one line of a build (or boot) log that best says why it failed
	(lib.sh's first_error): the first compiler, linker or Kconfig error,
	else the first "***" line of make, else the last line that is not
	one of build-arch's "# " comments.  '' for a missing or empty log."""
	try:
		text = read_text(log)
	except (FileNotFoundError, IsADirectoryError):
		return ''
	e = m = last = None
	for l in text.split('\n'):
		if e is None and _ERR_RE.search(l):
			e = l
		if m is None and '***' in l:
			m = l
		if l.split() and not l.startswith('# '):
			last = l
	return e or m or last or ''


def steps_of(path):
	"""The step folders of a record, in name order."""
	try:
		names = os.listdir(path)
	except FileNotFoundError:
		return []
	return sorted(n for n in names if STEP_RE.match(n)
		      and os.path.isdir(os.path.join(path, n)))


class Record:
	"""A record folder, read."""

	def __init__(self, path):
		if not os.path.isdir(path):
			raise common.Error(f'no record folder {path}: run scripts/ci-series first (or name the folder)')
		self.dir = os.path.abspath(path)
		info = os.path.join(self.dir, 'info')
		if os.path.exists(info):
			why = check_kv(info, result=False)
			if why:
				raise common.Error(f'{info}: {why}: not the info file of a ci-series record')
		self.info = read_kv(info, first=True)
		self.steps = steps_of(self.dir)
		if self.info is None and not self.steps:
			raise common.Error(f'{self.dir}: not a ci-series record folder (no info file, '
					   'no NNN-NAME step folder): name the folder scripts/ci-series wrote')
		# every result file checked once: the ones that are not
		# readable results are failures of their cell, never green
		self.malformed = {}
		n = 0
		for s, c in self._results():
			n += 1
			why = check_kv(self.path(s, c + '.result'))
			if why:
				self.malformed[s, c] = why
		if n == len(self.malformed):
			raise common.Error(f'{self.dir}: no valid result file in any step folder '
					   f'({len(self.malformed)} malformed): nothing to show'
					   + ''.join(f'\n  {self.path(s, c + ".result")}: {w}'
						     for (s, c), w in sorted(self.malformed.items())))
		self.base = self._base()
		self.series = self._series()
		self.targets = self._targets()

	def _results(self):
		for s in self.steps:
			d = os.path.join(self.dir, s)
			for n in sorted(os.listdir(d)):
				if n.endswith('.result') and os.path.isfile(os.path.join(d, n)):
					yield s, n[:-len('.result')]

	def _base(self):
		if self.info and self.info.get('base'):
			return strip_ctrl(self.info['base'])
		for s, c in self._results():
			kv = read_kv(self.path(s, c + '.result'), first=True)
			if kv.get('base'):
				return strip_ctrl(kv['base'])
		return strip_ctrl(os.path.basename(self.dir))

	def _series(self):
		if self.info is not None and 'series' in self.info:
			return strip_ctrl(self.info['series']).split()
		sf = os.path.join(self.dir, '.series')
		if os.path.isfile(sf):
			return strip_ctrl(read_text(sf)).split()
		return [strip_ctrl(n[4:]) for n in sorted(os.listdir(self.dir))
			if STEP_RE.match(n) and n[4:] != 'baseline']

	def _targets(self):
		return sorted({strip_ctrl(c) for s, c in self._results() if c not in SPECIAL})

	def malformed_files(self):
		"""(path, why) of every malformed result file, in order."""
		return [(self.path(s, c + '.result'), w) for (s, c), w in sorted(self.malformed.items())]

	def path(self, *p):
		return os.path.join(self.dir, *p)

	def step_name(self, i):
		return f'{i:03d}-{self.series[i - 1] if i else "baseline"}'

	def ran(self, step):
		return os.path.isdir(self.path(step))

	def done(self, step):
		return os.path.isfile(self.path(step, 'done'))

	def push_failed(self, step):
		kv = read_text_lines(self.path(step, 'push.result'))
		return 'status=fail' in kv

	def result(self, step, cell):
		"""The cell's result, normalised as results shows it, or None:
		status ok, fail or skip (anything else is fail); a failure
		without first_error takes it from the log; first_error without
		the tree's path, cut at ERROR_MAX characters; logrel: the log
		relative to the record, or ''."""
		f = self.path(step, cell + '.result')
		why = self.malformed.get((step, cell))
		if why is not None:
			log = os.path.join(step, cell + '.log')
			return {'status': 'fail', 'first_error': f'malformed result file {step}/{cell}.result: {why}',
				'malformed': why, 'logrel': log if os.path.isfile(self.path(log)) else ''}
		r = read_kv(f)
		if r is None or 'status' not in r:
			return None
		literal_fail = 'status=fail' in read_text_lines(f)
		if r['status'] not in ('ok', 'fail', 'skip'):
			r['status'] = 'fail'
		fe = r.get('first_error', '')
		if (r['status'] == 'fail' and fe == '' and literal_fail and
		    not any(l.startswith('first_error=') and len(l) > 12
			    for l in read_text_lines(f))):
			fe = strip_ctrl(first_error(self.path(step, cell + '.log')).replace('\t', ' '))
		tree = r.get('tree', '')
		if tree:
			fe = fe.replace(tree + '/', '')
		if len(fe) > ERROR_MAX:
			fe = fe[:ERROR_MAX] + '...'
		r['first_error'] = fe
		log = os.path.join(step, cell + '.log')
		r['logrel'] = log if os.path.isfile(self.path(log)) else ''
		return r


def read_text_lines(path):
	try:
		return read_text(path).split('\n')
	except (FileNotFoundError, NotADirectoryError):
		return []
