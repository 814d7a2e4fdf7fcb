# SPDX-License-Identifier: GPL-2.0
"""merge-results: one record of several ci-series shards.

The records of runs on disjoint target sets (SHARD=1/4 ... 4/4) are copied
step by step into one folder, then rendered (render.py).  Nothing is
written when the records differ in baseline or series, or a cell
conflicts (decide()).  The shards' sparse results are joined
(sparse_join()).  A step is done when it is done in every record.
"""
import os
import re
import shutil

from seriesci import common
from seriesci import record
from seriesci import render


class Conflict(common.Error):
	pass


def decide(cell, old, now):
	"""What to do with a cell that two records both have, with different
	result files: old is the status already merged, now the status of
	the record being merged.  'keep' the merged one, 'take' the new one,
	'join' them (sparse), or raise Conflict: a target belongs to one
	shard, so two different results of it are a conflict; checkpatch,
	boot and push run in every shard: equal statuses are one cell, skip
	gives way to a record that ran the check, ok against fail conflicts."""
	if cell == 'sparse':
		return 'join'
	if cell in ('checkpatch', 'boot', 'push'):
		if old == now or now == 'skip':
			return 'keep'
		if old == 'skip':
			return 'take'
	raise Conflict(old, now)


def join_sparse(a, b):
	"""One sparse result of two shards' (dicts of key=value): fail if
	either failed, ok if either ran, else skip; the files checked by
	either; the files no shard compiled (unbuilt in one, not checked by
	the other); the files compiled but by no target sparse could check
	(unchecked, likewise), with the shards' reasons; the sparse versions
	of both; the warnings added up; a's log."""
	sa, sb = a.get('status', ''), b.get('status', '')
	st = 'fail' if 'fail' in (sa, sb) else 'ok' if 'ok' in (sa, sb) else 'skip'
	files = sorted(set(a.get('files', '').split()) | set(b.get('files', '').split()))
	checked = {f.split(':', 1)[1] if ':' in f else f for f in files}
	unbuilt = sorted((set(a.get('unbuilt', '').split()) | set(b.get('unbuilt', '').split())) - checked)
	unchecked = sorted((set(a.get('unchecked', '').split()) | set(b.get('unchecked', '').split())) - checked)
	unbuilt = [f for f in unbuilt if f not in unchecked]

	def union(key):
		seen = []
		for r in (a, b):
			for v in r.get(key, '').split('; '):
				if v and v not in seen:
					seen.append(v)
		return '; '.join(seen)
	reason = union('reason') if unchecked else ''
	fe = ''
	if st == 'skip':
		if unchecked:
			fe = f"not checked: {' '.join(unchecked)}: {reason}"
		elif unbuilt:
			fe = f"compiled by none of this step's targets: {' '.join(unbuilt)}"
	try:
		w = int(a.get('warnings') or 0) + int(b.get('warnings') or 0)
	except ValueError:
		raise common.Error(f"sparse warnings not a number: {a.get('warnings')!r}, {b.get('warnings')!r}")
	return [('status', st), ('warnings', str(w)), ('files', ' '.join(files)),
		('unbuilt', ' '.join(unbuilt)), ('unchecked', ' '.join(unchecked)),
		('sparse', union('sparse')), ('reason', reason), ('first_error', fe),
		('log', a.get('log', ''))]


_SHARD_RE = re.compile(r'^[0-9]+/[0-9]+$')


def shard_warnings(shards):
	"""The warnings about the records' shard= values: a shard named twice,
	shards of an n missing (unless a record is of no shard: all)."""
	out = []
	seen, have, ns, dup, whole = set(), set(), set(), [], False
	for s in shards:
		if _SHARD_RE.match(s):
			if s in seen:
				dup.append(s)
			seen.add(s)
			have.add(s)
			ns.add(int(s.split('/')[1]))
		else:
			whole = True
	if dup:
		out.append('the same shard more than once: ' + ' '.join(dup))
	for k in sorted(ns):
		miss = [f'{i}/{k}' for i in range(1, k + 1) if f'{i}/{k}' not in have]
		if miss and not whole:
			out.append('shards missing: ' + ' '.join(miss))
	return out


def _status(path):
	kv = record.read_kv(path, first=True) or {}
	return kv.get('status', '')


def _take(src, dst, c):
	shutil.copy2(os.path.join(src, c + '.result'), os.path.join(dst, c + '.result'))
	log = os.path.join(src, c + '.log')
	if os.path.isfile(log):
		shutil.copy2(log, os.path.join(dst, c + '.log'))
	elif os.path.exists(os.path.join(dst, c + '.log')):
		os.remove(os.path.join(dst, c + '.log'))


def _same(a, b):
	with open(a, 'rb') as f, open(b, 'rb') as g:
		return f.read() == g.read()


def _records(args, dest):
	recs = []
	for r in args:
		if os.path.basename(r) == 'results.json' and os.path.isfile(r):
			r = os.path.dirname(r) or '.'
		if not os.path.isdir(r):
			raise common.Error(f'no record folder {r}')
		if re.search(r'\s', r):
			raise common.Error(f"record folder '{r}': a path with white space; move or link it")
		r = os.path.abspath(r)
		if not os.path.isfile(os.path.join(r, 'info')):
			raise common.Error(f'{r}/info missing: not a ci-series record folder '
					   '(a run of the current scripts/ci-series writes it)')
		if r == dest:
			raise common.Error(f'{r} is both a record and the output: name another with -o')
		why = record.check_kv(os.path.join(r, 'info'), result=False)
		if why:
			raise common.Error(f'{r}/info: {why}: not the info file of a ci-series record')
		if not record.steps_of(r):
			raise common.Error(f'{r}: no NNN-NAME step folder: a record of a run that did not start')
		for s in record.steps_of(r):
			for n in sorted(os.listdir(os.path.join(r, s))):
				f = os.path.join(r, s, n)
				if n.endswith('.result') and os.path.isfile(f):
					why = record.check_kv(f)
					if why:
						raise common.Error(f'{f}: {why}: fix or remove it, then merge again '
								   '(nothing was written)')
		recs.append(r)
	return recs


def merge(args, dest):
	dest = os.path.abspath(dest)
	recs = _records(args, dest)
	infos = [record.read_kv(os.path.join(r, 'info'), first=True) for r in recs]
	base, series = infos[0].get('base', ''), infos[0].get('series', '')
	for r, i in zip(recs, infos):
		if i.get('base', '') != base:
			raise common.Error(f"different baselines: {recs[0]} is {base}, {r} is {i.get('base', '')}: "
					   'merge records of one baseline')
		if i.get('series', '') != series:
			raise common.Error(f'different series: {recs[0]} and {r} (info series=): merge runs of one series')
	shards = [i.get('shard', '') for i in infos]
	for w in shard_warnings(shards):
		common.warn(w)
	if os.path.exists(dest) and os.listdir(dest):
		di = record.read_kv(os.path.join(dest, 'info')) or {}
		if 'merged' not in di:
			raise common.Error(f'{dest} is not empty and not an earlier merge: name another with -o')
	new = f'{dest}.new.{os.getpid()}'
	shutil.rmtree(new, ignore_errors=True)
	os.makedirs(new)
	try:
		_merge_into(recs, new)
		targets = sorted({t for i in infos for t in i.get('targets', '').split()})
		record.write_kv(os.path.join(new, 'info'), [
			('base', base), ('series', series), ('shard', ''),
			('tier', infos[0].get('tier', '')), ('targets', ' '.join(targets)),
			('merged', ' '.join(s for s in shards if s.strip())),
			('records', ' '.join(recs))])
		render.render(new, quiet=True)
	except BaseException:
		shutil.rmtree(new, ignore_errors=True)
		raise
	shutil.rmtree(dest, ignore_errors=True)
	os.rename(new, dest)
	# the renderer wrote paths relative to the folder: still right after the move
	common.step('MERGE', f'{len(recs)} records into {dest}/results.html (.json, .md)')
	return common.Exit.OK


def _merge_into(recs, new):
	frm = {}
	for r in recs:
		for s in record.steps_of(r):
			sd, dd = os.path.join(r, s), os.path.join(new, s)
			os.makedirs(dd, exist_ok=True)
			for n in sorted(os.listdir(sd)):
				f = os.path.join(sd, n)
				if not n.endswith('.result') or not os.path.isfile(f):
					continue
				c = n[:-len('.result')]
				mf = os.path.join(dd, n)
				if not os.path.isfile(mf):
					_take(sd, dd, c)
					frm[s, c] = r
					continue
				if _same(f, mf):
					continue
				old, now = _status(mf), _status(f)
				try:
					what = decide(c, old, now)
				except Conflict:
					raise common.Error(f'conflicting cell {s} {c}: {frm[s, c]} says status={old}, '
							   f'{r} says status={now} (each target belongs to one shard)')
				if what == 'join':
					a = record.read_kv(mf, first=True)
					b = record.read_kv(f, first=True)
					if os.path.isfile(os.path.join(sd, 'sparse.log')):
						with open(os.path.join(sd, 'sparse.log'), 'rb') as i, \
						     open(os.path.join(dd, 'sparse.log'), 'ab') as o:
							shutil.copyfileobj(i, o)
					record.write_kv(mf, join_sparse(a, b))
				elif what == 'take':
					_take(sd, dd, c)
					frm[s, c] = r
	for s in record.steps_of(new):
		if all(os.path.isfile(os.path.join(r, s, 'done')) for r in recs):
			open(os.path.join(new, s, 'done'), 'w').close()


def run(args):
	dest = args.outdir or os.path.join(common.out_dir(), 'ci', 'merged')
	return merge(args.records, dest)
