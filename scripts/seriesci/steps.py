# SPDX-License-Identifier: GPL-2.0
"""compare-steps: new_warnings=, undecided_warnings= and codegen= of
every target result; sticky: what a --down walk rebuilds for them.

What scripts/ci-series' compare_steps does to a record folder once its
steps are done, whatever order they ran in: every target result (a
NNN-NAME/TARGET.result with a target= line) gets

  new_warnings=N  the warning lines of TARGET.log ("warning:" in them,
                  the first ":LINE:" or ":LINE:COLUMN:" made ":"), as a
                  set, that the step before's TARGET.log does not have
                  although that step compiled what printed them (below):
                  new with the step's patch
  undecided_warnings=U  those it does not have and did not compile (an
                  incremental build that did not rebuild them: not
                  known whether they are new), or that no producer is
                  known of; all of them when the step before has no
                  log or no folder (not the baseline: nothing before it)
  codegen=        against the step before's TARGET.result: identical
                  (the same image_sha=), same (the same code_sha=, the
                  objdump -d), differs, or empty (nothing to compare)

in place of any it had, at the end of the file; every other line is
kept.  (Before undecided_warnings= a warning the step before did not
compile counted as new, and one without a step before as none.)  A
step before whose result is status=skip (the target is not in that
tree: arch/example before its patch) compiled nothing: every warning
is new.  The steps, in order: 000-baseline, then NNN-PATCH for the NNth
line of RECORD/.series (what ci-series walks; a record without it: the
series= of RECORD/info).  "The step before" is the one before in that
order; a step with no folder has none, nor has the step after it.

What printed a warning (its producer), from the log that has it:
  PATH:L:C: warning: ...     the object of PATH: of PATH/x.c, the one of
                  the log's Kbuild lines ("  CC      PATH/x.o") whose
                  name is x.o, x.s, x.lds, x.i or x, else x.o; PATH
                  relative to the tree or the O= folder of the log's
                  "# tree T  O=B" line (build-arch's)
  a header's warning after "In file included from" lines: the object of
                  the outermost includer (GCC lists it last, clang first)
  <stdin>:L:C: warning: ...  scripts/checksyscalls.sh (Kbuild's "CALL
                  .../checksyscalls.sh [for N32]" line): the file it
                  makes, .tmp_missing-syscalls[N32]
  canonical ABI: warning: ...  the series' CHKABI check ("  CHKABI
                  arch/X"): "CHKABI arch/X", a rule that runs whenever
                  make runs (nothing to delete)
  anything else (the linker's, modpost's...): none known: undecided
                  unless the step before has the same line
A log compiled a producer when it has its Kbuild line (the CC/AS/...
line naming the object, the CALL or CHKABI line).

sticky (python3 -m seriesci sticky [--all] RECORD STEP BUILD TARGET...), what
ci-series --down runs before each step's build: the producers of every
warning of TARGET.log in the steps above STEP are deleted from
BUILD/TARGET, and BUILD/TARGET.rebuild lists them (with "# unmapped:"
lines for the warnings of no known producer; no file when there is
nothing), so that build-arch rebuilds them even when scripts/reach
proves the step unreached: every lower step compiles what warned above
it, and its log shows those warnings, or that they are gone.  With
--all (ci-series: the first step a --down run builds) the list starts
with a "*" line: build-arch rebuilds everything (make clean first; ccache
serves it), as the warnings of what the kept build compiled before the
run are in no log of it: a warning a patch brings into an object that
its own step did not recompile (the walk recompiles it one step lower,
reverting the patch) would be in no log, and its step judged clean.

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
_DROP_RE = re.compile(rb'^(new_warnings|undecided_warnings|codegen)=')
# what GNU grep reads first, and checks for NUL bytes before it prints
GREP_BUFFER = 32768
# a compiler's warning: its file, before ":LINE:" or ":LINE:COLUMN:"
_WARN_RE = re.compile(rb'^(\S+?):[0-9]+(?::[0-9]+)?: warning:')
# the include chain before a header's warning: GCC's "In file included
# from A:1," and "                 from B:2:" lines, clang's "In file
# included from A:1:" lines
_INCL_RE = re.compile(rb'^(In file included|\s+) from (\S+?):[0-9]+(?::[0-9]+)?[:,]$')
# what GCC prints between the chain and the warning
_CONTEXT_RE = re.compile(rb'^\S+: (In |At top level:)')
# Kbuild's quiet lines: "  CC      kernel/fork.o", "  CC [M]  x.o"
_QUIET_RE = re.compile(rb'^  ([A-Z][A-Z0-9_-]*)(?: \[[A-Z]\])? +(\S+)')
_SYSCALLS_RE = re.compile(rb'^  CALL +\S*scripts/checksyscalls\.sh(?: for (\S+))?\s*$')
_CHKABI_RE = re.compile(rb'^  CHKABI +(\S+)\s*$')
# build-arch's log header: the tree and the O= folder
_HEADER_RE = re.compile(rb'^# tree (\S+)  O=(\S+)')
MISSING_SYSCALLS = b'.tmp_missing-syscalls'
# the object of a source PATH/x.EXT: the first of these the log compiled
_OBJ_SUFFIXES = (b'.o', b'.s', b'.lds', b'.i', b'')


def _read(path):
	with open(path, 'rb') as f:
		return f.read()


def _lines(data):
	"""The lines of DATA as grep and sed read them (bytes)."""
	lines = data.split(b'\n')
	if lines[-1] == b'':
		lines.pop()
	return lines


def _grep_lines(data):
	"""The lines of a log grep reads (up to a NUL: above)."""
	nul = data.find(b'\0')
	if 0 <= nul < GREP_BUFFER:
		return []
	if nul >= 0:
		data = data[:data.rfind(b'\n', 0, nul) + 1]
	return _lines(data)


def _utf8(line):
	try:
		line.decode('utf-8')
	except UnicodeDecodeError:
		return False
	return True


def warnset(log):
	"""The warning lines of a log, line and column numbers dropped, as a
	set (the shell's grep | sed | sort -u)."""
	return set(scan(_read(log)).warnings)


class Scan:
	"""What a build log says: warnings, {key: set of producers} (an
	empty set: no producer known), and compiled, the producers it
	shows being made."""

	def __init__(self):
		self.warnings = {}
		self.compiled = set()


def _objects(src, tree, obj, compiled):
	"""The producer of a warning in the source file SRC, or None."""
	rel = None
	for top in (tree, obj):
		if top and src.startswith(top + b'/'):
			rel = src[len(top) + 1:]
			break
	if rel is None and not src.startswith(b'/'):
		rel = src[2:] if src.startswith(b'./') else src
	stem, dot, ext = (rel or src).rpartition(b'.')
	if not dot or b'/' in ext:
		return None
	if rel is None:
		# an absolute path outside the log's tree (no header line):
		# the compiled object whose name ends it
		for c in sorted(compiled):
			for sfx in _OBJ_SUFFIXES:
				if sfx and c.endswith(sfx) and stem.endswith(b'/' + c[:len(c) - len(sfx)]):
					return c
		return None
	for sfx in _OBJ_SUFFIXES:
		if stem + sfx in compiled:
			return stem + sfx
	if ext in (b'c', b'S'):
		return stem + b'.o'
	return None


def scan(data):
	"""The warnings of a log's bytes, each with its producers, and what
	the log compiled (the module's header)."""
	lines = _grep_lines(data)
	out = Scan()
	tree = obj = None
	syscalls = set()
	chkabi = set()
	for l in lines:
		m = _HEADER_RE.match(l)
		if m and tree is None:
			tree, obj = m.group(1).rstrip(b'/'), m.group(2).rstrip(b'/')
		m = _SYSCALLS_RE.match(l)
		if m:
			syscalls.add(MISSING_SYSCALLS + (m.group(1) or b''))
			continue
		m = _CHKABI_RE.match(l)
		if m:
			chkabi.add(b'CHKABI ' + m.group(1))
			continue
		m = _QUIET_RE.match(l)
		if m:
			out.compiled.add(m.group(2))
	out.compiled |= syscalls | chkabi
	chain = []
	gcc = False
	for l in lines:
		m = _INCL_RE.match(l)
		if m:
			if m.group(1) != b'In file included':
				gcc = True
			elif chain and gcc:
				chain, gcc = [], False
			chain.append(m.group(2))
			continue
		if b'warning:' not in l:
			if not _CONTEXT_RE.match(l):
				chain, gcc = [], False
			continue
		if not _utf8(l):
			chain, gcc = [], False
			continue
		key = _POS_RE.sub(b':', l, count=1)
		prods = out.warnings.setdefault(key, set())
		m = _WARN_RE.match(l)
		p = None
		if l.startswith(b'canonical ABI: warning:'):
			prods |= chkabi
			p = True if chkabi else None
		elif m and m.group(1) == b'<stdin>':
			prods |= syscalls
			p = True if syscalls else None
		elif m:
			src = m.group(1)
			if chain:
				src = chain[-1] if gcc else chain[0]
			p = _objects(src, tree, obj, out.compiled)
			if p is not None:
				prods.add(p)
		if p is None:
			# one occurrence without a producer: the line has none
			prods.add(None)
		chain, gcc = [], False
	for k, v in out.warnings.items():
		if None in v:
			out.warnings[k] = set()
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


def _status(result):
	"""The status= of a result file, or None."""
	if not os.path.isfile(result):
		return None
	return _value(_lines(_read(result)), 'status').decode('utf-8', 'replace') or None


def verdict(cur, prev, target):
	"""(new, undecided): the warnings of CUR (a Scan) against the step
	before's folder PREV (None: there is none) for TARGET."""
	if prev is None:
		return 0, len(cur.warnings)
	plog = os.path.join(prev, target + '.log')
	if _status(os.path.join(prev, target + '.result')) == 'skip':
		pw = scan(_read(plog)).warnings if os.path.isfile(plog) else {}
		return len(set(cur.warnings) - set(pw)), 0
	if not os.path.isfile(plog):
		return 0, len(cur.warnings)
	ps = scan(_read(plog))
	new = und = 0
	for k, prods in cur.warnings.items():
		if k in ps.warnings:
			continue
		if prods and prods <= ps.compiled:
			new += 1
		else:
			und += 1
	return new, und


def compare(rec):
	"""Rewrite every target result of the record RECORD.  Returns the
	result files rewritten, in order."""
	done = []
	prev = None
	for i, s in enumerate(step_names(rec)):
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
			new = und = 0
			log = os.path.join(d, t + '.log')
			if i > 0 and os.path.isfile(log):
				new, und = verdict(scan(_read(log)), prev, t)
			cg = ''
			pr = os.path.join(prev, t + '.result') if prev else None
			if pr and os.path.isfile(pr):
				cg = codegen(_lines(_read(pr)), lines)
			keep = [l for l in lines if not _DROP_RE.match(l)]
			keep += [b'new_warnings=%d' % new, b'undecided_warnings=%d' % und,
				 b'codegen=' + cg.encode()]
			tmp = r + '.tmp'
			with open(tmp, 'wb') as f:
				f.write(b''.join(l + b'\n' for l in keep))
			os.replace(tmp, r)
			done.append(r)
		prev = d
	return done


def sticky(rec, step, target):
	"""(producers, unmapped): of every warning in TARGET.log of the steps
	above STEP, the producers known, and the lines of none."""
	names = step_names(rec)
	if step not in names:
		raise common.Error(f'{rec}: no step {step} in its series')
	prods, unmapped = set(), set()
	for s in names[names.index(step) + 1:]:
		log = os.path.join(rec, s, target + '.log')
		if not os.path.isfile(log):
			continue
		for k, p in scan(_read(log)).warnings.items():
			if p:
				prods |= p
			else:
				unmapped.add(k)
	return prods, unmapped


def _in_build(p):
	"""Whether the producer P names a file inside the O= folder."""
	parts = p.split(b'/')
	return b' ' not in p and not p.startswith(b'/') and b'..' not in parts and b'' not in parts


def rebuild(build, target, prods, unmapped, full=False):
	"""Delete the file producers from BUILD/TARGET and list them all in
	BUILD/TARGET.rebuild, after a "*" line when FULL (build-arch: make
	clean first); nothing to list: no list.  Returns those deleted."""
	b = os.path.join(build, target).encode('utf-8', 'surrogateescape')
	lst = b + b'.rebuild'
	deleted = []
	for p in sorted(prods):
		f = os.path.join(b, p)
		if _in_build(p) and os.path.isfile(f) and not os.path.islink(f):
			os.remove(f)
			deleted.append(p)
	if not prods and not unmapped and not full:
		if os.path.lexists(lst):
			os.remove(lst)
		return deleted
	os.makedirs(os.path.dirname(lst), exist_ok=True)
	text = b'*\n' if full else b''
	text += b''.join(p + b'\n' for p in sorted(prods))
	text += b''.join(b'# unmapped: ' + k + b'\n' for k in sorted(unmapped))
	tmp = lst + b'.tmp'
	with open(tmp, 'wb') as f:
		f.write(text)
	os.replace(tmp, lst)
	return deleted


def add_parser(sub):
	p = sub.add_parser(
		allow_abbrev=False, name='compare-steps',
		help='new_warnings=, undecided_warnings= and codegen= of every target result, against the step before',
		description='In every target result of a ci-series record (NNN-NAME/TARGET.result '
		'with a target= line), new_warnings= (the warning lines of its log, line numbers '
		"ignored, not in the step before's log although that step compiled what printed "
		'them), undecided_warnings= (not in it, and not compiled there, or of no known '
		"producer) and codegen= (its image against the step before's: identical, same code, "
		'differs, or empty), in place of any it had.  The steps in the order of '
		'RECORD/.series; a missing step folder has no step before it.  '
		"What scripts/ci-series' compare_steps does once the steps are done; re-running is safe.",
		epilog='Exit codes: 0 done, 1 an error (no record, no series: nothing written), 2 usage.')
	p.add_argument('record', nargs='?', metavar='RECORD',
		       help='the record folder (default: $OUT/ci/$BASE)')
	p.add_argument('-v', dest='verbose', action='store_true',
		       help='print each result file rewritten')
	p.set_defaults(func=run)
	q = sub.add_parser(
		allow_abbrev=False, name='sticky',
		help="delete from a target's build what printed the warnings of the steps above",
		description="What ci-series --down runs before a step's build: of every warning in "
		"TARGET.log of the record's steps above STEP, what printed it (the object, "
		'.tmp_missing-syscalls, the CHKABI rule) is deleted from BUILD/TARGET and listed '
		'in BUILD/TARGET.rebuild, which build-arch reads: it rebuilds them even when '
		'nothing else changed, so that the step below compiles what warned above it.  '
		'Warnings of no known producer are "# unmapped:" lines of the list.',
		epilog='Exit codes: 0 done, 1 an error (no record, no such step), 2 usage.')
	q.add_argument('--all', dest='full', action='store_true',
		       help='rebuild everything too (a "*" line: build-arch runs make clean first); '
		       'what ci-series passes at the first step a --down run builds')
	q.add_argument('record', metavar='RECORD', help='the record folder')
	q.add_argument('step', metavar='STEP', help='the step about to be built (NNN-NAME)')
	q.add_argument('build', metavar='BUILD', help='the build folder (BUILD/TARGET: O=)')
	q.add_argument('targets', nargs='+', metavar='TARGET', help='the targets to build')
	q.set_defaults(func=run_sticky)
	return p


def rebuild_sticky(rec, step, build, targets, full=False):
	"""Before STEP's build (ci-series --down): for each of TARGETS,
	delete from BUILD/TARGET what printed the warnings of the steps
	above STEP and list it in BUILD/TARGET.rebuild (rebuild), saying
	so; with FULL, everything is rebuilt too."""
	for t in targets:
		prods, unmapped = sticky(rec, step, t)
		deleted = rebuild(build, t, prods, unmapped, full)
		if full:
			common.step('STICKY', f'{t}: rebuilt in full, the first step of the run')
		if prods:
			common.step('STICKY', f'{t}: {len(prods)} rebuilt for the warnings above '
				    f'({len(deleted)} deleted): '
				    + ' '.join(p.decode('utf-8', 'replace') for p in sorted(prods)))
		if unmapped:
			common.step('STICKY', f'{t}: {len(unmapped)} warning line'
				    f'{"" if len(unmapped) == 1 else "s"} above of no known producer '
				    '(not rebuilt: undecided where the step below lacks them)')


def run_sticky(args):
	if not os.path.isdir(args.record):
		raise common.Error(f'no record folder {args.record}')
	rebuild_sticky(args.record, args.step, args.build, args.targets, args.full)
	return common.Exit.OK


def run(args):
	rec = args.record or os.path.join(common.out_dir(), 'ci', os.environ.get('BASE', ''))
	if not os.path.isdir(rec):
		raise common.Error(f'no record folder {rec}: run scripts/ci-series first (or name the folder)')
	for r in compare(rec):
		if args.verbose:
			print(r)
	return common.Exit.OK
