# SPDX-License-Identifier: GPL-2.0
"""rebase-state: the state of a rebase in progress and its report.

scripts/rebase sequences fetch-baseline, cp, quilt and patch in shell; what
it remembers between runs, and the report it writes, are kept here, so that
a run killed at any point resumes from what the files say.  In $TREE/.rebase:

  state    key=value lines (base, from, backup, saved, started, finished,
           status, conflict, pushing); the last line of a key counts
  results  a header line ("#" and FIELDS, tab-separated), then one
           tab-separated line a patch, in the order the patches were
           recorded; recording a patch again replaces its line
  rej/     PATCH.rej: the rejected hunks of a patch that did not apply

This module is the one writer of both files.  Every write goes to a .tmp
file renamed over the old one: a kill leaves the old version or the new
one, never half of one.  scripts/rebase reads them by name in shell (a
state key with sed, a result field by the header's names with awk: a
Python start for every read costs too much in its step loop).  A results
file of the shell version (no header, FIELDS in order) is read the same
and gets its header at the first write ("check" writes it at once).

The report, REBASE_OUT/FROM-to-BASE.md and .json, is written from one model
(report_model): a row per patch of the series, "not-reached" for those not
recorded, the patches of the backup's series the series no longer has
(dropped), and the state.  The JSON comes from json.dumps, laid out as the
shell version laid it out (a line a patch).
"""
import json
import os
import shutil
import re
import sys

from seriesci import common, rangediff, series as series_mod

FIELDS = ('n', 'patch', 'result', 'hunks', 'offset', 'fuzz', 'rejected', 'refresh', 'sha', 'detail')
KEYS = ('base', 'from', 'backup', 'saved', 'started', 'finished', 'status', 'conflict', 'pushing')
RESULTS = ('clean', 'offset', 'fuzz', 'conflict')


def _read(path):
	try:
		with open(path, encoding='utf-8', errors='surrogateescape') as f:
			return f.read()
	except FileNotFoundError:
		return None


_lines = common.awk_lines


def _write(path, text):
	"""Atomically: the old file or the new one, never half of one."""
	tmp = path + '.tmp'
	with open(tmp, 'w', encoding='utf-8', errors='surrogateescape') as f:
		f.write(text)
	os.replace(tmp, path)


def _field(name):
	if name not in FIELDS:
		raise common.Usage(f'{name}: not a field of the results ({" ".join(FIELDS)})')
	return FIELDS.index(name)


# --- state -------------------------------------------------------------------

def state_get(rdir, key):
	"""The last value of key in rdir/state; '' when none (or no file)."""
	v = ''
	for l in _lines(_read(os.path.join(rdir, 'state'))):
		k, eq, val = l.partition('=')
		if eq and k == key:
			v = val
	return v


def state_set(rdir, key, value, *more):
	"""key's line replaced by key=value, put last; more: further keys
	and values, written in the same write."""
	pairs = [(key, value)] + list(zip(more[::2], more[1::2]))
	if len(more) % 2:
		raise common.Usage('state: a value for every key')
	lines = _lines(_read(os.path.join(rdir, 'state')))
	for k, v in pairs:
		if '\n' in v or '\n' in k or '=' in k or not k:
			raise common.Error(f'state {k!r}: a key without "=" and one-line values only')
		lines = [l for l in lines if not l.startswith(k + '=')] + [f'{k}={v}']
	_write(os.path.join(rdir, 'state'), ''.join(l + '\n' for l in lines))


def state_init(rdir, pairs):
	"""A new rebase: rdir/state of pairs (key, value), rdir/results empty."""
	os.makedirs(rdir, exist_ok=True)
	_results_write(rdir, [])
	_write(os.path.join(rdir, 'state'), ''.join(f'{k}={v}\n' for k, v in pairs))


# --- results -----------------------------------------------------------------

HEADER = '#' + '\t'.join(FIELDS)


def results_read(rdir):
	"""The lines of rdir/results as lists of FIELDS (as many as written)."""
	rows = []
	for l in _lines(_read(os.path.join(rdir, 'results'))):
		if l.startswith('#'):
			if l != HEADER:
				raise common.Error(f'{rdir}/results: header {l!r} is not {HEADER!r}')
			continue
		rows.append(l.split('\t'))
	return rows


def _results_write(rdir, rows):
	_write(os.path.join(rdir, 'results'), HEADER + '\n' + ''.join('\t'.join(f) + '\n' for f in rows))


def result_get(rdir, patch, field):
	"""field of patch's line (the last, if more); '' when none."""
	i = _field(field)
	v = ''
	for f in results_read(rdir):
		if len(f) > 1 and f[1] == patch:
			v = f[i] if i < len(f) else ''
	return v


def result_put(rdir, values):
	"""Record a patch: values are FIELDS in order; its old line goes."""
	if len(values) != len(FIELDS):
		raise common.Usage(f'a result has {len(FIELDS)} fields ({" ".join(FIELDS)}), not {len(values)}')
	if any('\t' in v or '\n' in v for v in values):
		raise common.Error(f'{values[1]}: a result field with a tab or a newline')
	keep = [f for f in results_read(rdir) if not (len(f) > 1 and f[1] == values[1])]
	_results_write(rdir, keep + [list(values)])


def result_set(rdir, patch, field, value, *more):
	"""Set a field of patch's line(s), and more: further fields and
	values, in one write; nothing when it has no line."""
	if len(more) % 2:
		raise common.Usage('update: a value for every field')
	pairs = [(_field(f), v) for f, v in [(field, value)] + list(zip(more[::2], more[1::2]))]
	if any('\t' in v or '\n' in v for _, v in pairs):
		raise common.Error(f'{patch}: a result field with a tab or a newline')
	rows = results_read(rdir)
	for f in rows:
		if len(f) > 1 and f[1] == patch:
			for i, v in pairs:
				f.extend([''] * (i + 1 - len(f)))
				f[i] = v
	_results_write(rdir, rows)


# --- the report ----------------------------------------------------------------

def report_model(rdir, series, backup_series=None, rejects=None):
	"""The report's data: rows (a dict of FIELDS a patch of series, in
	order, 'not-reached' when not recorded), counts, dropped (the patches
	of backup_series that series has not), state.  rejects(patch): the
	text of its rejected hunks (default: rdir/rej/PATCH.rej)."""
	if rejects is None:
		def rejects(p):
			t = _read(os.path.join(rdir, 'rej', p + '.rej'))
			return ''.join(l + '\n' for l in _lines(t))
	rec = {}
	for f in results_read(rdir):
		if len(f) > 1:
			rec[f[1]] = f + [''] * (len(FIELDS) - len(f))
	rows = []
	for i, p in enumerate(series):
		f = rec.get(p) or [str(i + 1), p, 'not-reached'] + [''] * 7
		r = dict(zip(FIELDS, f))
		r['rejects'] = rejects(p)
		rows.append(r)
	counts = {k: sum(1 for r in rows if r['result'] == k) for k in RESULTS + ('not-reached',)}
	counts['refreshed'] = sum(1 for r in rows if r['refresh'] == 'done')
	now = set(series)
	dropped = [p for p in (backup_series or []) if p not in now]
	st = {k: state_get(rdir, k) for k in KEYS}
	return {'rows': rows, 'counts': counts, 'dropped': dropped, 'state': st, 'total': len(series)}


def markdown(m, frm, base, tree, steps=''):
	st, c = m['state'], m['counts']
	o = [f'# Rebase of the series from {frm} onto {base}', '',
	     f"- Status: **{st['status']}**" + (f" at {st['conflict']}" if st['status'] == 'conflict' else ''),
	     f'- Tree: {tree}',
	     f"- Saved before any refresh: {st['saved']}; backup {st['backup']}",
	     f"- Started {st['started']}" + (f", finished {st['finished']}" if st['finished'] else ''),
	     f"- {m['total']} patches: {c['clean']} clean, {c['offset']} offset, {c['fuzz']} fuzz, "
	     f"{c['conflict']} conflict, {c['not-reached']} not reached; {c['refreshed']} refreshed"]
	d = m['dropped']
	o.append(f"- Dropped from the series: {len(d)} ({', '.join(d)})" if d else '- Dropped from the series: none')
	o += ['', '| # | patch | result | hunks | refreshed | detail |',
	      '|---|-------|--------|-------|-----------|--------|']
	for i, r in enumerate(m['rows']):
		refr = 'yes' if r['refresh'] == 'done' else ('' if r['refresh'] == '' else 'no')
		o.append(f"| {i + 1} | {r['patch']} | {r['result']} | {r['hunks']} | {refr} | {r['detail']} |")
	text = '\n'.join(o) + '\n'
	for r in m['rows']:
		if r['rejects']:
			text += f"\n## Rejected hunks of {r['patch']}\n\n```diff\n{r['rejects']}```\n"
	if st['status'] == 'conflict':
		text += f'\n## To resolve\n\n```\n{steps}\n```\n'
	return text


def _num(s):
	"""A count field: null when empty, else its number."""
	if s == '':
		return None
	if re.fullmatch('[0-9]+', s):
		return int(s)
	m = re.match(r'[ \t\n]*[-+]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?', s)
	v = float(m.group(0)) if m else 0.0
	return int(v) if v == int(v) else v


def _j(v):
	return json.dumps(v, ensure_ascii=False)


def json_text(m, frm, base, tree):
	"""The JSON report: json.dumps for every value, a line a patch."""
	st, c = m['state'], m['counts']
	o = ['{',
	     f'  "from": {_j(frm)},',
	     f'  "base": {_j(base)},',
	     f"  \"status\": {_j(st['status'])},",
	     f"  \"conflict\": {_j(st['conflict'] or None)},",
	     f'  "tree": {_j(tree)},',
	     f"  \"saved\": {_j(st['saved'])},",
	     f"  \"backup\": {_j(st['backup'])},",
	     f"  \"started\": {_j(st['started'])},",
	     f"  \"finished\": {_j(st['finished'] or None)},",
	     '  "counts": ' + _j({'clean': c['clean'], 'offset': c['offset'], 'fuzz': c['fuzz'],
				  'conflict': c['conflict'], 'not_reached': c['not-reached'],
				  'refreshed': c['refreshed']}) + ',',
	     f"  \"dropped\": {_j(m['dropped'])},",
	     '  "patches": [']
	rows = m['rows']
	for i, r in enumerate(rows):
		d = {'n': i + 1, 'patch': r['patch'], 'result': r['result'], 'hunks': _num(r['hunks']),
		     'offset': _num(r['offset']), 'fuzz': _num(r['fuzz']), 'rejected': _num(r['rejected']),
		     'refreshed': r['refresh'] == 'done', 'detail': r['detail'], 'rejects': r['rejects']}
		o.append('    ' + _j(d) + (',' if i < len(rows) - 1 else ''))
	o += ['  ]', '}']
	return '\n'.join(o) + '\n'


def summary(m, base):
	c, d = m['counts'], m['dropped']
	return (f"  REBASE  {m['total']} patches onto {base}: {c['clean']} clean, {c['offset']} offset, "
		f"{c['fuzz']} fuzz, {c['conflict']} conflict; {c['refreshed']} refreshed; {len(d)} dropped" +
		(f" ({' '.join(d)})" if d else ''))


def _range_diff(rdir, bk, series_file, frm, base):
	"""(text, rows) of rangediff for a finished rebase: the backup's
	series on $OUT/src/FROM against the series now on $OUT/src/BASE;
	None before the end, or when a baseline or git is missing."""
	out = os.environ.get('OUT', '')
	old_src, new_src = os.path.join(out, 'src', frm), os.path.join(out, 'src', base)
	if state_get(rdir, 'status') != 'done' or not bk or not out:
		return None
	for d in (old_src, new_src):
		if not os.path.isdir(d):
			common.warn(f'no range-diff: no {d} (scripts/fetch-baseline {os.path.basename(d)} makes it)')
			return None
	if not shutil.which('git'):
		common.warn("no range-diff: no git (install the Debian package 'git')")
		return None
	new_dir = os.environ.get('QUILT_PATCHES') or os.path.dirname(series_file)
	try:
		return rangediff.range_diff(old_src, os.path.join(bk, 'patches'),
					    series_mod.patches(os.path.join(bk, 'series')),
					    new_src, new_dir, series_mod.patches(series_file))
	except (common.Error, OSError) as e:
		common.warn(f'no range-diff: {e}')
		return None


def write_report(rdir, series_file, out_dir, frm, base, tree, steps='', show_summary=False):
	"""REBASE_OUT/FROM-to-BASE.md and .json (each atomically); the
	REPORT step line, and with show_summary the final REBASE line."""
	series = series_mod.patches(series_file)
	bk = state_get(rdir, 'backup')
	bks = os.path.join(bk, 'series') if bk else '/series'
	backup = series_mod.patches(bks) if os.path.isfile(bks) else []
	m = report_model(rdir, series, backup)
	os.makedirs(out_dir, exist_ok=True)
	md = os.path.join(out_dir, f'{frm}-to-{base}.md')
	js = os.path.join(out_dir, f'{frm}-to-{base}.json')
	text = markdown(m, frm, base, tree, steps)
	rd = _range_diff(rdir, bk, series_file, frm, base)
	if rd:
		_write(os.path.join(out_dir, f'{frm}-to-{base}.range-diff'), rd[0])
		text += '\n' + rangediff.markdown(*rd)
	_write(md, text)
	_write(js, json_text(m, frm, base, tree))
	common.step('REPORT', f'{md} (and .json{", .range-diff" if rd else ""})')
	if show_summary:
		print(summary(m, base))
	return m


def json_get(path, keys):
	"""A value of a JSON file by its keys (a.b for nested objects)."""
	try:
		with open(path, encoding='utf-8') as f:
			v = json.load(f)
	except json.JSONDecodeError as e:
		raise common.Error(f'{path}: not JSON: {e}')
	for k in keys.split('.'):
		if not isinstance(v, dict) or k not in v:
			raise common.Error(f'{path}: no {keys}')
		v = v[k]
	return v


def run(args):
	a = args.action
	r = args.dir
	if a == 'get':
		_need(args.args, 1, 'get DIR KEY')
		_out(state_get(r, args.args[0]))
	elif a == 'set':
		if len(args.args) < 2 or len(args.args) % 2:
			raise common.Usage('usage: rebase-state set DIR KEY VALUE [KEY VALUE]...')
		state_set(r, *args.args)
	elif a == 'init':
		pairs = [p.partition('=') for p in args.args]
		if any(not eq or not k for k, eq, _ in pairs):
			raise common.Usage('init DIR KEY=VALUE...')
		state_init(r, [(k, v) for k, _, v in pairs])
	elif a == 'result':
		_need(args.args, 2, 'result DIR PATCH FIELD')
		_out(result_get(r, *args.args))
	elif a == 'record':
		result_put(r, args.args)
	elif a == 'update':
		if len(args.args) < 3 or len(args.args) % 2 == 0:
			raise common.Usage('usage: rebase-state update DIR PATCH FIELD VALUE [FIELD VALUE]...')
		result_set(r, *args.args)
	elif a == 'report':
		_need(args.args, 4, 'report DIR REBASE_OUT FROM BASE TREE')
		steps = sys.stdin.buffer.read().decode('utf-8', 'surrogateescape').rstrip('\n') if args.steps else ''
		write_report(r, os.environ.get('QUILT_SERIES') or os.path.join(common.repo(), 'series'),
			     args.args[0], args.args[1], args.args[2], args.args[3], steps, args.summary)
	elif a == 'check':
		_need(args.args, 0, 'check DIR')
		if not os.path.isfile(os.path.join(r, 'state')):
			raise common.Error(f'{r}: no state of a rebase')
		_results_write(r, results_read(r))
	elif a == 'json':
		_need(args.args, 1, 'json FILE KEY')
		v = json_get(r, args.args[0])
		_out(v if isinstance(v, str) else json.dumps(v))
	return common.Exit.OK


def _need(a, n, usage):
	if len(a) != n:
		raise common.Usage(f'usage: rebase-state {usage}')


def _out(s):
	if s != '':
		sys.stdout.buffer.write(s.encode('utf-8', 'surrogateescape') + b'\n')


def add_parser(sub):
	p = sub.add_parser(
		allow_abbrev=False, name='rebase-state', help="scripts/rebase's state and report",
		description="The state of a rebase in progress ($TREE/.rebase: state, results) and its "
		'report, for scripts/rebase, which sequences quilt and patch in shell.  Results are '
		f'addressed by field name: {" ".join(FIELDS)}.  Every write is atomic (a .tmp file '
		'renamed), so a killed run resumes from the old or the new version.',
		epilog='Actions: get DIR KEY; set DIR KEY VALUE [KEY VALUE]... (one write); init DIR KEY=VALUE... (a new state, '
		'no results); check DIR (the results readable, with their header); result DIR PATCH FIELD; record DIR VALUE... (the fields in order; the '
		"patch's old line goes); update DIR PATCH FIELD VALUE [FIELD VALUE]... (one write); report DIR REBASE_OUT FROM "
		'BASE TREE (FROM-to-BASE.md and .json of the series $QUILT_SERIES); json FILE KEY '
		'(a value of a JSON file, a.b for nested keys).  Exit codes: 0 done, 1 an error, 2 usage.')
	p.add_argument('action', choices=('get', 'set', 'init', 'check', 'result', 'record', 'update', 'report',
					  'json'),
		       help='what to do (see below)')
	p.add_argument('dir', metavar='DIR', help='the state folder ($TREE/.rebase), or for json the file')
	p.add_argument('args', nargs='*', metavar='ARG', help="the action's arguments")
	p.add_argument('--steps', action='store_true',
		       help='report: read the steps that resolve a conflict from stdin')
	p.add_argument('--summary', action='store_true',
		       help='report: print the final REBASE line (patches, results, refreshed, dropped) too')
	p.set_defaults(func=run)
	return p


def main(argv=None):
	"""python3 -m seriesci.rebase_state ACTION ...: the same as
	python3 -m seriesci rebase-state, without building the parsers of
	every subcommand (scripts/rebase calls it once a step)."""
	import argparse
	os.environ.setdefault('SERIESCI_PROG', 'rebase')
	sub = argparse.ArgumentParser(allow_abbrev=False).add_subparsers()
	p = add_parser(sub)
	p.prog = 'rebase-state'
	args = p.parse_args(sys.argv[1:] if argv is None else argv)
	try:
		return int(args.func(args))
	except common.Usage as e:
		p.error(str(e))
	except (common.Error, OSError) as e:
		print(f'{common.prog()}: error: {e}', file=sys.stderr)
		return int(common.Exit.FAILURE)


if __name__ == '__main__':
	sys.exit(main())
