# SPDX-License-Identifier: GPL-2.0
"""What every module needs: named exit codes, the error type, messages."""
import argparse
import enum
import os
import sys


class Exit(enum.IntEnum):
	"""The exit codes of every subcommand."""
	OK = 0          # done; for reach: reached (build it)
	FAILURE = 1     # an error: bad input, a conflict; nothing written
	USAGE = 2       # bad options or arguments (argparse's own code)
	UNREACHED = 3   # reach only: provably unreached, nothing to build
	REGRESSION = 4  # report only: a patch brought a failure (a first bad commit)
	UNDECIDED = 5   # report only: no failure, but a cell not built or unreadable


class Error(Exception):
	"""A clear error for the user; the command exits Exit.FAILURE."""


class Usage(Exception):
	"""Arguments argparse cannot judge alone; the command exits Exit.USAGE."""


def awk_lines(text):
	"""The lines of TEXT as awk reads them: split at newlines, a last
	line without one still a line, no empty line after a final newline."""
	if not text:
		return []
	lines = text.split('\n')
	if lines[-1] == '':
		lines.pop()
	return lines


def prog():
	"""The name messages start with: the old command's name."""
	return os.environ.get('SERIESCI_PROG') or 'seriesci'


def warn(msg):
	print(f'{prog()}: warning: {msg}', file=sys.stderr)


def step(what, text):
	"""One short line per step, as Kbuild prints them: '  MERGE   ...'."""
	print(f'  {what:<7} {text}')


def env_path(name, default):
	"""An absolute path from the environment, or default."""
	v = os.environ.get(name) or default
	return os.path.abspath(v)


def repo():
	"""The repository top: scripts/seriesci/../.."""
	return os.path.dirname(os.path.dirname(os.path.dirname(
		os.path.abspath(__file__))))


def out_dir():
	return env_path('OUT', os.path.join(repo(), 'out'))


def whole(s):
	"""A whole number option value: digits only."""
	if not s or not s.isdigit() or not s.isascii():
		raise argparse.ArgumentTypeError(f'not a whole number: {s!r}')
	return int(s)
