# SPDX-License-Identifier: GPL-2.0
"""coverage: does a step's build compile what its patch changes?

"vmlinux identical" proves nothing for a file that no object of the
build reads.  Per target cell, ci-series writes into TARGET.result:

  arch=riscv      the target's arch/ folder (configs/targets column 2)
  covers=F:N ...  every file the step's patch touches that a kernel build
                  can read (not Documentation/, tools/, MAINTAINERS...),
                  with what this build read of it after the patch: N, the
                  number of its objects (Kbuild's .cmd files) that name
                  it; "make" for a Makefile, Kbuild or Kconfig file of a
                  folder the build visits; "-" for a file under another
                  architecture's arch/ folder (not this target's)
  covers_next=... the same for the next patch's files, read at this step,
                  before that patch (a file a patch deletes is read only
                  there)

(only when the build succeeded: a failed build's index is an older one's).

judge() joins them per patch: a file is compiled where a target of its
architecture (any target for a file outside arch/) read it before or
after the patch.  The patch is "covered" when every such file is,
"partly" when some are, "not covered" when none is, and "n/a" when it
touches nothing a build reads (documentation only): a step whose change
no build compiles is never shown as proven by its green builds.
"""
import re

_NOT_BUILT = re.compile(r'^(Documentation|tools|LICENSES|samples/bpf)/|^(MAINTAINERS|CREDITS|README|COPYING|'
			r'\.mailmap|\.gitignore)$|/\.gitignore$')
_BUILD_FILE = re.compile(r'^(Makefile|Kbuild|Kconfig)(\..*)?$|\.mk$')


def buildable(path):
	"""Whether a kernel build can read PATH at all."""
	return not _NOT_BUILT.search(path)


def arch_of(path):
	"""The arch/ folder a file belongs to, '' outside arch/."""
	p = path.split('/')
	return p[1] if len(p) > 2 and p[0] == 'arch' else ''


def figure(path, arch, read):
	"""What a build of ARCH read of PATH: 'N', 'make' or '-'.  read:
	reach.readers() of the build (a build without an index gets no
	figure at all: the caller writes none)."""
	a = arch_of(path)
	if a and a != arch:
		return '-'
	count, dirs = read
	name = path.rsplit('/', 1)[-1]
	if _BUILD_FILE.search(name):
		folder = path.rsplit('/', 1)[0] if '/' in path else ''
		if path in count or folder == '' or folder in dirs:
			return 'make'
		return '0'
	return str(count.get(path, 0))


def field(files, arch, read):
	"""The covers= value of a cell: FILE:FIGURE for each buildable file."""
	return ' '.join(f'{f}:{figure(f, arch, read)}' for f in files if buildable(f))


def parse(value):
	"""{file: figure} of a covers= value."""
	out = {}
	for w in (value or '').split():
		f, _, n = w.rpartition(':')
		if f:
			out[f] = n
	return out


def _reads(fig):
	return fig == 'make' or (fig.isdigit() and int(fig) > 0)


def _better(a, b):
	"""The larger of two figures of one file ('make' above any count)."""
	if a is None:
		return b
	if b is None or a == 'make':
		return a
	if b == 'make':
		return b
	return a if (int(a) if a.isdigit() else -1) >= (int(b) if b.isdigit() else -1) else b


class Patch:
	"""The coverage of one patch: files (in order), per file {target:
	figure}, arches {target: arch}."""

	def __init__(self, after, before, arches):
		# after: {target: covers of its cell at the step}, before: {target:
		# covers_next of its cell at the step before}
		self.arches = arches
		self.files = []
		self.fig = {}
		for src in (after, before):
			for t in sorted(src):
				for f, n in parse(src[t]).items():
					if f not in self.fig:
						self.files.append(f)
						self.fig[f] = {}
					if n != '-':
						self.fig[f][t] = _better(self.fig[f].get(t), n)

	def readers(self, f):
		"""[(target, figure)] of the targets that read f."""
		return [(t, n) for t, n in sorted(self.fig[f].items()) if _reads(n)]

	def relevant(self, f):
		"""The targets of the run whose build could read f."""
		a = arch_of(f)
		return sorted(t for t, x in self.arches.items() if not a or x == a)

	def status(self):
		"""'covered', 'partly', 'not covered' or 'n/a'."""
		if not self.files:
			return 'n/a'
		n = sum(1 for f in self.files if self.readers(f))
		return 'covered' if n == len(self.files) else 'partly' if n else 'not covered'

	def uncovered(self):
		"""[(file, why)] of the files no build read."""
		out = []
		for f in self.files:
			if self.readers(f):
				continue
			a = arch_of(f)
			if not self.relevant(f):
				out.append((f, f'no {a} target in the run'))
			else:
				out.append((f, f'read by none of {", ".join(self.relevant(f))}'))
		return out

	def line(self):
		"""One line: per file its readers (target figure), or why none."""
		parts = []
		why = dict(self.uncovered())
		for f in self.files:
			r = self.readers(f)
			if r:
				parts.append(f'{f} ' + ', '.join(f'{t} {n}' for t, n in r))
			else:
				parts.append(f'{f} NOT COVERED ({why[f]})')
		return '; '.join(parts) if parts else 'nothing a build reads'


def judge(rec_cells, step_before):
	"""The Patch of a step.  rec_cells: {target: result dict} of the step,
	step_before: the same of the step before (None for the baseline)."""
	after = {t: r['covers'] for t, r in rec_cells.items() if r.get('status') == 'ok' and 'covers' in r}
	before = {t: r['covers_next'] for t, r in (step_before or {}).items()
		  if r.get('status') == 'ok' and 'covers_next' in r}
	arches = {t: r.get('arch', '') for t, r in list((step_before or {}).items()) + list(rec_cells.items())
		  if r.get('arch')}
	if not after and not before:
		return None
	return Patch(after, before, arches)
