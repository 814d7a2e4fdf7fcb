# SPDX-License-Identifier: GPL-2.0
"""results: a ci-series record rendered for programs and people.

	DIR/results.json   every cell (json.dumps; Documentation/results.md)
	DIR/results.md     the patch-by-target matrix as a Markdown table
	DIR/results.html   the same matrix as one static page, a coloured cell
	                   per step and column linked to its log

Paths inside are relative to DIR.  Reads the record only; re-running
rewrites the three files.
"""
import dataclasses
import datetime
import html
import json
import os
import re
import sys
import time

from seriesci import coverage, common
from seriesci import metadata
from seriesci import record
from seriesci import repro

_NUM_RE = re.compile(r'^[0-9]+(\.[0-9]+)?$')
_VER_RE = re.compile(r'^[0-9]+\.[0-9]+(\.[0-9]+)*$')
_CTRL_RE = re.compile('[\x01-\x1f]')
SPECIAL_COLS = ('checkpatch', 'sparse', 'boot')


def num(s):
	"""A result's number (int when whole), or None when not one."""
	if s is None or not _NUM_RE.match(s):
		return None
	v = float(s)
	return int(v) if v == int(v) else v


def num_str(v):
	"""A number as the shell's awk printed it."""
	return str(v) if isinstance(v, int) else f'{v:.6g}'


def pos(v):
	return v is not None and v > 0


def warn_label(cell):
	"""' +Nw' (new warnings) and ' +Uw?' (not known to be new: the step
	before did not compile what printed them), or ''."""
	t = ''
	if pos(cell.new_warnings):
		t += f' +{num_str(cell.new_warnings)}w'
	if pos(cell.undecided_warnings):
		t += f' +{num_str(cell.undecided_warnings)}w?'
	return t


def shortcc(s):
	"""'gcc 14.2.0' of 'loongarch64-linux-gnu-gcc-14 (Debian 14.2.0-19)
	14.2.0', 'clang 19.1.7' of 'Debian clang version 19.1.7 (3+b1)'."""
	if not s:
		return ''
	c = 'clang' if 'clang' in s else 'gcc' if ('gcc' in s or 'GCC' in s) else ''
	v = ''
	for w in s.split():
		if _VER_RE.match(w):
			v = w
	return f'{c} {v}' if c and v else s


@dataclasses.dataclass
class Cell:
	status: str                 # ok, fail, skip, notrun
	stage: str = ''
	wall: object = None
	warnings: object = None
	new_warnings: object = None
	undecided_warnings: object = None
	errors: object = None
	files: str = ''
	error: str = ''             # the first error line (not for ok)
	log: str = ''               # relative to the record, or ''
	codegen: str = ''
	compiler: str = ''
	binutils: str = ''
	failure: str = ''           # fail of a target: baseline, as before, new
	result: bool = False        # from a result file

	@property
	def old(self):
		return self.failure in ('baseline', 'as before')


def provenance(column):
	"""Where the failures of one target's column come from.  column: per
	step (baseline first) a (status, first error line) pair.  A failure
	is of the baseline (step 0), 'as before' (the step before failed
	with the same first error line: the patch did not cause it), or
	'new' with its patch.  Returns per step 'baseline', 'as before',
	'new' or '' (not a failure)."""
	out = []
	for i, (st, err) in enumerate(column):
		if st != 'fail':
			out.append('')
		elif i == 0:
			out.append('baseline')
		elif column[i - 1][0] == 'fail' and column[i - 1][1] == err:
			out.append('as before')
		else:
			out.append('new')
	return out


class Matrix:
	"""The cells of a record: steps by columns (targets, checkpatch,
	sparse and, when any step has one, boot)."""

	def __init__(self, rec):
		self.rec = rec
		self.base = rec.base
		self.patches = rec.series
		self.targets = rec.targets
		self.steps = [rec.step_name(i) for i in range(len(self.patches) + 1)]
		self.boot = any(os.path.isfile(rec.path(s, 'boot.result')) for s in self.steps)
		self.cols = list(self.targets) + ['checkpatch', 'sparse'] + (['boot'] if self.boot else [])
		self.cells = {}
		self.raw = {}		# (step, target): the result as read, for coverage
		self.colcomp = {}
		self.count = {'ok': 0, 'fail': 0, 'skip': 0, 'notrun': 0}
		for s in self.steps:
			for j, c in enumerate(self.cols):
				cell = self._cell(s, c, j < len(self.targets))
				if cell is None:
					continue
				if cell.compiler:
					self.colcomp[c] = cell.compiler
				self.cells[s, c] = cell
				self.count[cell.status] = self.count.get(cell.status, 0) + 1
		# coverage (coverage.judge): per patch step, what the builds read of
		# the files it touches, from its cells and the step before's
		self.cover = {}
		prev = None
		for i, s in enumerate(self.steps):
			cur = {t: self.raw[s, t] for t in self.targets
			       if (s, t) not in rec.malformed and (s, t) in self.raw}
			if i:
				self.cover[s] = coverage.judge(cur, prev)
			prev = cur
		self.covered = any(v is not None for v in self.cover.values())
		self.new = 0
		for t in self.targets:
			col = [self.cells[s, t] for s in self.steps]
			for cell, why in zip(col, provenance([(c.status, c.error) for c in col])):
				cell.failure = why
				self.new += why == 'new'

	def _cell(self, s, c, target):
		r = self.rec.result(s, c)
		if r is not None:
			self.raw[s, c] = r
			return Cell(status=r['status'], stage=r.get('stage', ''),
				    wall=num(r.get('seconds')), warnings=num(r.get('warnings')),
				    new_warnings=num(r.get('new_warnings')),
				    undecided_warnings=num(r.get('undecided_warnings')),
				    errors=num(r.get('errors')), files=r.get('files', ''),
				    error=r['first_error'] if r['status'] != 'ok' else '',
				    log=r['logrel'], codegen=r.get('codegen', ''),
				    compiler=r.get('compiler', ''), binutils=r.get('binutils', ''),
				    result=True)
		if not target:
			return None	# no checkpatch on the baseline, no boot before arch/example
		if self.rec.ran(s) and self.rec.push_failed(s):
			return Cell('skip', stage='push', error='the patch does not apply')
		return Cell('notrun')

	def cell(self, s, c):
		return self.cells.get((s, c))

	def patch_label(self, i):
		return self.patches[i - 1] if i else 'baseline'


def _s(v):
	"""A string for JSON: control characters become spaces."""
	return _CTRL_RE.sub(' ', v)


def _opt(v):
	return _s(v) if v else None


def to_json(m, now):
	rec = m.rec
	steps = []
	for i, s in enumerate(m.steps):
		ran = rec.ran(s)
		st = {'step': _s(s), 'index': i, 'patch': _s(m.patches[i - 1]) if i else None,
		      'ran': ran, 'done': ran and rec.done(s),
		      'applied': None if not ran else not rec.push_failed(s), 'targets': {}}
		for t in m.targets:
			c = m.cell(s, t)
			st['targets'][_s(t)] = {
				'status': c.status, 'stage': _s(c.stage), 'wall': c.wall,
				'warnings': c.warnings, 'new_warnings': c.new_warnings,
				'undecided_warnings': c.undecided_warnings,
				'codegen': _opt(c.codegen), 'compiler': _opt(c.compiler),
				'binutils': _opt(c.binutils), 'failure': c.failure or None,
				'log': _opt(c.log), 'first_error': _s(c.error)}
		for name in SPECIAL_COLS:
			c = m.cell(s, name)
			if c is None or not c.result:
				st[name] = None
				continue
			o = {'status': c.status}
			if name == 'checkpatch':
				o.update(errors=c.errors, warnings=c.warnings)
			elif name == 'sparse':
				o.update(warnings=c.warnings, files=[_s(f) for f in c.files.split()])
			else:
				o.update(wall=c.wall)
			o.update(log=_opt(c.log), first_error=_s(c.error))
			st[name] = o
		cv = m.cover.get(s)
		st['coverage'] = None if cv is None else {
			'status': cv.status(),
			'files': {_s(f): {_s(t): n for t, n in sorted(cv.fig[f].items())} for f in cv.files},
			'uncovered': [{'file': _s(f), 'why': _s(w)} for f, w in cv.uncovered()]}
		steps.append(st)
	doc = {'schema': 2, 'generated': now, 'baseline': _s(m.base),
	       'series': [_s(p) for p in m.patches], 'targets': [_s(t) for t in m.targets],
	       'boot': m.boot,
	       'summary': {'ok': m.count['ok'], 'fail': m.count['fail'],
			   'skip': m.count['skip'], 'notrun': m.count['notrun'],
			   'new_failures': m.new},
	       'steps': steps,
	       'malformed': [{'file': _s(os.path.relpath(f, rec.dir)), 'why': _s(w)}
			     for f, w in rec.malformed_files()]}
	return json.dumps(doc, indent=2, ensure_ascii=False) + '\n'


def _cover_label(cv):
	if cv is None:
		return '-'
	st = cv.status()
	return '**not covered**' if st == 'not covered' else st


def _what(m):
	return 'The series' if m.patches else 'The baseline'


def to_md(m):
	o = []
	c = m.count
	o.append(f'# {_what(m)} on {m.base}: patch by target\n\n')
	o.append(f'{c["ok"]} ok, {c["fail"]} fail ({m.new} new with their patch), {c["skip"]} skip, '
		 f'{c["notrun"]} not run.  Cells: ok (+Nw: N new warnings; +Uw?: U warnings not known '
		 'to be new, the step before did not compile what printed them), ok* (unreached: no '
		 'change since the kept build can reach it, not rebuilt), **FAIL** (new with the patch), **FAIL** '
		 '(baseline) or **FAIL** (as before: the same first error line as the step before), '
		 'skip, - (not run).\n\n')
	bad = m.rec.malformed_files()
	if bad:
		o.append(f'**{len(bad)} malformed result file{"" if len(bad) == 1 else "s"}** (their cells '
			 'count as failures): ' + ', '.join(f'`{os.path.relpath(f, m.rec.dir)}` ({w})'
							  for f, w in bad) + '.\n\n')
	cov = m.covered
	o.append('| # | patch |' + ''.join(f' {col} |' for col in m.cols) + (' covered |' if cov else ''))
	o.append('\n| ---: | --- |' + ' --- |' * (len(m.cols) + cov) + '\n')
	if m.colcomp:
		o.append('|  | *compiler* |' + ''.join(f' {shortcc(m.colcomp.get(col, ""))} |'
						      for col in m.cols) + (' |' if cov else '') + '\n')
	for i, s in enumerate(m.steps):
		noapply = m.rec.ran(s) and m.rec.push_failed(s)
		o.append(f'| {i} | {m.patch_label(i)}{" (**does not apply**)" if noapply else ""} |')
		for col in m.cols:
			cell = m.cell(s, col)
			if cell is None:
				t = ' '
			elif cell.status == 'fail':
				t = '**FAIL**' + (f' ({cell.failure})' if cell.old else '')
			elif cell.status == 'notrun':
				t = '-'
			elif cell.status == 'ok' and (pos(cell.new_warnings) or pos(cell.undecided_warnings)):
				t = 'ok' + warn_label(cell)
			elif cell.status == 'ok' and cell.stage == 'unreached':
				t = 'ok*'
			else:
				t = cell.status
			o.append(f' {t} |')
		if cov:
			o.append(f' {_cover_label(m.cover.get(s)) if i else " "} |')
		o.append('\n')
	first = True
	for s in m.steps:
		for col in m.cols:
			cell = m.cell(s, col)
			if cell is None or cell.status != 'fail':
				continue
			if first:
				o.append('\n## Failures\n\n')
				first = False
			why = {'baseline': " (the baseline's)", 'as before': ' (as in the step before)'}.get(cell.failure, '')
			log = f' ([log]({cell.log}))' if cell.log else ''
			e = cell.error.replace('`', "'")
			o.append(f'- {s}, {col}{why}: `{e}`{log}\n')
	if cov:
		o.append('\n## Coverage\n\nPer patch, each file it touches that a build can read, and the '
			 "targets whose build read it before or after the patch, with the number of their "
			 "objects (Kbuild's .cmd files) that name it (make: a Makefile, Kbuild or Kconfig "
			 'file of a folder the build visits).  A file under arch/A/ counts only for targets '
			 'of A.  covered: every file read; partly; **not covered**: none (its green builds '
			 'prove nothing of it); n/a: nothing a build reads.\n\n')
		for i in range(1, len(m.steps)):
			cv = m.cover.get(m.steps[i])
			if cv is not None:
				o.append(f'- {i} {m.patches[i - 1]}: {_cover_label(cv)}: {cv.line()}\n')
	o.append('\n## Generated code\n\nPer patch, against the step before it (fixed build stamps; '
		 'objdump -d of the image): identical bytes, the same code, or the targets whose code '
		 'differs.\n\n')
	o.append('| # | patch | identical | same code | differs | not compared |\n'
		 '| ---: | --- | ---: | ---: | --- | ---: |\n')
	for i in range(1, len(m.steps)):
		s = m.steps[i]
		ni = ns = nn = 0
		dl = []
		for t in m.targets:
			cell = m.cell(s, t)
			if cell.status == 'notrun':
				continue
			if cell.codegen == 'identical':
				ni += 1
			elif cell.codegen == 'same':
				ns += 1
			elif cell.codegen == 'differs':
				dl.append(t)
			else:
				nn += 1
		o.append(f'| {i} | {m.patches[i - 1]} | {ni} | {ns} | {", ".join(dl) or "-"} | {nn} |\n')
	return ''.join(o)


_STYLE = '''body { font: 14px/1.3 sans-serif; margin: 1em; }
table { border-collapse: collapse; }
th, td { border: 1px solid #999; padding: 2px 4px; vertical-align: top; }
thead th { position: sticky; top: 0; background: #eee; }
th.patch { text-align: left; font-weight: normal; white-space: nowrap; }
td { min-width: 4em; max-width: 18em; font-size: 12px; overflow-wrap: anywhere; }
td a { font-weight: bold; color: inherit; }
td .err { display: block; font-family: monospace; font-size: 11px; }
td .meta { display: block; color: #333; white-space: nowrap; }
.ok { background: #b6e3b6; } .ok.warn { background: #f3e27a; } .ok.undecided { background: #e6d9b0; } .ok.unreached { background: #dff2df; }
td.fail, td.skip { min-width: 12em; }
.fail { background: #f2a0a0; } .fail.old { background: #f6cccc; } .skip { background: #d9d0f0; }
.notrun { background: #f4f4f4; color: #777; } .none { background: #fff; }
tr.noapply th { background: #f2a0a0; }
'''


def h(s):
	return html.escape(s, quote=False).replace('"', '&quot;')


def _meta(cell):
	meta = ''
	if cell.wall is not None:
		meta = f'{cell.wall:.1f}s'
	if cell.errors is not None:
		meta = f'{num_str(cell.errors)}e'
	if cell.warnings is not None:
		meta += (' ' if meta else '') + f'{num_str(cell.warnings)}w'
	if pos(cell.new_warnings):
		meta += f' +{num_str(cell.new_warnings)} new'
	if pos(cell.undecided_warnings):
		meta += f' +{num_str(cell.undecided_warnings)} undecided'
	if cell.stage == 'unreached':
		meta = 'unreached'
	if cell.old:
		meta += (' ' if meta else '') + cell.failure
	if cell.codegen == 'differs':
		meta += (' ' if meta else '') + 'code changed'
	elif cell.codegen:
		meta += (' ' if meta else '') + 'code same'
	return meta


def to_html(m, now):
	c = m.count
	np, nt = len(m.patches), len(m.targets)
	o = ['<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n',
	     f'<title>{h(m.base)}: patch by target</title>\n', '<style>\n', _STYLE,
	     '</style>\n</head>\n<body>\n',
	     f'<h1>{_what(m)} on {h(m.base)}: patch by target</h1>\n',
	     f'<p>{np} patch{"" if np == 1 else "es"}, {nt} target{"" if nt == 1 else "s"}; cells: '
	     f'{c["ok"]} ok, {c["fail"]} fail ({m.new} new with their patch), {c["skip"]} skip, '
	     f'{c["notrun"]} not run. Generated {now} by scripts/results; also as '
	     '<a href="results.json">results.json</a> and <a href="results.md">results.md</a>.</p>\n',
	     '<p>Legend: <span class="ok">ok</span> <span class="ok warn">ok, new warnings</span> '
	     '<span class="ok undecided">ok, warnings not known to be new (the step before did not '
	     'compile what printed them)</span> '
	     '<span class="ok unreached">ok, unreached (no change can reach it: not rebuilt)</span> '
	     '<span class="fail">fail, new with the patch</span> <span class="fail old">fail, the '
	     "baseline's or as the step before</span> <span class=\"skip\">skip</span> <span "
	     'class="notrun">not run</span>; each cell links to its log.</p>\n',
	     '<table id="matrix">\n<thead><tr><th>#</th><th>patch</th>\n']
	bad = m.rec.malformed_files()
	if bad:
		o.insert(-1, f'<p class="malformed fail">{len(bad)} malformed result file'
			 f'{"" if len(bad) == 1 else "s"} (their cells count as failures): '
			 + ', '.join(h(f'{os.path.relpath(f, m.rec.dir)} ({w})') for f, w in bad) + '</p>\n')
	o.append(''.join(f'<th>{h(col)}</th>' for col in m.cols) + ('<th>covered</th>' if m.covered else ''))
	o.append('</tr></thead>\n<tbody>\n')
	for i, s in enumerate(m.steps):
		noapply = m.rec.ran(s) and m.rec.push_failed(s)
		cls = ' class="noapply"' if noapply else ''
		na = ' (does not apply)' if noapply else ''
		o.append(f'<tr data-step="{h(s)}"{cls}><th>{i}</th>'
			 f'<th class="patch">{h(m.patch_label(i))}{na}</th>\n')
		for col in m.cols:
			cell = m.cell(s, col)
			if cell is None:
				o.append(f'<td class="none" data-col="{h(col)}" data-status="none"></td>\n')
				continue
			t = cell.status
			label = 'not run' if t == 'notrun' else t
			meta = _meta(cell)
			title = cell.error or label + (', ' + meta if meta else '')
			extra = (' warn' if t == 'ok' and pos(cell.new_warnings) else
				 ' undecided' if t == 'ok' and pos(cell.undecided_warnings) else
				 ' unreached' if cell.stage == 'unreached' else ' old' if cell.old else '')
			o.append(f'<td class="{t}{extra}" data-col="{h(col)}" data-status="{t}" title="{h(title)}">')
			o.append(f'<a href="{h(cell.log)}">{label}</a>' if cell.log else label)
			if meta:
				o.append(f'<span class="meta">{h(meta)}</span>')
			if cell.error:
				o.append(f'<span class="err">{h(cell.error)}</span>')
			o.append('</td>\n')
		if m.covered:
			cv = m.cover.get(s)
			st = cv.status() if cv is not None else ''
			cls = {'covered': 'ok', 'partly': 'ok warn', 'not covered': 'skip', 'n/a': 'notrun'}.get(st, 'none')
			o.append(f'<td class="{cls}" data-col="covered" data-status="{h(st or "none")}" '
				 f'title="{h(cv.line() if cv is not None else "")}">{h(st)}</td>\n')
		o.append('</tr>\n')
	o.append('</tbody>\n</table>\n</body>\n</html>\n')
	return ''.join(o)


def now_utc():
	"""The time of the rendering (SOURCE_DATE_EPOCH when set)."""
	t = os.environ.get('SOURCE_DATE_EPOCH')
	t = int(t) if t and t.isdigit() else time.time()
	return datetime.datetime.fromtimestamp(t, datetime.timezone.utc).strftime('%Y-%m-%dT%H:%M:%SZ')


def render(path, quiet=False):
	"""Write path/results.{json,md,html} of the record in path."""
	rec = record.Record(path)
	m = Matrix(rec)
	now = now_utc()
	outs = {'json': to_json(m, now), 'md': to_md(m), 'html': to_html(m, now)}
	for ext, text in outs.items():
		tmp = rec.path(f'.results.{os.getpid()}.{ext}')
		with open(tmp, 'w', encoding='utf-8', errors='surrogateescape') as f:
			f.write(text)
	for ext in outs:
		os.replace(rec.path(f'.results.{os.getpid()}.{ext}'), rec.path(f'results.{ext}'))
	nmeta, nrepro = write_cells(m)
	if not quiet:
		common.step('RESULTS', f'{rec.dir}/results.html (.json, .md)')
		common.step('META', f'{nmeta} metadata.json, {nrepro} reproduce.sh in the step folders')
	bad = rec.malformed_files()
	for f, why in bad:
		print(f'{common.prog()}: error: {f}: {why} (its cell is shown as a failure)', file=sys.stderr)
	return common.Exit.FAILURE if bad else common.Exit.OK


META = '.metadata.json'
REPRO = '.reproduce.sh'


def write_cells(m):
	"""Per target cell with a readable result: STEP/TARGET.metadata.json;
	per failing one whose target configs/targets still has:
	STEP/TARGET.reproduce.sh.  Those of cells that no longer have one
	(a re-run made it pass) are removed.  Returns the two counts."""
	rec = m.rec
	bcs = metadata.configs_of()
	nmeta = nrepro = 0
	for i, s in enumerate(m.steps):
		if not rec.ran(s):
			continue
		keep = set()
		for t in m.targets:
			if (s, t) in rec.malformed:
				continue
			r = record.read_kv(rec.path(s, t + '.result'))
			if r is None or 'status' not in r:
				continue
			bc = bcs.get(t)
			rp = None
			if r['status'] == 'fail' and bc is not None:
				rp = t + REPRO
				repro.write(rec.path(s, rp), repro.script(m.base, m.patches, i, t, bc, r))
				keep.add(rp)
				nrepro += 1
			doc = metadata.metadata(r, s, t, bc, rp)
			if not os.path.isfile(rec.path(s, t + '.log')):
				doc['series'].pop('log', None)
			_write_json(rec.path(s, t + META), doc)
			keep.add(t + META)
			nmeta += 1
		for n in os.listdir(rec.path(s)):
			if (n.endswith(META) or n.endswith(REPRO)) and n not in keep:
				os.remove(rec.path(s, n))
	return nmeta, nrepro


def _write_json(path, doc):
	tmp = f'{path}.new.{os.getpid()}'
	with open(tmp, 'w', encoding='utf-8', errors='surrogateescape') as f:
		f.write(json.dumps(doc, indent=2, ensure_ascii=False) + '\n')
	os.replace(tmp, path)


def default_dir():
	base = os.environ.get('BASE', '')
	return os.path.join(common.out_dir(), 'ci', base)


def run(args):
	return render(args.dir or default_dir())
