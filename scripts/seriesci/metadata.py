# SPDX-License-Identifier: GPL-2.0
"""metadata: a metadata.json per build cell, with tuxmake's field names.

	DIR/NNN-NAME/TARGET.metadata.json

tuxmake's metadata.json (docs/metadata.md of tuxmake) is an object of
groups (build, compiler, results, vmlinux, tools, ...), each of key/value
items; a group or item that does not apply is left out.  Here every value
comes from the cell's result file (build-arch's compiler=, binutils=,
seconds=, warnings=, vmlinux_size=, status=, stage=, runtime=) or, for how
the target is configured, from configs/targets and its Kconfig fragments
(the same reading scripts/build-arch does).  What neither says is left
out: no start time, no ccache figures, no error count, no kernelrelease.
The items the series adds are in a group of its own, "series".
"""
import os
import re

from seriesci import common
from seriesci import targets as targets_mod

# a result's status as tuxmake writes it
STATUS = {'ok': 'PASS', 'fail': 'FAIL', 'skip': 'SKIP'}
_VER_RE = re.compile(r'^[0-9]+\.[0-9]+(\.[0-9]+)*$')


class BuildConfig:
	"""How scripts/build-arch configures and builds a target, from its
	line of configs/targets: ARCH, CROSS_COMPILE, the make variables but
	build-arch's own RUNTIME=, GCC_SUFFIX= and TOOLCHAIN=, LLVM=, the image and the
	Kconfig fragments after tinyconfig (configs/base.config, then what
	configs/TARGET.config includes with "# include: NAME.config", then
	configs/TARGET.config), relative to the repository."""

	def __init__(self, t, configs_dir):
		self.target = t.name
		self.arch = t.arch
		self.cross = '' if t.cross == '-' else t.cross
		self.runtime = ''
		self.gcc_suffix = ''
		self.crosstool = ''
		self.makevars = []
		self.llvm = ''
		for v in t.vars:
			k, _, val = v.partition('=')
			if k == 'RUNTIME':
				self.runtime = val
			elif k == 'GCC_SUFFIX':
				self.gcc_suffix = val
			elif k == 'TOOLCHAIN':
				self.crosstool = self.cross if val == 'crosstool' else ''
			else:
				self.makevars.append(v)
				if k == 'LLVM':
					self.llvm = val
		self.image = 'linux' if self.arch == 'um' else 'vmlinux'
		rel = os.path.relpath(configs_dir, common.repo())
		rel = 'configs' if rel.startswith('..') else rel
		own = os.path.join(configs_dir, t.name + '.config')
		incl = []
		try:
			with open(own, encoding='utf-8') as f:
				for l in f:
					m = re.match(r'^# include: *([^ ]*\.config)', l)
					if m:
						incl.append(m.group(1))
		except OSError:
			pass
		self.fragments = [f'{rel}/base.config'] + [f'{rel}/{i}' for i in incl] + [f'{rel}/{t.name}.config']

	def cc(self):
		"""The CC= a plain make needs (build-arch adds ccache), or ''."""
		if self.gcc_suffix and not self.llvm:
			return f'{self.cross}gcc{self.gcc_suffix}'
		return ''

	def environment(self):
		"""The make variables as tuxmake's build.environment."""
		env = {'ARCH': self.arch}
		if self.cross:
			env['CROSS_COMPILE'] = self.cross
		if self.cc():
			env['CC'] = self.cc()
		for v in self.makevars:
			k, _, val = v.partition('=')
			env[k] = val
		return env


def configs_of(configs_dir=None):
	"""target name -> BuildConfig of the targets file, {} when none."""
	configs_dir = configs_dir or os.environ.get('CONFIGS') or os.path.join(common.repo(), 'configs')
	path = os.environ.get('TARGETS_FILE') or os.path.join(configs_dir, 'targets')
	if not os.path.isfile(path):
		return {}
	return {t.name: BuildConfig(t, configs_dir) for t in targets_mod.read(path)}


def compiler_of(line):
	"""tuxmake's compiler group of a --version first line: name, short
	version, full version; {} for an empty line."""
	if not line:
		return {}
	name = 'clang' if 'clang' in line else 'gcc' if ('gcc' in line or 'GCC' in line) else None
	ver = None
	for w in line.split():
		if _VER_RE.match(w):
			ver = w
	out = {}
	if name:
		out['name'] = name
	if ver:
		out['version'] = ver
	out['version_full'] = line
	return out


def toolchain_of(line, bc):
	"""tuxmake's toolchain name: gcc-12, clang-19, llvm-19 (LLVM=), from
	the compiler line; None when it names no known compiler."""
	c = compiler_of(line)
	if 'name' not in c or 'version' not in c:
		return None
	major = c['version'].split('.')[0]
	name = 'llvm' if (bc is not None and bc.llvm) else c['name']
	return f'{name}-{major}'


def metadata(rec_result, step, cell, bc, reproducer=None):
	"""The metadata.json object of one build cell.  rec_result: the key=
	value dict of the cell's result file (record.read_kv, not
	normalised); bc: its BuildConfig, or None when configs/targets has
	no such target any more; reproducer: the reproducer's file name."""
	r = rec_result
	st = r.get('status', '')
	status = STATUS.get(st, 'FAIL')
	build = {'targets': ['kernel']}
	if bc is not None:
		build['target_arch'] = bc.arch
		build['kconfig'] = 'tinyconfig'
		build['kconfig_add'] = list(bc.fragments)
		build['environment'] = bc.environment()
	tc = toolchain_of(r.get('compiler', ''), bc)
	if tc:
		build['toolchain'] = tc
	# tuxmake's runtime names where the build ran; build-arch's empty
	# runtime= is this machine (tuxmake's "null" runtime)
	if 'runtime' in r:
		build['runtime'] = r['runtime'] or 'null'
	if reproducer:
		build['reproducer_cmdline'] = ['sh', reproducer]
	doc = {'build': build}
	comp = compiler_of(r.get('compiler', ''))
	if comp:
		doc['compiler'] = comp
	if r.get('binutils'):
		doc['tools'] = {'ld': r['binutils']}
	res = {'status': status, 'targets': {'kernel': {'status': status}}}
	dur = _num(r.get('seconds'))
	if dur is not None:
		res['targets']['kernel']['duration'] = dur
	size = _num(r.get('vmlinux_size'))
	image = bc.image if bc is not None else 'vmlinux'
	if st == 'ok' and size:
		res['artifacts'] = {'kernel': [image]}
	w = _num(r.get('warnings'))
	if w is not None:
		res['warnings'] = int(w)
	doc['results'] = res
	if st == 'ok' and size:
		doc['vmlinux'] = {'file_size': int(size)}
	series = {'base': r.get('base') or None, 'step': step, 'target': cell,
		  'stage': r.get('stage') or None}
	for k in ('new_warnings', 'undecided_warnings'):
		v = _num(r.get(k))
		if v is not None:
			series[k] = int(v)
	for k in ('codegen', 'image_sha', 'code_sha', 'first_error'):
		if r.get(k):
			series[k] = r[k]
	series['log'] = f'{cell}.log'
	doc['series'] = series
	return doc


def _num(s):
	if s is None or not re.match(r'^[0-9]+(\.[0-9]+)?$', s):
		return None
	v = float(s)
	return int(v) if v == int(v) else v
