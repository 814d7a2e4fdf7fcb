# SPDX-License-Identifier: GPL-2.0
"""compare-steps: new_warnings= and codegen= of every target result.

What scripts/ci-series' compare_steps does to a record folder once its
steps are done, whatever order they ran in: every target result (a
NNN-NAME/TARGET.result with a target= line) gets

  new_warnings=N  the warning lines of TARGET.log ("warning:" in them,
                  the first ":LINE:" or ":LINE:COLUMN:" made ":"), as a
                  set, that the step before's TARGET.log does not have;
                  0 when either log is missing
  codegen=        against the step before's TARGET.result: identical
                  (the same image_sha=), same (the same code_sha=, the
                  objdump -d), differs, or empty (nothing to compare)

in place of any it had, at the end of the file; every other line is
kept.  The steps, in order: 000-baseline, then NNN-PATCH for the NNth
line of RECORD/.series (what ci-series walks; a record without it: the
series= of RECORD/info).  "The step before" is the one before in that
order; a step with no folder has none, nor has the step after it.

Bytes, as GNU grep 3.8 reads them under C.UTF-8 (ci-series' locale):
a warning line that is not UTF-8 is left out (grep's "binary file
matches"); a log with a NUL byte in its first 32 KiB (grep's first
read) has no warning lines, one with a NUL further on the lines before
the NUL's line (grep stops at the read buffer that holds it: up to some
tens of KiB earlier; build logs have no NUL).  Re-running is safe: it
writes the same files again.
"""
import os
import re

from seriesci import common, record

_POS_RE = re.compile(rb':[0-9]+(:[0-9]+)?:')
_DROP_RE = re.compile(rb'^(new_warnings|codegen)=')
# what GNU grep reads first, and checks for NUL bytes before it prints
GREP_BUFFER = 32768


def _read(path):
	with open(path, 'rb') as f:
		return f.read()


def _lines(data):
	"""The lines of DATA as grep and sed read them (bytes)."""
	lines = data.split(b'\n')
	if lines[-1] == b'':
		lines.pop()
	return lines


def warnset(log):
	"""The warning lines of a log, line and column numbers dropped, as a
	set (the shell's grep | sed | sort -u)."""
	data = _read(log)
	nul = data.find(b'\0')
	if 0 <= nul < GREP_BUFFER:
		return set()
	if nul >= 0:
		data = data[:data.rfind(b'\n', 0, nul) + 1]
	out = set()
	for l in _lines(data):
		if b'warning:' not in l:
			continue
		try:
			l.decode('utf-8')
		except UnicodeDecodeError:
			continue
		out.add(_POS_RE.sub(b':', l, count=1))
	return out


def _value(lines, key):
	"""$(sed -n 's/^KEY=//p' FILE): every value, a line each, trailing
	newlines dropped."""
	k = key.encode() + b'='
	return b'\n'.join(l[len(k):] for l in lines if l.startswith(k)).rstrip(b'\n')


def codegen(prev_lines, lines):
	"""identical, same, differs or '' from two result files' lines."""
	pim, nim = _value(prev_lines, 'image_sha'), _value(lines, 'image_sha')
	if pim and nim and pim == nim:
		return 'identical'
	pco, nco = _value(prev_lines, 'code_sha'), _value(lines, 'code_sha')
	if pco and nco:
		return 'same' if pco == nco else 'differs'
	return ''


def step_names(rec):
	"""The steps of a record in ci-series' order: 000-baseline, then one
	per line of .series (awk's NR and $1)."""
	sf = os.path.join(rec, '.series')
	if os.path.isfile(sf):
		names = [re.split(rb'[ \t]+', l.strip(b' \t'))[0].decode('utf-8', 'surrogateescape')
			 for l in _lines(_read(sf))]
	else:
		info = record.read_kv(os.path.join(rec, 'info'), first=True)
		if not info or 'series' not in info:
			raise common.Error(f'{rec}: no .series file and no series= in info: '
					   'which steps, in which order, is not known')
		names = info['series'].split()
	return ['000-baseline'] + [f'{n:03d}-{p}' for n, p in enumerate(names, 1)]


def compare(rec):
	"""Rewrite every target result of the record RECORD.  Returns the
	result files rewritten, in order."""
	done = []
	prev = None
	for s in step_names(rec):
		d = os.path.join(rec, s)
		if not os.path.isdir(d):
			prev = None
			continue
		for name in sorted(os.listdir(d)):
			r = os.path.join(d, name)
			if not name.endswith('.result') or not os.path.isfile(r):
				continue
			lines = _lines(_read(r))
			if not any(l.startswith(b'target=') for l in lines):
				continue
			t = name[:-len('.result')]
			new = 0
			log = os.path.join(d, t + '.log')
			if prev and os.path.isfile(os.path.join(prev, t + '.log')) and os.path.isfile(log):
				new = len(warnset(log) - warnset(os.path.join(prev, t + '.log')))
			cg = ''
			pr = os.path.join(prev, t + '.result') if prev else None
			if pr and os.path.isfile(pr):
				cg = codegen(_lines(_read(pr)), lines)
			keep = [l for l in lines if not _DROP_RE.match(l)]
			keep += [b'new_warnings=%d' % new, b'codegen=' + cg.encode()]
			tmp = r + '.tmp'
			with open(tmp, 'wb') as f:
				f.write(b''.join(l + b'\n' for l in keep))
			os.replace(tmp, r)
			done.append(r)
		prev = d
	return done


def add_parser(sub):
	p = sub.add_parser(
		allow_abbrev=False, name='compare-steps',
		help='new_warnings= and codegen= of every target result, against the step before',
		description='In every target result of a ci-series record (NNN-NAME/TARGET.result '
		'with a target= line), new_warnings= (the warning lines of its log, line numbers '
		"ignored, not in the step before's log) and codegen= (its image against the step "
		"before's: identical, same code, differs, or empty), in place of any it had.  The "
		'steps in the order of RECORD/.series; a missing step folder has no step before it.  '
		"What scripts/ci-series' compare_steps does once the steps are done; re-running is safe.",
		epilog='Exit codes: 0 done, 1 an error (no record, no series: nothing written), 2 usage.')
	p.add_argument('record', nargs='?', metavar='RECORD',
		       help='the record folder (default: $OUT/ci/$BASE)')
	p.add_argument('-v', dest='verbose', action='store_true',
		       help='print each result file rewritten')
	p.set_defaults(func=run)
	return p


def run(args):
	rec = args.record or os.path.join(common.out_dir(), 'ci', os.environ.get('BASE', ''))
	if not os.path.isdir(rec):
		raise common.Error(f'no record folder {rec}: run scripts/ci-series first (or name the folder)')
	for r in compare(rec):
		if args.verbose:
			print(r)
	return common.Exit.OK
