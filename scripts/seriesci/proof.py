# SPDX-License-Identifier: GPL-2.0
"""codegen-proof: the generated-code paragraph of a patch's message.

From what a ci-series record says of the patch's step: codegen= of every
target's cell (vmlinux against the step before, KBUILD_BUILD_* fixed).
The paragraph names the targets on which vmlinux stayed the same byte
for byte, those on which only the data changed (the same objdump -d),
those on which the code changed, the architectures the patch touches
that configs/targets cannot build, the targets of touched
architectures that the record has not built yet, and how many objects of
each build read each file the patch changes (coverage: a file no build
reads is named, its proof is not the builds').
"""
import os
import re

from seriesci import common, coverage, series as series_mod
from seriesci import record
from seriesci import targets as targets_mod

MARK = 'Generated code, from scripts/ci-series'
_ARCH_RE = re.compile(r'^[-+][-+][-+] [ab]/arch/([^/]*)/')


def touched_arches(patch_text):
	"""The architectures a patch's diff touches, sorted."""
	return sorted({m.group(1) for m in map(_ARCH_RE.match, patch_text.split('\n')) if m})


def sentences(codegen, arches, targets, base=''):
	"""The paragraph as sentences.  codegen: {target: codegen= of its
	cell} for the targets with a result; arches: the touched
	architectures; targets: configs/targets' Target list."""
	names = sorted(codegen)
	ident = [t for t in names if codegen[t] == 'identical']
	same = [t for t in names if codegen[t] == 'same']
	diff = [t for t in names if codegen[t] == 'differs']
	nb = len(ident) + len(same) + len(diff)
	s = (f'{MARK} (KBUILD_BUILD_* fixed; the sha256 of vmlinux and of its objdump -d, '
	     f'against the tree without this patch{", on " + base if base else ""}):')
	if nb == 0:
		s += ' no target built yet.'
	elif not same and not diff:
		s += f' vmlinux the same, byte for byte, on all {nb} targets built: {", ".join(ident)}.'
	else:
		parts = []
		if ident:
			parts.append('vmlinux the same, byte for byte, on ' + ', '.join(ident))
		if same:
			parts.append('the same code (objdump -d), other bytes changed, on ' + ', '.join(same))
		if diff:
			parts.append('the code changes on ' + ', '.join(diff))
		s += ' ' + '; '.join(parts) + '.'
	out = [s]
	has = {t.arch for t in targets}
	nobuild = [a for a in arches if a not in has]
	if nobuild:
		out.append(f'Not built here: {", ".join(nobuild)} (no Debian compiler the kernel builds with).')
	yet = sorted(t.name for t in targets if t.arch in arches and not codegen.get(t.name))
	if yet:
		out.append(f'Not yet built: {", ".join(yet)}.')
	return out


def wrap(sentences, width=72):
	"""The sentences as one paragraph of lines of at most width columns,
	two spaces between sentences."""
	lines, line = [], ''
	for s in sentences:
		for i, w in enumerate(s.split()):
			if not line:
				line = w
				continue
			sep = '  ' if i == 0 else ' '
			if len(line) + len(sep) + len(w) > width:
				lines.append(line)
				line = w
			else:
				line += sep + w
	if line:
		lines.append(line)
	return lines


def replace(text, para):
	"""text (a patch) with the message's paragraph that starts with MARK
	replaced by para (lines); the diff is not touched."""
	out, body, skip, done = [], False, False, False
	lines = text.split('\n')
	trail = lines[-1] == ''
	if trail:
		lines = lines[:-1]
	for l in lines:
		if not body and not done and l.startswith(MARK):
			out += para
			skip = True
			continue
		if skip and l == '':
			skip, done = False, True
		if skip:
			continue
		if l == '---':
			body = True
		out.append(l)
	return '\n'.join(out) + ('\n' if trail or out else '')


def coverage_sentences(cv):
	"""What the builds of the record read of the patch's files
	(coverage.Patch, or None when the record has no figures)."""
	if cv is None:
		return []
	if not cv.files:
		return ['It changes nothing a kernel build reads.']
	read = [f'{f}: ' + ', '.join(f'{t} {n}' for t, n in cv.readers(f)) for f in cv.files if cv.readers(f)]
	out = []
	if read:
		out.append("Objects of those builds that read the files it changes (Kbuild's .cmd files, "
			   'before or after it; make: a build file of a folder the build visits): '
			   + '; '.join(read) + '.')
	miss = cv.uncovered()
	if miss:
		out.append('Read by no build, so not proven by them: '
			   + '; '.join(f'{f} ({w})' for f, w in miss) + '.')
	return out


def _cells_of(step):
	"""{target: its result} of the target cells of a step folder."""
	out = {}
	if not os.path.isdir(step):
		return out
	for n in sorted(os.listdir(step)):
		f = os.path.join(step, n)
		if n.endswith('.result') and os.path.isfile(f):
			kv = record.read_kv(f) or {}
			if 'target' in kv:
				out[n[:-len('.result')]] = kv
	return out


def _codegen_of(step):
	cg = {}
	for n in sorted(os.listdir(step)):
		f = os.path.join(step, n)
		if not n.endswith('.result') or not os.path.isfile(f):
			continue
		lines = record.read_text_lines(f)
		if not any(l.startswith('target=') for l in lines):
			continue
		v = [l[len('codegen='):] for l in lines if l.startswith('codegen=')]
		cg[n[:-len('.result')]] = v[0] if v else ''
	return cg


def run(args):
	out = common.out_dir()
	rec = args.record
	if not rec:
		rec = os.path.join(out, 'ci', 'merged')
		if not os.path.isdir(rec):
			rec = os.path.join(out, 'ci', os.environ.get('BASE', ''))
	if not os.path.isdir(rec):
		raise common.Error(f'no ci-series record {rec}: run scripts/ci-series (and scripts/merge-results) first')
	series_file = os.environ.get('QUILT_SERIES') or os.path.join(common.repo(), 'series')
	pdir = os.environ.get('QUILT_PATCHES') or os.path.join(common.repo(), 'patches')
	series = series_mod.patches(series_file)
	tl = targets_mod.read()
	info = record.read_kv(os.path.join(rec, 'info'), first=True) or {}
	for p in args.patches:
		p = p.rsplit('/', 1)[-1]
		if p not in series:
			raise common.Error(f'{p}: not a patch of {series_file}')
		step = f'{series.index(p) + 1:03d}-{p}'
		d = os.path.join(rec, step)
		if not os.path.isdir(d):
			raise common.Error(f'{p}: the record {rec} has no step {step}')
		f = os.path.join(pdir, p)
		text = record.read_text(f)
		i = series.index(p)
		prev = os.path.join(rec, f'{i:03d}-{series[i - 1]}' if i else '000-baseline')
		para = wrap(sentences(_codegen_of(d), touched_arches(text), tl, info.get('base', ''))
			    + coverage_sentences(coverage.judge(_cells_of(d), _cells_of(prev))))
		if not args.write:
			if len(args.patches) > 1:
				print(f'== {p}')
			print('\n'.join(para))
			continue
		if not any(l.startswith(MARK) for l in text.split('\n')):
			raise common.Error(f'{p}: no paragraph "{MARK} ..." to replace: add one to its message first')
		new = replace(text, para)
		if new != text:
			with open(f + '.new', 'w', encoding='utf-8', errors='surrogateescape') as o:
				o.write(new)
			os.replace(f + '.new', f)
			common.step('PROOF', p)
	return common.Exit.OK
