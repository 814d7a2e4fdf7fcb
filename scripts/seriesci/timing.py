# SPDX-License-Identifier: GPL-2.0
"""check-times: where make check's time went, from prove's own output.

make check runs prove -v --timer over tests/; prove prints, per test file,
a line naming it ("[HH:MM:SS] tests/x.t ....") and, once the file has
passed, a line with its elapsed time ("ok  1307269 ms ( ... CPU)"), and at
the end "Files=49, Tests=1111, 2140 wallclock secs".  A file that failed
or was skipped has no time line.  This reads such a log and prints the
total and the slowest files, so that a CI log, whose middle is often cut,
says in its last lines what took the time.  It prints figures; it judges
none (a time limit is not a test).
"""
import re

from seriesci import common

_HEAD = re.compile(r'^(?:\[\d\d:\d\d:\d\d\] )?(\S+\.t) \.*(?: |$)')
_TIME = re.compile(r'^(?:ok|skipped\b.*?)\s+(\d+) ms\b')
_TOTAL = re.compile(r'^Files=(\d+), Tests=(\d+), +(\d+) wallclock secs')


def parse(text):
	"""(files, total): files is [(name, seconds or None)] in run order;
	total is (files, tests, wallclock seconds) or None."""
	files = []
	total = None
	for line in text.splitlines():
		m = _HEAD.match(line)
		if m:
			files.append([m.group(1), None])
			continue
		m = _TIME.match(line)
		if m and files and files[-1][1] is None:
			files[-1][1] = int(m.group(1)) / 1000
			continue
		m = _TOTAL.match(line)
		if m:
			total = tuple(int(x) for x in m.groups())
	return [tuple(f) for f in files], total


def table(files, total, top=10):
	"""The lines check-times prints."""
	if not files:
		raise common.Error('no test file in the log (not the output of prove -v --timer?)')
	timed = [f for f in files if f[1] is not None]
	wall = total[2] if total else round(sum(s for _, s in timed))
	out = [f'check-times: {len(files)} test files, {wall} s of wall time'
	       + (' (prove)' if total else ' (the sum of the files: no Files= line)')
	       + f'; the {min(top, len(timed))} slowest:']
	for name, s in sorted(timed, key=lambda f: -f[1])[:top]:
		share = f'{100 * s / wall:5.1f} %' if wall else '    - '
		out.append(f'  {s:8.1f} s  {share}  {name}')
	untimed = [n for n, s in files if s is None]
	if untimed:
		out.append(f'  no time (failed or skipped): {" ".join(untimed)}')
	return out


def run(args):
	with open(args.log, encoding='utf-8', errors='replace') as f:
		files, total = parse(f.read())
	for line in table(files, total, args.top):
		print(line)
	return common.Exit.OK


def add_parser(sub):
	p = sub.add_parser(
		allow_abbrev=False, name='check-times',
		help="the total and the slowest test files of a make check log",
		description="Read the output of prove -v --timer (make check's, kept in "
		"$OUT/check/check.log by scripts/check) and print prove's wall time and the "
		"slowest test files with their share of it; files without a time (failed or "
		"skipped) are named.  Figures only: it judges none.",
		epilog='Exit codes: 0 printed, 1 a log with no test file in it, 2 usage.')
	p.add_argument('--top', type=common.whole, default=10, metavar='N', help='how many files to list (default 10)')
	p.add_argument('log', metavar='LOG', help='the output of prove -v --timer')
	p.set_defaults(func=run)
