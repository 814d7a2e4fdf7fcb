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

from seriesci import cli, common, kcidb, merge, metadata, proof, reach, record, render, report, repro, targets  # noqa: E402


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


CMDS = ('results', 'merge-results', 'reach', 'codegen-proof', 'targets', 'report', 'kcidb')


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


if __name__ == '__main__':
	unittest.main()
