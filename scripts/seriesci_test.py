#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Unit tests of seriesci's algorithms, as kunit_tool_test.py tests
kunit_tool: failure provenance, merge conflicts and sparse joins, reach
decisions, the codegen paragraph, the targets reader and the entry point.
Run: python3 scripts/seriesci_test.py (tests/unit.t runs it in make check).
"""
import contextlib
import io
import json
import os
import re
import shutil
import sys
import tempfile
import time
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from seriesci import cli, common, coverage, kcidb, merge, metadata, proof, rangediff, reach, record, render, report, repro, series, targets  # noqa: E402


def read(path):
	with open(path) as f:
		return f.read()


def write(path, text):
	os.makedirs(os.path.dirname(path), exist_ok=True)
	with open(path, 'w') as f:
		f.write(text)


class TmpTest(unittest.TestCase):
	def setUp(self):
		self.tmp = tempfile.mkdtemp(prefix='seriesci_test.')
		self.addCleanup(shutil.rmtree, self.tmp)
		env = dict(os.environ)
		self.addCleanup(lambda: (os.environ.clear(), os.environ.update(env)))
		os.environ['SOURCE_DATE_EPOCH'] = '0'

	def res(self, rec, step, cell, **kv):
		write(os.path.join(self.tmp, rec, step, cell + '.result'),
		      ''.join(f'{k}={v}\n' for k, v in kv.items()))


class ProvenanceTest(unittest.TestCase):
	def test_baseline_failure(self):
		self.assertEqual(render.provenance([('fail', 'e'), ('ok', '')]), ['baseline', ''])

	def test_same_error_is_as_before(self):
		self.assertEqual(render.provenance([('ok', ''), ('fail', 'e'), ('fail', 'e')]),
				 ['', 'new', 'as before'])

	def test_other_error_is_new(self):
		self.assertEqual(render.provenance([('fail', 'e'), ('fail', 'f')]), ['baseline', 'new'])

	def test_after_skip_is_new(self):
		self.assertEqual(render.provenance([('fail', 'e'), ('skip', 'e'), ('fail', 'e')]),
				 ['baseline', '', 'new'])


class RecordTest(TmpTest):
	def setUp(self):
		super().setUp()
		r = os.path.join(self.tmp, 'r')
		write(os.path.join(r, 'info'), 'base=9.9\nseries=a.patch b.patch c.patch\nbase=other\n')
		self.res('r', '000-baseline', 'x', target='x', status='ok', seconds='10.0', warnings='1')
		self.res('r', '001-a.patch', 'x', target='x', status='fail', first_error='', tree='/t')
		write(os.path.join(r, '001-a.patch', 'x.log'), 'cc\tx\nmake: *** [x] Error 1\n/t/x.c:1: error: bad\n')
		self.res('r', '001-a.patch', 'checkpatch', status='ok', errors='0', warnings='0')
		self.res('r', '002-b.patch', 'x', target='x', status='weird', first_error='/t/y.c: ' + 'z' * 500, tree='/t')
		write(os.path.join(r, '003-c.patch', 'push.result'), 'status=fail\n')
		self.rec = record.Record(r)

	def test_info_first_value_counts(self):
		self.assertEqual(self.rec.base, '9.9')
		self.assertEqual(self.rec.targets, ['x'])

	def test_failure_error_from_log_without_tree(self):
		self.assertEqual(self.rec.result('001-a.patch', 'x')['first_error'], 'x.c:1: error: bad')

	def test_unknown_status_is_a_malformed_failure(self):
		r = self.rec.result('002-b.patch', 'x')
		self.assertEqual(r['status'], 'fail')
		self.assertIn("malformed result file 002-b.patch/x.result: status='weird'", r['first_error'])
		self.assertEqual(len(self.rec.malformed_files()), 1)

	def test_error_is_cut(self):
		self.res('r', '002-b.patch', 'x', target='x', status='fail', first_error='/t/y.c: ' + 'z' * 500, tree='/t')
		r = record.Record(self.rec.dir).result('002-b.patch', 'x')
		self.assertEqual(len(r['first_error']), record.ERROR_MAX + 3)

	def test_matrix(self):
		m = render.Matrix(self.rec)
		self.assertEqual(m.cell('003-c.patch', 'x').status, 'skip')
		self.assertIsNone(m.cell('000-baseline', 'checkpatch'))
		self.assertEqual(m.count, {'ok': 2, 'fail': 2, 'skip': 1, 'notrun': 0})
		self.assertIn('malformed result file', m.cell('002-b.patch', 'x').error)
		self.assertEqual(m.new, 2)
		doc = json.loads(render.to_json(m, 'now'))
		self.assertIs(doc['steps'][3]['applied'], False)
		self.assertEqual(doc['steps'][0]['targets']['x']['wall'], 10)
		self.assertIn('| 3 | c.patch (**does not apply**) | skip |', render.to_md(m))

	def test_render_writes_three_files(self):
		with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
			render.render(self.rec.dir)
		for ext in ('json', 'md', 'html'):
			self.assertTrue(os.path.isfile(os.path.join(self.rec.dir, 'results.' + ext)))

	def test_first_error_prefers_error_lines(self):
		p = os.path.join(self.tmp, 'log')
		write(p, '# comment\nmake: *** x\nld: undefined reference to y\n')
		self.assertEqual(record.first_error(p), 'ld: undefined reference to y')
		write(p, 'a\n# comment\n')
		self.assertEqual(record.first_error(p), 'a')
		self.assertEqual(record.first_error(p + '.none'), '')


class MergeTest(TmpTest):
	def test_target_conflicts(self):
		with self.assertRaises(merge.Conflict):
			merge.decide('x86_64', 'ok', 'ok')

	def test_shared_checks(self):
		for cell in ('checkpatch', 'boot', 'push'):
			self.assertEqual(merge.decide(cell, 'ok', 'ok'), 'keep')
			self.assertEqual(merge.decide(cell, 'ok', 'skip'), 'keep')
			self.assertEqual(merge.decide(cell, 'skip', 'fail'), 'take')
			with self.assertRaises(merge.Conflict):
				merge.decide(cell, 'ok', 'fail')
		self.assertEqual(merge.decide('sparse', 'ok', 'fail'), 'join')

	def test_sparse_join(self):
		j = dict(merge.join_sparse(
			{'status': 'skip', 'warnings': '1', 'files': 'a:x.c', 'unbuilt': 'y.c z.c', 'log': 'L'},
			{'status': 'ok', 'warnings': '2', 'files': 'b:y.c', 'unbuilt': 'x.c'}))
		self.assertEqual(j, {'status': 'ok', 'warnings': '3', 'files': 'a:x.c b:y.c',
				     'unbuilt': 'z.c', 'unchecked': '', 'sparse': '', 'reason': '',
				     'first_error': '', 'log': 'L'})
		self.assertEqual(dict(merge.join_sparse({'status': 'fail'}, {'status': 'ok'}))['status'], 'fail')
		# compiled in one shard by a target sparse cannot check, by
		# none in the other: unchecked, with the reason and the version
		j = dict(merge.join_sparse(
			{'status': 'skip', 'unchecked': 'x.c', 'sparse': '0.6.4 (Debian: 0.6.4-3)',
			 'reason': "arm64: sparse 0.6.4 (Debian: 0.6.4-3) fails 7.3-rc7's scripts/checker-valid.sh"},
			{'status': 'skip', 'unbuilt': 'x.c'}))
		self.assertEqual((j['status'], j['unchecked'], j['unbuilt'], j['sparse']),
				 ('skip', 'x.c', '', '0.6.4 (Debian: 0.6.4-3)'))
		self.assertIn('checker-valid.sh', j['first_error'])
		self.assertTrue(j['first_error'].startswith('not checked: x.c: arm64: '))

	def test_shard_warnings(self):
		self.assertEqual(merge.shard_warnings(['1/3', '3/3']), ['shards missing: 2/3'])
		self.assertEqual(merge.shard_warnings(['1/2', '1/2', '2/2']), ['the same shard more than once: 1/2'])
		self.assertEqual(merge.shard_warnings(['1/2', '']), [])

	def shard(self, name, shard, target, status):
		write(os.path.join(self.tmp, name, 'info'), f'base=1\nseries=a.patch\nshard={shard}\ntargets={target}\n')
		self.res(name, '000-baseline', target, target=target, status='ok')
		self.res(name, '001-a.patch', target, target=target, status=status)
		self.res(name, '001-a.patch', 'checkpatch', status='ok')
		write(os.path.join(self.tmp, name, '001-a.patch', 'done'), '')

	def test_merge_two_shards(self):
		self.shard('a', '1/2', 'x', 'ok')
		self.shard('b', '2/2', 'y', 'fail')
		out = os.path.join(self.tmp, 'm')
		with contextlib.redirect_stdout(io.StringIO()):
			merge.merge([os.path.join(self.tmp, 'a'), os.path.join(self.tmp, 'b')], out)
		doc = json.loads(read(os.path.join(out, 'results.json')))
		self.assertEqual(doc['targets'], ['x', 'y'])
		self.assertEqual(doc['summary']['new_failures'], 1)
		self.assertTrue(doc['steps'][1]['done'])
		self.assertFalse(doc['steps'][0]['done'])
		self.assertIn('targets=x y\n', read(os.path.join(out, 'info')))

	def test_conflict_writes_nothing(self):
		self.shard('a', '1/2', 'x', 'ok')
		self.shard('b', '2/2', 'x', 'fail')
		out = os.path.join(self.tmp, 'm')
		with self.assertRaisesRegex(common.Error, 'conflicting cell 001-a.patch x'):
			merge.merge([os.path.join(self.tmp, 'a'), os.path.join(self.tmp, 'b')], out)
		self.assertEqual([n for n in os.listdir(self.tmp) if n.startswith('m')], [])


class RangeDiffTest(unittest.TestCase):
	PATCH = ('From: a <a@example.org>\nSubject: [PATCH v2] x: y\n\nmsg\n---\n'
		 '--- a/f.c\n+++ b/f.c\n@@ -1,3 +1,3 @@\n ctx\n-old\n+new\n ctx2\n')

	def test_change_lines_ignore_context(self):
		moved = self.PATCH.replace('@@ -1,3 +1,3 @@\n ctx\n', '@@ -9,3 +9,3 @@\n other\n')
		self.assertEqual(rangediff.change_lines(self.PATCH), rangediff.change_lines(moved))
		self.assertNotEqual(rangediff.change_lines(self.PATCH),
				    rangediff.change_lines(self.PATCH.replace('+new', '+newer')))

	def test_subject_and_files(self):
		self.assertEqual(rangediff.subject(self.PATCH, 'p'), 'x: y')
		self.assertEqual(rangediff.touched(self.PATCH), {'f.c'})


class ReachTest(TmpTest):
	def setUp(self):
		super().setUp()
		t = self.t = os.path.join(self.tmp, 'tree')
		for f in ('include/asm-generic/foo.h', 'arch/a/include/asm/foo.h', 'kernel/fork.c',
			  'kernel/Makefile', 'Documentation/x.rst', 'include/top.h', 'Kconfig', 'arch/a/Kconfig'):
			write(os.path.join(t, f), f)
		os.environ['TREE'] = t
		b = self.b = os.path.join(self.tmp, 'b')
		write(os.path.join(b, 'kernel', '.fork.o.cmd'),
		      f'savedcmd_kernel/fork.o := gcc -I{t}/arch/a/include -I{t}/include -I ./gen/include -c {t}/kernel/fork.c\n\n'
		      f'source_kernel/fork.o := {t}/kernel/fork.c\n\n'
		      f'deps_kernel/fork.o := \\\n  {t}/include/asm-generic/foo.h \\\n'
		      f'  {t}/arch/a/include/asm/foo.h \\\n  {t}/include/top.h \\\n  gen/include/asm/bar.h \\\n'
		      '  $(wildcard include/config/X) \\\n\nkernel/fork.o: $(deps_kernel/fork.o)\n')
		write(os.path.join(b, 'include/config/auto.conf.cmd'),
		      'deps_config := \\\n\tKconfig \\\n\tarch/a/Kconfig\n\nx: y\n')
		write(os.path.join(b, '.stamp'), '')
		reach.record(b, os.path.join(b, '.stamp'), 'k')

	def ask(self, *files, key='k'):
		return reach.decide(self.b, key, list(files))

	def test_parse_cmd(self):
		d, gen, idirs, gidirs = reach.parse_cmd(
			'savedcmd_x := cc -I/t/inc -I ./g -include /t/a.h /t/x.c /u/y.c\n'
			'deps_x := \\\n  /t/b.h \\\n  g/c.h \\\n  $(wildcard include/config/X) \\\n\n', '/t/')
		self.assertEqual((d, gen, idirs, gidirs), (['a.h', 'x.c', 'b.h'], ['g/c.h', 'include/config/X'], ['inc'], ['g']))
		# (the word after $(wildcard is kept: an index too big builds more, never less)

	def test_shell_quotes_around_a_path(self):
		d = reach.parse_cmd('savedcmd_x := if [ "$$(sed -n 1p /t/a.h)" != "/t/b.h" ]; then :; fi\n', '/t/')[0]
		self.assertEqual(d, ['a.h', 'b.h'])

	def test_index(self):
		r = os.path.join(self.b, '.reach')
		self.assertEqual(read(os.path.join(r, 'deps')).split(),
				 ['Kconfig', 'arch/a/Kconfig', 'arch/a/include/asm/foo.h',
				  'include/asm-generic/foo.h', 'include/top.h', 'kernel/fork.c'])
		self.assertEqual(read(os.path.join(r, 'names')).split(), ['asm-generic/foo.h', 'asm/bar.h', 'asm/foo.h', 'top.h'])
		self.assertFalse(os.path.exists(os.path.join(self.b, '.stamp')))

	def test_unreached_only_when_nothing_read(self):
		self.assertEqual(self.ask('Documentation/x.rst')[0], False)
		self.assertEqual(self.ask('kernel/fork.c'),
				 (True, 'kernel/fork.c: a dependency of the build'))

	def test_paths_are_normalized(self):
		"""An absolute, doubled or dotted path of a dependency reaches; one
		outside the tree cannot be decided, and reaches."""
		for f in (os.path.join(self.t, 'kernel/fork.c'), 'kernel//fork.c', 'kernel/../kernel/fork.c',
			  './kernel/fork.c'):
			self.assertEqual(self.ask(f), (True, 'kernel/fork.c: a dependency of the build'), f)
		self.assertIn('not a file of the tree', self.ask('/elsewhere/kernel/fork.c')[1])
		self.assertIn('not a file of the tree', self.ask('../x.c')[1])
		self.assertEqual(self.ask(os.path.join(self.t, 'Documentation/x.rst'))[0], False)

	def test_build_files_and_scripts(self):
		self.assertTrue(self.ask('kernel/Makefile')[0])
		self.assertTrue(self.ask('Makefile')[0])
		self.assertTrue(self.ask('scripts/foo.sh')[0])
		self.assertFalse(self.ask('drivers/x/Makefile')[0])

	def test_shadowing(self):
		self.assertIn('may shadow <asm/bar.h>', self.ask('arch/a/include/asm/bar.h')[1])
		self.assertIn('may shadow "top.h"', self.ask('kernel/top.h')[1])
		self.assertFalse(self.ask('arch/a/include/asm/other.h')[0])

	def test_fail_safe(self):
		self.assertIn('another compiler', self.ask('Documentation/x.rst', key='other')[1])
		with open(os.path.join(self.b, '.reach', 'idirs'), 'a') as f:
			f.write('arch/x\n')
		self.assertIn('damaged', self.ask('Documentation/x.rst')[1])
		os.remove(os.path.join(self.b, '.reach', 'dirs'))
		self.assertIn('incomplete', self.ask('Documentation/x.rst')[1])

	def test_tree_changes(self):
		stamp = os.path.join(self.b, '.reach', 'stamp')
		past = time.time() - 100
		os.utime(stamp, (past, past))
		self.assertTrue(reach.decide(self.b, 'k')[0])	# everything is newer
		os.utime(stamp, (past + 1000, past + 1000))
		self.assertEqual(reach.decide(self.b, 'k')[0], False)
		os.remove(os.path.join(self.t, 'kernel/fork.c'))
		os.utime(os.path.join(self.t, 'kernel'), (past + 2000, past + 2000))
		self.assertEqual(reach.decide(self.b, 'k'),
				 (True, 'kernel/fork.c: a dependency of the build, deleted'))


	def test_readers(self):
		count, dirs = reach.readers(self.b)
		self.assertEqual(count['include/top.h'], 1)
		self.assertEqual(count['kernel/fork.c'], 1)
		self.assertEqual(count['Kconfig'], 0)	# read by Kconfig, no object
		self.assertIn('kernel', dirs)
		write(os.path.join(self.b, '.reach', 'format'), '3\n')
		self.assertIsNone(reach.readers(self.b))	# an older index: no figure


class CoverageTest(TmpTest):
	PATCH = ('msg\n---\n--- a/include/asm-generic/foo.h\n+++ b/include/asm-generic/foo.h\n@@ -1 +1 @@\n'
		 '--- a/arch/a/include/asm/foo.h\n+++ /dev/null\n@@ -1 +0,0 @@\n'
		 '--- /dev/null\n+++ b/arch/b/include/asm/new.h\n@@ -0,0 +1 @@\n'
		 '--- a/arch/a/include/asm/Kbuild\n+++ b/arch/a/include/asm/Kbuild\n@@ -1 +1 @@\n'
		 '--- a/Documentation/x.rst\n+++ b/Documentation/x.rst\n@@ -1 +1 @@\n')

	def test_touched(self):
		self.assertEqual(series.touched(self.PATCH),
				 [('include/asm-generic/foo.h', 'changed'), ('arch/a/include/asm/foo.h', 'deleted'),
				  ('arch/b/include/asm/new.h', 'new'), ('arch/a/include/asm/Kbuild', 'changed'),
				  ('Documentation/x.rst', 'changed')])

	def test_field(self):
		files = [f for f, _ in series.touched(self.PATCH)]
		read = ({'include/asm-generic/foo.h': 7, 'arch/a/include/asm/foo.h': 3}, {'arch/a/include/asm'})
		self.assertEqual(coverage.field(files, 'a', read),
				 'include/asm-generic/foo.h:7 arch/a/include/asm/foo.h:3 arch/b/include/asm/new.h:- '
				 'arch/a/include/asm/Kbuild:make')
		self.assertEqual(coverage.field(files, 'b', read),
				 'include/asm-generic/foo.h:7 arch/a/include/asm/foo.h:- arch/b/include/asm/new.h:0 '
				 'arch/a/include/asm/Kbuild:-')

	def test_judge(self):
		# ta (arch a) read the deleted header before the patch, the
		# generic one after; tb (arch b) never read its new header
		step = {'ta': {'status': 'ok', 'arch': 'a', 'covers': 'include/g.h:5 arch/a/x.h:0 arch/b/n.h:-'},
			'tb': {'status': 'ok', 'arch': 'b', 'covers': 'include/g.h:0 arch/a/x.h:- arch/b/n.h:0'}}
		before = {'ta': {'status': 'ok', 'arch': 'a', 'covers_next': 'include/g.h:5 arch/a/x.h:2 arch/b/n.h:-'},
			  'tb': {'status': 'ok', 'arch': 'b', 'covers_next': 'include/g.h:0 arch/a/x.h:- arch/b/n.h:0'}}
		cv = coverage.judge(step, before)
		self.assertEqual(cv.status(), 'partly')
		self.assertEqual(cv.uncovered(), [('arch/b/n.h', 'read by none of tb')])
		self.assertEqual(cv.line(), 'include/g.h ta 5; arch/a/x.h ta 2; arch/b/n.h NOT COVERED (read by none of tb)')
		del step['tb'], before['tb']
		self.assertEqual(coverage.judge(step, before).uncovered(), [('arch/b/n.h', 'no b target in the run')])
		# a failed build says nothing; documentation only is n/a
		self.assertIsNone(coverage.judge({'ta': {'status': 'fail', 'covers': 'include/g.h:5'}}, None))
		self.assertEqual(coverage.judge({'ta': {'status': 'ok', 'arch': 'a', 'covers': ''}}, None).status(), 'n/a')
		self.assertEqual(coverage.judge({'ta': {'status': 'ok', 'arch': 'a', 'covers': 'k.c:0'}}, None).status(),
				 'not covered')

	def test_rendered(self):
		rec = os.path.join(self.tmp, 'rec')
		write(os.path.join(rec, 'info'), 'base=1.0\nseries=p1.patch\n')
		write(os.path.join(rec, '000-baseline', 'ta.result'),
		      'target=ta\nstatus=ok\narch=a\ncovers=\ncovers_next=k.c:0 arch/a/h.h:0\n')
		write(os.path.join(rec, '001-p1.patch', 'ta.result'),
		      'target=ta\nstatus=ok\narch=a\ncovers=k.c:0 arch/a/h.h:0\ncovers_next=\n')
		render.render(rec, quiet=True)
		md = read(os.path.join(rec, 'results.md'))
		self.assertIn(' covered |', md)
		self.assertIn('| 1 | p1.patch | ok |   |   | **not covered** |', md)
		self.assertIn('- 1 p1.patch: **not covered**: k.c NOT COVERED (read by none of ta)', md)
		doc = json.loads(read(os.path.join(rec, 'results.json')))
		self.assertEqual(doc['steps'][1]['coverage']['status'], 'not covered')
		self.assertIn('data-col="covered" data-status="not covered"', read(os.path.join(rec, 'results.html')))


class ProofTest(unittest.TestCase):
	T = targets.parse('# c\nx86_64 x86 - quick\ni386 x86 - full\narm64 arm64 a- full\n')

	def test_all_identical(self):
		s = proof.sentences({'x86_64': 'identical', 'i386': 'identical'}, ['x86'], self.T, '1.0')
		self.assertTrue(s[0].endswith('on 1.0): vmlinux the same, byte for byte, on all 2 targets built: i386, x86_64.'))
		self.assertEqual(len(s), 1)

	def test_mixed_and_missing(self):
		s = proof.sentences({'x86_64': 'differs', 'arm64': 'same'}, ['arm64', 'csky', 'x86'], self.T)
		self.assertTrue(s[0].endswith(': the same code (objdump -d), other bytes changed, on arm64; '
					      'the code changes on x86_64.'))
		self.assertEqual(s[1:], ['Not built here: csky (no Debian compiler the kernel builds with).',
					 'Not yet built: i386.'])

	def test_wrap(self):
		lines = proof.wrap(['a ' * 40 + 'end.', 'Next.'])
		self.assertTrue(all(len(l) <= 72 for l in lines))
		self.assertTrue(lines[-1].endswith('end.  Next.'))

	def test_replace(self):
		text = f'Subject\n\n{proof.MARK} old\nold too\n\nSigned-off-by: x\n---\n{proof.MARK}\n'
		self.assertEqual(proof.replace(text, ['new']),
				 f'Subject\n\nnew\n\nSigned-off-by: x\n---\n{proof.MARK}\n')

	def test_coverage_sentences(self):
		cv = coverage.judge({'ta': {'status': 'ok', 'arch': 'a', 'covers': 'include/g.h:5 arch/b/n.h:-'}}, None)
		self.assertEqual(proof.coverage_sentences(cv), [
			"Objects of those builds that read the files it changes (Kbuild's .cmd files, before or "
			'after it; make: a build file of a folder the build visits): include/g.h: ta 5.',
			'Read by no build, so not proven by them: arch/b/n.h (no b target in the run).'])
		self.assertEqual(proof.coverage_sentences(None), [])

	def test_arches(self):
		self.assertEqual(proof.touched_arches('--- a/arch/x86/a.h\n+++ b/arch/x86/a.h\n+++ b/arch/arm/b\n'),
				 ['arm', 'x86'])


class TargetsTest(unittest.TestCase):
	def test_parse(self):
		t = targets.parse('# x\n\nloongarch loongarch l- full GCC_SUFFIX=-14 RUNTIME=trixie\n')
		self.assertEqual(len(t), 1)
		self.assertEqual((t[0].name, t[0].tier, t[0].field('vars')),
				 ('loongarch', 'full', 'GCC_SUFFIX=-14 RUNTIME=trixie'))

	def test_repo_file(self):
		names = [t.name for t in targets.read(os.path.join(common.repo(), 'configs', 'targets'))]
		self.assertIn('x86_64', names)


class GarbageTest(TmpTest):
	"""Issue 24: a folder of garbage is an error naming the file; a record
	with a malformed result is never green."""

	def render(self, path):
		err = io.StringIO()
		with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
			rc = render.render(path)
		return rc, err.getvalue()

	def test_check_kv(self):
		p = os.path.join(self.tmp, 'r.result')
		for text, why in (('', 'empty'), ('status=ok\x00\n', 'binary'), ('hello world\n', 'line 1 is not key=value'),
				  ('target=x\n', 'no status= line'), ('status=green\n', "status='green'"),
				  ('status=ok\nseconds=fast\n', "seconds='fast' is not a number"),
				  ('status=ok\nseconds=\nwarnings=3\n', '')):
			write(p, text)
			self.assertIn(why, record.check_kv(p), text) if why else self.assertEqual(record.check_kv(p), '')
		with open(p, 'wb') as f:
			f.write(b'status=ok\nfirst_error=\xff\n')
		self.assertEqual(record.check_kv(p), 'not UTF-8 text')

	def test_not_a_record(self):
		os.makedirs(os.path.join(self.tmp, 'empty', 'junk'))
		with self.assertRaisesRegex(common.Error, 'not a ci-series record folder'):
			record.Record(os.path.join(self.tmp, 'empty'))

	def test_only_garbage_writes_nothing(self):
		write(os.path.join(self.tmp, 'g', '001-a.patch', 'x.result'), 'garbage\n')
		write(os.path.join(self.tmp, 'g', '001-a.patch', 'y.result'), '')
		with self.assertRaisesRegex(common.Error, r'no valid result file.*\n.*001-a.patch/x.result: line 1'):
			render.render(os.path.join(self.tmp, 'g'))
		self.assertFalse(os.path.exists(os.path.join(self.tmp, 'g', 'results.html')))

	def test_garbage_info(self):
		write(os.path.join(self.tmp, 'g', 'info'), '\x00\x01binary')
		self.res('g', '000-baseline', 'x', status='ok')
		with self.assertRaisesRegex(common.Error, 'g/info: binary'):
			record.Record(os.path.join(self.tmp, 'g'))

	def test_one_malformed_is_not_green(self):
		write(os.path.join(self.tmp, 'r', 'info'), 'base=1\nseries=a.patch\n')
		self.res('r', '000-baseline', 'x', target='x', status='ok')
		write(os.path.join(self.tmp, 'r', '001-a.patch', 'x.result'), 'status=ok\nseconds=NaN\n')
		rc, err = self.render(os.path.join(self.tmp, 'r'))
		self.assertEqual(rc, common.Exit.FAILURE)
		self.assertIn('001-a.patch/x.result: line 2', err)
		doc = json.loads(read(os.path.join(self.tmp, 'r', 'results.json')))
		self.assertEqual(doc['summary']['fail'], 1)
		self.assertEqual(doc['steps'][1]['targets']['x']['status'], 'fail')
		self.assertEqual(doc['malformed'][0]['file'], '001-a.patch/x.result')
		self.assertIn('malformed result file', read(os.path.join(self.tmp, 'r', 'results.html')))

	def test_merge_refuses_garbage(self):
		for n, sh in (('a', '1/2'), ('b', '2/2')):
			write(os.path.join(self.tmp, n, 'info'), f'base=1\nseries=a.patch\nshard={sh}\n')
			self.res(n, '001-a.patch', n, target=n, status='ok')
		write(os.path.join(self.tmp, 'b', '001-a.patch', 'c.result'), 'status=\n')
		out = os.path.join(self.tmp, 'm')
		with self.assertRaisesRegex(common.Error, 'b/001-a.patch/c.result: status=.. is not ok'):
			merge.merge([os.path.join(self.tmp, 'a'), os.path.join(self.tmp, 'b')], out)
		self.assertFalse(os.path.exists(out))
		write(os.path.join(self.tmp, 'e', 'info'), 'base=1\nseries=a.patch\n')
		with self.assertRaisesRegex(common.Error, 'no NNN-NAME step folder'):
			merge.merge([os.path.join(self.tmp, 'a'), os.path.join(self.tmp, 'e')], out)


TARGETS = ('x86_64 x86 - quick\n'
	   'loongarch loongarch loongarch64-linux-gnu- full GCC_SUFFIX=-14 RUNTIME=trixie\n'
	   'hexagon hexagon - full LLVM=-19 RUNTIME=trixie\n'
	   'example32 example riscv64-linux-gnu- full\n')


class CellsTest(TmpTest):
	"""metadata.json and reproduce.sh of the build cells."""

	def setUp(self):
		super().setUp()
		c = self.configs = os.path.join(self.tmp, 'repo', 'configs')
		write(os.path.join(c, 'targets'), TARGETS)
		for t in ('base', 'x86_64', 'loongarch', 'hexagon', 'example'):
			write(os.path.join(c, t + '.config'), 'CONFIG_X=y\n')
		write(os.path.join(c, 'example32.config'), '# include: example.config\nCONFIG_32BIT=y\n')
		os.environ['CONFIGS'] = c
		os.environ.pop('TARGETS_FILE', None)
		self.bcs = metadata.configs_of()

	def test_build_config(self):
		b = self.bcs['loongarch']
		self.assertEqual((b.arch, b.cross, b.runtime, b.cc(), b.makevars), ('loongarch', 'loongarch64-linux-gnu-', 'trixie',
										 'loongarch64-linux-gnu-gcc-14', []))
		self.assertEqual(self.bcs['example32'].fragments[1:], ['configs/example.config', 'configs/example32.config'])
		self.assertEqual(self.bcs['hexagon'].environment(), {'ARCH': 'hexagon', 'LLVM': '-19'})

	def test_build_config_crosstool(self):
		"""TOOLCHAIN=crosstool is build-arch's, not a make variable."""
		t = targets.parse('nios2 nios2 nios2-linux- full TOOLCHAIN=crosstool\n')[0]
		b = metadata.BuildConfig(t, self.configs)
		self.assertEqual((b.crosstool, b.makevars, b.environment()),
				 ('nios2-linux-', [], {'ARCH': 'nios2', 'CROSS_COMPILE': 'nios2-linux-'}))

	def test_metadata_fields(self):
		r = {'target': 'hexagon', 'status': 'ok', 'stage': 'built', 'seconds': '12.5', 'warnings': '2',
		     'vmlinux_size': '1000', 'compiler': 'Debian clang version 19.1.7 (3+b1)', 'binutils': 'LLD 19.1.7',
		     'runtime': 'trixie', 'new_warnings': '1'}
		d = metadata.metadata(r, '001-a.patch', 'hexagon', self.bcs['hexagon'])
		self.assertEqual(d['build']['toolchain'], 'llvm-19')
		self.assertEqual(d['compiler'], {'name': 'clang', 'version': '19.1.7',
						 'version_full': 'Debian clang version 19.1.7 (3+b1)'})
		self.assertEqual(d['results'], {'status': 'PASS', 'targets': {'kernel': {'status': 'PASS', 'duration': 12.5}},
						'artifacts': {'kernel': ['vmlinux']}, 'warnings': 2})
		self.assertEqual(d['vmlinux'], {'file_size': 1000})
		self.assertEqual(d['tools'], {'ld': 'LLD 19.1.7'})

	def test_metadata_invents_nothing(self):
		d = metadata.metadata({'status': 'fail', 'stage': 'toolchain'}, '000-baseline', 'gone', None)
		self.assertEqual(set(d), {'build', 'results', 'series'})
		self.assertEqual(d['build'], {'targets': ['kernel']})
		self.assertEqual(d['results'], {'status': 'FAIL', 'targets': {'kernel': {'status': 'FAIL'}}})

	def record(self, status='fail'):
		r = os.path.join(self.tmp, 'r')
		write(os.path.join(r, 'info'), 'base=9.9\nseries=a.patch b.patch\n')
		self.res('r', '000-baseline', 'loongarch', target='loongarch', status='ok', seconds='1.0')
		self.res('r', '001-a.patch', 'loongarch', target='loongarch', status=status, stage='build',
			 first_error='x.c:1: error: bad', runtime='trixie',
			 compiler='loongarch64-linux-gnu-gcc-14 (Debian 14.2.0-19) 14.2.0')
		self.res('r', '001-a.patch', 'gone', target='gone', status='fail')
		return r

	def test_render_writes_cells_and_removes_stale_ones(self):
		r = self.record()
		with contextlib.redirect_stdout(io.StringIO()):
			self.assertEqual(render.render(r), common.Exit.OK)
		step = os.path.join(r, '001-a.patch')
		self.assertEqual(sorted(n for n in os.listdir(step) if not n.endswith('.result')),
				 ['gone.metadata.json', 'loongarch.metadata.json', 'loongarch.reproduce.sh'])
		d = json.loads(read(os.path.join(step, 'loongarch.metadata.json')))
		self.assertEqual(d['build']['reproducer_cmdline'], ['sh', 'loongarch.reproduce.sh'])
		self.assertTrue(os.access(os.path.join(step, 'loongarch.reproduce.sh'), os.X_OK))
		self.record('ok')
		with contextlib.redirect_stdout(io.StringIO()):
			render.render(r)
		self.assertFalse(os.path.exists(os.path.join(step, 'loongarch.reproduce.sh')))

	def sandbox(self):
		"""A clone with stub scripts, and stub quilt and make on PATH that
		log their arguments: the reproducer's non-build parts run for real."""
		repo = os.path.join(self.tmp, 'repo')
		write(os.path.join(repo, 'series'), '#@ destination: x\na.patch\nb.patch\n')
		for p in ('a.patch', 'b.patch'):
			write(os.path.join(repo, 'patches', p), '')
		log = os.path.join(self.tmp, 'calls')
		stub = f'#!/bin/sh\necho "$(basename "$0") $*" >> {log}\n'
		fetch = stub + 'mkdir -p "$OUT/src/$1/scripts/kconfig"\n' + \
			f"printf '%s\\n' '{stub.replace(chr(10), chr(10))}' > \"$OUT/src/$1/scripts/kconfig/merge_config.sh\"\n" + \
			'chmod +x "$OUT/src/$1/scripts/kconfig/merge_config.sh"\n'
		bins = {os.path.join(repo, 'scripts', 'deps'): stub,
			os.path.join(repo, 'scripts', 'fetch-baseline'): fetch,
			os.path.join(repo, 'scripts', 'runtime'): stub + 'shift 2\nexec "$@"\n',
			os.path.join(self.tmp, 'bin', 'quilt'): stub,
			os.path.join(self.tmp, 'bin', 'make'): stub,
			os.path.join(self.tmp, 'bin', 'loongarch64-linux-gnu-gcc-14'):
			'#!/bin/sh\necho "loongarch64-linux-gnu-gcc-14 (Debian 14.2.0-19) 14.2.0"\n'}
		for f, text in bins.items():
			write(f, text)
			os.chmod(f, 0o755)
		return repo, log

	def run_script(self, text, repo, *args):
		sc = os.path.join(self.tmp, 'repro.sh')
		write(sc, text)
		env = dict(os.environ, REPO=repo, OUT=os.path.join(self.tmp, 'out'),
			   PATH=os.path.join(self.tmp, 'bin') + ':' + os.environ['PATH'])
		import subprocess
		return subprocess.run(['sh', sc] + list(args), env=env, capture_output=True, text=True)

	def test_reproducer_runs_in_a_sandbox(self):
		repo, log = self.sandbox()
		r = {'status': 'fail', 'compiler': 'loongarch64-linux-gnu-gcc-14 (Debian 14.2.0-19) 14.2.0'}
		text = repro.script('9.9', ['a.patch', 'b.patch'], 1, 'loongarch', self.bcs['loongarch'], r)
		p = self.run_script(text, repo)
		self.assertEqual(p.returncode, 0, p.stderr)
		self.assertNotIn('warning', p.stderr)
		calls = read(log).splitlines()
		self.assertEqual(calls[0], 'deps ')
		self.assertEqual(calls[1], 'fetch-baseline 9.9')
		self.assertEqual(calls[2], 'quilt --quiltrc ' + repo + '/scripts/quiltrc push a.patch')
		b = os.path.join(self.tmp, 'out', 'repro-001-a.patch-loongarch', 'build')
		t = os.path.join(self.tmp, 'out', 'repro-001-a.patch-loongarch', 'linux')
		mk = (f'make -C {t} O={b} ARCH=loongarch CROSS_COMPILE=loongarch64-linux-gnu- '
		      'CC=loongarch64-linux-gnu-gcc-14 ')
		rt = 'runtime run trixie '
		self.assertEqual(calls[3:], [
			rt + mk + 'tinyconfig', mk + 'tinyconfig',
			f'merge_config.sh -m -O {b} {b}/.config {repo}/configs/base.config {repo}/configs/loongarch.config',
			rt + mk + 'olddefconfig', mk + 'olddefconfig',
			rt + 'loongarch64-linux-gnu-gcc-14 --version',
			rt + mk + f'-j{len(os.sched_getaffinity(0))} vmlinux', mk + f'-j{len(os.sched_getaffinity(0))} vmlinux'])

	def test_reproducer_dry_run_and_wrong_clone(self):
		repo, log = self.sandbox()
		text = repro.script('9.9', ['a.patch', 'b.patch'], 2, 'x86_64', self.bcs['x86_64'], {'status': 'fail'})
		p = self.run_script(text, repo, '--dry-run')
		self.assertEqual(p.returncode, 0, p.stderr)
		self.assertFalse(os.path.exists(log))
		self.assertIn('quilt --quiltrc "$REPO/scripts/quiltrc" push b.patch', p.stdout)
		self.assertIn('ARCH=x86 CROSS_COMPILE=\'\' -j$(nproc) vmlinux', p.stdout)
		write(os.path.join(repo, 'series'), 'b.patch\na.patch\n')
		p = self.run_script(text, repo, '--dry-run')
		self.assertEqual(p.returncode, 1)
		self.assertIn("does not start with the run's 2 patches", p.stderr)
		p = self.run_script(text, repo, '--bogus')
		self.assertEqual(p.returncode, 2)


class ReportTest(TmpTest):
	def test_destinations(self):
		p = os.path.join(self.tmp, 'series')
		write(p, '# c\n#@ destination: one\n#@ version: 3\na.patch\n#@ destination: two\nb.patch # x\n')
		self.assertEqual(report.destinations(p), [('one', '3', ['a.patch']), ('two', '1', ['b.patch'])])
		write(p, 'a.patch\nb.patch\n')
		self.assertEqual(report.destinations(p), [('series', '1', ['a.patch', 'b.patch'])])
		self.assertEqual(report.cover(report.destinations(p), ['a.patch', 'c.patch', 'b.patch']),
				 [('series', '1', ['a.patch', 'b.patch']), ('(not in the series file)', '1', ['c.patch'])])

	def matrix(self):
		r = os.path.join(self.tmp, 'r')
		write(os.path.join(r, 'info'), 'base=9.9\nseries=a.patch b.patch c.patch d.patch\n')
		for i, s in enumerate(('000-baseline', '001-a.patch', '002-b.patch', '003-c.patch', '004-d.patch')):
			self.res('r', s, 'x', target='x', status='ok', new_warnings='2' if i == 1 else '0')
		self.res('r', '003-c.patch', 'y', target='y', status='fail', first_error='y.c: error: e')
		self.res('r', '004-d.patch', 'y', target='y', status='fail', first_error='y.c: error: e')
		for s in ('000-baseline', '001-a.patch', '002-b.patch'):
			self.res('r', s, 'y', target='y', status='ok')
		return render.Matrix(record.Record(r))

	def test_first_bad_commit(self):
		m = self.matrix()
		d = report.Dest(m, 'two', '1', ['c.patch', 'd.patch'])
		self.assertEqual(d.first_bad, 3)
		self.assertEqual(d.verdict(), 'BUILD REGRESSION')
		self.assertEqual([(i, c, new) for i, c, _, new in d.failures], [(3, 'y', True), (4, 'y', False)])
		t = report.text(m, [('two', '1', ['c.patch', 'd.patch'])], m.rec.dir, 'series')
		self.assertIn('first bad commit: 003-c.patch (c.patch)', t)
		self.assertIn('>> 003-c.patch y: y.c: error: e', t)
		self.assertIn('   004-d.patch y (as before): y.c: error: e', t)

	def test_warnings_and_undecided(self):
		m = self.matrix()
		d = report.Dest(m, 'one', '1', ['a.patch', 'b.patch'])
		self.assertEqual(d.verdict(), 'BUILD SUCCESS WITH WARNING')
		self.assertIn('+  001-a.patch x: 2 new warning lines', report.text(m, [('one', '1', ['a.patch'])], '/r', 's'))
		os.remove(m.rec.path('002-b.patch', 'y.result'))
		m = render.Matrix(record.Record(m.rec.dir))
		self.assertEqual(report.Dest(m, 'one', '1', ['a.patch', 'b.patch']).verdict(), 'NOT DECIDED')
		self.assertEqual(report.Dest(m, 'z', '1', ['zz.patch']).verdict(), 'NOT DECIDED')

	def test_undecided_warnings_are_not_a_success(self):
		m = self.matrix()
		self.res('r', '001-a.patch', 'x', target='x', status='ok', new_warnings='0',
			 undecided_warnings='1')
		m = render.Matrix(record.Record(m.rec.dir))
		d = report.Dest(m, 'one', '1', ['a.patch', 'b.patch'])
		self.assertEqual(d.verdict(), 'NOT DECIDED')
		t = report.text(m, [('one', '1', ['a.patch'])], '/r', 's')
		self.assertIn('?  001-a.patch x: 1 warning line not in the step before', t)
		self.assertIn('1 with undecided ones', t)
		self.assertIn('| ok +1w? |', render.to_md(m))
		self.assertIn('class="ok undecided"', render.to_html(m, 'now'))
		doc = json.loads(render.to_json(m, 'now'))
		self.assertEqual(doc['steps'][1]['targets']['x']['undecided_warnings'], 1)


# KCIDB I/O schema v5.0 (kcidb-io, kcidb_io/schema/v05_00.py): the
# properties every object must have ("required") and the only ones it
# may have ("additionalProperties": false); no property may be null.
KCIDB_V5_REQUIRED = {
	'': ['version'],
	'version': ['major'],
	'checkout': ['id', 'origin'],
	'build': ['checkout_id', 'id', 'origin'],
	'test': ['build_id', 'id', 'origin'],
	'resource': ['name', 'url'],
}
KCIDB_V5_ALLOWED = {
	'': {'version', 'checkouts', 'builds', 'tests', 'issues', 'incidents'},
	'version': {'major', 'minor'},
	'checkout': {'_timestamp', 'id', 'origin', 'tree_name', 'git_repository_url', 'git_commit_hash',
		     'git_commit_name', 'git_commit_tags', 'git_commit_message', 'git_repository_branch',
		     'git_repository_branch_tip', 'patchset_files', 'patchset_hash', 'message_id', 'comment',
		     'start_time', 'log_url', 'log_excerpt', 'valid', 'misc'},
	'build': {'_timestamp', 'checkout_id', 'id', 'origin', 'comment', 'start_time', 'duration',
		  'architecture', 'command', 'compiler', 'input_files', 'output_files', 'config_name',
		  'config_url', 'log_url', 'log_excerpt', 'status', 'misc'},
	'test': {'_timestamp', 'build_id', 'id', 'origin', 'environment', 'path', 'comment', 'log_url',
		 'log_excerpt', 'status', 'number', 'start_time', 'duration', 'output_files', 'misc'},
	'resource': {'name', 'url'},
}
KCIDB_V5_STATUS = {'FAIL', 'ERROR', 'MISS', 'PASS', 'DONE', 'SKIP'}


class KcidbTest(TmpTest):
	def check(self, kind, o):
		for k in KCIDB_V5_REQUIRED[kind]:
			self.assertIn(k, o, f'{kind} lacks {k}')
		self.assertLessEqual(set(o), KCIDB_V5_ALLOWED[kind], kind)
		for k, v in o.items():
			self.assertIsNotNone(v, f'{kind}.{k} is null')

	def export(self):
		r = os.path.join(self.tmp, 'r')
		write(os.path.join(r, 'info'), 'base=9.9\nseries=a.patch b.patch\n')
		self.res('r', '000-baseline', 'example', target='example', status='ok', seconds='3.5',
			 compiler='riscv64-linux-gnu-gcc (Debian 12.2.0-13) 12.2.0')
		self.res('r', '001-a.patch', 'example', target='example', status='fail', stage='build', first_error='e')
		self.res('r', '001-a.patch', 'boot', status='skip', seconds='0', first_error='no boot')
		self.res('r', '001-a.patch', 'checkpatch', status='ok', errors='0', warnings='1')
		write(os.path.join(r, '001-a.patch', 'example.log'), 'e\n')
		self.res('r', '002-b.patch', 'example', target='example', status='fail', stage='toolchain')
		write(os.path.join(r, '002-b.patch', 'x.result'), 'garbage\n')
		pd = os.path.join(self.tmp, 'patches')
		write(os.path.join(pd, 'a.patch'), 'A\n')
		write(os.path.join(pd, 'b.patch'), 'B\n')
		with contextlib.redirect_stderr(io.StringIO()):
			return kcidb.export(render.Matrix(record.Record(r)), 'test_ci', 'https://ci.example.org/r', pd)

	def test_required_fields(self):
		doc = self.export()
		self.check('', doc)
		self.check('version', doc['version'])
		self.assertEqual(doc['version']['major'], 5)
		for kind, lst in (('checkout', 'checkouts'), ('build', 'builds'), ('test', 'tests')):
			self.assertTrue(doc[lst], lst)
			for o in doc[lst]:
				self.check(kind, o)
				self.assertTrue(o['id'].startswith('test_ci:'))
				if 'status' in o:
					self.assertIn(o['status'], KCIDB_V5_STATUS)
				for res in o.get('patchset_files', []):
					self.check('resource', res)
		json.dumps(doc)

	def test_mapping(self):
		import hashlib
		doc = self.export()
		ch = {c['misc']['step']: c for c in doc['checkouts']}
		self.assertEqual(ch['000-baseline']['patchset_hash'], '')
		h = hashlib.sha256((hashlib.sha256(b'A\n').hexdigest() + '\n').encode()).hexdigest()
		self.assertEqual(ch['001-a.patch']['patchset_hash'], h)
		self.assertEqual(ch['001-a.patch']['misc']['checkpatch'], {'status': 'ok', 'errors': 0, 'warnings': 1})
		st = {b['id'].rsplit(':', 1)[1] + '@' + b['checkout_id'].split('+')[1]: b['status'] for b in doc['builds']}
		self.assertEqual(sorted(st.values()), ['ERROR', 'ERROR', 'FAIL', 'PASS'])
		b = next(b for b in doc['builds'] if b['status'] == 'FAIL')
		self.assertEqual(b['log_url'], 'https://ci.example.org/r/001-a.patch/example.log')
		self.assertEqual(b['log_excerpt'], 'e')
		self.assertEqual(doc['tests'][0]['path'], 'boot')
		self.assertEqual(doc['tests'][0]['build_id'], b['id'])

	def test_origin_checked(self):
		with self.assertRaisesRegex(common.Error, 'origin'):
			kcidb.export(None, 'Bad-Origin', '', '')


from seriesci import census  # noqa: E402  (the census's own tests below)


def hdr(*lines):
	return ''.join(l + '\n' for l in lines)


class CensusNormaliseTest(unittest.TestCase):
	def test_comments_literals_and_spaces(self):
		lines = census.split_lines(hdr('/* SPDX-License-Identifier: GPL-2.0 */', 'int a;\t /* one',
					       ' two */ int  b; // three', '#  define S "/* no comment */" \'"\'',
					       '   ', '#define T "a\\"b" /* c */ x'))
		self.assertEqual(census.strip_comments(lines),
				 ['int a;', 'int b;', '#define S "/* no comment */" \'"\'', '#define T "a\\"b" x'])

	def test_guard_dropped(self):
		for first in ('#ifndef _ASM_X_H', '#if !defined( _ASM_X_H )'):
			self.assertEqual(census.normalise([first, '#define _ASM_X_H 1', '#ifdef A', 'x', '#endif', '#endif']),
					 ['#ifdef A', 'x', '#endif'], first)

	def test_guard_kept_when_the_last_endif_closes_another_if(self):
		lines = ['#ifndef A', '#define A', 'x', '#endif', '#if B', 'y', '#endif']
		self.assertEqual(census.normalise(lines), lines)
		lines = ['#ifndef A', '#define A', '#if B', 'y', '#endif']
		self.assertEqual(census.normalise(lines), lines)

	def test_awk_lines(self):
		self.assertEqual(census.split_lines('a\n\nb'), ['a', '', 'b'])
		self.assertEqual(census.split_lines(''), [])
		self.assertEqual(census.Copy('x', hdr('/* c */', '', '#ifndef G', '#define G', '#endif')).raw, 5)

	def test_generated_and_wrappers(self):
		self.assertTrue(census.Copy('x', hdr('a', '/* Automatically Generated */')).generated)
		self.assertFalse(census.Copy('x', hdr('1', '2', '3', '4', '5', '/* do not edit */')).generated)
		self.assertTrue(census.is_wrapper(census.Copy('x', hdr('#include <uapi/asm-generic/a.h>')).norm))
		self.assertFalse(census.is_wrapper(['#include <asm-generic/a.h>', 'int x;']))

	def test_allowed(self):
		self.assertEqual([census.allowed(n, 10) for n in (0, 9, 10, 25)], [1, 1, 1, 2])
		self.assertEqual(census.allowed(9, 0), 0)
		self.assertEqual(census.allowed(9, 40), 3)


class CensusGroupTest(unittest.TestCase):
	common8 = tuple(f'#define C{i} {i}' for i in range(8))

	def setUp(self):
		self.differ = census.Differ()
		self.addCleanup(self.differ.close)

	def copies(self, **texts):
		return [census.Copy(a, t) for a, t in texts.items()]

	def near(self, near):
		c = self.common8
		cs = self.copies(alpha=hdr(*c, 'A'), beta=hdr(*c, 'B'), gamma=hdr('G', *c),
				 delta=hdr(*c[:6], 'D1', 'D2', 'D3'))
		return census.census_group('uapi', 'near.h', cs, None, near, self.differ)

	def rows(self, rows):
		return [(r.cls, r.arches, r.lines, r.rem) for r in rows]

	def test_near_threshold_membership(self):
		# 9 lines, 8 common: 1 outside is within 10%; delta's 3 are not (nor within 30%)
		for near in (10, 30):
			self.assertEqual(self.rows(self.near(near)), [('near', ['alpha', 'beta', 'gamma'], 8, 16)], near)
		# at 40% (3 lines of 9) delta joins: 6 common lines, 4 copies, 18 > 16
		self.assertEqual(self.rows(self.near(40)), [('near', ['alpha', 'beta', 'delta', 'gamma'], 6, 18)])
		self.assertEqual(self.near(0), [])

	def test_three_common_lines(self):
		# 1 line of 3 outside is within 10% (at least 1 line), but 2 common lines are too few
		cs = self.copies(a=hdr('int x;', 'int y;', 'int a;'), b=hdr('int x;', 'int y;', 'int b;'))
		self.assertEqual(census.census_group('asm', 'x.h', cs, None, 10, self.differ), [])

	def test_candidates_with_most_copies_first(self):
		# a is the centre; c (2 copies) is tried before b: then b, 17
		# lines in common with a and c's 19, is 3 lines out (over 10%)
		s = [f'int s{i};' for i in range(18)]
		a = hdr(*s, 'x', 'y')
		b = hdr(*s[2:], 'x', 'y', 'b1', 'b2')
		c = hdr(*s, 'x', 'z')
		cs = self.copies(a=a, b=b, c1=c, c2=c)
		self.assertEqual(self.rows(census.census_group('asm', 'x.h', cs, None, 10, self.differ)),
				 [('near', ['a', 'c1', 'c2'], 19, 38)])

	def test_join_only_when_removable_lines_grow(self):
		# 6 and 5 equal copies, 18 of 20 lines in common: (11 - 1) * 18 is
		# no more than (6 - 1) * 20 + (5 - 1) * 20, so no near group
		s = [f'int s{i};' for i in range(18)]
		g, h = hdr(*s, 'g1', 'g2'), hdr(*s, 'h1', 'h2')
		cs = [census.Copy(f'g{i}', g) for i in range(6)] + [census.Copy(f'h{i}', h) for i in range(5)]
		self.assertEqual([(r.cls, r.lines, r.rem) for r in census.census_group('asm', 'x.h', cs, None, 10, self.differ)],
				 [('identical', 20, 100), ('identical', 20, 80)])

	def test_near_group_text_and_display(self):
		c = self.common8
		cs = self.copies(alpha=hdr(*c, 'A'), beta=hdr(*c, 'B'), gamma=hdr(*c, 'B'))
		[r] = census.census_group('asm', 'x.h', cs, None, 10, self.differ)
		self.assertEqual(r.text, list(c))
		# beta and gamma equal: one rep; alpha, first of the two as near, is the centre
		self.assertEqual((r.disp, r.rem), ('alpha [beta gamma]', 16))

	def test_exact_classes(self):
		cs = self.copies(a=hdr('int x;', 'int y;'), b=hdr('int x;', 'int y;'),
				 c=hdr('int  x; /* c */', 'int y;'), d=hdr('int z;'), e=hdr('int z; // e'))
		self.assertEqual(self.rows(census.census_group('asm', 'x.h', cs, None, 10, self.differ)),
				 [('normalised', ['a', 'b', 'c'], 2, 4), ('normalised', ['d', 'e'], 1, 1)])
		cs = self.copies(a=hdr('int z;'), b=hdr('int z;'))
		self.assertEqual(self.rows(census.census_group('asm', 'x.h', cs, None, 10, self.differ)),
				 [('identical', ['a', 'b'], 1, 1)])

	def test_generic_and_empty(self):
		gen = census.Copy('asm-generic', hdr('#ifndef G', '#define G', 'int g;', '#endif'))
		cs = self.copies(a=hdr('int g;'), b=hdr('#ifndef E', '#define E', '#endif'), c=hdr('/* e */'))
		self.assertEqual(self.rows(census.census_group('asm', 'g.h', cs, gen, 10, self.differ)),
				 [('generic', ['a'], 1, 1), ('empty', ['b', 'c'], 0, 0)])
		# a lone copy with no generic one is no group
		self.assertEqual(census.census_group('asm', 'g.h', cs[:1], None, 10, self.differ), [])


class CensusRawTest(unittest.TestCase):
	base = ('int a;', 'int b;', 'int c;', 'int d;', 'int e;')

	def setUp(self):
		self.differ = census.Differ()
		self.addCleanup(self.differ.close)

	def raw(self, rawmax=10, **texts):
		cs = [census.Copy(a, t) for a, t in texts.items()]
		return [(r.cls, r.disp, r.lines, r.rem) for r in census.raw_group('asm', 'r.h', cs, rawmax, self.differ)]

	def test_centre_by_reach_then_raw_lines(self):
		# a b c reach each other (1 or 2 changed lines); the centre is the
		# one whose copies hold the most raw lines (a: 6 + 7); d shares nothing
		b = self.base
		self.assertEqual(self.raw(c=hdr(*b, 'X', 'Y'), a=hdr(*b), b=hdr(*b, 'X'), d=hdr('1', '2', '3', '4', '5')),
				 [('raw-near', 'a* c~2 b~1', 5, 13)])

	def test_centre_with_most_within_reach(self):
		b = self.base
		# m is within reach of all three, the others of m only (11 changed lines apart)
		far1, far2 = hdr(*b, *'123456'), hdr(*b[:4], *'abcdef')
		self.assertEqual(self.raw(x=far1, m=hdr(*b, '1'), y=far2)[0][:2], ('raw-near', 'm* x~5 y~8'))

	def test_ties_and_raw_lines(self):
		# equal once normalised: the centre is the one whose copies hold
		# more raw lines; q counts its 4, comments and blank line too
		self.assertEqual(self.raw(q=hdr('/* q */', 'int a; // q', '', '/* end */'), p=hdr('int a;')),
				 [('raw-equal', 'p* q', 1, 4)])
		# a full tie: the first copy is the centre
		self.assertEqual(self.raw(q=hdr('int a;'), p=hdr('int a;')), [('raw-equal', 'q* p', 1, 1)])

	def test_three_common_lines_unless_equal(self):
		self.assertEqual(self.raw(p=hdr('int a;', 'int b;', 'int x;'), q=hdr('int a;', 'int b;', 'int y;')), [])
		b = self.base
		self.assertEqual(self.raw(rawmax=1, p=hdr(*b), q=hdr(*b, 'X', 'Y')), [])
		self.assertEqual(self.raw(rawmax=2, p=hdr(*b), q=hdr(*b, 'X', 'Y'))[0][3], 7)


class CensusReportTest(unittest.TestCase):
	def test_order_and_families(self):
		R = census.Row
		rows = [R('asm', 'b.h', 'identical', ['y', 'x'], 'y x', 2, 2), R('uapi', 'msgbuf.h', 'identical', ['x', 'y'], '', 3, 3),
			R('asm', 'a.h', 'identical', ['x', 'y'], '', 2, 2), R('uapi', 'sembuf.h', 'near', ['x', 'y'], '', 4, 4)]
		self.assertEqual([(s, n, [r.name for r in rs]) for s, n, rs in census.order(rows)],
				 [('ipc', 7, ['sembuf.h', 'msgbuf.h']), ('a.h', 2, ['a.h']), ('b.h', 2, ['b.h'])])
		self.assertEqual(rows[0].arches, ['x', 'y'])

	def test_cli_usage(self):
		run = CliTest.run_cli
		self.assertEqual(run(self, 'census', '--help')[0], 0)
		self.assertEqual(run(self, 'census', '--changed', '5', '/nonexistent')[0], common.Exit.USAGE)
		self.assertEqual(run(self, 'census', '--top', 'x', '/nonexistent')[0], common.Exit.USAGE)
		rc, _, err = run(self, 'census', '/nonexistent')
		self.assertEqual(rc, common.Exit.FAILURE)
		self.assertIn('no kernel tree at /nonexistent', err)


CMDS = ('results', 'merge-results', 'reach', 'codegen-proof', 'targets', 'report', 'kcidb', 'abi-report', 'rebase-state',
	'compare-steps', 'sticky', 'record', 'fingerprint')


class CliTest(unittest.TestCase):
	def run_cli(self, *argv):
		out, err = io.StringIO(), io.StringIO()
		with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
			try:
				rc = cli.main(list(argv))
			except SystemExit as e:
				rc = e.code
		return rc, out.getvalue(), err.getvalue()

	def test_help_everywhere(self):
		for cmd in CMDS:
			rc, out, _ = self.run_cli(cmd, '--help')
			self.assertEqual(rc, 0, cmd)
			self.assertIn('usage:', out)

	def test_unknown_option(self):
		for cmd in CMDS:
			self.assertEqual(self.run_cli(cmd, '--bogus', 'x')[0], common.Exit.USAGE, cmd)

	def test_no_abbreviations(self):
		self.assertEqual(self.run_cli('reach', '--fil', 'x', 'B')[0], common.Exit.USAGE)

	def test_error_exit(self):
		rc, _, err = self.run_cli('results', '/nonexistent/record')
		self.assertEqual(rc, common.Exit.FAILURE)
		self.assertIn('error: no record folder', err)


from seriesci import abi  # noqa: E402  (abi-report's own tests below)


class AbiTest(TmpTest):
	"""abi-report's rules (scripts/seriesci/abi.py) on small synthetic inputs."""
	CANON = [('0', 'read', True), ('1', 'write', True), ('2', 'clone3', True),
		 ('3', 'gone', False), ('4', 'open2', True)]
	KNOWN = 'common 32 common 64 memfd_secret time32 stat64 renameat rlimit'

	def row(self, eff, kind='generic', tags=(), uapi=(), copies=(), overrides=(), private=0,
		rules=(), broken=''):
		return abi.count_row('x', 'scripts/syscall.tbl', 'common,64', kind, self.CANON, ['memfd_secret'],
				     list(tags), eff, self.KNOWN, '244-259', list(uapi), list(copies),
				     list(overrides), private, list(rules), broken)

	def fig(self, figs, *cols):
		return [int(figs[abi.COL[c]]) for c in cols]

	def test_canonical_row_has_no_deviation(self):
		figs, names = self.row([('0', 'read', True), ('1', 'write', True), ('2', 'clone3', True),
					('4', 'open2', True), ('3', 'gone', False)])
		self.assertEqual(self.fig(figs, 'syscalls', 'extra', 'lacking', 'renumb', 'total', 'dev'),
				 [4, 0, 0, 0, 0, 0])
		self.assertFalse(any(names.values()))

	def test_deviation_kinds(self):
		eff = [('0', 'read', True), ('5', 'write', True),       # renumbered: a private table
		       ('2', 'clone3', True),
		       ('10', 'time', True), ('250', 'frob', True),     # legacy; own tag in the reserved numbers
		       ('300', 'far', True), ('251', 'oldstat', True),  # own tag outside them; legacy tag inside
		       ('447', 'memfd_secret', True),                   # optional
		       ('12', 'ni', False)]                             # sys_ni_syscall: counts nowhere
		tags = [('10', 'time', 'time32'), ('250', 'frob', 'x'), ('300', 'far', 'x'),
			('251', 'oldstat', 'stat64')]
		figs, names = self.row(eff, tags=tags, uapi=['fcntl.h', 'signal.h'], copies=['fcntl.h'],
				       overrides=['signal.h(SIGSTKSZ)'], rules=['minsigstksz: no AT_MINSIGSTKSZ'],
				       broken='__ARCH_BROKEN_SYS_CLONE3')
		n = abi.sort_names(names)
		self.assertEqual(n['extra'], 'far[x] oldstat[stat64] time[time32]')
		self.assertEqual(n['own'], 'frob')
		self.assertEqual(n['renumbered'], 'write(5/1)')
		self.assertEqual(n['lacking'], 'clone3(__ARCH_BROKEN_SYS_CLONE3) open2')
		self.assertEqual(n['private'], 'scripts/syscall.tbl')
		self.assertEqual(self.fig(figs, 'syscalls', 'extra', 'lacking', 'renumb', 'uapi', 'own', 'optional'),
				 [8, 3, 2, 1, 2, 1, 1])
		# v1: extra + lacking + renumbered + uapi
		self.assertEqual(self.fig(figs, 'total'), [3 + 2 + 1 + 2])
		# by the rules: extra + lacking + private + copy + override + rules
		self.assertEqual(self.fig(figs, 'copy', 'override', 'private', 'rules', 'dev'),
				 [1, 1, 1, 1, 3 + 2 + 1 + 1 + 1 + 1])

	def test_clone3_lacks_only_when_broken_and_live(self):
		eff = [('0', 'read', True), ('1', 'write', True), ('4', 'open2', True)]
		self.assertEqual(self.fig(self.row(eff, broken='M')[0], 'lacking'), [1])
		eff.append(('2', 'clone3', True))
		self.assertEqual(self.fig(self.row(eff)[0], 'lacking', 'dev'), [0, 0])
		self.assertEqual(self.fig(self.row(eff, broken='M')[0], 'lacking', 'dev'), [1, 1])

	def test_own_table_has_no_reserved_numbers(self):
		eff = [('0', 'read', True), ('1', 'write', True), ('2', 'clone3', True), ('4', 'open2', True),
		       ('250', 'frob', True)]
		figs, names = self.row(eff, kind='own', tags=[('250', 'frob', 'x')], private=1)
		self.assertEqual(names['extra'], 'frob')
		self.assertEqual(self.fig(figs, 'extra', 'own', 'private', 'dev'), [1, 0, 1, 2])

	def test_wrapper_rule(self):
		d = os.path.join(self.tmp, 'arch/w/include/uapi/asm')
		write(os.path.join(d, 'signal.h'),
		      '#ifndef _ASM_W_SIGNAL_H\n#define _ASM_W_SIGNAL_H\n#define SIGSTKSZ 16384\n'
		      '#define MINSIGSTKSZ(x) 4096\n#define SIGSTKSZ 1\n#include <asm-generic/signal.h>\n#endif\n')
		write(os.path.join(d, 'fcntl.h'), '/* a private copy */\n#define O_DIRECT 040000\n')
		write(os.path.join(d, 'poll.h'), ' # include <asm-generic/poll.h>\n')
		# includes an asm-generic header, but not its own: still a copy
		write(os.path.join(d, 'mman.h'), '#include <asm-generic/mman-common.h>\n#define MAP_X 1\n')
		own, copies, overrides = abi.uapi_of(self.tmp, 'w', ['fcntl.h', 'mman.h', 'poll.h', 'signal.h', 'stat.h'])
		self.assertEqual(own, ['fcntl.h', 'mman.h', 'poll.h', 'signal.h'])
		self.assertEqual(copies, ['fcntl.h', 'mman.h'])
		self.assertEqual(overrides, ['poll.h(none)', 'signal.h(SIGSTKSZ,MINSIGSTKSZ)'])

	def test_guard_with_value_is_a_macro(self):
		self.assertEqual(abi.wrapper_macros('#ifndef A\n#define A 1\n#define B\n'), ['A', 'B'])

	def test_effective(self):
		tbl = '__SYSCALL(0, sys_read)\n__SYSCALL(1, sys_ni_syscall)\n__SYSCALL_WITH_COMPAT(3, sys_x, compat_sys_x)\n'
		hdr = ('#define __NR_read 0\n#define __NR_gone 1\n#define __NR_none 2\n'
		       '#define __NR_x 3\n#define __NR3264_y (__NR_x + 1)\n')
		self.assertEqual(abi.effective_parse(tbl, hdr),
				 [('0', 'read', True), ('1', 'gone', False), ('2', 'none', False), ('3', 'x', True)])

	def test_definition_from_patch(self):
		patch = ('--- a/scripts/canonical-abi.txt\n+++ b/scripts/canonical-abi.txt\n@@ -1 +1 @@\n+old x\n'
			 '--- /dev/null\n+++ b/scripts/canonical-abi.txt\n@@ -0,0 +1,2 @@\n+# c\n+table t.tbl\n'
			 '--- /dev/null\n+++ b/other\n@@ -0,0 +1 @@\n+table no\n')
		text = abi.definition_from_patch(patch)
		self.assertEqual(text, '# c\ntable t.tbl\n')
		self.assertEqual(abi.Definition(text).val('table'), ['t.tbl'])
		self.assertEqual(abi.definition_from_patch(patch.replace('/dev/null', 'a/x')), '')

	def test_audit_rule(self):
		vals = abi.parse_audit_h('#define AUDIT_ARCH_A (EM_A|__AUDIT_ARCH_64BIT) /* a */\n'
					 '#define AUDIT_ARCH_B \\\n\t(EM_B)\n#define AUDIT_ARCH_C (EM_A|__AUDIT_ARCH_64BIT)\n')
		self.assertEqual(vals['AUDIT_ARCH_B'], '(EM_B)')
		uses = [('a', 'AUDIT_ARCH_A', vals['AUDIT_ARCH_A']), ('b', 'AUDIT_ARCH_B', vals['AUDIT_ARCH_B']),
			('c', 'AUDIT_ARCH_C', vals['AUDIT_ARCH_C']), ('um', 'AUDIT_ARCH_B', vals['AUDIT_ARCH_B'])]
		self.assertEqual(abi.audit_rule('a', uses), "AUDIT_ARCH_A also c's")
		self.assertEqual(abi.audit_rule('b', uses), '')
		self.assertEqual(abi.audit_rule('d', uses), 'no AUDIT_ARCH_* in asm/syscall.h')

	def test_rule_lines(self):
		a = os.path.join(self.tmp, 'arch/r')
		write(os.path.join(a, 'Kconfig'), 'config R\n\tselect CLONE_BACKWARDS2\n')
		write(os.path.join(a, 'include/asm/elf.h'), '#define ARCH_DLINFO NEW_AUX_ENT( AT_MINSIGSTKSZ, 1)\n')
		write(os.path.join(a, 'kernel/ptrace.c'), 'case PTRACE_GETREGSET:\n')
		rules = ['minsigstksz', 'clone-args', 'ptrace-regsets', 'ucontext']
		self.assertEqual(abi.rule_lines(self.tmp, 'r', rules, []), [('clone-args', 'selects CLONE_BACKWARDS2')])
		write(os.path.join(a, 'include/asm/elf.h'), '/* NEW_AUX_ENT(AT_HWCAP, 1) */\n')
		write(os.path.join(a, 'kernel/ptrace.c'), '\tcase PTRACE_PEEKUSR:\n')
		write(os.path.join(a, 'kernel/ptrace.h'), '\tcase PTRACE_GETREGS:\n')
		self.assertEqual([r for r, _ in abi.rule_lines(self.tmp, 'r', rules + ['audit-arch'], [])],
				 ['minsigstksz', 'audit-arch', 'clone-args', 'ptrace-regsets'])
		self.assertEqual(abi.rule_lines(self.tmp, 'r', rules, [])[-1][1],
				 'PEEKUSR/GETREGS-style requests in arch/r/kernel/ptrace.c')
		self.assertEqual(abi.rule_lines(self.tmp, 'r', [], []), [])

	def test_rows(self):
		kv = {'g': {'syscall': 'unistd_32.h unistd_64.h', 'table': self.tmp + '/scripts/syscall_%.tbl',
			    'abis32': 'common 32 g', 'abis64': 'common 64'},
		      'h': {'syscall': 'unistd_64.h', 'table': '/elsewhere.tbl', 'abis64': 'common 64'},
		      'mips': {}, 'um': {}, 'z': {'syscall': 'unistd.h'}}
		err = io.StringIO()
		with contextlib.redirect_stderr(err):
			rows = abi.rows_of(self.tmp, ['g', 'h', 'mips', 'um', 'z'], kv, 'abi-report')
		self.assertEqual(rows[:3], [('g/32', '32', 'scripts/syscall_32.tbl', 'common,32,g', 'g', 'generic'),
					    ('g/64', '64', 'scripts/syscall_64.tbl', 'common,64', 'g', 'generic'),
					    ('h', '64', '/elsewhere.tbl', 'common,64', 'h', 'generic')])
		self.assertEqual([r[0] for r in rows[3:]], ['mips/o32', 'mips/n32', 'mips/n64', 'um', 'z'])
		self.assertEqual([r[5] for r in rows[6:]], ['host', 'unknown'])
		self.assertIn('arch/z: no uapi syscall-y', err.getvalue())

	def test_markdown_and_html(self):
		table = [['b', 't', '-', 'own', '9', '1', '0', '0', '0', '0', '0', '1', '0', '0', '1', '0', '2'],
			 ['a', 't', 'common,64', 'generic', '9', '0', '0', '0', '0', '0', '0', '0', '0', '0', '0', '0', '0'],
			 ['um'] + ['-'] * 16]
		names = [('b', abi.sort_names({'extra': 'z y', 'lacking': '', 'renumbered': '', 'uapi': '', 'own': '',
					       'copy': '', 'override': 'signal.h(A,B)', 'private': 't',
					       'rules': 'clone-args: selects X|audit-arch: A: also b'})),
			 ('a', {k: '' for k in abi.NAME_KINDS})]
		md = abi.markdown('tree', table, names, '244-259', 'u.md')
		self.assertIn('| a | t | 0 | 0 | 0 | 0 | 0 | 0 | **0** |\n| b | t | 1 | 0 | 1 | 0 | 0 | 0 | **2** |\n', md)
		self.assertIn("\num: no syscall table of its own (it has the host's ABI).\n", md)
		self.assertIn('1. a: 0\n2. b: 2\n\n', md)
		self.assertIn('| b | t | (all) | 9 |', md)
		self.assertIn('\n### b\n\n- legacy syscall (2) [rule](u.md#rule-legacy): y z\n'
			      '- private table [rule](u.md#rule-table): t\n'
			      '- override (1) [rule](u.md#rule-uapi-generic): signal.h(A B)\n'
			      '- rule clone-args [rule](u.md#rule-clone-args): selects X\n'
			      '- rule audit-arch [rule](u.md#rule-audit-arch): A: also b\n', md)
		self.assertNotIn('### a', md)
		h = abi.html('# T <1>\n\n| A | B | C | D | E |\n|---|\n| 1 | **2** | `3` | 4 | [5](u#v) |\n\n- x\n1. y\npara\n', 'T&')
		self.assertIn('<title>T&amp;</title>', h)
		self.assertIn('<h1>T &lt;1&gt;</h1>\n<table>\n<tr><th>A</th><th>B</th><th>C</th><th>D</th><th>E</th></tr>\n'
			      '<tr><td>1</td><td><b>2</b></td><td><code>3</code></td><td class="n">4</td>'
			      '<td class="n"><a href="u#v">5</a></td></tr>\n</table>\n<ul>\n<li>x</li>\n</ul>\n<ol>\n<li>y</li>\n'
			      '</ol>\n<p>\npara\n</p>\n</body></html>\n', h)

	def test_errors(self):
		with self.assertRaisesRegex(common.Error, 'no such file'):
			abi.find_definition(self.tmp, self.tmp + '/none', self.tmp, self.tmp + '/series', '')
		with self.assertRaisesRegex(common.Error, 'no canonical ABI definition'):
			abi.find_definition(self.tmp, '', self.tmp, self.tmp + '/series', '')
		write(os.path.join(self.tmp, 'p/def.patch'), '--- /dev/null\n+++ b/scripts/canonical-abi.txt\n@@ -0,0 +1 @@\n+table t\n')
		write(os.path.join(self.tmp, 'series'), 'missing.patch\ndef.patch # c\n')
		d = abi.find_definition(self.tmp, '', os.path.join(self.tmp, 'p'), self.tmp + '/series', '')
		self.assertEqual(d.val('table'), ['t'])


from seriesci import rebase_state  # noqa: E402  (the rebase state's own tests below)


class RebaseStateTest(TmpTest):
	"""scripts/rebase's state and report (scripts/seriesci/rebase_state.py): what a
	killed run leaves is what the next run resumes from."""
	def setUp(self):
		super().setUp()
		self.r = os.path.join(self.tmp, 'tree/.rebase')
		rebase_state.state_init(self.r, [('base', '9.2'), ('from', '9.1'), ('backup', self.tmp + '/bk'),
						 ('saved', 'git commit x'), ('started', 'T0'), ('status', 'running')])

	def rec(self, n, p, cls='clean', refresh='', detail=''):
		rebase_state.result_put(self.r, [str(n), p, cls, '2', '0', '0', '0', refresh, 'sha' + p, detail])

	def test_fields_by_name(self):
		self.rec(1, 'a.patch', 'offset', detail='1 of 2 hunks at an offset (up to 3 lines)')
		self.assertEqual(rebase_state.result_get(self.r, 'a.patch', 'result'), 'offset')
		self.assertEqual(rebase_state.result_get(self.r, 'a.patch', 'detail'), '1 of 2 hunks at an offset (up to 3 lines)')
		self.assertEqual(rebase_state.result_get(self.r, 'b.patch', 'result'), '')
		with self.assertRaises(common.Usage):
			rebase_state.result_get(self.r, 'a.patch', '8')
		self.assertEqual(read(os.path.join(self.r, 'results')).split('\n')[0], '#' + '\t'.join(rebase_state.FIELDS))

	def test_record_again_replaces_and_goes_last(self):
		self.rec(1, 'a.patch')
		self.rec(2, 'b.patch', 'conflict')
		self.rec(2, 'b.patch', 'fuzz', refresh='pending')
		rows = rebase_state.results_read(self.r)
		self.assertEqual([(f[1], f[2]) for f in rows], [('a.patch', 'clean'), ('b.patch', 'fuzz')])
		rebase_state.result_set(self.r, 'b.patch', 'sha', 'new', 'refresh', 'done')
		rebase_state.result_set(self.r, 'c.patch', 'refresh', 'done')   # no line: nothing
		self.assertEqual([rebase_state.result_get(self.r, 'b.patch', f) for f in ('sha', 'refresh')], ['new', 'done'])
		self.assertEqual(len(rebase_state.results_read(self.r)), 2)
		with self.assertRaises(common.Error):
			rebase_state.result_set(self.r, 'b.patch', 'detail', 'a\tb')

	def test_killed_write_leaves_the_old_version(self):
		self.rec(1, 'a.patch')
		# a kill between writing the .tmp file and renaming it
		write(os.path.join(self.r, 'results.tmp'), 'half a li')
		write(os.path.join(self.r, 'state.tmp'), 'status=do')
		self.assertEqual(rebase_state.result_get(self.r, 'a.patch', 'result'), 'clean')
		self.assertEqual(rebase_state.state_get(self.r, 'status'), 'running')
		rebase_state.state_set(self.r, 'pushing', 'b.patch 123')
		self.rec(2, 'b.patch')
		self.assertEqual(rebase_state.state_get(self.r, 'pushing'), 'b.patch 123')
		self.assertEqual([f[1] for f in rebase_state.results_read(self.r)], ['a.patch', 'b.patch'])
		self.assertFalse(os.path.exists(os.path.join(self.r, 'results.tmp')))

	def test_resume_a_rebase_the_shell_version_began(self):
		# its results had no header: read the same, named at the next write
		write(os.path.join(self.r, 'results'), '1\ta.patch\tfuzz\t1\t0\t1\t0\tpending\tabc\t1 of 1 hunks with fuzz\n')
		self.assertEqual(rebase_state.result_get(self.r, 'a.patch', 'refresh'), 'pending')
		rebase_state.result_set(self.r, 'a.patch', 'refresh', 'done')
		self.assertEqual(read(os.path.join(self.r, 'results')),
				 '#' + '\t'.join(rebase_state.FIELDS) + '\n1\ta.patch\tfuzz\t1\t0\t1\t0\tdone\tabc\t1 of 1 hunks with fuzz\n')
		write(os.path.join(self.r, 'results'), '#n\tpatch\tsomething else\n')
		with self.assertRaises(common.Error):
			rebase_state.results_read(self.r)

	def test_state(self):
		rebase_state.state_set(self.r, 'status', 'conflict', 'conflict', 'b.patch')
		self.assertEqual(read(os.path.join(self.r, 'state')).split('\n')[-3:], ['status=conflict', 'conflict=b.patch', ''])
		rebase_state.state_set(self.r, 'conflict', '')
		self.assertEqual(rebase_state.state_get(self.r, 'conflict'), '')
		# a key's line is replaced: one line a key
		self.assertEqual([l.split('=')[0] for l in read(os.path.join(self.r, 'state')).split('\n')[:-1]],
				 ['base', 'from', 'backup', 'saved', 'started', 'status', 'conflict'])
		self.assertEqual(rebase_state.state_get(self.r, 'finished'), '')
		with self.assertRaises(common.Error):
			rebase_state.state_set(self.r, 'saved', 'two\nlines')
		# the last line of a key counts (a hand-edited file)
		with open(os.path.join(self.r, 'state'), 'a') as f:
			f.write('base=9.3\n')
		self.assertEqual(rebase_state.state_get(self.r, 'base'), '9.3')

	def test_report_after_a_kill(self):
		# killed after b.patch was pushed and recorded, before c.patch
		self.rec(1, 'a.patch', 'offset', refresh='done')
		self.rec(2, 'b.patch', 'conflict', detail='1 of 2 hunks rejected')
		write(os.path.join(self.r, 'rej/b.patch.rej'), '--- a/x\n+++ b/x\n@@ -1 +1 @@\n-"x"\t\\\n+y')
		rebase_state.state_set(self.r, 'status', 'conflict', 'conflict', 'b.patch')
		write(os.path.join(self.tmp, 'bk/series'), 'a.patch\nold.patch\nb.patch\nc.patch\n')
		m = rebase_state.report_model(self.r, ['a.patch', 'b.patch', 'c.patch'],
					      series_mod.patches(os.path.join(self.tmp, 'bk/series')))
		self.assertEqual([r['result'] for r in m['rows']], ['offset', 'conflict', 'not-reached'])
		self.assertEqual(m['dropped'], ['old.patch'])
		self.assertEqual((m['counts']['refreshed'], m['counts']['not-reached']), (1, 1))
		md = rebase_state.markdown(m, '9.1', '9.2', '/t', 'quilt push -f b.patch')
		self.assertIn('- Status: **conflict** at b.patch\n', md)
		self.assertIn('- 3 patches: 0 clean, 1 offset, 0 fuzz, 1 conflict, 1 not reached; 1 refreshed\n'
			      '- Dropped from the series: 1 (old.patch)\n', md)
		self.assertIn('| 1 | a.patch | offset | 2 | yes |  |\n| 2 | b.patch | conflict | 2 |  | 1 of 2 hunks rejected |\n'
			      '| 3 | c.patch | not-reached |  |  |  |\n', md)
		self.assertIn('\n## Rejected hunks of b.patch\n\n```diff\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-"x"\t\\\n+y\n```\n', md)
		self.assertTrue(md.endswith('\n## To resolve\n\n```\nquilt push -f b.patch\n```\n'))
		js = rebase_state.json_text(m, '9.1', '9.2', '/t')
		d = json.loads(js)
		self.assertEqual((d['status'], d['conflict'], d['finished'], d['dropped']), ('conflict', 'b.patch', None, ['old.patch']))
		self.assertEqual(d['patches'][1]['rejects'], '--- a/x\n+++ b/x\n@@ -1 +1 @@\n-"x"\t\\\n+y\n')
		self.assertEqual((d['patches'][2]['hunks'], d['patches'][0]['hunks'], d['patches'][0]['refreshed']), (None, 2, True))
		self.assertIn('\n    {"n": 3, "patch": "c.patch", "result": "not-reached", "hunks": null,', js)
		self.assertEqual(d['counts'], {'clean': 0, 'offset': 1, 'fuzz': 0, 'conflict': 1, 'not_reached': 1, 'refreshed': 1})
		self.assertEqual(rebase_state.summary(m, '9.2'),
				 '  REBASE  3 patches onto 9.2: 0 clean, 1 offset, 0 fuzz, 1 conflict; 1 refreshed; 1 dropped (old.patch)')

	def test_json_get(self):
		write(os.path.join(self.tmp, 'r.json'), '{"status": "done", "counts": {"clean": 2}}')
		self.assertEqual(rebase_state.json_get(os.path.join(self.tmp, 'r.json'), 'counts.clean'), 2)
		with self.assertRaises(common.Error):
			rebase_state.json_get(os.path.join(self.tmp, 'r.json'), 'nothing')
		write(os.path.join(self.tmp, 'bad.json'), '  "status": "done",\n')
		with self.assertRaises(common.Error):
			rebase_state.json_get(os.path.join(self.tmp, 'bad.json'), 'status')


from seriesci import steps  # noqa: E402  (compare-steps' own tests below)


class StepsTest(TmpTest):
	"""compare-steps (scripts/seriesci/steps.py): new_warnings= and codegen=
	against the step before, as ci-series' compare_steps writes them."""

	def setUp(self):
		super().setUp()
		self.rec = os.path.join(self.tmp, 'r')
		write(os.path.join(self.rec, '.series'), 'a.patch\nb.patch\nc.patch\n')

	def log(self, step, target, text):
		write(os.path.join(self.rec, step, target + '.log'), text)

	def tail(self, step, target):
		"""The new_warnings= and codegen= lines of a result (the last two
		lines of one that is not a target's)."""
		lines = read(os.path.join(self.rec, step, target + '.result')).split('\n')
		if not any(l.startswith('undecided_warnings=') for l in lines):
			return lines[-3:-1]
		return [l for l in lines if l.startswith(('new_warnings=', 'codegen='))]

	def und(self, step, target):
		"""The undecided_warnings= of a result, a number."""
		r = read(os.path.join(self.rec, step, target + '.result'))
		return int(re.search(r'^undecided_warnings=([0-9]+)$', r, re.M).group(1))

	def test_new_warnings_line_numbers_ignored(self):
		self.res('r', '000-baseline', 'x', target='x', status='ok')
		self.log('000-baseline', 'x', 'f.c:10:3: warning: old\ng.c:5: warning: other\n  CC      h.o\n')
		self.res('r', '001-a.patch', 'x', target='x', status='ok')
		self.log('001-a.patch', 'x', 'f.c:99:1: warning: old\ng.c:6: warning: other\n'
			 'h.c:1:1: warning: new\nh.c:2:2: warning: new\nh.c:3: error: not a warning\n')
		steps.compare(self.rec)
		self.assertEqual(self.tail('000-baseline', 'x'), ['new_warnings=0', 'codegen='])
		# the two "new" lines are one once their numbers go
		self.assertEqual(self.tail('001-a.patch', 'x'), ['new_warnings=1', 'codegen='])
		self.assertEqual(self.und('001-a.patch', 'x'), 0)

	def test_warnings_need_both_logs(self):
		self.res('r', '000-baseline', 'x', target='x', status='ok')
		self.res('r', '001-a.patch', 'x', target='x', status='ok')
		self.log('001-a.patch', 'x', 'h.c:1: warning: new\n')
		steps.compare(self.rec)
		# no log before: not known whether it is new
		self.assertEqual(self.tail('001-a.patch', 'x')[0], 'new_warnings=0')
		self.assertEqual(self.und('001-a.patch', 'x'), 1)

	def test_codegen(self):
		self.res('r', '000-baseline', 'x', target='x', status='ok', image_sha='A', code_sha='C')
		self.res('r', '001-a.patch', 'x', target='x', status='ok', image_sha='A', code_sha='Z')
		self.res('r', '002-b.patch', 'x', target='x', status='ok', image_sha='B', code_sha='Z')
		self.res('r', '003-c.patch', 'x', target='x', status='ok', image_sha='D', code_sha='Y')
		for cell, sha in (('y', 'A'), ('z', '')):
			self.res('r', '000-baseline', cell, target=cell, status='ok', image_sha=sha, code_sha='')
			self.res('r', '001-a.patch', cell, target=cell, status='ok', image_sha=sha, code_sha='')
		steps.compare(self.rec)
		self.assertEqual([self.tail(s, 'x')[1] for s in ('000-baseline', '001-a.patch', '002-b.patch',
								  '003-c.patch')],
				 ['codegen=', 'codegen=identical', 'codegen=same', 'codegen=differs'])
		self.assertEqual(self.tail('001-a.patch', 'y')[1], 'codegen=identical')
		# no sha on either side: nothing to compare
		self.assertEqual(self.tail('001-a.patch', 'z')[1], 'codegen=')

	def test_missing_previous_step(self):
		"""A step without a folder (never run) is no step before: the next
		one compares with nothing, not with the one two back."""
		self.res('r', '000-baseline', 'x', target='x', status='ok', image_sha='A', code_sha='C')
		self.log('000-baseline', 'x', '')
		self.res('r', '002-b.patch', 'x', target='x', status='ok', image_sha='A', code_sha='C')
		self.log('002-b.patch', 'x', 'f.c:1: warning: w\n')
		self.res('r', '003-c.patch', 'x', target='x', status='ok', image_sha='A', code_sha='C')
		self.log('003-c.patch', 'x', 'f.c:2: warning: w\ng.c:1: warning: v\n')
		# a target the step before did not build: nothing to compare
		self.res('r', '003-c.patch', 'y', target='y', status='ok', image_sha='A', code_sha='C')
		steps.compare(self.rec)
		# no step before: its warning is undecided, not new, not none
		self.assertEqual(self.tail('002-b.patch', 'x'), ['new_warnings=0', 'codegen='])
		self.assertEqual(self.und('002-b.patch', 'x'), 1)
		# g.o is not compiled in the step before: undecided
		self.assertEqual(self.tail('003-c.patch', 'x'), ['new_warnings=0', 'codegen=identical'])
		self.assertEqual(self.und('003-c.patch', 'x'), 1)
		self.assertEqual(self.tail('003-c.patch', 'y'), ['new_warnings=0', 'codegen='])
		self.assertEqual(self.und('003-c.patch', 'y'), 0)

	def test_old_lines_replaced_others_kept(self):
		f = os.path.join(self.rec, '000-baseline', 'x.result')
		write(f, 'target=x\nnew_warnings=9\nstatus=ok\nundecided_warnings=3\ncodegen=differs\nseconds=1.0')
		self.res('r', '000-baseline', 'checkpatch', status='ok', codegen='kept')
		steps.compare(self.rec)
		self.assertEqual(read(f), 'target=x\nstatus=ok\nseconds=1.0\nnew_warnings=0\n'
				 'undecided_warnings=0\ncodegen=\n')
		# not a target result (no target= line): untouched
		self.assertEqual(self.tail('000-baseline', 'checkpatch'), ['status=ok', 'codegen=kept'])
		steps.compare(self.rec)
		self.assertEqual(read(f), 'target=x\nstatus=ok\nseconds=1.0\nnew_warnings=0\n'
				 'undecided_warnings=0\ncodegen=\n')

	def test_binary_lines_as_grep(self):
		self.res('r', '000-baseline', 'x', target='x', status='ok')
		self.log('000-baseline', 'x', '')
		self.res('r', '001-a.patch', 'x', target='x', status='ok')
		with open(os.path.join(self.rec, '001-a.patch', 'x.log'), 'wb') as f:
			f.write(b'a.c:1: warning: \xff not UTF-8\nb.c:1: warning: \xc3\xa9t\xc3\xa9\n')
		self.res('r', '002-b.patch', 'x', target='x', status='ok')
		with open(os.path.join(self.rec, '002-b.patch', 'x.log'), 'wb') as f:
			f.write(b'c.c:1: warning: a NUL after me\n\0\n')
		steps.compare(self.rec)
		# one line read (b.c's); the step before compiled nothing
		self.assertEqual(self.und('001-a.patch', 'x'), 1)
		self.assertEqual(self.tail('002-b.patch', 'x')[0], 'new_warnings=0')

	def test_order_of_series_file(self):
		"""The step before is the one before in .series, whatever the names."""
		write(os.path.join(self.rec, '.series'), 'b.patch\na.patch\n')
		self.res('r', '001-b.patch', 'x', target='x', status='ok', image_sha='A', code_sha='C')
		self.res('r', '002-a.patch', 'x', target='x', status='ok', image_sha='A', code_sha='C')
		self.res('r', '001-a.patch', 'x', target='x', status='ok', image_sha='A', code_sha='C')
		steps.compare(self.rec)
		self.assertEqual(self.tail('002-a.patch', 'x')[1], 'codegen=identical')
		# not a step of the series: not touched
		self.assertEqual(self.tail('001-a.patch', 'x'), ['image_sha=A', 'code_sha=C'])

	def test_info_series_without_series_file(self):
		os.remove(os.path.join(self.rec, '.series'))
		write(os.path.join(self.rec, 'info'), 'base=9.9\nseries=a.patch b.patch\n')
		self.assertEqual(steps.step_names(self.rec), ['000-baseline', '001-a.patch', '002-b.patch'])

	def test_no_series_is_an_error_nothing_written(self):
		os.remove(os.path.join(self.rec, '.series'))
		self.res('r', '000-baseline', 'x', target='x', status='ok')
		with self.assertRaises(common.Error):
			steps.compare(self.rec)
		self.assertEqual(self.tail('000-baseline', 'x'), ['target=x', 'status=ok'])

	# a build log of build-arch's: its header line, the tree T and O=B
	HEAD = '# build-arch x: ARCH=x\n# tree /t  O=/b  2026-12-05 13:00:00 UTC\n'
	FORK = '/t/kernel/fork.c: In function \u2018f\u2019:\n/t/kernel/fork.c:3071:2: warning: #warning clone3\n'
	STDIN = '  CALL    /t/scripts/checksyscalls.sh\n<stdin>:1519:2: warning: #warning syscall clone3\n'

	def test_producers(self):
		"""What printed each warning: the object of its file, of the
		outermost includer of a header (GCC: the last "from", clang: the
		first "In file included from"), checksyscalls' file, CHKABI; and
		none for a linker's."""
		sc = steps.scan((self.HEAD + '  CC      kernel/fork.o\n' + self.FORK + self.STDIN +
				 'In file included from /t/include/linux/a.h:3,\n'
				 '                 from /t/mm/x.c:20:\n'
				 '/t/include/linux/b.h: In function \u2018g\u2019:\n'
				 '/t/include/linux/b.h:5:2: warning: gcc header\n'
				 'In file included from /t/mm/y.c:20:\n'
				 'In file included from /t/include/linux/a.h:3:\n'
				 '/t/include/linux/b.h:6:1: warning: clang header\n'
				 '  CC      arch/x/kernel/asm-offsets.s\n'
				 '/t/arch/x/kernel/asm-offsets.c:1:1: warning: offsets\n'
				 '/b/lib/gen.c:2:1: warning: generated\n'
				 '  CHKABI  arch/x\ncanonical ABI: warning: arch/x: rule\n'
				 'ld: warning: the linker\n').encode())
		w = {k.decode(): sorted(p.decode() for p in v) for k, v in sc.warnings.items()}
		self.assertEqual(w, {
			'/t/kernel/fork.c: warning: #warning clone3': ['kernel/fork.o'],
			'<stdin>: warning: #warning syscall clone3': ['.tmp_missing-syscalls'],
			'/t/include/linux/b.h: warning: gcc header': ['mm/x.o'],
			'/t/include/linux/b.h: warning: clang header': ['mm/y.o'],
			'/t/arch/x/kernel/asm-offsets.c: warning: offsets': ['arch/x/kernel/asm-offsets.s'],
			'/b/lib/gen.c: warning: generated': ['lib/gen.o'],
			'canonical ABI: warning: arch/x: rule': ['CHKABI arch/x'],
			'ld: warning: the linker': []})
		self.assertTrue({b'kernel/fork.o', b'.tmp_missing-syscalls', b'CHKABI arch/x'} <= sc.compiled)
		# mips' instances: "CALL .../checksyscalls.sh for N32"
		sc = steps.scan(b'  CALL    scripts/checksyscalls.sh for N32\n<stdin>:1:1: warning: w\n')
		self.assertEqual(sc.warnings, {b'<stdin>: warning: w': {b'.tmp_missing-syscallsN32'}})
		# without build-arch's header: the compiled object the path ends in
		sc = steps.scan(b'  CC      kernel/fork.o\n/x/kernel/fork.c:1:1: warning: w\n')
		self.assertEqual(sc.warnings, {b'/x/kernel/fork.c: warning: w': {b'kernel/fork.o'}})

	def test_judged_only_against_a_step_that_compiled_it(self):
		"""The sh column of a --down walk before sticky rebuilds: fork.c
		warns at the steps that recompiled it; the step before that did
		not: undecided.  One that did, without the warning: new."""
		self.res('r', '000-baseline', 'x', target='x', status='ok', stage='unreached')
		self.log('000-baseline', 'x', self.HEAD + '# unreached: not rebuilt\n')
		self.res('r', '001-a.patch', 'x', target='x', status='ok')
		self.log('001-a.patch', 'x', self.HEAD + '  CC      kernel/fork.o\n' + self.FORK + self.STDIN)
		self.res('r', '002-b.patch', 'x', target='x', status='ok')
		self.log('002-b.patch', 'x', self.HEAD + '  CC      kernel/fork.o\n' + self.FORK +
			 '  CC      mm/x.o\n/t/mm/x.c:1:1: warning: really new\n'
			 'ld: warning: the linker\n')
		steps.compare(self.rec)
		self.assertEqual((self.tail('001-a.patch', 'x')[0], self.und('001-a.patch', 'x')),
				 ('new_warnings=0', 2))
		# fork.c's: compiled before with it; mm/x.c's: compiled before
		# (001 has no CC mm/x.o): undecided; the linker's: no producer
		self.assertEqual((self.tail('002-b.patch', 'x')[0], self.und('002-b.patch', 'x')),
				 ('new_warnings=0', 2))
		self.log('001-a.patch', 'x', self.HEAD + '  CC      kernel/fork.o\n  CC      mm/x.o\n' +
			 self.FORK + self.STDIN)
		steps.compare(self.rec)
		self.assertEqual((self.tail('002-b.patch', 'x')[0], self.und('002-b.patch', 'x')),
				 ('new_warnings=1', 1))

	def test_a_new_target_has_new_warnings(self):
		"""The step before skipped the target (no arch/ARCH yet): nothing
		was there to compile, so every warning is new."""
		self.res('r', '000-baseline', 'x', target='x', status='skip', stage='arch')
		self.log('000-baseline', 'x', 'no arch/x in /t: skipped\n')
		self.res('r', '001-a.patch', 'x', target='x', status='ok')
		self.log('001-a.patch', 'x', self.HEAD + 'ld: warning: the linker\n')
		steps.compare(self.rec)
		self.assertEqual((self.tail('001-a.patch', 'x')[0], self.und('001-a.patch', 'x')),
				 ('new_warnings=1', 0))

	def test_sticky_rebuilds_make_old_warnings_old(self):
		"""A --down walk: 003 warned in fork.c and checksyscalls; sticky
		deletes both from the build before each lower step, which then
		compile them and show the warnings: not new anywhere, and the
		warning 001 really brought (absent from the baseline, which
		compiled its object) is new."""
		b = os.path.join(self.tmp, 'build')
		self.res('r', '003-c.patch', 'x', target='x', status='ok')
		self.log('003-c.patch', 'x', self.HEAD + '  CC      kernel/fork.o\n  CC      mm/x.o\n' +
			 self.FORK + self.STDIN + '/t/mm/x.c:1:1: warning: really new\nld: warning: l\n')
		for f in ('kernel/fork.o', '.tmp_missing-syscalls', 'mm/x.o', 'mm/y.o'):
			write(os.path.join(b, 'x', f), '')
		prods, unmapped = steps.sticky(self.rec, '002-b.patch', 'x')
		self.assertEqual(prods, {b'kernel/fork.o', b'.tmp_missing-syscalls', b'mm/x.o'})
		self.assertEqual(unmapped, {b'ld: warning: l'})
		self.assertEqual(steps.rebuild(b, 'x', prods, unmapped),
				 [b'.tmp_missing-syscalls', b'kernel/fork.o', b'mm/x.o'])
		self.assertEqual(sorted(os.listdir(os.path.join(b, 'x'))), ['kernel', 'mm'])
		self.assertTrue(os.path.isfile(os.path.join(b, 'x', 'mm', 'y.o')))
		self.assertEqual(read(os.path.join(b, 'x.rebuild')),
				 '.tmp_missing-syscalls\nkernel/fork.o\nmm/x.o\n# unmapped: ld: warning: l\n')
		# what the lower steps' builds then log: the sticky ones again
		again = self.HEAD + '  CC      kernel/fork.o\n  CC      mm/x.o\n' + self.FORK + self.STDIN
		for s in ('002-b.patch', '001-a.patch'):
			self.res('r', s, 'x', target='x', status='ok')
			self.log(s, 'x', again + '/t/mm/x.c:1:1: warning: really new\nld: warning: l\n')
		self.res('r', '000-baseline', 'x', target='x', status='ok')
		self.log('000-baseline', 'x', again + 'ld: warning: l\n')
		steps.compare(self.rec)
		got = [(self.tail(s, 'x')[0], self.und(s, 'x'))
		       for s in ('001-a.patch', '002-b.patch', '003-c.patch')]
		self.assertEqual(got, [('new_warnings=1', 0), ('new_warnings=0', 0), ('new_warnings=0', 0)])
		# nothing above the top: no list left behind
		self.assertEqual(steps.sticky(self.rec, '003-c.patch', 'x'), (set(), set()))
		steps.rebuild(b, 'x', set(), set())
		self.assertFalse(os.path.exists(os.path.join(b, 'x.rebuild')))

	def test_sticky_all_lists_everything(self):
		"""--all (the first step of a --down run): a "*" line, even with
		nothing above; the CLI writes the list and says so."""
		b = os.path.join(self.tmp, 'build')
		steps.rebuild(b, 'x', set(), set(), full=True)
		self.assertEqual(read(os.path.join(b, 'x.rebuild')), '*\n')
		self.res('r', '003-c.patch', 'x', target='x', status='ok')
		self.log('003-c.patch', 'x', self.HEAD + '  CC      kernel/fork.o\n' + self.FORK)
		rc, out, _ = CliTest.run_cli(self, 'sticky', '--all', self.rec, '002-b.patch', b, 'x', 'y')
		self.assertEqual(rc, common.Exit.OK)
		self.assertEqual(read(os.path.join(b, 'x.rebuild')), '*\nkernel/fork.o\n')
		self.assertEqual(read(os.path.join(b, 'y.rebuild')), '*\n')
		self.assertIn('x: 1 rebuilt for the warnings above (0 deleted): kernel/fork.o', out)
		rc, _, err = CliTest.run_cli(self, 'sticky', self.rec, '009-z.patch', b, 'x')
		self.assertEqual(rc, common.Exit.FAILURE)
		self.assertIn('no step 009-z.patch', err)

	def test_sticky_never_deletes_outside_the_build(self):
		b = os.path.join(self.tmp, 'build')
		write(os.path.join(self.tmp, 'outside.o'), '')
		write(os.path.join(b, 'x', 'in.o'), '')
		steps.rebuild(b, 'x', {b'../outside.o', b'/etc/x.o', b'CHKABI arch/x', b'in.o'}, set())
		self.assertTrue(os.path.isfile(os.path.join(self.tmp, 'outside.o')))
		self.assertFalse(os.path.exists(os.path.join(b, 'x', 'in.o')))

	def test_cli_exit_codes(self):
		self.res('r', '000-baseline', 'x', target='x', status='ok')
		run = CliTest.run_cli
		self.assertEqual(run(self, 'compare-steps', self.rec)[0], common.Exit.OK)
		self.assertEqual(self.tail('000-baseline', 'x'), ['new_warnings=0', 'codegen='])
		rc, _, err = run(self, 'compare-steps', os.path.join(self.tmp, 'none'))
		self.assertEqual(rc, common.Exit.FAILURE)
		self.assertIn('error: no record folder', err)


from seriesci import fingerprint  # noqa: E402  (the writer's and fingerprint's tests below)


class RecordWriteTest(TmpTest):
	"""Issue 23: record write, the one writer of the shell's key=value files."""

	def data(self, name):
		with open(os.path.join(self.tmp, name), 'rb') as f:
			return f.read()

	def test_bytes_as_printf(self):
		f = os.path.join(self.tmp, 'boot.result')
		record.write_files(['--result', f, 'status=skip', 'seconds=0.0', 'first_error=a = b\\c',
				    'log=/x y/boot.log'])
		self.assertEqual(self.data('boot.result'),
				 b'status=skip\nseconds=0.0\nfirst_error=a = b\\c\nlog=/x y/boot.log\n')
		self.assertEqual(record.check_kv(f), '')
		self.assertEqual(record.read_kv(f)['first_error'], 'a = b\\c')

	def test_refused_nothing_written(self):
		a, b = os.path.join(self.tmp, 'a'), os.path.join(self.tmp, 'b')
		for bad in (['x=1\n2'], ['X=1'], ['1x=1'], ['x=1', 'x=2'], ['-=1']):
			with self.assertRaises(common.Error, msg=bad):
				record.write_files([a, 'k=v', '--', b] + bad)
			self.assertFalse(os.path.exists(a) or os.path.exists(b), bad)
		with self.assertRaises(common.Usage):
			record.write_files([a, 'novalue'])
		with self.assertRaises(common.Usage):
			record.write_files(['--bogus', a])
		with self.assertRaises(common.Usage):
			record.write_files([])

	def test_result_checked(self):
		f = os.path.join(self.tmp, 'x.result')
		for bad in (['status=maybe'], ['status=ok', 'seconds=1,5'], ['warnings=0']):
			with self.assertRaises(common.Error, msg=bad):
				record.write_files(['--result', f] + bad)
		self.assertFalse(os.path.exists(f))
		record.write_files([f, 'status=maybe'])	# not a result: only the lines checked
		self.assertEqual(self.data('x.result'), b'status=maybe\n')

	def test_from_sets_in_place(self):
		src = os.path.join(self.tmp, 'src')
		with open(src, 'wb') as fh:
			fh.write(b'target=a\nlog=/build/a.log\nfirst_error=x|y&z\nlog=/again\nodd line\nlast=1')
		out = os.path.join(self.tmp, 'out')
		record.write_files(['--from', src, out, 'log=/s|t&p\\1/a.log', 'new=v'])
		self.assertEqual(self.data('out'), b'target=a\nlog=/s|t&p\\1/a.log\nfirst_error=x|y&z\n'
				 b'log=/s|t&p\\1/a.log\nodd line\nlast=1new=v\n')
		# in place, and as sed 's|^log=.*|log=...|' on a plain path
		record.write_files(['--from', out, out, 'log=/s/a.log'])
		self.assertEqual(self.data('out').count(b'log=/s/a.log\n'), 2)

	def test_undecodable_value(self):
		f = os.path.join(self.tmp, 'c.result')
		v = b'first_error=caf\xe9'.decode('utf-8', 'surrogateescape')
		record.write_files(['--result', f, 'status=fail', v])
		self.assertEqual(self.data('c.result'), 'status=fail\nfirst_error=caf\ufffd\n'.encode())
		self.assertEqual(record.check_kv(f), '')

	def test_cli_exit_codes(self):
		f = os.path.join(self.tmp, 'k')
		run = CliTest.run_cli
		self.assertEqual(run(self, 'record', 'write', f, 'a=1')[0], 0)
		self.assertEqual(self.data('k'), b'a=1\n')
		self.assertEqual(run(self, 'record', 'write', f, 'a=1\n')[0], common.Exit.FAILURE)
		self.assertEqual(run(self, 'record', 'write', '--bogus')[0], common.Exit.USAGE)
		rc, out, _ = run(self, 'record', 'write', '--help')
		self.assertEqual((rc, 'usage:' in out), (0, True))


class FingerprintTest(TmpTest):
	"""Issue 23: a done step is reused only for the series it judged."""

	def setUp(self):
		super().setUp()
		t = self.tmp
		self.patches = os.path.join(t, 'patches')
		self.series = os.path.join(self.patches, 'series')
		write(self.series, '# a comment\na.patch\nb.patch -p1   # with an option\nc.patch\n')
		for n in 'abc':
			write(os.path.join(self.patches, f'{n}.patch'), f'patch {n}\n')
		self.configs = os.path.join(t, 'configs')
		write(os.path.join(self.configs, 'targets'), 'x86 x86 - quick\nm68k m68k m68k-linux-gnu- quick\n')
		write(os.path.join(self.configs, 'base.config'), 'CONFIG_A=y\n')
		write(os.path.join(self.configs, 'x86.config'), '# include: more.config\n')
		write(os.path.join(self.configs, 'more.config'), 'CONFIG_B=y\n')
		self.ignore = os.path.join(t, 'ignore')
		write(self.ignore, '# c\n* UNKNOWN_COMMIT_ID # why\nb.patch NEW_TYPEDEFS # why\n')
		self.rec = os.path.join(t, 'rec')
		os.makedirs(self.rec)
		self.tc = b'target=x86\ncompiler=gcc 12\n'

	def inputs(self, targets=('x86',)):
		return fingerprint.Inputs('9.9.1', 'linux-source-9.9 9.9.1-1 abc -', targets,
					  os.path.join(self.configs, 'targets'), self.configs, self.tc,
					  ['CODEGEN=1'], self.series, self.patches, self.ignore)

	def run_all(self):
		"""A ci-series run: every step not kept is done with its plan."""
		lines, first = fingerprint.plan(self.rec, self.inputs())
		for l in lines:
			s, verdict = l.split(' ', 1)
			if verdict != 'keep':
				os.makedirs(os.path.join(self.rec, s), exist_ok=True)
				shutil.copy(os.path.join(self.rec, fingerprint.PLAN, s),
					    os.path.join(self.rec, s, fingerprint.FILE))
				write(os.path.join(self.rec, s, 'done'), '')
		return lines, first

	def test_changed_patch_redoes_from_it(self):
		lines, first = self.run_all()
		self.assertEqual(lines, ['000-baseline run', '001-a.patch run', '002-b.patch run', '003-c.patch run'])
		self.assertEqual(self.run_all(), (['000-baseline keep', '001-a.patch keep', '002-b.patch keep',
						   '003-c.patch keep'], 0))
		write(os.path.join(self.patches, 'b.patch'), 'patch b, again\n')
		lines, first = self.run_all()
		self.assertEqual(lines, ['000-baseline keep', '001-a.patch keep',
					 '002-b.patch redo: patch b.patch changed', '003-c.patch redo: patch b.patch changed'])
		self.assertEqual(first, 2)

	def test_series_and_inputs(self):
		self.run_all()
		cases = [
			(lambda: write(self.series, 'a.patch\nb.patch -p0\nc.patch\n'),
			 '002-b.patch redo: the series line of b.patch changed (b.patch -p1 -> b.patch -p0)'),
			(lambda: write(os.path.join(self.configs, 'more.config'), 'CONFIG_B=n\n'),
			 '000-baseline redo: the configs/targets lines or Kconfig fragments of its targets changed'),
			(lambda: setattr(self, 'tc', b'target=x86\ncompiler=gcc 13\n'),
			 '000-baseline redo: the toolchain changed (build-arch --toolchain)'),
		]
		for change, want in cases:
			change()
			lines, _ = self.run_all()
			self.assertIn(want, lines)
			self.assertEqual(self.run_all()[0].count('002-b.patch keep'), 1, want)
		# the ignore lines of a patch: its checkpatch cell only
		write(self.ignore, 'b.patch NEW_TYPEDEFS,X # why\n* UNKNOWN_COMMIT_ID # why\n')
		lines, first = self.run_all()
		self.assertEqual((lines, first), (['000-baseline keep', '001-a.patch keep',
						   '002-b.patch recheck: its lines of scripts/checkpatch-ignore changed',
						   '003-c.patch keep'], 0))
		# comment lines of the ignore file and of the series change nothing
		write(self.series, '# other\na.patch\nb.patch   -p0 # x\nc.patch\n')
		with open(self.ignore, 'a') as f:
			f.write('# more words\n')
		self.assertTrue(all(l.endswith(' keep') for l in self.run_all()[0]))
		write(self.series, 'a.patch\nc.patch\n')
		lines, first = self.run_all()
		self.assertEqual(lines[:2], ['000-baseline keep', '001-a.patch keep'])
		self.assertEqual((lines[2], first), ('002-c.patch run', 0))

	MSG = 'Subject: [PATCH] b\n\n%s\n---\n f | 2 +-\n\n--- a/f\n+++ b/f\n@@ -1 +1 @@\n-x\n+%s\n'

	def test_message_is_not_built(self):
		b = os.path.join(self.patches, 'b.patch')
		write(b, self.MSG % ('Why.', 'y'))
		self.run_all()
		write(b, self.MSG % ('Why, in other words.', 'y'))
		lines, first = self.run_all()
		self.assertEqual((lines, first), (['000-baseline keep', '001-a.patch keep',
						   '002-b.patch recheck: the message of b.patch changed',
						   '003-c.patch keep'], 0))
		self.assertTrue(all(l.endswith(' keep') for l in self.run_all()[0]))
		write(b, self.MSG % ('Why, in other words.', 'z'))
		lines, first = self.run_all()
		self.assertEqual((lines[2:], first), (['002-b.patch redo: patch b.patch changed',
							'003-c.patch redo: patch b.patch changed'], 2))
		self.assertEqual(fingerprint.diff_part(b'no diff at all\n'), b'no diff at all\n')
		self.assertEqual(fingerprint.diff_part(b'm\n---\n--- a\nx\ndiff --git a/f b/f\n'), b'diff --git a/f b/f\n')

	def test_scheme1_is_migrated(self):
		b = os.path.join(self.patches, 'b.patch')
		write(b, self.MSG % ('Why.', 'y'))
		inp = self.inputs()
		ok = self.rec + '.ok'
		for n, s in enumerate(inp.steps()):
			write(os.path.join(self.rec, s, 'done'), '')
			record.write_kv(os.path.join(self.rec, s, fingerprint.FILE), inp.legacy_pairs(n))
		write(ok, f'fingerprint={inp.legacy_pairs(3)[0][1]}\nsteps=4\n')
		# a scheme-1 record of the files now: migrated, the column done
		self.assertEqual(fingerprint.column_ok(ok, self.inputs()), '')
		self.assertEqual(record.read_kv(ok)['scheme'], '2')
		self.assertEqual(record.read_kv(os.path.join(self.rec, '002-b.patch', fingerprint.FILE))['scheme'], '2')
		# then a message edit is a recheck, not a rebuild
		write(b, self.MSG % ('Other words.', 'y'))
		self.assertRegex(fingerprint.column_ok(ok, self.inputs()), 'the message or the checkpatch-ignore lines')
		self.assertEqual(fingerprint.plan(self.rec, self.inputs())[0][2], '002-b.patch recheck: the message of b.patch changed')
		# a scheme-1 step whose ignore lines changed since: migrated, rechecked
		write(b, self.MSG % ('Why.', 'y'))
		record.write_kv(os.path.join(self.rec, '002-b.patch', fingerprint.FILE), self.inputs().legacy_pairs(2))
		write(self.ignore, '* UNKNOWN_COMMIT_ID # why\nb.patch NEW_TYPEDEFS,Y # why\n')
		self.assertEqual(fingerprint.plan(self.rec, self.inputs())[0][2],
				 '002-b.patch recheck: its lines of scripts/checkpatch-ignore changed')
		# a scheme-1 step of other files than these is redone, saying why
		write(b, self.MSG % ('Why.', 'y'))
		old = self.inputs()
		record.write_kv(os.path.join(self.rec, '002-b.patch', fingerprint.FILE), old.legacy_pairs(2))
		write(b, self.MSG % ('Again.', 'y'))
		lines, first = fingerprint.plan(self.rec, self.inputs())
		self.assertEqual((lines[2], first), ('002-b.patch redo: patch b.patch changed', 2))
		with self.assertRaisesRegex(common.Error, '002-b.patch: patch b.patch changed: not marking'):
			fingerprint.write_ok(ok, self.rec, self.inputs())
		write(ok, f'fingerprint={old.legacy_pairs(3)[0][1]}\nsteps=4\n')
		self.assertRegex(fingerprint.column_ok(ok, self.inputs()), 'is of the earlier fingerprint scheme')

	def test_legacy_and_adopt(self):
		self.run_all()
		os.unlink(os.path.join(self.rec, '002-b.patch', fingerprint.FILE))
		os.unlink(os.path.join(self.rec, '003-c.patch', fingerprint.FILE))
		old = time.time() - 100
		os.utime(os.path.join(self.rec, '003-c.patch', 'done'), (old, old))
		lines, first = fingerprint.plan(self.rec, self.inputs())
		self.assertEqual(lines[2], '002-b.patch redo: no fingerprint (done before ci-series kept them)')
		self.assertEqual(first, 1)
		lines, _ = fingerprint.plan(self.rec, self.inputs(), adopt=True)
		self.assertEqual(lines[2], '002-b.patch adopted')
		self.assertRegex(lines[3], r'^003-c.patch redo: .*/series changed \(.* UTC\) after this step was done$')
		self.assertEqual(fingerprint.plan(self.rec, self.inputs())[0][2], '002-b.patch keep')

	def test_tree_stale(self):
		tree = os.path.join(self.tmp, 'tree')
		write(os.path.join(tree, '.pc', 'applied-patches'), 'a.patch\nb.patch\n')
		for n in 'ab':
			write(os.path.join(tree, '.pc', f'{n}.patch', '.timestamp'), '')
		inp = self.inputs()
		self.assertEqual(fingerprint.tree_stale(tree, inp), 0)
		later = time.time() + 100
		os.utime(os.path.join(self.patches, 'b.patch'), (later, later))
		self.assertEqual(fingerprint.tree_stale(tree, inp), 2)
		self.assertEqual(fingerprint.plan(self.rec, inp, tree=tree)[1], 2)
		write(os.path.join(tree, '.pc', 'applied-patches'), 'c.patch\n')
		self.assertEqual(fingerprint.tree_stale(tree, inp), 1)
		self.assertEqual(fingerprint.tree_stale(os.path.join(self.tmp, 'none'), inp), 0)

	def test_column_ok(self):
		ok = self.rec + '.ok'
		with self.assertRaisesRegex(common.Error, 'not done with a fingerprint'):
			fingerprint.write_ok(ok, self.rec, self.inputs())
		self.run_all()
		fingerprint.write_ok(ok, self.rec, self.inputs())
		self.assertEqual(fingerprint.column_ok(ok, self.inputs()), '')
		self.assertEqual(record.read_kv(ok)['steps'], '4')
		write(os.path.join(self.patches, 'c.patch'), 'patch c, again\n')
		self.assertEqual(fingerprint.column_ok(ok, self.inputs()),
				 f'{ok} is of another series: patch c.patch changed')
		with self.assertRaisesRegex(common.Error, 'patch c.patch changed: not marking'):
			fingerprint.write_ok(ok, self.rec, self.inputs())
		write(ok, '')
		self.assertIn('has no fingerprint', fingerprint.column_ok(ok, self.inputs()))
		with self.assertRaisesRegex(common.Error, "unknown target 'nosuch'"):
			self.inputs(('nosuch',))


class BenchTest(unittest.TestCase):
	"""csum-placements: the medians of scripts/csum-bench --placements."""
	@staticmethod
	def out(new40, x86_40, extra=''):
		return ('csum-bench: medians of 1 runs\n\n'
			'csum_partial: bytes per tick (ratio)\n'
			'     len off mainline-generic      new-generic           x86-64\n'
			f'      40   0    1.85 ( 1.00x)    {new40:.2f} ( 4.14x)    {x86_40:.2f} ( 4.14x)\n'
			'      64   1    2.00 ( 1.00x)    8.00 ( 4.00x)    4.00 ( 2.00x)\n' + extra +
			'\ncsum_partial: ns per call\n'
			'     len off mainline-generic      new-generic           x86-64\n'
			'      40   0             9.39             2.27             2.27\n')

	def test_medians(self):
		from seriesci import bench
		outs = [('a', self.out(8, 8)), ('b', self.out(4, 8)), ('c', self.out(6, 6)), ('d', self.out(9, 9))]
		lines = bench.table(outs, [0, 16, 32, 48])
		self.assertIn('new/x86 at     0    16    32    48  median', lines[3])
		row = lines[4].split()
		# 40 0: new 8 4 6 9 -> 7.00; x86 8 8 6 9 -> 8.00; ratios 1 .5 1 1 -> 1.00
		self.assertEqual(row[:5], ['40', '0', '1.85', '7.00', '8.00'])
		self.assertEqual(row[5:], ['1.00', '0.50', '1.00', '1.00', '1.00'])
		self.assertEqual(lines[5].split()[-1], '2.00')
		self.assertEqual(len(lines), 6)	# the ns table is not read

	def test_bad_outputs(self):
		from seriesci import bench
		with self.assertRaisesRegex(common.Error, 'b: no "csum_partial: bytes per tick" table'):
			bench.table([('a', self.out(8, 8)), ('b', 'garbage\n')], [0, 16])
		with self.assertRaisesRegex(common.Error, '3 figures for 4 variants'):
			bench.parse(self.out(8, 8).replace('x86-64', 'x86-64 other'), 'x')
		with self.assertRaisesRegex(common.Error, 'b: no row for length 80 offset 0'):
			bench.table([('a', self.out(8, 8, '      80   0    1 (1x)    1 (1x)    1 (1x)\n')),
				     ('b', self.out(8, 8))], [0, 16])
		with self.assertRaisesRegex(common.Error, '1 outputs for 2 placements'):
			bench.table([('a', self.out(8, 8))], [0, 16])

	def test_entry_point(self):
		from seriesci import bench
		outs = []
		with tempfile.TemporaryDirectory() as d:
			for i, v in enumerate((8, 4)):
				outs.append(os.path.join(d, f'at{i}.txt'))
				write(outs[-1], self.out(v, 8))
			buf = io.StringIO()
			with contextlib.redirect_stdout(buf):
				rc = cli.main(['csum-placements', '--places', '0 16'] + outs)
			self.assertEqual(rc, 0)
			self.assertIn('median of the 2 builds', buf.getvalue())
			with contextlib.redirect_stderr(io.StringIO()) as err:
				rc = cli.main(['csum-placements', '--places', '0 16', outs[0], os.path.join(d, 'none')])
			self.assertEqual(rc, 1)
			self.assertIn('none', err.getvalue())
		self.assertTrue(bench.__doc__)


class TimingTest(unittest.TestCase):
	"""check-times: the total and the slowest files of prove -v --timer."""
	LOG = ('  READY   /out/src/7.3-rc7 (96056 files)\n'
	       '[01:04:18] tests/abi-check.t .............. \n'
	       '1..2\nok 1 - a\nok 2 - b\n'
	       'ok    24531 ms ( 0.01 usr  0.00 sys + 19.50 cusr  4.79 csys = 24.30 CPU)\n'
	       '[01:10:13] tests/boot-example.t ........... \n'
	       '1..1\n# ok 7 - a diagnostic that looks like a time: ok 5 ms\nok 1 - c\n'
	       'ok   338267 ms ( 0.00 usr  0.00 sys + 1.00 cusr  1.00 csys =  2.00 CPU)\n'
	       '[00:18:47] tests/build-ci-series.t ........ \n'
	       '1..1\nnot ok 1 - d\nDubious, test returned 1 (wstat 256, 0x100)\nFailed 1/1 subtests \n'
	       '[01:33:23] tests/ci-quick.t ............... \n'
	       'ok  1307269 ms ( 0.00 usr  0.01 sys + 1937.45 cusr 490.69 csys = 2428.15 CPU)\n'
	       'Files=4, Tests=5, 1700 wallclock secs ( 0.39 usr  0.07 sys + 1.0 cusr 1.0 csys = 2.0 CPU)\n'
	       'Result: FAIL\n')

	def test_parse(self):
		from seriesci import timing
		files, total = timing.parse(self.LOG)
		self.assertEqual(files, [('tests/abi-check.t', 24.531), ('tests/boot-example.t', 338.267),
					 ('tests/build-ci-series.t', None), ('tests/ci-quick.t', 1307.269)])
		self.assertEqual(total, (4, 5, 1700))

	def test_table(self):
		from seriesci import timing
		lines = timing.table(*timing.parse(self.LOG), top=2)
		self.assertEqual(lines[0], 'check-times: 4 test files, 1700 s of wall time (prove); the 2 slowest:')
		self.assertEqual(lines[1].split(), ['1307.3', 's', '76.9', '%', 'tests/ci-quick.t'])
		self.assertEqual(lines[2].split()[-1], 'tests/boot-example.t')
		self.assertEqual(lines[3], '  no time (failed or skipped): tests/build-ci-series.t')
		self.assertEqual(len(lines), 4)

	def test_no_total_sums_the_files(self):
		from seriesci import timing
		log = self.LOG.split('Files=')[0]
		self.assertIn('1670 s of wall time (the sum of the files', timing.table(*timing.parse(log))[0])

	def test_not_a_prove_log(self):
		from seriesci import timing
		with self.assertRaisesRegex(common.Error, 'no test file in the log'):
			timing.table(*timing.parse('make: *** [check] Error 1\n'))


from seriesci import build_all, ci_series, series as series_mod  # noqa: E402  (the step loop's own tests below)


class BuildAllTest(TmpTest):
	"""build-all's selection: TARGETS, TIER and SHARD, as the scripts had it."""

	def setUp(self):
		super().setUp()
		self.f = os.path.join(self.tmp, 'targets')
		write(self.f, '# t arch cross tier\nzz zz - full\nx86_64 x86 - quick\nm68k m68k m68k- quick\n'
		      'example example - quick\narm arm arm- full\n')

	def sel(self, names='', tier='', shard=''):
		return build_all.select(names, tier, shard, self.f)

	def test_sorted_and_filtered(self):
		self.assertEqual(self.sel(), ['arm', 'example', 'm68k', 'x86_64', 'zz'])
		self.assertEqual(self.sel('zz  m68k'), ['m68k', 'zz'])
		self.assertEqual(self.sel(tier='quick'), ['example', 'm68k', 'x86_64'])
		self.assertEqual(self.sel('arm m68k', tier='quick'), ['m68k'])

	def test_shards_cover_the_list_once(self):
		got = self.sel(shard='1/2') + self.sel(shard='2/2')
		self.assertEqual(sorted(got), self.sel())
		self.assertEqual(self.sel(shard='2/2'), ['example', 'x86_64'])

	def test_errors(self):
		with self.assertRaisesRegex(common.Error, "unknown target 'nope' in TARGETS"):
			self.sel('nope')
		with self.assertRaisesRegex(common.Error, "no targets of tier 'slow'"):
			self.sel(tier='slow')
		for bad in ('3/2', '0/2', '1', 'a/b', '1/2/3'):
			with self.assertRaisesRegex(common.Error, 'SHARD='):
				self.sel(shard=bad)


class CiSeriesTest(TmpTest):
	"""The step loop's own rules that need no tree."""

	def test_record_write_through_the_entry_point(self):
		"""record write's own grammar reaches it through cli.main: a
		leading --result is its option, not argparse's."""
		f = os.path.join(self.tmp, 'r')
		g = os.path.join(self.tmp, 'g')
		rc = cli.main(['record', 'write', '--result', f, 'status=ok', 'seconds=1', '--', g, 'a=b'])
		self.assertEqual(rc, 0)
		self.assertEqual(read(f), 'status=ok\nseconds=1\n')
		self.assertEqual(read(g), 'a=b\n')

	def test_steps_option(self):
		p = cli.parser()
		with contextlib.redirect_stderr(io.StringIO()):
			for bad in ('x', '1-', '-1', '1-2-3'):
				with self.assertRaises(SystemExit) as e:
					p.parse_args(['ci-series', f'--steps={bad}'])
				self.assertEqual(e.exception.code, 2)
		self.assertEqual(p.parse_args(['ci-series', '--steps=3']).steps, (3, 3))
		self.assertEqual(p.parse_args(['ci-series', '--steps=2-5']).steps, (2, 5))

	def test_failed_reads_status_not_a_value(self):
		"""A step failed only when a result's status= says so, not when
		fail appears inside another value (first_error=...status=fail)."""
		d = os.path.join(self.tmp, 's')
		os.makedirs(d)
		write(os.path.join(d, 'x86_64.result'), 'status=ok\nfirst_error=a status=fail here\n')
		self.assertFalse(ci_series.failed(d))
		write(os.path.join(d, 'checkpatch.result'), 'status=fail\n')
		self.assertTrue(ci_series.failed(d))
		self.assertFalse(ci_series.failed(os.path.join(self.tmp, 'none')))


from seriesci import baseline  # noqa: E402  (the baselines' own tests below)


class BaselineTest(TmpTest):
	"""The version rule and the pins, as lib.sh's awk had them."""

	def test_upstream_of(self):
		for deb, up in (('7.3~rc7-1~exp1', '7.3-rc7'), ('6.12.118-1~deb12u1', '6.12.118'),
				('7.2.13-1', '7.2.13'), ('12.2.0-14', '12.2.0'), ('7.3', '7.3')):
			self.assertEqual(baseline.upstream_of(deb), up)
		self.assertEqual(baseline.package_of('7.3-rc7'), 'linux-source-7.3')
		self.assertEqual(baseline.package_of('6.12.118'), 'linux-source-6.12')

	def test_pins(self):
		f = os.path.join(self.tmp, 'baselines')
		write(f, '# c\n\nlinux-source-7.3 7.3~rc7-1~exp1 experimental aaa\nlinux-source-6.1 6.1.1-1 bbb\n')
		os.environ['BASELINES'] = f
		os.environ['OUT'] = os.path.join(self.tmp, 'out')
		self.assertEqual(baseline.first_version(f), '7.3-rc7')
		self.assertEqual(baseline.pin_line('7.3-rc7'), 'linux-source-7.3 7.3~rc7-1~exp1 aaa experimental')
		self.assertEqual(baseline.pin_line('6.1.1-1'), 'linux-source-6.1 6.1.1-1 bbb -')
		self.assertEqual(baseline.pin_line('9.9'), '')
		write(os.path.join(self.tmp, 'out', 'apt', 'pins'), 'linux-source-9.9 9.9-1 unstable ccc\n')
		self.assertEqual(baseline.pin_line('9.9'), 'linux-source-9.9 9.9-1 ccc unstable')

	def test_default_falls_back_only_without_a_copy(self):
		f = os.path.join(self.tmp, 'baselines')
		write(f, 'linux-source-7.3 7.3~rc7-1~exp1 experimental aaa\n')
		out = os.path.join(self.tmp, 'out')
		os.environ['BASELINES'] = f
		self.assertEqual(baseline.default(out), '7.3-rc7')
		write(os.path.join(out, 'apt', 'fallback'), '7.3\n')
		self.assertEqual(baseline.default(out), '7.3')
		write(os.path.join(out, 'dl', 'linux-source-7.3_7.3~rc7-1~exp1_all.deb'), '')
		self.assertEqual(baseline.default(out), '7.3-rc7')


class ArchiveTest(unittest.TestCase):
	"""The machine's Debian archive, from its apt sources."""

	DEB822 = ('Types: deb\n# http://snapshot.example/archive\nURIs: http://deb.example/debian\n'
		  'Suites: bookworm bookworm-updates\nComponents: main\n\n'
		  'Types: deb\nURIs: http://deb.example/debian-security\nSuites: bookworm-security\n'
		  'Components: main\n\nTypes: deb\nURIs: https://nodesource.example/node\n'
		  'Suites: nodistro\nComponents: main\n')

	def test_deb822(self):
		self.assertEqual(baseline.machine_archive(False, self.DEB822), 'http://deb.example/debian')
		self.assertEqual(baseline.machine_archive(True, self.DEB822), 'http://deb.example/debian-security')

	def test_one_line(self):
		text = ('deb https://packages.example/apt cloud-sdk-bookworm main\n'
			'# deb http://old.example/debian bookworm main\n'
			'deb [arch=amd64 signed-by=/k.gpg] http://mirror.example/debian trixie contrib main\n'
			'deb http://sec.example/debian-security bookworm-security main\n')
		self.assertEqual(baseline.machine_archive(False, text), 'http://mirror.example/debian')
		self.assertEqual(baseline.machine_archive(True, text), 'http://sec.example/debian-security')

	def test_none(self):
		self.assertEqual(baseline.machine_archive(False, 'deb http://x.example/ubuntu jammy main\n'), '')
		self.assertEqual(baseline.machine_archive(False, 'Types: deb-src\nURIs: http://a/debian\n'
							  'Suites: bookworm\nComponents: main\n'), '')


class SeriesTest(TmpTest):
	"""The series file's one reader: entries, checks, destinations."""

	def series(self, text):
		f = os.path.join(self.tmp, 'series')
		write(f, text)
		return f

	def test_entries(self):
		f = self.series('# c\na.patch -p1 # x\n\nb.patch\r\n')
		self.assertEqual(series_mod.entries(f), [('a.patch', 'a.patch -p1'), ('b.patch', 'b.patch')])
		self.assertEqual(series_mod.patches(os.path.join(self.tmp, 'none')), [])

	def test_problems(self):
		write(os.path.join(self.tmp, 'a.patch'), 'x\n')
		write(os.path.join(self.tmp, 'c.patch'), 'x\r\n')
		f = self.series('a.patch\n  # indented\na.patch\nb.patch\nc.patch\nd.patch\r\n')
		got = series_mod.problems(f, self.tmp)
		self.assertTrue(any(':2: a comment that does not start in column 1' in g for g in got))
		self.assertTrue(any(':3: a.patch is listed twice (first on line 1)' in g for g in got))
		self.assertTrue(any(':6: a carriage return' in g for g in got))
		self.assertTrue(any('b.patch is listed but' in g for g in got))
		self.assertTrue(any('c.patch: CRLF line ends' in g for g in got))

	def test_destinations(self):
		cover = os.path.join(self.tmp, 'cover')
		write(cover, 'Subject\n')
		f = self.series('#@ destination: one\n#@ version: 3\n#@ prefix: RFC\n#@ trailer: Cc: a@b.org\n'
				'#@ cover: cover\na.patch\n#@ destination: two\n#@ cover: cover\nb.patch\nc.patch\n')
		d = series_mod.destinations(f)
		self.assertEqual([(x.name, x.version, x.prefixes, x.trailers, x.patches) for x in d],
				 [('one', '3', 'RFC', ['Cc: a@b.org'], ['a.patch']), ('two', '1', '', [], ['b.patch', 'c.patch'])])
		self.assertEqual(d[0].cover, cover)

	def test_destination_errors(self):
		for text, why in (('#@ destination: a\n#@ version: x\np\n', 'line 2: version x: not a number'),
				  ('p\n#@ destination: a\nq\n', 'p is above the first'),
				  ('#@ destination: a\n#@ destination: b\np\n', 'line 2: destination a has no patch'),
				  ('#@ destination: a\np\n#@ destination: a\nq\n', 'destination a again'),
				  ('#@ destination: a\n#@ colour: red\np\n', 'unknown key "colour"'),
				  ('#@ destination: a\n#@ cover: nofile\np\n', 'no cover letter')):
			with self.assertRaisesRegex(common.Error, re.escape(why)):
				series_mod.destinations(self.series(text))

	def test_lenient_for_the_report(self):
		f = self.series('p\n#@ destination: a\n#@ version: 2\nq\n')
		self.assertEqual([(x.name, x.version, x.patches) for x in series_mod.destinations(f, strict=False)],
				 [('(no destination)', '1', ['p']), ('a', '2', ['q'])])
		f = self.series('p\nq\n')
		self.assertEqual([(x.name, x.patches) for x in series_mod.destinations(f, strict=False)],
				 [('series', ['p', 'q'])])


if __name__ == '__main__':
	unittest.main()
