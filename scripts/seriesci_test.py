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
import shutil
import sys
import tempfile
import time
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from seriesci import cli, common, merge, proof, reach, record, render, targets  # noqa: E402


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

	def test_unknown_status_fails_and_error_is_cut(self):
		r = self.rec.result('002-b.patch', 'x')
		self.assertEqual(r['status'], 'fail')
		self.assertEqual(len(r['first_error']), record.ERROR_MAX + 3)

	def test_matrix(self):
		m = render.Matrix(self.rec)
		self.assertEqual(m.cell('003-c.patch', 'x').status, 'skip')
		self.assertIsNone(m.cell('000-baseline', 'checkpatch'))
		self.assertEqual(m.count, {'ok': 2, 'fail': 2, 'skip': 1, 'notrun': 0})
		self.assertEqual(m.new, 2)
		doc = json.loads(render.to_json(m, 'now'))
		self.assertIs(doc['steps'][3]['applied'], False)
		self.assertEqual(doc['steps'][0]['targets']['x']['wall'], 10)
		self.assertIn('| 3 | c.patch (**does not apply**) | skip |', render.to_md(m))

	def test_render_writes_three_files(self):
		with contextlib.redirect_stdout(io.StringIO()):
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
				     'unbuilt': 'z.c', 'log': 'L'})
		self.assertEqual(dict(merge.join_sparse({'status': 'fail'}, {'status': 'ok'}))['status'], 'fail')

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
		for cmd in ('results', 'merge-results', 'reach', 'codegen-proof', 'targets'):
			rc, out, _ = self.run_cli(cmd, '--help')
			self.assertEqual(rc, 0, cmd)
			self.assertIn('usage:', out)

	def test_unknown_option(self):
		for cmd in ('results', 'merge-results', 'reach', 'codegen-proof', 'targets'):
			self.assertEqual(self.run_cli(cmd, '--bogus', 'x')[0], common.Exit.USAGE, cmd)

	def test_no_abbreviations(self):
		self.assertEqual(self.run_cli('reach', '--fil', 'x', 'B')[0], common.Exit.USAGE)

	def test_error_exit(self):
		rc, _, err = self.run_cli('results', '/nonexistent/record')
		self.assertEqual(rc, common.Exit.FAILURE)
		self.assertIn('error: no record folder', err)


if __name__ == '__main__':
	unittest.main()
