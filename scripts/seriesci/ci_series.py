# SPDX-License-Identifier: GPL-2.0
"""ci-series: judge the series patch by patch.

On the quilt tree $TREE (scripts/tree makes it): first the baseline (every
patch popped), then for each patch of the series in order: quilt push,
every target built incrementally (build-all: TARGETS=, TIER=, SHARD=),
checkpatch on the patch, sparse (C=2) on the .c files it touches, each in
the build of a target that compiles it (x86_64 first), and arch/example
booted once the tree has it.  A target that no change since its kept
build can reach is not rebuilt: scripts/reach decides from Kbuild's own
.cmd files (REACH=0: rebuild all).  Goes on past failures unless
--stop-on-fail; exits 1 if anything failed.

--down walks the steps from the top of the series down to the baseline,
then pushes the tree back to the top.  When the kept builds are of the
top (after make, or a build-all), every step is then one patch away from
the build before it; up from the baseline, the first patches that touch a
header everything includes (include/linux/fs.h) cost two near-full
rebuilds that ccache cannot serve.  What printed a warning at a step is
rebuilt at every step below it, so that each step's warnings are judged
against a step that compiled them (TARGET.result below), and the first
step the run builds is built in full (make clean; ccache serves it): the
warnings of what the kept build compiled before are in no log.

An interrupted run resumes at the first step without a "done" mark (the
last one, with --down).  A done step is kept only when its fingerprint
(STEP/fingerprint: the baseline and its pin, the series lines and the
diffs of the patches up to the step, the targets, their configs/targets
lines, fragments and toolchains (build-arch --toolchain), CODEGEN;
python3 -m seriesci fingerprint --help) is the one of the series now;
else it is redone, saying why:
  STEP    005-x.patch (5/27 patches) redone: patch x.patch changed
so a patch whose diff changed redoes its step and those after it, and
keeps those before.  When only the patch's message or its lines of
scripts/checkpatch-ignore changed, only the step's checkpatch cell is
done again:
  STEP    005-x.patch (5/27 patches) kept, checkpatch redone: the message of x.patch changed
A record of the earlier fingerprint scheme (whole patch files) is
migrated where it judged the patch files now.  A tree that has a changed
patch applied, or one whose file is newer than its push
(.pc/PATCH/.timestamp), is first popped below it; when quilt cannot pop
it (the tree has another version of it) the run stops and says so.  The
CI's own scripts are not in the fingerprint: after changing how a step is
judged, --restart.  New warnings and codegen are worked out against the
step before once the steps are done, whatever the order.

Records, in $RECORD (default $OUT/ci/$BASE): info (base=, baseline=
(its pin: package version sha256 suite; with LINUX_GIT: git COMMIT
DESCRIBE), series=, shard=, tier=, targets= of the run), and per step NNN-NAME/
(000-baseline, 001-<patch>, ...):
  TARGET.result   build-arch's result plus new_warnings=N (warning lines,
                  line numbers ignored, not in the previous step's log
                  although that step compiled what printed them),
                  undecided_warnings=U (not in it, and not compiled
                  there: not known whether new; --down rebuilds at every
                  step what warned above it, so that there are none) and
                  codegen= against the previous step's image: identical
                  (the same bytes), same (the same objdump -d, other
                  data), differs, or empty (nothing to compare);
                  after a successful build also arch=, covers= and
                  covers_next=: what the build read of the files of the
                  step's patch and of the next one (the number of objects
                  that name each file; seriesci/coverage.py)
  TARGET.log      the build log
  checkpatch.result, checkpatch.log    status=ok|fail|skip, errors,
                  warnings, first_error (its first ERROR:, WARNING: or
                  CHECK: line)
  sparse.result, sparse.log            status=ok|fail|skip, warnings,
                  files (TARGET:FILE checked), unbuilt (compiled by no
                  target of the step: not checked), unchecked (compiled,
                  but by no target sparse can check: build-arch --sparse
                  exit 3), reason (why, per target: "T: why; ..."),
                  sparse (the --version of each sparse used, "in NAME"
                  when it ran in the runtime NAME), first_error (a
                  skip's why: the files not checked and the reasons)
  boot.result, boot.log   from the first step whose tree has arch/example:
                  status=ok|fail|skip, seconds, first_error (skip: no
                  boot script ($BOOT_EXAMPLE, default scripts/boot-example),
                  or arch/example/kernel/stubs.c is still there: the
                  patches that bring the port up build it, and only the
                  one that deletes its stubs boots it to /init)
  push.result     status=fail when the patch does not apply (the last step)
  fingerprint     what the step judged (above), written with done
  done            written when the step is complete
and .stale/NNN-NAME, the last results of a step that was to be redone,
or of a step of another series (a patch dropped, renamed or moved)
(moved aside when the run starts: not rendered, not reused).  A step's
key=value files are written at its end (record.write_groups).  At the
end of every run, failed or not, the record is rendered as
$RECORD/results.json, results.md and results.html (scripts/results).

The boot script's contract: run as
  TREE=<tree at this step> BUILD=<this run's build folder> \\
  KBUILD_LOCK_HELD=1 $BOOT_EXAMPLE --log <step>/boot.log
under the build lock ci-series holds (it must not take it again), after
this step's targets were built in BUILD/<target>: use (or build, out of
tree under BUILD) arch/example's kernel of TREE, boot it in QEMU, write
the log (build and console output) to the --log file, exit 0 when it
booted to its /init and non-zero otherwise.  What it prints on stdout and
stderr is appended to that log.

scripts/ci-series is the command: it judges the arguments, takes OUT's
lock and the machine's build lock (KBUILD_LOCK, default /tmp/kbuild.lock)
and runs this loop in one process, which calls quilt (scripts/push,
scripts/q), make (build-arch under one jobserver), checkpatch, sparse,
QEMU (the boot script) through subprocess.
"""
import argparse
import contextlib
import os
import re
import shutil
import signal
import subprocess
import sys
import time

from seriesci import baseline, build_all, common, coverage, fingerprint, reach, record
from seriesci import series as series_mod, steps as steps_mod, targets as targets_mod

ENV = ('TREE', 'RECORD', 'BUILD', 'TARGETS', 'TIER', 'SHARD', 'BOOT_EXAMPLE', 'REACH', 'CODEGEN')


def _steps_range(s):
	m = re.fullmatch(r'([0-9]+)(?:-([0-9]+))?', s)
	if not m or not s.isascii():
		raise argparse.ArgumentTypeError(f'--steps={s}: want A-B or N (step numbers, 0 the baseline)')
	return int(m.group(1)), (int(m.group(2)) if m.group(2) is not None else int(m.group(1)))


def add_parser(sub):
	p = sub.add_parser(
		allow_abbrev=False, name='ci-series', help='judge the series patch by patch (the CI step loop)',
		formatter_class=argparse.RawDescriptionHelpFormatter,
		description=__doc__.split('\n', 2)[2],
		epilog='Environment: ' + ' '.join(ENV) + ' (above).  Exit codes: 0 every cell ok '
		'or skipped, 1 a cell failed or an error (the record is rendered either way), '
		'2 usage, 130/143 interrupted.')
	p.add_argument('--stop-on-fail', dest='stop', action='store_true', help='stop at the first failing step')
	p.add_argument('--restart', action='store_true', help='forget the recorded results and start from the baseline')
	p.add_argument('--adopt', action='store_true',
		       help='a done step recorded before steps kept a fingerprint is kept, and given '
		       'the current one, when its done mark is newer than the series file, '
		       'configs/targets, scripts/checkpatch-ignore and its patches; without --adopt '
		       'such a step is redone ("no fingerprint")')
	p.add_argument('--down', action='store_true',
		       help='walk the steps from the top of the series down to the baseline (above)')
	p.add_argument('--steps', type=_steps_range, metavar='A-B',
		       help='only the steps A to B (0 is the baseline, N the Nth patch; --steps=N: '
		       'that one), the others left as they are: a new target\'s column without its '
		       'baseline, say, to be finished by a later run without --steps')
	p.add_argument('--check-args', action='store_true',
		       help='judge the arguments only (scripts/ci-series does, before its locks)')
	p.set_defaults(func=run)
	return p


class Stop(Exception):
	"""A signal: the run ends with this exit code, its record rendered."""

	def __init__(self, code):
		super().__init__(code)
		self.code = code


def _on_signal(signum, frame):
	raise Stop(130 if signum == signal.SIGINT else 143)


def call(cmd, out=None, env=None, cwd=None, stdout=None):
	"""Run CMD (stdout and stderr to the file OUT, else ours; or only its
	stdout to the open file STDOUT); its exit code.  A signal to this
	process is passed on to it, and waited for, before the run ends."""
	f = open(out, 'wb') if out else None
	try:
		p = subprocess.Popen(cmd, stdout=f or stdout, stderr=subprocess.STDOUT if f else None,
				     env=env, cwd=cwd, stdin=subprocess.DEVNULL)
		try:
			return p.wait()
		except BaseException:
			p.send_signal(signal.SIGTERM)
			try:
				p.wait(60)
			except subprocess.TimeoutExpired:
				p.kill()
				p.wait()
			raise
	finally:
		if f:
			f.close()


def failed(d):
	"""Whether a result file of the step folder D says status=fail."""
	try:
		names = os.listdir(d)
	except FileNotFoundError:
		return False
	for n in names:
		if n.endswith('.result'):
			kv = record.read_kv(os.path.join(d, n), first=True) or {}
			if kv.get('status') == 'fail':
				return True
	return False


class Run:
	"""One run of the loop over the record RECORD."""

	def __init__(self, args):
		env = os.environ
		self.args = args
		self.repo = common.repo()
		self.scripts = os.path.join(self.repo, 'scripts')
		self.base = env.get('BASE', '')
		out = common.out_dir()
		self.tree = env.get('TREE') or os.path.join(out, f'linux-{self.base}')
		self.ci = os.path.abspath(env.get('RECORD') or os.path.join(out, 'ci', self.base))
		self.build = build_all.build_dir()
		self.boot = env.get('BOOT_EXAMPLE') or os.path.join(self.scripts, 'boot-example')
		self.series_file = env.get('QUILT_SERIES') or os.path.join(self.repo, 'series')
		self.patches_dir = env.get('QUILT_PATCHES') or os.path.join(self.repo, 'patches')
		env.setdefault('REACH', '1')
		env.setdefault('CODEGEN', '1')
		env['TREE'] = self.tree
		self.bad = False
		self.steps = None
		self.series = []
		self.files = {}
		self.arch = {}

	def die(self, msg):
		raise common.Error(msg)

	# --- the tree -------------------------------------------------------
	def applied_count(self):
		lines = record.read_text_lines(os.path.join(self.tree, '.pc', 'applied-patches'))
		return len([l for l in lines if l.strip()])

	def pop_to(self, n, log):
		"""Pop the tree down to its first N patches; False when quilt cannot."""
		q = [os.path.join(self.scripts, 'q'), 'pop']
		q += ['-a', '-q'] if n == 0 else ['-q', self.series[n - 1]]
		return call(q, out=log) == 0

	def goto(self, n):
		"""The tree with exactly the first N patches applied; False when a
		patch does not apply (scripts/push said which)."""
		if self.applied_count() > n:
			log = os.path.join(self.ci, '.quilt.log')
			if not self.pop_to(n, log):
				self.die(f'quilt pop failed on {self.tree}: see {log}')
		while self.applied_count() < n:
			sys.stdout.flush()
			if call([os.path.join(self.scripts, 'push')]) != 0:
				return False
		return True

	# --- the cells ------------------------------------------------------
	def checkpatch(self, d, patch):
		"""The step folder D's checkpatch cell on PATCH, by the policy lint
		and submit-check share (scripts/checkpatch with the types
		scripts/checkpatch-ignore accepts for this patch)."""
		log = os.path.join(d, 'checkpatch.log')
		status = 'skip'
		if os.access(os.path.join(self.tree, 'scripts', 'checkpatch.pl'), os.X_OK):
			rc = call([os.path.join(self.scripts, 'checkpatch'), '--tree', self.tree, '-q',
				   os.path.join(self.patches_dir, patch)], out=log)
			status = 'ok' if rc == 0 else 'fail'
		lines = record.read_text_lines(log)
		e = sum(1 for l in lines if l.startswith('ERROR:'))
		w = sum(1 for l in lines if l.startswith(('WARNING:', 'CHECK:')))
		# its first complaint, not the "total:" line first_error would give
		first = ''
		if status == 'fail':
			first = next((l for l in lines if l.startswith(('ERROR:', 'WARNING:', 'CHECK:'))), '')
		if status == 'fail':
			self.bad = True
		record.write_groups([(os.path.join(d, 'checkpatch.result'), None, True,
				      [('status', status), ('errors', str(e)), ('warnings', str(w)),
				       ('first_error', first), ('log', log)])])
		common.step('CHECK', f'checkpatch {status} ({e} errors, {w} warnings)')

	def touched(self, n):
		"""The files patch N of the series touches ([] for none), read
		once a run."""
		if not 1 <= n <= len(self.series):
			return []
		if n not in self.files:
			try:
				text = record.read_text(os.path.join(self.patches_dir, self.series[n - 1]))
				self.files[n] = [f for f, _ in series_mod.touched(text)]
			except OSError:
				self.files[n] = []
		return self.files[n]

	def boot_cell(self, d, writes):
		"""Boot arch/example, once the tree has it (the contract: above);
		a file, not the folder: quilt pop leaves the emptied folders."""
		has = False
		for _, _, files in os.walk(os.path.join(self.tree, 'arch', 'example')):
			if files:
				has = True
				break
		if not has:
			return
		log = os.path.join(d, 'boot.log')
		start = time.time()
		if not os.access(self.boot, os.X_OK):
			status = 'skip'
			record.write_bytes(log, f'no boot script {self.boot}\n'.encode())
		elif os.path.isfile(os.path.join(self.tree, 'arch', 'example', 'kernel', 'stubs.c')):
			# the port is still coming up, patch by patch: it builds,
			# and boots only as far as its stubs let it
			status = 'skip'
			record.write_bytes(log, b'arch/example still has kernel/stubs.c: not booted to /init yet\n')
		else:
			env = dict(os.environ, TREE=self.tree, BUILD=self.build, KBUILD_LOCK_HELD='1')
			bout = os.path.join(d, 'boot.out')
			rc = call([self.boot, '--log', log], out=bout, env=env)
			status = 'ok' if rc == 0 else 'fail'
		# what the script printed goes after its log
		bout = os.path.join(d, 'boot.out')
		if os.path.isfile(bout):
			with open(log, 'ab') as f, open(bout, 'rb') as g:
				shutil.copyfileobj(g, f)
			os.remove(bout)
		secs = f'{time.time() - start:.1f}'
		first = ''
		if status == 'fail':
			self.bad = True
			first = record.first_error(log)
		elif status == 'skip':
			first = (record.read_text_lines(log) or [''])[0]
		writes.append((os.path.join(d, 'boot.result'), None, True,
			       [('status', status), ('seconds', secs), ('first_error', first), ('log', log)]))
		common.step('BOOT', f'example {status} {secs}s' + (f': {first}' if first else ''))

	def sparse_cell(self, d, patch, targets, writes):
		"""Sparse on the .c files PATCH touches, each in the build of a
		target of this step whose configuration compiles it (x86_64
		first), and where sparse runs at all (build-arch --sparse exits 3
		when it cannot: the next target is tried); a file no such target
		compiles is listed as unbuilt."""
		r = subprocess.run([os.path.join(self.scripts, 'q'), 'files', patch],
				   stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, cwd=self.tree)
		files = [f for f in r.stdout.decode('utf-8', 'surrogateescape').split() if f.endswith('.c')]
		status = 'skip'
		checked, unbuilt, unchecked, versions, reasons = [], [], [], [], []
		log = os.path.join(d, 'sparse.log')
		out = []
		order = [t for t in targets if t == 'x86_64'] + [t for t in targets if t != 'x86_64']
		nosparse = set()
		arch = os.path.join(self.scripts, 'build-arch')
		for f in files:
			o = os.path.join(os.path.dirname(f), '.' + os.path.basename(f)[:-2] + '.o.cmd')
			st = None
			built = False
			for t in order:
				if not os.path.isfile(os.path.join(self.build, t, o)):
					continue
				built = True
				if t in nosparse:
					continue
				res = os.path.join(self.build, t + '.sparse.result')
				with contextlib.suppress(FileNotFoundError):
					os.remove(res)
				tmp = os.path.join(d, '.sparse.out')
				rc = call([arch, '--sparse', t, f], out=tmp)
				# its log, then what it printed that the log lacks
				slog = os.path.join(self.build, t + '.sparse.log')
				tlog = record.read_text_lines(slog) if os.path.isfile(slog) else None
				printed = record.read_text_lines(tmp)
				os.remove(tmp)
				out.append(f'# {f} in {t}')
				if tlog is not None:
					body = tlog[:-1] if tlog and tlog[-1] == '' else tlog
					out += body
					have = set(body)
					out += [l for l in (printed[:-1] if printed and printed[-1] == '' else printed)
						if l not in have]
				kv = record.read_kv(res) or {}
				v = kv.get('sparse', '')
				vr = kv.get('sparse_runtime', '')
				if v:
					one = v + (f' in {vr}' if vr else '')
					if one not in versions:
						versions.append(one)
				# 3: sparse cannot check this target at all (its reason
				# in its result): try the next
				if rc == 3:
					nosparse.add(t)
					reasons.append(f"{t}: {kv.get('reason') or 'build-arch --sparse exited 3 (see the log)'}")
					continue
				st = t
				if status == 'skip':
					status = 'ok'
				if rc != 0:
					status = 'fail'
				checked.append(f'{st}:{f}')
				break
			if st is None:
				# compiled, but by no target sparse can check: not the
				# same as compiled by none
				(unchecked if built else unbuilt).append(f)
		why = '; '.join(reasons)
		if nosparse:
			out.append(f'# sparse cannot check these targets: {why}')
		if unchecked:
			out.append('# compiled, but sparse can check none of the targets that compile them (above): '
				   + ' '.join(unchecked))
		if unbuilt:
			out.append("# compiled by none of this step's targets: " + ' '.join(unbuilt))
		record.write_bytes(log, ''.join(l + '\n' for l in out).encode('utf-8', 'surrogateescape'))
		nw = sum(1 for l in out if 'warning:' in l or 'error:' in l)
		# a skip says why, as the first error the results show
		first = ''
		if status == 'skip':
			if unchecked:
				first = f"not checked: {' '.join(unchecked)}: {why}"
			elif unbuilt:
				first = f"compiled by none of this step's targets: {' '.join(unbuilt)}"
		vs = '; '.join(versions)
		writes.append((os.path.join(d, 'sparse.result'), None, True,
			       [('status', status), ('warnings', str(nw)), ('files', ' '.join(checked)),
				('unbuilt', ' '.join(unbuilt)), ('unchecked', ' '.join(unchecked)),
				('sparse', vs), ('reason', why), ('first_error', first), ('log', log)]))
		if status == 'fail':
			self.bad = True
		common.step('SPARSE', f"{status} ({nw} warnings: {' '.join(checked)}"
			    + (f'; sparse {vs}' if vs else '')
			    + (f"; not checked: {' '.join(unchecked)} ({why})" if unchecked else '')
			    + (f"; not compiled by any target: {' '.join(unbuilt)}" if unbuilt else '') + ')')

	# --- the run --------------------------------------------------------
	def put_aside(self, s):
		stale = os.path.join(self.ci, '.stale')
		os.makedirs(stale, exist_ok=True)
		shutil.rmtree(os.path.join(stale, s), ignore_errors=True)
		os.rename(os.path.join(self.ci, s), os.path.join(stale, s))

	def toolchains(self, targets):
		"""What build-arch --toolchain prints of each target, in a file."""
		tc = os.path.join(self.ci, '.toolchain')
		with contextlib.suppress(FileNotFoundError):
			os.remove(tc)
		tmp = tc + '.tmp'
		with open(tmp, 'wb') as f:
			for t in targets:
				if call([os.path.join(self.scripts, 'build-arch'), '--toolchain', t], stdout=f) != 0:
					self.die(f'could not fingerprint the steps of {self.ci} (see above)')
		os.replace(tmp, tc)
		return tc

	def main(self):
		a = self.args
		frm, to = a.steps or (0, None)
		if a.restart:
			shutil.rmtree(self.ci, ignore_errors=True)
		os.makedirs(self.ci, exist_ok=True)
		try:
			return self.loop(frm, to)
		finally:
			signal.signal(signal.SIGINT, signal.SIG_IGN)
			signal.signal(signal.SIGTERM, signal.SIG_IGN)
			self.finish()

	def finish(self):
		"""compare-steps, then the results rendered, however the run ends."""
		sys.stdout.flush()
		if self.steps is not None:
			try:
				steps_mod.compare(self.ci)
			except (common.Error, OSError) as e:
				common.warn(f'compare-steps failed on {self.ci}: {e}')
		try:
			from seriesci import render
			old = os.environ.get('SERIESCI_PROG')
			os.environ['SERIESCI_PROG'] = 'results'
			try:
				rc = render.render(self.ci)
			finally:
				os.environ['SERIESCI_PROG'] = old or 'ci-series'
			if rc:
				common.warn(f'scripts/results failed on {self.ci}')
		except (common.Error, OSError) as e:
			print(f'results: error: {e}', file=sys.stderr)
			common.warn(f'scripts/results failed on {self.ci}')
		sys.stdout.flush()

	def loop(self, frm, to):
		ci = self.ci
		# A fresh machine (CI) has no tree yet: make it.  A patch that does
		# not apply stops scripts/tree there; its step records that below.
		if not os.path.isdir(self.tree):
			common.step('TREE', self.tree)
			sys.stdout.flush()
			log = os.path.join(ci, '.tree.log')
			if call([os.path.join(self.scripts, 'tree')], out=log) != 0 and not os.path.isdir(self.tree):
				self.die(f'could not make the tree {self.tree}: see {log}')

		# The steps: 000-baseline, then one per patch.
		self.series = series_mod.patches(self.series_file)
		record.write_bytes(os.path.join(ci, '.series'), ''.join(p + '\n' for p in self.series).encode(
			'utf-8', 'surrogateescape'))
		env = os.environ
		record.write_kv(os.path.join(ci, 'info'), [
			('base', self.base), ('baseline', baseline.pin_line(self.base)),
			('series', ' '.join(self.series)), ('shard', env.get('SHARD', '')),
			('tier', env.get('TIER', '')), ('targets', ' '.join(env.get('TARGETS', '').split()))])
		steps = ['000-baseline'] + [f'{i:03d}-{p}' for i, p in enumerate(self.series, 1)]
		self.steps = steps
		total = len(self.series)
		to = total if to is None else to
		if frm > to:
			self.die(f'--steps={frm}-{to}: the first step comes after the last')

		# What decides each step (fingerprint.plan): keep, run, adopted,
		# "redo: WHY" or "recheck: WHY", and the first patch that changed
		# since a done step or the tree took it.
		targets = build_all.from_env()
		self.arch = targets_mod.arch_of(targets_mod.read())
		inp = fingerprint.Inputs(
			self.base, baseline.pin_line(self.base), targets,
			targets_mod.default_file(),
			os.environ.get('CONFIGS') or os.path.join(self.repo, 'configs'),
			fingerprint._read(self.toolchains(targets)), [f"CODEGEN={env['CODEGEN']}"],
			self.series_file, self.patches_dir,
			os.environ.get('CHECKPATCH_IGNORE') or os.path.join(self.scripts, 'checkpatch-ignore'))
		lines, first = fingerprint.plan(ci, inp, self.args.adopt, self.tree)
		verdict = {}
		for l in lines:
			s, _, v = l.partition(' ')
			verdict[s] = v
			if v == 'adopted':
				common.step('ADOPT', f'{s}: done before fingerprints, adopted (--adopt)')
		# The steps to redo go aside at once, whatever --steps says: a
		# record never shows another series' results as this one's.
		for s, v in verdict.items():
			if v.startswith('redo: '):
				self.put_aside(s)
		# So do the steps of another series: a patch dropped, renamed or
		# moved leaves a step folder that no step of this series has the
		# name of.
		for s in record.steps_of(ci):
			if s not in steps:
				self.put_aside(s)
				common.step('STALE', f'{s}: not a step of this series, put aside in {ci}/.stale')

		# A tree with a changed patch applied goes below it first: quilt
		# pop refuses a patch the tree has another version of (its
		# check), and a run that cannot pop it stops rather than build
		# the old version.
		start_applied = self.applied_count()
		if first > 0 and start_applied >= first:
			fp = self.series[first - 1]
			common.step('POP', f'below {fp}: it changed since a done step or the tree took it')
			log = os.path.join(ci, '.quilt.log')
			if not self.pop_to(first - 1, log):
				self.die(f'quilt cannot pop {self.tree} below {fp}: the tree has another version of '
					 f'a patch than {self.patches_dir} (see {log}): if the tree\'s is the one '
					 'wanted, quilt refresh it; else quilt pop -f drops the tree\'s (make tree '
					 'checks the tree); then run this again')

		order = list(reversed(steps)) if self.args.down else steps
		full_first = self.args.down
		for s in order:
			n = int(s[:3])
			if not frm <= n <= to:
				continue
			d = os.path.join(ci, s)
			v = verdict.get(s, 'run')
			done = os.path.isfile(os.path.join(d, 'done'))
			if v in ('keep', 'adopted') and done:
				self.bad |= failed(d)
				continue
			# built for the series now, but the patch's message or its
			# ignore lines changed: its checkpatch cell again, the rest kept
			if v.startswith('recheck: ') and done:
				common.step('STEP', f"{s} ({n}/{total} patches) kept, checkpatch redone: {v[len('recheck: '):]}")
				os.remove(os.path.join(d, 'done'))
				self.checkpatch(d, self.series[n - 1])
				self.bad |= failed(d)
				shutil.copyfile(os.path.join(ci, fingerprint.PLAN, s), os.path.join(d, 'fingerprint'))
				open(os.path.join(d, 'done'), 'wb').close()
				if self.args.stop and self.bad:
					break
				continue
			why = v[len('redo: '):] if v.startswith('redo: ') else ''
			shutil.rmtree(d, ignore_errors=True)
			os.makedirs(d)
			common.step('STEP', f'{s} ({n}/{total} patches)' + (f' redone: {why}' if why else ''))
			if not self.goto(n):
				# a patch that does not apply: going up, the next ones
				# cannot either; going down, a step below it may
				record.write_groups([(os.path.join(d, 'push.result'), None, False, [('status', 'fail')])])
				self.bad = True
				if self.args.down:
					continue
				break
			self.step(s, n, d, targets, full_first)
			full_first = False
			if self.args.stop and self.bad:
				break
		# down: leave the tree at the top of the series, where it was; up:
		# with at least the patches it had (a run popped below a patch
		# whose message changed and built nothing above it)
		back = None
		if self.args.down:
			if self.applied_count() < total:
				back = total
		elif self.applied_count() < start_applied:
			back = start_applied
		if back is not None:
			log = os.path.join(ci, '.push-back.log')
			sys.stdout.flush()
			with open(log, 'wb') as f:
				saved = (os.dup(1), os.dup(2))
				try:
					os.dup2(f.fileno(), 1)
					os.dup2(f.fileno(), 2)
					ok = self.goto(back)
				except common.Error as e:
					print(e, file=sys.stderr)
					ok = False
				finally:
					sys.stdout.flush()
					sys.stderr.flush()
					for fd, old in zip((1, 2), saved):
						os.dup2(old, fd)
						os.close(old)
			if not ok:
				common.warn(f'could not push the series back onto {self.tree}: see {log}')
		print(f'ci-series: results in {ci}', flush=True)
		return 1 if self.bad else 0

	def step(self, s, n, d, targets, full_first):
		"""Build, boot and check the step S (the tree has its N patches)."""
		ci = self.ci
		# builds.  --down: what printed a warning at a step above (its
		# object, .tmp_missing-syscalls...) is deleted from the target's
		# build and listed in BUILD/TARGET.rebuild, which build-arch
		# rebuilds even when nothing else changed, so this step compiles
		# it again and its log says whether the warning was there already
		# (steps.rebuild_sticky); the first step the run builds is built in
		# full: what the kept build compiled before warned in no log of
		# the run.  Walking up there is no step above.
		if self.args.down:
			try:
				steps_mod.rebuild_sticky(ci, s, self.build, targets, full_first)
			except (common.Error, OSError) as e:
				common.warn(f'could not list what warned above {s}: its warnings may be undecided ({e})')
		else:
			for t in targets:
				with contextlib.suppress(FileNotFoundError):
					os.remove(os.path.join(self.build, t + '.rebuild'))
		sys.stdout.flush()
		if build_all.build(targets, build=self.build, call=call) != 0:
			self.bad = True
		writes = []
		files = self.touched(n)
		files_next = self.touched(n + 1)
		arch = self.arch
		for t in targets:
			r = os.path.join(self.build, t + '.result')
			if not os.path.isfile(r):
				continue
			with contextlib.suppress(FileNotFoundError):
				shutil.copyfile(os.path.join(self.build, t + '.log'), os.path.join(d, t + '.log'))
			shutil.copyfile(r, os.path.join(d, t + '.result'))
			# new_warnings= and codegen= come when the steps are done;
			# log= is set at the step's end; what the build read of this
			# patch's files and the next one's (coverage) when it built
			pairs = [('log', os.path.join(d, t + '.log')), ('arch', arch.get(t, ''))]
			read = reach.readers(os.path.join(self.build, t)) \
				if (record.read_kv(r) or {}).get('status') == 'ok' else None
			if read is not None:
				pairs += [('covers', coverage.field(files, arch.get(t, ''), read)),
					  ('covers_next', coverage.field(files_next, arch.get(t, ''), read))]
			writes.append((os.path.join(d, t + '.result'), os.path.join(d, t + '.result'), False, pairs))
		self.boot_cell(d, writes)
		if n > 0:
			p = self.series[n - 1]
			self.checkpatch(d, p)
			self.sparse_cell(d, p, targets, writes)
		if writes:
			record.write_groups(writes)
		shutil.copyfile(os.path.join(ci, fingerprint.PLAN, s), os.path.join(d, 'fingerprint'))
		open(os.path.join(d, 'done'), 'wb').close()


def run(args):
	if args.check_args:
		return common.Exit.OK
	sys.stdout.reconfigure(line_buffering=True)
	signal.signal(signal.SIGINT, _on_signal)
	signal.signal(signal.SIGTERM, _on_signal)
	try:
		return Run(args).main()
	except Stop as e:
		return e.code
