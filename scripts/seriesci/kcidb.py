# SPDX-License-Identifier: GPL-2.0
"""kcidb: a whole ci-series run as KernelCI KCIDB I/O data, schema v5.0.

	checkouts  one per step that ran: the baseline plus the patches up to
	           that step (patchset_files, patchset_hash); valid: whether
	           the patch applied; checkpatch's result in misc
	builds     one per target cell with a readable result (not the cells
	           not run): status, duration, compiler, architecture, the
	           log and its first error line
	tests      boot (under the step's example build) and sparse (under
	           the build of the first target it checked in)

KCIDB allows no null: what a record does not say is left out.  The field
mapping is in Documentation/results.md.
"""
import hashlib
import json
import os
import re
import sys
import urllib.parse

from seriesci import common
from seriesci import metadata
from seriesci import record
from seriesci import render

VERSION = {'major': 5, 'minor': 0}
ORIGIN_RE = re.compile(r'^[a-z0-9_]+$')
LOG_EXCERPT_MAX = 16384


def build_status(cell, malformed=False):
	"""KCIDB's status of a cell: PASS, FAIL, SKIP; ERROR when the build
	could not judge the code (a toolchain missing, an unreadable result)."""
	if malformed:
		return 'ERROR'
	if cell.status == 'fail':
		return 'ERROR' if cell.stage == 'toolchain' else 'FAIL'
	return {'ok': 'PASS', 'skip': 'SKIP'}.get(cell.status, 'ERROR')


def patchset_hash(paths):
	"""KCIDB's patchset hash: sha256 of the newline-terminated sha256 hex
	digests of the patch files, in order; '' for no patch."""
	if not paths:
		return ''
	h = hashlib.sha256()
	for p in paths:
		with open(p, 'rb') as f:
			h.update((hashlib.sha256(f.read()).hexdigest() + '\n').encode())
	return h.hexdigest()


def file_url(base, rel):
	"""The URL of rel under base (a URL, or a folder: file://)."""
	if '://' not in base:
		base = 'file://' + urllib.parse.quote(os.path.abspath(base))
	return base.rstrip('/') + '/' + urllib.parse.quote(rel)


def _put(o, k, v):
	if v is not None and v != '':
		o[k] = v


def export(m, origin, url_base, patches_dir, patches_url=None):
	"""The KCIDB object of a matrix (render.Matrix)."""
	if not ORIGIN_RE.match(origin):
		raise common.Error(f"origin '{origin}': KCIDB wants lower-case letters, digits and _")
	rec = m.rec
	bcs = metadata.configs_of()
	patches_url = patches_url or patches_dir
	checkouts, builds, tests = [], [], []
	missing = [p for p in m.patches if not os.path.isfile(os.path.join(patches_dir, p))]
	if missing:
		common.warn(f'{len(missing)} patches not in {patches_dir} ({missing[0]}...): '
			    'their steps have no patchset_hash')
	for i, s in enumerate(m.steps):
		if not rec.ran(s):
			continue
		applied = m.patches[:i]
		ch = {'origin': origin, 'tree_name': 'mainline'}
		files = [{'name': p, 'url': file_url(patches_url, p)} for p in applied]
		known = all(p not in missing for p in applied)
		if known:
			ph = patchset_hash([os.path.join(patches_dir, p) for p in applied])
			ch['id'] = f'{origin}:{m.base}+{ph[:16] or "none"}'
			ch['patchset_hash'] = ph
		else:
			ch['id'] = f'{origin}:{m.base}+{s}'
		ch['patchset_files'] = files
		ch['comment'] = f'{m.base} + {i} patch{"" if i == 1 else "es"}' + (f' (up to {applied[-1]})' if applied else '')
		ch['valid'] = not rec.push_failed(s)
		misc = {'base': m.base, 'step': s}
		cp = m.cell(s, 'checkpatch')
		if cp is not None and cp.result:
			misc['checkpatch'] = {k: v for k, v in (('status', cp.status), ('errors', cp.errors),
								('warnings', cp.warnings), ('first_error', cp.error))
					      if v not in (None, '')}
		ch['misc'] = misc
		checkouts.append(ch)
		bids = {}
		for t in m.targets:
			c = m.cell(s, t)
			if c is None or not c.result:
				continue
			bc = bcs.get(t)
			b = {'id': f'{ch["id"]}:{t}', 'origin': origin, 'checkout_id': ch['id']}
			bids[t] = b['id']
			if bc is not None:
				b['architecture'] = bc.arch
				b['config_name'] = '+'.join(['tinyconfig'] + [os.path.basename(f) for f in bc.fragments])
			_put(b, 'compiler', c.compiler)
			_put(b, 'duration', c.wall)
			if c.log:
				b['log_url'] = file_url(url_base, c.log)
			_put(b, 'log_excerpt', c.error[:LOG_EXCERPT_MAX])
			b['status'] = build_status(c, (s, t) in rec.malformed)
			bm = {'target': t}
			for k, v in (('stage', c.stage), ('warnings', c.warnings), ('new_warnings', c.new_warnings),
				     ('undecided_warnings', c.undecided_warnings),
				     ('codegen', c.codegen), ('binutils', c.binutils), ('failure', c.failure)):
				_put(bm, k, v)
			if (s, t) in rec.malformed:
				bm['malformed'] = rec.malformed[s, t]
			b['misc'] = bm
			builds.append(b)
		for name, owner in (('boot', 'example'), ('sparse', None)):
			c = m.cell(s, name)
			if c is None or not c.result:
				continue
			if owner is None:
				owner = next((f.split(':', 1)[0] for f in c.files.split() if ':' in f), '')
			if owner not in bids:
				misc[name] = {'status': c.status, 'first_error': c.error} if c.error else {'status': c.status}
				continue
			tt = {'id': f'{bids[owner]}:{name}', 'origin': origin, 'build_id': bids[owner], 'path': name,
			      'status': build_status(c, (s, name) in rec.malformed)}
			_put(tt, 'duration', c.wall)
			if c.log:
				tt['log_url'] = file_url(url_base, c.log)
			_put(tt, 'log_excerpt', c.error[:LOG_EXCERPT_MAX])
			tm = {}
			_put(tm, 'warnings', c.warnings)
			_put(tm, 'files', c.files)
			if tm:
				tt['misc'] = tm
			tests.append(tt)
	return {'version': dict(VERSION), 'checkouts': checkouts, 'builds': builds, 'tests': tests}


def run(args):
	rec = record.Record(args.dir or render.default_dir())
	m = render.Matrix(rec)
	patches = os.path.abspath(args.patches or os.environ.get('QUILT_PATCHES') or
				  os.path.join(common.repo(), 'patches'))
	doc = export(m, args.origin, args.url or rec.dir, patches, args.patches_url)
	text = json.dumps(doc, indent=2, ensure_ascii=False) + '\n'
	outp = args.output or rec.path('kcidb.json')
	if outp == '-':
		print(text, end='')
	else:
		tmp = f'{outp}.new.{os.getpid()}'
		with open(tmp, 'w', encoding='utf-8', errors='surrogateescape') as f:
			f.write(text)
		os.replace(tmp, outp)
		common.step('KCIDB', f'{outp}: {len(doc["checkouts"])} checkouts, {len(doc["builds"])} builds, '
			    f'{len(doc["tests"])} tests')
	bad = rec.malformed_files()
	for f, why in bad:
		print(f'{common.prog()}: error: {f}: {why} (exported as status ERROR)', file=sys.stderr)
	return common.Exit.FAILURE if bad else common.Exit.OK
