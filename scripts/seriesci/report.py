# SPDX-License-Identifier: GPL-2.0
"""report: the per-commit bisect report of a run, as 0-day mails it.

For a ci-series record (every target built after every patch) and the
series file's destinations ("#@ destination: NAME" lines, as
scripts/destinations reads them), one plain-text report per destination
series: its verdict (BUILD REGRESSION, BUILD SUCCESS WITH WARNING, BUILD
SUCCESS, or NOT DECIDED when a cell of it was not built or, with no new
warning, has warnings not known to be new), the first bad
commit and the targets it breaks, every failure with new ones marked
">>", the new warnings marked "+", those not known to be new "?", the
failures it inherits, and the
reproduce recipe of the first bad cell (STEP/TARGET.reproduce.sh, which
scripts/results writes).

A failure is new with its patch when the step before did not fail with
the same first error line (render.provenance); a patch that does not
apply is a failure of that patch.
"""
import os

from seriesci import common
from seriesci import metadata
from seriesci import record
from seriesci import render
from seriesci import repro
from seriesci import series as series_mod

def destinations(series_file):
	"""[(name, version, [patch, ...])] of a series file, in order
	(series.destinations, not strict: patches above the first destination
	line are "(no destination)"; lint and scripts/destinations check the
	file)."""
	return [(d.name, d.version, d.patches) for d in series_mod.destinations(series_file, strict=False)]


def cover(dests, patches):
	"""dests, plus one "(not in the series file)" for the record's
	patches that no destination holds, so that none goes unreported."""
	held = {p for d in dests for p in d[2]}
	rest = [p for p in patches if p not in held]
	return list(dests) + ([('(not in the series file)', '1', rest)] if rest else [])


class Dest:
	"""One destination series of a matrix: what its steps say."""

	def __init__(self, m, name, version, patches):
		self.name, self.version = name, version
		idx = {p: i + 1 for i, p in enumerate(m.patches)}
		self.missing = [p for p in patches if p not in idx]
		self.steps = [idx[p] for p in patches if p in idx]
		self.m = m
		self.failures = []      # (index, column, cell, new)
		self.warnings = []      # (index, target, cell)
		self.undecided = []     # (index, target, cell): warnings not known to be new
		self.notrun = []        # (index, target)
		self.noapply = []       # index
		cols = list(m.targets) + [c for c in m.cols if c not in m.targets]
		prov = {c: render.provenance([self._sc(s, c) for s in m.steps]) for c in cols
			if c not in m.targets}
		for i in self.steps:
			s = m.steps[i]
			if m.rec.ran(s) and m.rec.push_failed(s):
				self.noapply.append(i)
			for c in cols:
				cell = m.cell(s, c)
				if cell is None:
					continue
				if cell.status == 'fail':
					new = (cell.failure == 'new') if c in m.targets else prov[c][i] == 'new'
					self.failures.append((i, c, cell, new))
				elif cell.status == 'notrun':
					self.notrun.append((i, c))
				elif cell.status == 'ok':
					if render.pos(cell.new_warnings):
						self.warnings.append((i, c, cell))
					if render.pos(cell.undecided_warnings):
						self.undecided.append((i, c, cell))
		bad = [i for i, c, cell, new in self.failures if new] + self.noapply
		self.first_bad = min(bad) if bad else None

	def _sc(self, s, c):
		cell = self.m.cell(s, c)
		return (cell.status, cell.error) if cell is not None else ('', '')

	def verdict(self):
		if self.first_bad is not None:
			return 'BUILD REGRESSION'
		if self.notrun or self.missing or not self.steps:
			return 'NOT DECIDED'
		if self.warnings:
			return 'BUILD SUCCESS WITH WARNING'
		if self.undecided:
			return 'NOT DECIDED'
		return 'BUILD SUCCESS'


def text(m, dests, record_dir, series_file):
	"""The report: one mail-like text per destination, separated by a
	line of dashes."""
	bcs = metadata.configs_of()
	out = []
	for name, version, patches in dests:
		d = Dest(m, name, version, patches)
		out.append(_one(m, d, bcs, record_dir, series_file))
	return ('\n' + '-' * 72 + '\n\n').join(out)


def _label(m, i):
	return m.steps[i]


def _one(m, d, bcs, record_dir, series_file):
	o = []
	a = o.append
	n = len(d.steps)
	head = m.steps[d.steps[-1]] if d.steps else '(none in the run)'
	a(f'Subject: [asm-generic series {d.name} v{d.version}] {d.verdict()} '
	  f'{m.base} + {n} patch{"" if n == 1 else "es"}')
	a('')
	a(f'destination: {d.name} (v{d.version}; series file {series_file})')
	a(f'base:        {m.base}')
	a(f'head:        {head}')
	a(f'record:      {record_dir}')
	cells = len(d.steps) * len(m.targets)
	a(f'targets:     {" ".join(m.targets) or "(none)"} ({cells - len([x for x in d.notrun if x[1] in m.targets])}'
	  f' of {cells} build cells built)')
	if d.missing:
		a(f'not in the run: {" ".join(d.missing)} (the record is of another series: no verdict on them)')
	a('')
	if d.first_bad is not None:
		i = d.first_bad
		s = m.steps[i]
		a(f'first bad commit: {s} ({m.patches[i - 1]})')
		broke = [(c, cell) for j, c, cell, new in d.failures if j == i and new]
		if i in d.noapply:
			a('        the patch does not apply (push.result)')
		for c, cell in broke:
			a(f'        {c}: {cell.error or "(no error line)"}')
		tgt = next((c for c, cell in broke if c in m.targets), None)
		if tgt:
			bc = bcs.get(tgt)
			cell = m.cell(s, tgt)
			if bc is not None:
				a(f'config:   {tgt} (ARCH={bc.arch}'
				  + (f' CROSS_COMPILE={bc.cross}' if bc.cross else '')
				  + ''.join(f' {v}' for v in bc.makevars)
				  + f'; tinyconfig + {" + ".join(bc.fragments)})')
			if cell.compiler:
				a(f'compiler: {cell.compiler}'
				  + (f' (in the runtime {bc.runtime})' if bc is not None and bc.runtime else ''))
			a('')
			a('reproduce:')
			rp = os.path.join(record_dir, s, tgt + '.reproduce.sh')
			if bc is None:
				a(f'        ({tgt} is not in configs/targets any more: no recipe)')
			else:
				a('        # on a clean Debian 12 machine, in a clone of the repository')
				a('        # at the commit of the run:')
				if os.path.isfile(rp):
					a(f'        sh {rp}            # --dry-run prints the commands')
				a('        # that is (REPO: the clone, OUT=$REPO/out, BASE=' + m.base + ',')
				a(f'        # T=$OUT/repro-{s}-{tgt}/linux, B=$OUT/repro-{s}-{tgt}/build):')
				for _, kind, cmd in repro.commands(m.base, m.patches, i, bc):
					a(f'        {cmd}')
		a('')
	new = [f for f in d.failures if f[3]]
	old = [f for f in d.failures if not f[3]]
	if d.failures:
		a('All errors (new ones prefixed by >>):')
		a('')
		for i, c, cell, isnew in d.failures:
			why = '' if isnew else f' ({cell.failure or "as before"})'
			a(f'{">>" if isnew else "  "} {m.steps[i]} {c}{why}: {cell.error or "(no error line)"}')
			if cell.log:
				a(f'   log: {os.path.join(record_dir, cell.log)}')
		a('')
	if d.warnings:
		a('New warnings (prefixed by +; ok builds):')
		a('')
		for i, c, cell in d.warnings:
			a(f'+  {m.steps[i]} {c}: {render.num_str(cell.new_warnings)} new warning line'
			  f'{"" if cell.new_warnings == 1 else "s"}'
			  + (f' (log: {os.path.join(record_dir, cell.log)})' if cell.log else ''))
		a('')
	if d.undecided:
		a('Warnings not known to be new (prefixed by ?; the step before did not compile what printed them):')
		a('')
		for i, c, cell in d.undecided:
			a(f'?  {m.steps[i]} {c}: {render.num_str(cell.undecided_warnings)} warning line'
			  f'{"" if cell.undecided_warnings == 1 else "s"} not in the step before'
			  + (f' (log: {os.path.join(record_dir, cell.log)})' if cell.log else ''))
		a('')
	if d.notrun:
		a(f'Not built ({len(d.notrun)} cells; no verdict on them):')
		for i in sorted({i for i, c in d.notrun}):
			a(f'   {m.steps[i]}: {" ".join(c for j, c in d.notrun if j == i)}')
		a('')
	a(f'Summary: {len(d.steps)} commit{"" if len(d.steps) == 1 else "s"}, {len(new) + len(d.noapply)} new failures, '
	  f'{len(old)} inherited, {len(d.warnings)} cells with new warnings, '
	  f'{len(d.undecided)} with undecided ones, {len(d.notrun)} not built.')
	if d.verdict() == 'BUILD SUCCESS':
		a('Every commit of this series builds on every target of the run.')
	return '\n'.join(o) + '\n'


def default_series():
	return os.environ.get('QUILT_SERIES') or os.path.join(common.repo(), 'series')


def run(args):
	rec = record.Record(args.dir or render.default_dir())
	m = render.Matrix(rec)
	sf = os.path.abspath(args.series or default_series())
	dests = destinations(sf)
	if not dests:
		raise common.Error(f'{sf}: no patch in the series file: name one with --series')
	dests = cover(dests, m.patches)
	if args.destination:
		dests = [x for x in dests if x[0] in args.destination]
		unknown = set(args.destination) - {x[0] for x in dests}
		if unknown:
			raise common.Error(f'no destination {" ".join(sorted(unknown))} in {sf}')
	t = text(m, dests, rec.dir, sf)
	if args.output:
		tmp = f'{args.output}.new.{os.getpid()}'
		with open(tmp, 'w', encoding='utf-8', errors='surrogateescape') as f:
			f.write(t)
		os.replace(tmp, args.output)
		common.step('REPORT', args.output)
	else:
		print(t, end='')
	bad = rec.malformed_files()
	for f, why in bad:
		common.warn(f'{f}: {why} (counted as a failure)')
	verdicts = [Dest(m, *x).verdict() for x in dests]
	if 'BUILD REGRESSION' in verdicts:
		return common.Exit.REGRESSION
	if 'NOT DECIDED' in verdicts or bad:
		return common.Exit.UNDECIDED
	return common.Exit.OK
