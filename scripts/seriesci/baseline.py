# SPDX-License-Identifier: GPL-2.0
"""Baselines: the pinned kernel sources and the version rule.

scripts/baselines (BASELINES) pins the Debian packages a baseline comes
from, a line each:

	package  debversion  suite  sha256

(an older three-field line, without the suite, reads as suite "-");
comment lines start with #.  The first line is the default BASE: the
newest mainline version pinned.  $OUT/apt/pins holds the pins
scripts/fetch-baseline made for versions the file does not list.

A baseline is named by the kernel's own version: Debian's 7.3~rc7-1~exp1
is 7.3-rc7, 6.12.118-1~deb12u1 is 6.12.118 (upstream_of: the Debian
revision dropped, "~" read as "-").  It comes from the package
linux-source-MAJOR.MINOR (package_of).  This is the one place of the
rule and the one reader of the pin files; the shell asks it through
`seriesci baseline`.
"""
import dataclasses
import os
import re

from seriesci import common, record


def upstream_of(version):
	"""The kernel's name of a Debian version: 7.3~rc7-1~exp1 -> 7.3-rc7."""
	if '-' in version:
		version = version.rsplit('-', 1)[0]
	return version.replace('~', '-')


def package_of(base):
	"""The Debian package that carries upstream BASE (7.3-rc7 and 7.3.1
	are in linux-source-7.3)."""
	w = re.split(r'[-.~]', base)
	return f'linux-source-{w[0]}.{w[1] if len(w) > 1 else ""}'


@dataclasses.dataclass
class Pin:
	package: str
	version: str
	suite: str
	sha256: str

	@property
	def upstream(self):
		return upstream_of(self.version)

	def line(self):
		"""What lib.sh's baseline_line printed: package version sha256 suite."""
		return f'{self.package} {self.version} {self.sha256} {self.suite}'


def pins_file():
	return os.environ.get('BASELINES') or os.path.join(common.repo(), 'scripts', 'baselines')


def read(path):
	"""The pins of a file, in order; [] when there is none."""
	try:
		text = record.read_text(path)
	except FileNotFoundError:
		return []
	out = []
	for l in common.awk_lines(text):
		if l.startswith('#'):
			continue
		w = l.split()
		if len(w) == 4:
			out.append(Pin(w[0], w[1], w[2], w[3]))
		elif len(w) == 3:
			out.append(Pin(w[0], w[1], '-', w[2]))
	return out


def first_version(path):
	"""The upstream version of the file's first line that is not a
	comment (the default BASE), or ''."""
	try:
		text = record.read_text(path)
	except FileNotFoundError:
		return ''
	for l in common.awk_lines(text):
		w = l.split()
		if w and not l.startswith('#'):
			return upstream_of(w[1]) if len(w) > 1 else ''
	return ''


def find(base, out=None):
	"""The pin of BASE (an upstream or a Debian version) in BASELINES,
	then in OUT/apt/pins; None when neither has it."""
	out = out or common.out_dir()
	for path in (pins_file(), os.path.join(out, 'apt', 'pins')):
		for p in read(path):
			if base in (p.version, p.upstream):
				return p
	return None


def pin_line(base):
	"""Pin.line() of BASE, or '' when no pin has it."""
	p = find(base)
	return p.line() if p else ''


def default(out=None):
	"""The pinned base, or, when that has left the archive and this OUT
	has no copy of it, the mainline version scripts/fetch-baseline fell
	back to (OUT/apt/fallback)."""
	out = out or common.out_dir()
	b = first_version(pins_file())
	fb = os.path.join(out, 'apt', 'fallback')
	if not os.path.isfile(fb) or os.path.isfile(os.path.join(out, 'src', b, 'Makefile')):
		return b
	p = find(b, out)
	deb = os.path.join(out, 'dl', f'{p.package}_{p.version}_all.deb' if p else '_all.deb')
	if os.path.isfile(deb):
		return b
	return record.read_text(fb).split('\n')[0]


def add_parser(sub):
	p = sub.add_parser(
		allow_abbrev=False, name='baseline', help='the pinned baselines and the version rule',
		description=' '.join(__doc__.split('\n\n')[3].split()),
		epilog='BASELINES: the pin file (default scripts/baselines); OUT: the products '
		'(OUT/apt/pins, OUT/apt/fallback).  Exit codes: 0 done, 1 an error, 2 usage.')
	rs = p.add_subparsers(dest='action', metavar='ACTION', required=True)
	q = rs.add_parser(allow_abbrev=False, name='upstream-of', help="the kernel's name of a Debian version")
	q.add_argument('version', metavar='VERSION')
	q.set_defaults(func=lambda a: _print(upstream_of(a.version)))
	q = rs.add_parser(allow_abbrev=False, name='package-of', help='the Debian package of an upstream version')
	q.add_argument('base', metavar='BASE')
	q.set_defaults(func=lambda a: _print(package_of(a.base)))
	q = rs.add_parser(allow_abbrev=False, name='pinned', help="the first pin's version: the default BASE")
	q.set_defaults(func=lambda a: _print(first_version(pins_file())))
	q = rs.add_parser(allow_abbrev=False, name='default',
			  help='the pinned base, or the fallback when it has left the archive and OUT has no copy')
	q.set_defaults(func=lambda a: _print(default()))
	q = rs.add_parser(allow_abbrev=False, name='line',
			  help='"package debversion sha256 suite" of BASE from the pins, or nothing')
	q.add_argument('base', metavar='BASE', help='an upstream (7.3-rc7) or Debian (7.3~rc7-1~exp1) version')
	q.set_defaults(func=lambda a: _print(pin_line(a.base) or None))
	return p


def _print(s):
	if s is not None:
		print(s)
	return common.Exit.OK
