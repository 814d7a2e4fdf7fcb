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
import fnmatch
import os
import re
import subprocess

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
	"""Pin.line() of BASE, or '' when no pin has it; with LINUX_GIT, the
	commit's: git COMMIT DESCRIBE."""
	if os.environ.get('LINUX_GIT'):
		return git_resolve(base).line()
	p = find(base)
	return p.line() if p else ''


def name(ref):
	"""The name in OUT of the baseline REF: with LINUX_GIT its
	git_resolve() name; else the upstream version of a Debian version
	(7.3~rc7-1~exp1: 7.3-rc7), or REF."""
	if os.environ.get('LINUX_GIT'):
		return git_resolve(ref).name
	if '~' in ref or fnmatch.fnmatchcase(ref, '[0-9]*.*-[0-9]*'):
		return upstream_of(ref)
	return ref


def default(out=None):
	"""The pinned base, or, when that has left the archive and this OUT
	has no copy of it, the mainline version scripts/fetch-baseline fell
	back to (OUT/apt/fallback).  With LINUX_GIT: the name of the tag of
	the pinned version, vPINNED."""
	if os.environ.get('LINUX_GIT'):
		return git_resolve('v' + first_version(pins_file())).name
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


_GIT_DOC = """LINUX_GIT=DIR, a clone of Linux (bare or not), and BASE=REF, a tag,
a branch or a commit of it: the baseline is that commit.  Its name in OUT
(src/NAME, linux-NAME, ci/NAME, export/NAME) is REF when REF is a tag,
else the commit's git describe --tags (v7.3-rc7-5-g0123456789ab): a
commit's name never changes, so a branch that moved names another
baseline.  The user's clone is only read."""


# --- the machine's Debian archive ------------------------------------------

APT_SOURCES = ('/etc/apt/sources.list', '/etc/apt/sources.list.d/*.list',
	       '/etc/apt/sources.list.d/*.sources')
_RELEASE = re.compile(r'^(buster|bullseye|bookworm|trixie|forky|duke|sid|stable|testing|unstable|'
		      r'oldstable|experimental)(-(updates|security|backports))?(/updates)?$')


def _sources_text(patterns=APT_SOURCES):
	import glob
	out = []
	for pat in patterns:
		for f in sorted(glob.glob(pat)) if '*' in pat else [pat]:
			try:
				with open(f, encoding='utf-8', errors='replace') as fh:
					out.append(fh.read() + '\n')
			except OSError:
				pass
	return ''.join(out)


def machine_archive(security=False, text=None):
	"""The URI of the machine's Debian archive: the first source of
	component main for a Debian release suite (a -security suite when
	SECURITY, else any other), in one-line or deb822 sources (TEXT: their
	text, default the machine's apt sources); '' when there is none."""
	text = _sources_text() if text is None else text

	def take(uri, suite):
		return uri if _RELEASE.match(suite) and security == ('security' in suite) else None
	stanza = {}

	def flush():
		typ, uri = stanza.get('Types', ''), stanza.get('URIs', '')
		found = None
		if 'deb' in typ.split() and uri and 'main' in stanza.get('Components', '').split():
			for suite in stanza.get('Suites', '').split():
				found = found or take(uri, suite)
		stanza.clear()
		return found
	for l in text.split('\n'):
		if re.match(r'^[ \t]*#', l):
			continue
		if re.match(r'^deb[ \t]', l):
			w = re.sub(r'\[[^]]*\]', '', l).split()
			if len(w) >= 3 and ((len(w) > 3 and w[3] == 'main') or re.search(r' main( |$)', ' '.join(w))):
				found = take(w[1], w[2])
				if found:
					return found
			continue
		m = re.match(r'^(Types|URIs|Suites|Components):[ \t]*(.*)$', l)
		if m:
			v = m.group(2)
			stanza[m.group(1)] = v.split()[0] if m.group(1) == 'URIs' and v.split() else v
		elif not l.strip():
			found = flush()
			if found:
				return found
	return flush() or ''


# --- a git tree as the baseline (LINUX_GIT): _GIT_DOC above ---------------

def _git(git_dir, *args):
	# the clone's own repository, whatever git a caller points at
	env = {k: v for k, v in os.environ.items() if k not in (
		'GIT_DIR', 'GIT_WORK_TREE', 'GIT_INDEX_FILE', 'GIT_COMMON_DIR',
		'GIT_OBJECT_DIRECTORY', 'GIT_ALTERNATE_OBJECT_DIRECTORIES')}
	r = subprocess.run(['git', '-C', git_dir] + list(args), stdout=subprocess.PIPE,
			   stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, env=env)
	return r.returncode, r.stdout.decode('utf-8', 'replace').strip(), r.stderr.decode('utf-8', 'replace').strip()


@dataclasses.dataclass
class GitBase:
	name: str	# the baseline's name in OUT
	commit: str	# its full commit id
	describe: str	# git describe --tags --always of it
	ref: str	# what the user gave

	def line(self):
		"""What a record says of it (the fingerprints' base id)."""
		return f'git {self.commit} {self.describe}'


def git_resolve(ref, git_dir=None):
	"""The GitBase of REF in the clone GIT_DIR (default $LINUX_GIT)."""
	git_dir = git_dir or os.environ.get('LINUX_GIT', '')
	if not git_dir:
		raise common.Error('no LINUX_GIT: give the clone of Linux, LINUX_GIT=DIR')
	rc, gd, err = _git(git_dir, 'rev-parse', '--git-dir')
	if rc:
		raise common.Error(f'LINUX_GIT={git_dir} is not a git repository ({err or "git rev-parse failed"}): '
				   'give a clone of Linux, bare or not')
	if not ref or ref.startswith('-'):
		raise common.Error(f'BASE={ref!r} is not a tag, branch or commit of {git_dir}')
	rc, commit, err = _git(git_dir, 'rev-parse', '-q', '--verify', f'{ref}^{{commit}}')
	if rc or not commit:
		raise common.Error(f'BASE={ref} is not a tag, branch or commit of LINUX_GIT={git_dir}: '
				   f'see git -C {git_dir} tag, branch -a (the clone is yours to update: git fetch)')
	rc, desc, _ = _git(git_dir, 'describe', '--tags', '--always', '--abbrev=12', commit)
	desc = desc or commit[:12]
	rc, _, _ = _git(git_dir, 'rev-parse', '-q', '--verify', f'refs/tags/{ref}')
	name = ref if rc == 0 and re.match(r'^[A-Za-z0-9][A-Za-z0-9._+-]*$', ref) else desc
	if not re.match(r'^[A-Za-z0-9][A-Za-z0-9._+-]*$', name):
		name = commit[:12]
	return GitBase(name, commit, desc, ref)


def git_objects(git_dir=None):
	"""The object folder of the clone (for an export's alternates)."""
	git_dir = git_dir or os.environ.get('LINUX_GIT', '')
	rc, d, err = _git(git_dir, 'rev-parse', '--git-common-dir')
	if rc:
		raise common.Error(f'LINUX_GIT={git_dir}: {err}')
	return os.path.abspath(os.path.join(d if os.path.isabs(d) else os.path.join(git_dir, d), 'objects'))


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
	q = rs.add_parser(allow_abbrev=False, name='name', help="the name in OUT of a baseline (lib.sh base_name)")
	q.add_argument('ref', metavar='REF')
	q.set_defaults(func=lambda a: _print(name(a.ref)))
	q = rs.add_parser(allow_abbrev=False, name='line',
			  help='"package debversion sha256 suite" of BASE from the pins, or nothing')
	q.add_argument('base', metavar='BASE', help='an upstream (7.3-rc7) or Debian (7.3~rc7-1~exp1) version')
	q.set_defaults(func=lambda a: _print(pin_line(a.base) or None))
	q = rs.add_parser(allow_abbrev=False, name='archive',
			  help="the URI of the machine's Debian archive (lib.sh machine_archive)",
			  description=' '.join(machine_archive.__doc__.split()))
	q.add_argument('--security', action='store_true', help='its security archive instead')
	q.set_defaults(func=lambda a: _print(machine_archive(a.security) or None))
	q = rs.add_parser(allow_abbrev=False, name='git',
			  help='with LINUX_GIT: "NAME COMMIT DESCRIBE" of a tag, branch or commit',
			  description=' '.join(_GIT_DOC.split()))
	q.add_argument('ref', metavar='REF')
	q.add_argument('--objects', action='store_true', help="print the clone's object folder instead")
	q.set_defaults(func=lambda a: _print(git_objects() if a.objects else
					     ' '.join(dataclasses.astuple(git_resolve(a.ref))[:3])))
	return p


def _print(s):
	if s is not None:
		print(s)
	return common.Exit.OK
