# SPDX-License-Identifier: GPL-2.0
"""csum-placements: the placement table of scripts/csum-bench --placements.

tools/csum-bench prints, among its tables, "csum_partial: bytes per tick
(ratio)": a header line "len off NAME..." and a row per length and offset
with each variant's bytes per tick and, in parentheses, its ratio against
the first variant.  scripts/csum-bench --placements runs four builds of it
that differ only in where the code sits (every variant 0, 16, 32 and 48
bytes into a 64-byte line) and saves each one's output; this reads those
outputs and prints, per row, the median of the builds' bytes per tick for
every variant and, where new-generic and x86-64 both are, their ratio in
each build and the median of those ratios.  It prints figures; it judges
none.
"""

import statistics

from seriesci import common

TITLE = 'csum_partial: bytes per tick'
NEW, X86 = 'new-generic', 'x86-64'


def parse(text, name='<input>'):
	"""The csum_partial bytes-per-tick table of one csum-bench output:
	(variant names, {(len, off): [bytes per tick, ...]}, row keys in order).
	"""
	names, rows, order = None, {}, []
	inside = False
	for line in text.splitlines():
		if line.startswith(TITLE):
			inside = True
			continue
		if not inside:
			continue
		f = line.split()
		if not f:
			if order:
				break
			continue
		if f[:2] == ['len', 'off']:
			names = f[2:]
			continue
		if names is None or not (f[0].isdigit() and f[1].isdigit()):
			continue
		# "7.67 ( 4.14x)": the figure, then its ratio in parentheses
		vals, skip = [], False
		for tok in f[2:]:
			if tok.startswith('(') or skip:
				skip = not tok.endswith(')')
				continue
			try:
				vals.append(float(tok))
			except ValueError:
				raise common.Error(f'{name}: not a figure: {tok!r} in {line.strip()!r}')
		if len(vals) != len(names):
			raise common.Error(f'{name}: {len(vals)} figures for {len(names)} variants in {line.strip()!r}')
		key = (int(f[0]), int(f[1]))
		if key not in rows:
			order.append(key)
		rows[key] = vals
	if not names or not order:
		raise common.Error(f'{name}: no "{TITLE}" table')
	return names, rows, order


def table(outputs, places):
	"""The placement table, as lines: outputs [(name, text)], one per
	build, in the order of places (the bytes into a line of each)."""
	if len(outputs) != len(places) or not outputs:
		raise common.Error(f'{len(outputs)} outputs for {len(places)} placements')
	parsed = [parse(text, name) for name, text in outputs]
	names, _, order = parsed[0]
	for (n, _), (other, _, _) in zip(outputs, parsed):
		if other != names:
			raise common.Error(f'{n}: variants {" ".join(other)}, not {" ".join(names)}')
	cn = names.index(NEW) if NEW in names else None
	cx = names.index(X86) if X86 in names else None
	both = cn is not None and cx is not None
	out = ['', 'csum_partial, placement builds (every variant at %s bytes into a'
	       % ', '.join(str(p) for p in places),
	       '64-byte line): bytes per tick, the median of the %d builds' % len(places)]
	head = '%8s %3s' % ('len', 'off') + ''.join(' %16s' % n for n in names)
	if both:
		head += '   new/x86 at' + ''.join(' %5s' % p for p in places) + '  median'
	out.append(head)
	for key in order:
		per = []
		for (n, _), (_, rows, _) in zip(outputs, parsed):
			if key not in rows:
				raise common.Error(f'{n}: no row for length {key[0]} offset {key[1]}')
			per.append(rows[key])
		line = '%8d %3d' % key
		line += ''.join(' %16.2f' % statistics.median(v[i] for v in per) for i in range(len(names)))
		if both:
			q = [v[cn] / v[cx] if v[cx] else float('inf') for v in per]
			line += ' ' * 13 + ''.join(' %5.2f' % r for r in q) + '  %6.2f' % statistics.median(q)
		out.append(line)
	return out


def run(args):
	if len(args.places) != len(args.outputs):
		raise common.Usage(f'{len(args.places)} placements (--places) for {len(args.outputs)} outputs')
	outputs = []
	for path in args.outputs:
		with open(path, encoding='utf-8', errors='replace') as f:
			outputs.append((path, f.read()))
	print('\n'.join(table(outputs, args.places)))
	return common.Exit.OK


def add_parser(sub):
	p = sub.add_parser(
		allow_abbrev=False, name='csum-placements',
		help='the median table of scripts/csum-bench --placements',
		description='Read the outputs of tools/csum-bench built with its code at different '
		'places in a 64-byte line, and print per length and offset the median of their '
		'csum_partial bytes per tick for every variant and, where new-generic and x86-64 '
		'both are, new/x86 in each build and the median of those.  A benchmark table: '
		'it prints figures and judges none.',
		epilog='Exit codes: 0 printed, 1 an output without its table (nothing printed), 2 usage.')
	p.add_argument('--places', required=True, type=lambda s: [int(x) for x in s.split()],
		       metavar='"P..."', help='the bytes into a line of each output, in order ("0 16 32 48")')
	p.add_argument('outputs', nargs='+', metavar='OUTPUT', help="a csum-bench build's output, one per place")
	p.set_defaults(func=run)
