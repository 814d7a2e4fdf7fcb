# SPDX-License-Identifier: GPL-2.0
"""The range-diff of a rebase: the series as it was on the old baseline
against the series as the rebase left it on the new one, as `git
range-diff` prints it, and for each patch whether its change itself
(the lines it adds and removes) differs or only its context moved.

The patches are applied as commits in a scratch git repository that
holds only the files the two series touch, each side on its own
baseline's copy of them: the same commits a git tree of the baseline
would give, without committing a kernel tree."""

import os
import re
import shutil
import subprocess
import tempfile

from seriesci import common

_FILE_RE = re.compile(r'^(?:---|\+\+\+) (?:a|b)/(\S+)')
_SUBJ_RE = re.compile(r'^Subject: *(?:\[[^]]*\] *)?(.*)')
# "1:  0123abc ! 1:  4567def subject" (a pair), "-:  ------- > 2:  ..." (new)
_PAIR_RE = re.compile(r'^\s*(\d+|-):\s+(\S+)\s+([=!<>])\s+(\d+|-):\s+(\S+)\s+(.*)$')


def _read(path):
	with open(path, encoding='utf-8', errors='surrogateescape') as f:
		return f.read()


def touched(patch_text):
	"""The files a patch names in its --- and +++ lines."""
	return {m.group(1) for m in map(_FILE_RE.match, patch_text.splitlines()) if m}


def subject(patch_text, name):
	for l in patch_text.splitlines():
		m = _SUBJ_RE.match(l)
		if m:
			return m.group(1).strip() or name
		if not l.strip():
			break
	return name


def change_lines(patch_text):
	"""The change itself: the sorted added and removed lines of a diff,
	without its context, hunk headers and file headers."""
	out = []
	diff = False
	for l in patch_text.splitlines():
		if l.startswith('--- ') or l.startswith('+++ '):
			diff = True
			continue
		if diff and l[:1] in '+-' and not l.startswith('-- '):
			out.append(l)
	return sorted(out)


def _git(repo, *args, **kw):
	env = dict(os.environ, GIT_AUTHOR_NAME='range-diff', GIT_AUTHOR_EMAIL='range-diff@example.org',
		   GIT_COMMITTER_NAME='range-diff', GIT_COMMITTER_EMAIL='range-diff@example.org',
		   GIT_AUTHOR_DATE='2000-01-01T00:00:00Z', GIT_COMMITTER_DATE='2000-01-01T00:00:00Z')
	r = subprocess.run(['git', '-C', repo] + list(args), env=env, capture_output=True, text=True,
			   errors='surrogateescape', **kw)
	if r.returncode:
		raise common.Error(f'git {" ".join(args[:2])} in {repo}: {r.stderr.strip() or r.stdout.strip()}')
	return r.stdout


def _side(repo, name, src, files, patches):
	"""Branch NAME: the baseline SRC's copy of FILES, then a commit per
	(patch name, text); returns the baseline commit's branch name."""
	_git(repo, 'checkout', '-q', '--orphan', name)
	_git(repo, 'rm', '-rq', '--cached', '--ignore-unmatch', '.')
	for e in os.listdir(repo):
		if e != '.git':
			p = os.path.join(repo, e)
			shutil.rmtree(p) if os.path.isdir(p) and not os.path.islink(p) else os.remove(p)
	for f in sorted(files):
		s = os.path.join(src, f)
		if os.path.isfile(s):
			d = os.path.join(repo, f)
			os.makedirs(os.path.dirname(d), exist_ok=True)
			shutil.copy2(s, d)
	_git(repo, 'add', '-A', '.')
	_git(repo, 'commit', '-q', '--allow-empty', '-m', f'{name} baseline')
	_git(repo, 'branch', f'{name}-base')
	for pname, text in patches:
		pf = os.path.join(repo, '.git', 'p.patch')
		with open(pf, 'w', encoding='utf-8', errors='surrogateescape') as f:
			f.write(text)
		_git(repo, 'apply', '--index', '--whitespace=nowarn', pf)
		_git(repo, 'commit', '-q', '--allow-empty', '-m', subject(text, pname))
	return f'{name}-base'


def range_diff(old_src, old_dir, old_series, new_src, new_dir, new_series):
	"""(text, rows): git range-diff's output, and per line of it a dict
	old, new (patch names or None), mark (= ! < >), subject and review:
	True when the change itself differs (or the patch is new or gone),
	False when it is the same or only its context moved."""
	old = [(p, _read(os.path.join(old_dir, p))) for p in old_series]
	new = [(p, _read(os.path.join(new_dir, p))) for p in new_series]
	files = set()
	for _, t in old + new:
		files |= touched(t)
	tmp = tempfile.mkdtemp(prefix='range-diff.')
	try:
		_git(tmp, 'init', '-q')
		ob = _side(tmp, 'old', old_src, files, old)
		nb = _side(tmp, 'new', new_src, files, new)
		text = _git(tmp, 'range-diff', '--no-color', f'{ob}..old', f'{nb}..new')
	finally:
		shutil.rmtree(tmp, ignore_errors=True)
	rows = []
	for l in text.splitlines():
		m = _PAIR_RE.match(l)
		if not m:
			continue
		o = old[int(m.group(1)) - 1] if m.group(1) != '-' else None
		n = new[int(m.group(4)) - 1] if m.group(4) != '-' else None
		mark = m.group(3)
		if mark == '=':
			review = False
		elif mark == '!':
			review = change_lines(o[1]) != change_lines(n[1])
		else:
			review = True
		rows.append({'old': o and o[0], 'new': n and n[0], 'mark': mark, 'subject': m.group(6),
			     'review': review})
	return text, rows


def markdown(text, rows):
	"""The report's section: a line per patch, then git's output."""
	o = ['## Range-diff\n', '\n',
	     'The series on the old baseline against the series on the new one '
	     '(`git range-diff`, from scratch commits of the files the series touch). '
	     '"review": the lines the patch adds or removes changed; "context": only '
	     'what is around them moved; "same": identical.\n', '\n']
	for r in rows:
		if r['mark'] == '=':
			what = 'same'
		elif r['mark'] == '!':
			what = '**review**' if r['review'] else 'context'
		elif r['mark'] == '<':
			what = '**review**: gone from the new series'
		else:
			what = '**review**: new in the new series'
		o.append(f'- {r["new"] or r["old"]}: {what}\n')
	o += ['\n', '```\n', text if text.endswith('\n') or not text else text + '\n', '```\n']
	return ''.join(o)
