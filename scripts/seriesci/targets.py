# SPDX-License-Identifier: GPL-2.0
"""configs/targets: the build targets, one line each.

	target  ARCH  CROSS_COMPILE  tier  [more make variables]

Comment lines start with #; blank lines are ignored.  This is the one
reader of the file; the shell asks it through `seriesci targets`.
"""
import dataclasses
import os

from seriesci import common

FIELDS = ('name', 'arch', 'cross', 'tier', 'vars')


@dataclasses.dataclass
class Target:
	name: str
	arch: str
	cross: str = '-'
	tier: str = ''
	vars: tuple = ()
	line: str = ''

	def field(self, name):
		if name == 'vars':
			return ' '.join(self.vars)
		if name == 'line':
			return self.line
		return getattr(self, name)


def default_file():
	return os.environ.get('TARGETS_FILE') or os.path.join(
		os.environ.get('CONFIGS') or os.path.join(common.repo(), 'configs'),
		'targets')


def parse(text):
	"""The targets of the text of a targets file, in file order."""
	out = []
	for l in text.splitlines():
		if l.startswith('#'):
			continue
		w = l.split()
		if not w:
			continue
		w += [''] * (4 - len(w)) if len(w) < 4 else []
		out.append(Target(w[0], w[1], w[2] or '-', w[3], tuple(w[4:]), l))
	return out


def read(path=None):
	path = path or default_file()
	try:
		with open(path, encoding='utf-8') as f:
			return parse(f.read())
	except OSError as e:
		raise common.Error(f'cannot read the targets file {path}: {e.strerror}')


def arch_of(targets):
	return {t.name: t.arch for t in targets}


def run(args):
	"""`targets`: print targets (one a line) or fields of them."""
	ts = read(args.file)
	if args.tier:
		ts = [t for t in ts if t.tier == args.tier]
		if not ts:
			raise common.Error(f"no targets of tier '{args.tier}' in {args.file or default_file()}")
	if getattr(args, 'with_var', None):
		ts = [t for t in ts if args.with_var in t.vars]
	if args.names:
		by = {t.name: t for t in ts}
		for n in args.names:
			if n not in by:
				raise common.Error(f"unknown target '{n}': see {args.file or default_file()}")
		ts = [by[n] for n in args.names]
	if args.sort:
		ts = sorted(ts, key=lambda t: t.name)
	for t in ts:
		print(t.field(args.field))
	return common.Exit.OK
