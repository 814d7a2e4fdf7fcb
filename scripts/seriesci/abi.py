# SPDX-License-Identifier: GPL-2.0
"""abi-report: how every architecture of a kernel tree deviates from the
canonical ABI of the series (scripts/canonical-abi.txt in the tree, see
Documentation/canonical-abi.md).

One row per user ABI of an architecture, compared by syscall name and
number with the canonical set of its word size:
  extra     live syscalls it exposes that the canonical ABI has not:
            legacy tags, the old calls of its own table, and syscalls of
            its own tag outside the reserved numbers
  lacking   canonical syscalls it has not (clone3 too when the arch
            defines the forbidden __ARCH_BROKEN_SYS_CLONE3)
  renumb    canonical syscalls it has under another number
  uapi      its own copies of uapi headers that must be the generic ones
  total     the sum: 0 means canonical
and beside them, by the rules of the definition (the compiled check of the
series, scripts/canonical-abi.c, judges those it can see), one count per
deviation of each kind:
  copy      private copies: uapi headers that must be generic and do not
            include the asm-generic one (the check fails them)
  override  wrappers: such headers that include the asm-generic one and
            define macros over it, listed with the macros (the check
            passes them)
  private   1 when the ABI is numbered by a table of its own
            (renumbered syscalls, or a table other than the definition's)
  rules     the rules of the definition's "rule" key the report counts,
            broken: minsigstksz, audit-arch, clone-args, ptrace-regsets
  dev       extra + lacking + private + copy + override + rules: every
            deviation once, a legacy syscall each; 0 means canonical
Syscalls the tables list with no entry (sys_ni_syscall) count nowhere;
the optional memfd_secret and, for scripts/syscall.tbl users, the
arch-specific calls in the reserved numbers (column "own") count nowhere
either.

Architectures numbered by scripts/syscall.tbl (those whose uapi Kbuild
has syscall-y unistd_32.h/unistd_64.h) get their table and tags from
Kbuild itself: the tree's scripts/Makefile.asm-headers is read by make
(nothing is built) with a goal that prints syscall_abis_32/64 and
syscalltbl.  Architectures with a table of their own are listed in OWN
with the tags their Makefiles give scripts/syscallhdr.sh.  Either way the
tree's scripts/syscallhdr.sh and scripts/syscalltbl.sh compute the
effective table: the names and numbers of the uapi unistd header and the
entry points of the syscall table.

The stages, each a function the unit tests call on small inputs:
definition (the key/value file, or the one a patch of the series adds),
effective (the two scripts' outputs into "nr name live"), the rule
checks of an architecture (rule_lines), the uapi wrapper rule
(uapi_kind, wrapper_macros), one row's counts (count_row), and the
renderers (tsv, markdown, html).  Sorting is by byte order (the shell
version sorted by the caller's locale; C.UTF-8 gives the same).
"""
import argparse
import concurrent.futures
import fnmatch
import os
import re
import shutil
import subprocess
import sys
import tempfile

from seriesci import common, series as series_mod

# Architectures with a syscall table of their own: row, word size, table,
# the tags their Makefile gives syscallhdr.sh ("-": every line), arch.
OWN = (
	('alpha', '64', 'arch/alpha/kernel/syscalls/syscall.tbl', '-', 'alpha'),
	('arm', '32', 'arch/arm/tools/syscall.tbl', 'common,eabi', 'arm'),
	('m68k', '32', 'arch/m68k/kernel/syscalls/syscall.tbl', '-', 'm68k'),
	('microblaze', '32', 'arch/microblaze/kernel/syscalls/syscall.tbl', '-', 'microblaze'),
	('mips/o32', '32', 'arch/mips/kernel/syscalls/syscall_o32.tbl', '-', 'mips'),
	('mips/n32', '32', 'arch/mips/kernel/syscalls/syscall_n32.tbl', '-', 'mips'),
	('mips/n64', '64', 'arch/mips/kernel/syscalls/syscall_n64.tbl', '-', 'mips'),
	('parisc/32', '32', 'arch/parisc/kernel/syscalls/syscall.tbl', 'common,32', 'parisc'),
	('parisc/64', '64', 'arch/parisc/kernel/syscalls/syscall.tbl', 'common,64', 'parisc'),
	('powerpc/32', '32', 'arch/powerpc/kernel/syscalls/syscall.tbl', 'common,nospu,32', 'powerpc'),
	('powerpc/64', '64', 'arch/powerpc/kernel/syscalls/syscall.tbl', 'common,nospu,64', 'powerpc'),
	('s390', '64', 'arch/s390/kernel/syscalls/syscall.tbl', 'common,64', 's390'),
	('sh', '32', 'arch/sh/kernel/syscalls/syscall.tbl', '-', 'sh'),
	('sparc/32', '32', 'arch/sparc/kernel/syscalls/syscall.tbl', 'common,32', 'sparc'),
	('sparc/64', '64', 'arch/sparc/kernel/syscalls/syscall.tbl', 'common,64', 'sparc'),
	('x86/i386', '32', 'arch/x86/entry/syscalls/syscall_32.tbl', 'i386', 'x86'),
	('x86/64', '64', 'arch/x86/entry/syscalls/syscall_64.tbl', 'common,64', 'x86'),
	('xtensa', '32', 'arch/xtensa/kernel/syscalls/syscall.tbl', '-', 'xtensa'),
)

# The variables Kbuild computes for an architecture's uapi asm headers.
PRINT_MK = '''abi-report-vars:
	@echo "table=$(syscalltbl)"
	@echo "abis32=$(strip $(syscall_abis_32))"
	@echo "abis64=$(strip $(syscall_abis_64))"
	@echo "syscall=$(notdir $(syscall-y))"
'''

HEADER = ('abi', 'table', 'tags', 'kind', 'syscalls', 'extra', 'lacking', 'renumb', 'uapi',
	  'own', 'optional', 'total', 'copy', 'override', 'private', 'rules', 'dev')
# the columns of HEADER, by name
COL = {h: i for i, h in enumerate(HEADER)}
# the kinds of the names of a row, in the order the report keeps them
NAME_KINDS = ('extra', 'lacking', 'renumbered', 'uapi', 'own', 'copy', 'override', 'private', 'rules')
# the rules of the definition this report (and the build check) can see
SEEN_RULES = ('minsigstksz', 'audit-arch', 'clone-args', 'ptrace-regsets')

_BLANKS = re.compile(r'[ \t\n]+')
_SPACE = '[ \t\n\r\f\v]'       # [[:space:]] within a line
_SPACE_NL = '[ \t\r\f\v]'      # the same where grep reads a line


def fields(line):
	"""awk's default field splitting: runs of blanks, none at the ends."""
	line = line.strip(' \t\n')
	return _BLANKS.split(line) if line else []


def words(s):
	"""split(s, x, " ") of awk: the blank-separated words of s."""
	return fields(s)


def read_text(path):
	with open(path, encoding='utf-8', errors='surrogateescape') as f:
		return f.read()


lines_of = common.awk_lines


# --- the definition ---------------------------------------------------

class Definition:
	"""scripts/canonical-abi.txt: 'key value...' lines, '#' comments."""
	def __init__(self, text, name=''):
		self.name = name
		self.lines = [fields(l) for l in lines_of(text) if not l.startswith('#')]

	def val(self, key):
		"""Every value of every line of key, in order (awk's val)."""
		out = []
		for f in self.lines:
			if f and f[0] == key:
				out.extend(f[1:])
		return out


def definition_from_patch(text, path='scripts/canonical-abi.txt'):
	"""The text of the file a patch creates (--- /dev/null, +++ b/PATH),
	or '' when it creates no such file."""
	out = []
	new = on = False
	for l in lines_of(text):
		if l.startswith('--- '):
			f = fields(l)
			new = len(f) > 1 and f[1] == '/dev/null'
		if l.startswith('+++ '):
			f = fields(l)
			on = new and len(f) > 1 and f[1] == 'b/' + path
			continue
		if on and l.startswith('@@'):
			continue
		if on and l.startswith('+'):
			out.append(l[1:] + '\n')
			continue
		if on:
			break
	return ''.join(out)


def find_definition(k, given, patches_dir, series_file, tree):
	"""The definition: given, the tree's, the new file a patch of the
	series creates (for the baseline, which has none), or $TREE's."""
	if given:
		if not os.path.isfile(given):
			raise common.Error(f'--def {given}: no such file')
		return Definition(read_text(given), given)
	own = os.path.join(k, 'scripts/canonical-abi.txt')
	if os.path.isfile(own):
		return Definition(read_text(own), own)
	for p in series_mod.patches(series_file):
		f = os.path.join(patches_dir, p)
		if not os.path.isfile(f):
			continue
		text = definition_from_patch(read_text(f))
		if text:
			return Definition(text, f'{f} (the file it adds)')
	if tree:
		f = os.path.join(tree, 'scripts/canonical-abi.txt')
		if os.path.isfile(f):
			return Definition(read_text(f), f)
	raise common.Error(f'no canonical ABI definition: {k} has no scripts/canonical-abi.txt '
			   'and no patch of the series adds one (--def FILE)')


# --- the tables ---------------------------------------------------------

def effective_parse(tbl_text, hdr_text):
	"""'nr name live' of a table, from the outputs of the tree's
	syscalltbl.sh (entries: sys_ni_syscall, none or '-' is not live) and
	syscallhdr.sh (names and numbers).  A list of (nr, name, live)."""
	live = {}
	for l in lines_of(tbl_text):
		s = l
		i = s.find('(')
		if i >= 0:
			s = s[i + 1:]
		i = s.find(')')
		if i >= 0:
			s = s[:i]
		f = re.split(', *', s)
		e = f[1] if len(f) > 1 else ''
		live[f[0]] = not (e in ('', 'sys_ni_syscall', '-'))
	out = []
	if not lines_of(tbl_text):
		# awk took the header for the table (FNR == NR): nothing
		return out
	for l in lines_of(hdr_text):
		if not l.startswith('#define __NR_'):
			continue
		f = fields(l)
		if len(f) < 3 or not re.fullmatch('[0-9]+', f[2]):
			continue
		out.append((f[2], f[1][5:], live.get(f[2], False)))
	return out


def effective(k, table, tags, work):
	"""Run the tree's syscallhdr.sh and syscalltbl.sh on TABLE for TAGS
	('-': every line) and parse what they write."""
	opt = [] if tags == '-' else ('--abis ' + tags).split()
	hdr, tbl = os.path.join(work, 'hdr'), os.path.join(work, 'tbl')
	for script, out in (('syscallhdr.sh', hdr), ('syscalltbl.sh', tbl)):
		s = os.path.join(k, 'scripts', script)
		if subprocess.run(['sh', s] + opt + [table, out]).returncode != 0:
			raise common.Error(f'{s} failed on {table}')
	return effective_parse(read_text(tbl), read_text(hdr))


def tagof(text):
	"""(nr, name, tag) of every line of a syscall table."""
	out = []
	for l in lines_of(text):
		if l.startswith('#'):
			continue
		f = fields(l)
		if len(f) >= 3:
			out.append((f[0], f[2], f[1]))
	return out


def kvars(k, arch, work):
	"""What Kbuild's scripts/Makefile.asm-headers computes for arch:
	{'table', 'abis32', 'abis64', 'syscall'} (nothing is built)."""
	obj = os.path.join(work, 'obj', arch)
	os.makedirs(obj, exist_ok=True)
	r = subprocess.run(
		['make', '-s', '--no-print-directory', '-f', os.path.join(k, 'scripts/Makefile.asm-headers'),
		 '-f', os.path.join(work, 'print.mk'), 'abi-report-vars', f'srctree={k}', f'SRCARCH={arch}',
		 f'obj=arch/{arch}/include/generated/uapi/asm', 'generic=include/uapi/asm-generic'],
		cwd=obj, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
		encoding='utf-8', errors='surrogateescape')
	v = {}
	for l in lines_of(r.stdout):
		key, eq, val = l.partition('=')
		if eq and key not in v:
			v[key] = val
	return v


# --- the rules an architecture can break ------------------------------

_AUDIT_USE = re.compile(r'(?<![A-Za-z0-9_])AUDIT_ARCH_[A-Z0-9_]*(?![A-Za-z0-9_])')


def parse_audit_h(text):
	"""{AUDIT_ARCH_X: value without blanks or comment} of linux/audit.h."""
	val = {}
	ls = lines_of(text)
	i = 0
	while i < len(ls):
		l = ls[i]
		i += 1
		if not re.match('#define[ \t]+AUDIT_ARCH_', l):
			continue
		while l.endswith('\\') and i < len(ls):
			l = l[:-1] + ls[i]
			i += 1
		l = re.sub('^#define[ \t]+', '', l)
		n = re.sub('[ \t].*', '', l, count=1, flags=re.S)
		v = l[len(n):]
		v = re.sub(r'/\*.*', '', v, count=1, flags=re.S)
		val[n] = re.sub('[ \t]', '', v)
	return val


def audit_uses(k, values):
	"""(arch, AUDIT_ARCH_X, value) for each AUDIT_ARCH_* an arch's
	asm/syscall.h names that linux/audit.h defines, or that the same
	asm/syscall.h defines itself (a port without an EM_ number of its
	own), first use only."""
	out, seen = [], set()
	ad = os.path.join(k, 'arch')
	# the order of the glob arch/*/include/asm/syscall.h
	for a in sorted((a for a in os.listdir(ad) if not a.startswith('.')),
			key=lambda a: (a + '/include/asm/syscall.h').encode('utf-8', 'surrogateescape')):
		f = os.path.join(ad, a, 'include/asm/syscall.h')
		if not os.path.isfile(f):
			continue
		text = read_text(f)
		own = parse_audit_h(text)
		for l in lines_of(text):
			for m in _AUDIT_USE.finditer(l):
				n = m.group(0)
				if (a, n) not in seen and (n in values or n in own):
					out.append((a, n, values[n] if n in values else own[n]))
				seen.add((a, n))
	return out


def audit_rule(arch, uses):
	"""The audit-arch detail of arch ('' when kept): its AUDIT_ARCH_*
	values another arch (um aside) uses too, or none at all."""
	who = {}
	for a, _, v in uses:
		if a != arch and a != 'um':
			who[v] = who[v] + ',' + a if who.get(v) else a
	s, sep, mine = '', '', 0
	for a, n, v in uses:
		if a == arch:
			mine += 1
			if v in who:
				s += f"{sep}{n} also {who[v]}'s"
				sep = '; '
	return s if mine else 'no AUDIT_ARCH_* in asm/syscall.h'


_MINSIG = re.compile(('NEW_AUX_ENT\\(' + _SPACE_NL + '*AT_MINSIGSTKSZ').encode())
_PTRACE = re.compile(('case' + _SPACE_NL + '+(COMPAT_)?PTRACE_'
		      '(PEEKUSR|POKEUSR|GETREGS|SETREGS|GETFPREGS|SETFPREGS)\\b').encode())
_CLONE = re.compile('^' + _SPACE_NL + '*select' + _SPACE_NL + '+CLONE_BACKWARDS[0-9]*')


def _walk_files(d):
	"""Every regular file under d, as grep -r finds them (no symlinks)."""
	for root, dirs, files in os.walk(d):
		dirs.sort()
		for f in sorted(files):
			p = os.path.join(root, f)
			if not os.path.islink(p) and os.path.isfile(p):
				yield f, p


def rule_lines(k, arch, rules, uses):
	"""(rule, detail) of each rule of SEEN_RULES in rules that arch
	breaks, in that order."""
	d = os.path.join(k, 'arch', arch)
	out = []
	want_min, want_pt = 'minsigstksz' in rules, 'ptrace-regsets' in rules
	has_min, pt = False, []
	if want_min or want_pt:
		for name, p in _walk_files(d):
			ch = fnmatch.fnmatchcase(name, '*.[ch]')
			c = fnmatch.fnmatchcase(name, '*.c')
			if not ((want_min and ch and not has_min) or (want_pt and c)):
				continue
			try:
				with open(p, 'rb') as f:
					b = f.read()
			except OSError:
				continue
			if want_min and ch and not has_min and _MINSIG.search(b):
				has_min = True
			if want_pt and c and _PTRACE.search(b):
				pt.append(os.path.relpath(p, k))
	if want_min and not has_min:
		out.append(('minsigstksz', 'no AT_MINSIGSTKSZ in its aux vector'))
	if 'audit-arch' in rules:
		s = audit_rule(arch, uses)
		if s:
			out.append(('audit-arch', s))
	if 'clone-args' in rules:
		kc = os.path.join(d, 'Kconfig')
		if os.path.isfile(kc):
			for l in lines_of(read_text(kc)):
				m = _CLONE.match(l)
				if m:
					out.append(('clone-args', 'selects ' + m.group(0).split()[1]))
					break
	if want_pt and pt:
		out.append(('ptrace-regsets', 'PEEKUSR/GETREGS-style requests in ' +
			    ' '.join(sorted(pt, key=lambda s: s.encode('utf-8', 'surrogateescape')))))
	return out


def rule_text(rule, detail):
	"""A rule line as the report shows it: 'rule: detail', blanks single."""
	return rule + ': ' + ' '.join(fields(detail))


# --- the uapi headers ---------------------------------------------------

def uapi_kind(text, h):
	"""'override' when a must-be-generic uapi header h includes the
	asm-generic one (a wrapper: the check passes it), else 'copy'."""
	pat = re.compile('^' + _SPACE_NL + '*#' + _SPACE_NL + '*include' + _SPACE_NL + '*<asm-generic/' + h + '>')
	return 'override' if any(pat.search(l) for l in lines_of(text)) else 'copy'


def wrapper_macros(text):
	"""The macros a wrapper defines, in order, its include guard aside
	(a name tested by #ifndef and defined with no value)."""
	guard, seen, out = set(), set(), []
	for l in lines_of(text):
		m = re.match('[ \t]*#[ \t]*ifndef[ \t]+', l)
		if m:
			f = fields(l[m.end():])
			guard.add(f[0] if f else '')
			continue
		m = re.match('[ \t]*#[ \t]*define[ \t]+', l)
		if m:
			f = fields(l[m.end():])
			n = f[0] if f else ''
			n = n.split('(', 1)[0]
			if len(f) == 1 and n in guard:
				continue
			if n not in seen:
				seen.add(n)
				out.append(n)
	return out


def uapi_of(k, arch, uapigen):
	"""own: the must-be-generic uapi headers arch has; copies: those of
	them that are private copies; overrides: 'h(MACRO,...)' of the
	wrappers ('h(none)' when one defines nothing)."""
	own, copies, overrides = [], [], []
	for h in uapigen:
		f = os.path.join(k, 'arch', arch, 'include/uapi/asm', h)
		if not os.path.exists(f):
			continue
		own.append(h)
		text = read_text(f)
		if uapi_kind(text, h) == 'override':
			overrides.append(f"{h}({','.join(wrapper_macros(text)) or 'none'})")
		else:
			copies.append(h)
	return own, copies, overrides


def broken_macro(k, arch, macros):
	"""The first forbidden macro arch's (uapi) asm/unistd.h names."""
	for m in macros:
		pat = re.compile('(?<![A-Za-z0-9_])' + re.escape(m) + '(?![A-Za-z0-9_])')
		for f in ('include/asm/unistd.h', 'include/uapi/asm/unistd.h'):
			p = os.path.join(k, 'arch', arch, f)
			if os.path.isfile(p) and pat.search(read_text(p)):
				return m
	return ''


# --- one row ------------------------------------------------------------

def _num(s):
	"""awk's value of a number field."""
	m = re.match('[ \t\n]*[-+]?([0-9]+\\.?[0-9]*|\\.[0-9]+)', s)
	return float(m.group(0)) if m else 0.0


def count_row(row, tbl, tags, kind, canon, optional, table_tags, eff, known, reserved,
	      uapi, copies, overrides, private, rules, broken):
	"""The figures and the names of one ABI.

	canon: (nr, name, live) of the canonical table for its word size;
	optional: names that count nowhere; table_tags: tagof() of its table;
	eff: (nr, name, live) of its effective table; known: the canonical and
	legacy tags; reserved: 'LO-HI' of the numbers arch tags may use;
	uapi, copies, overrides: of uapi_of(); private: 1 when its table is
	not the definition's; rules: rule_text() lines it breaks; broken: the
	forbidden macro it defines, or ''.  Returns (the 17 fields of
	HEADER as strings, {kind of NAME_KINDS: the names, space-separated,
	unsorted})."""
	cn = {}
	for nr, name, lv in canon:
		if lv:
			cn[name] = nr
	opt = set(optional)
	tag = {}
	for nr, name, t in table_tags:
		tag.setdefault((nr, name), t)
	live, exposed = {}, 0
	for nr, name, lv in eff:
		if lv:
			live[name] = nr
			exposed += 1
	r = (reserved.split('-') + ['', ''])[:2]
	lo, hi = _num(r[0]), _num(r[1])
	std = set(words(known))
	extl, lackl, renl, ownl, optl = [], [], [], [], []
	for n, nr in live.items():
		if n in opt:
			optl.append(n)
			continue
		if n in cn:
			if _num(nr) != _num(cn[n]):
				renl.append(f'{n}({nr}/{cn[n]})')
			continue
		t = tag.get((nr, n), '')
		if kind == 'generic' and t not in std and lo <= _num(nr) <= hi:
			ownl.append(n)
			continue
		extl.append(n + (f'[{t}]' if kind == 'generic' else ''))
	for n in cn:
		if n not in live:
			lackl.append(n)
	if broken and 'clone3' in live:
		lackl.append(f'clone3({broken})')
	extra, lack, renum, own = len(extl), len(lackl), len(renl), len(ownl)
	nu, nc, no, nrules = len(uapi), len(copies), len(overrides), len(rules)
	total = extra + lack + renum + nu
	if renum:
		private = 1
	dev = extra + lack + private + nc + no + nrules
	figs = [row, tbl, tags, kind] + [str(x) for x in (
		exposed, extra, lack, renum, nu, own, len(optl), total, nc, no, private, nrules, dev)]
	names = {
		'extra': ' '.join(extl), 'lacking': ' '.join(lackl), 'renumbered': ' '.join(renl),
		'uapi': ' '.join(uapi), 'own': ' '.join(ownl), 'copy': ' '.join(copies),
		'override': ' '.join(overrides), 'private': tbl if private else '',
		'rules': '|'.join(rules),
	}
	return figs, names


def sort_names(names):
	"""The lists sorted by name (byte order); the private table and the
	rules (sentences) kept as they are."""
	out = {}
	for kind, s in names.items():
		if kind in ('rules', 'private'):
			out[kind] = s
		else:
			out[kind] = ' '.join(sorted(words(s), key=lambda w: w.encode('utf-8', 'surrogateescape')))
	return out


# --- the rows of a tree ---------------------------------------------------

def _shell_read(line, n):
	"""sh's read of n variables: blank-separated, the last one the rest."""
	f = line.strip(' \t\n')
	out = []
	while f and len(out) < n - 1:
		m = re.match('([^ \t\n]*)[ \t\n]*', f)
		out.append(m.group(1))
		f = f[m.end():]
	out.append(f)
	return out + [''] * (n - len(out))


def rows_of(k, arches, kv, prog):
	"""The rows (row, width, table, tags, arch, kind) of a tree; kv: the
	kvars() of each arch."""
	own_arches = {o[4] for o in OWN}
	rows = []
	for a in arches:
		v = kv[a]
		sys_ = words(v.get('syscall', ''))
		if 'unistd_32.h' in sys_ or 'unistd_64.h' in sys_:
			for w in ('32', '64'):
				if f'unistd_{w}.h' not in sys_:
					continue
				tags = v.get('abis' + w, '').replace(' ', ',')
				r = a
				if 'unistd_32.h' in sys_ and 'unistd_64.h' in sys_:
					r = f'{a}/{w}'
				t = v.get('table', '').replace('%', w, 1)
				if t.startswith(k + '/'):
					t = t[len(k) + 1:]
				# the shell version kept rows as words and read them back
				rows.append(tuple(_shell_read(f'{r} {w} {t} {tags} {a} generic', 6)))
			continue
		if a in own_arches:
			rows.extend(o + ('own',) for o in OWN if o[4] == a)
		elif a == 'um':
			rows.append(('um', '-', '-', '-', 'um', 'host'))
		else:
			common.warn(f'arch/{a}: no uapi syscall-y and not in the list of own tables of {prog}: add it there')
			rows.append((a, '-', '-', '-', a, 'unknown'))
	return rows


def arch_dirs(k):
	d = os.path.join(k, 'arch')
	return sorted((a for a in os.listdir(d) if not a.startswith('.') and os.path.isdir(os.path.join(d, a))),
		      key=lambda s: (s + '/').encode('utf-8', 'surrogateescape'))


def measure(k, defn, prog='abi-report', jobs=2):
	"""The report's data for tree k: (table rows as field lists, names:
	[(row, {kind: sorted names})], reserved)."""
	val = defn.val
	reserved = '\n'.join(val('reserved'))
	gentable = '\n'.join(val('table'))
	# "$K/$table", as the shell joined them
	if not os.path.isfile(k + '/' + gentable):
		raise common.Error(f'{k}/{gentable} (the table of {defn.name}) not found')
	with tempfile.TemporaryDirectory(prefix='abi-report.') as work:
		with open(os.path.join(work, 'print.mk'), 'w') as f:
			f.write(PRINT_MK)
		gt = k + '/' + gentable
		canon = {'32': effective(k, gt, ','.join(val('abi-32')), work),
			 '64': effective(k, gt, ','.join(val('abi-64')), work)}
		gentags = tagof(read_text(gt))
		optional = [name for t in val('optional') for _, name, tag in gentags if tag == t]
		uapigen = val('uapi-generic')
		known = ' '.join(val('abi-32') + val('abi-64') + val('optional') + val('legacy'))
		macros = val('forbid-macro')
		rules = val('rule')

		arches = arch_dirs(k)
		ap = os.path.join(k, 'include/uapi/linux/audit.h')
		uses = audit_uses(k, parse_audit_h(read_text(ap)) if os.path.isfile(ap) else {})
		rl = {a: [rule_text(r, d) for r, d in rule_lines(k, a, rules, uses)]
		      for a in arches if a != 'um'}

		with_kconfig = [a for a in arches if os.path.isfile(os.path.join(k, 'arch', a, 'Kconfig'))]
		# make reads Makefiles only: a few at once
		with concurrent.futures.ThreadPoolExecutor(max(1, jobs)) as ex:
			kv = dict(zip(with_kconfig, ex.map(lambda a: kvars(k, a, work), with_kconfig)))
		table, names = [], []
		for row, w, tbl, tags, a, kind in rows_of(k, with_kconfig, kv, prog):
			if kind in ('host', 'unknown'):
				table.append([row] + ['-'] * 16)
				continue
			tp = k + '/' + tbl
			if not os.path.isfile(tp):
				raise common.Error(f'arch/{a}: table {tbl} not found (update the list in {prog})')
			eff = effective(k, tp, tags, work)
			own, copies, overrides = uapi_of(k, a, uapigen)
			private = 1 if kind == 'own' else 0
			if os.path.realpath(tp) != os.path.realpath(gt):
				private = 1
			figs, nm = count_row(row, tbl, tags, kind, canon.get(w, []), optional,
					     tagof(read_text(tp)), eff, known, reserved, own, copies,
					     overrides, private, rl.get(a, []), broken_macro(k, a, macros))
			table.append(figs)
			names.append((row, sort_names(nm)))
	return table, names, reserved


# --- the outputs ------------------------------------------------------------

def tsv(table):
	return '\t'.join(HEADER) + '\n' + ''.join('\t'.join(r) + '\n' for r in table)


def _sorted_by(table, col):
	"""sort -t TAB -kCOL,COLn -k1,1 in the C locale."""
	def key(r):
		return (_num(r[col]), r[0].encode('utf-8', 'surrogateescape'),
			'\t'.join(r).encode('utf-8', 'surrogateescape'))
	return sorted(table, key=key)


def _link(url, r):
	return f'[rule]({url}#rule-{r})'


def _by_name(names, url, reserved):
	out = []
	for row, v in names:
		if not any(v.get(x) for x in NAME_KINDS):
			continue
		out.append(f'\n### {row}\n\n')
		if v['extra']:
			out.append(f"- legacy syscall ({len(words(v['extra']))}) {_link(url, 'legacy')}: {v['extra']}\n")
		if v['lacking']:
			out.append(f"- lacking ({len(words(v['lacking']))}) {_link(url, 'abi-tags')}: {v['lacking']}\n")
		if v['private']:
			s = f"- private table {_link(url, 'table')}: {v['private']}"
			if v['renumbered']:
				s += f"; renumbered ({len(words(v['renumbered']))}): {v['renumbered']}"
			out.append(s + '\n')
		if v['copy']:
			out.append(f"- private copy ({len(words(v['copy']))}) {_link(url, 'uapi-generic')}: {v['copy']}\n")
		if v['override']:
			out.append(f"- override ({len(words(v['override']))}) {_link(url, 'uapi-generic')}: "
				   f"{v['override'].replace(',', ' ')}\n")
		for r in (v['rules'].split('|') if v['rules'] else []):
			k = r.split(':', 1)[0]
			d = re.sub('^[^:]*: ', '', r, count=1)
			out.append(f'- rule {k} {_link(url, k)}: {d}\n')
		if v['own']:
			out.append(f"- allowed, own syscalls in {reserved} ({len(words(v['own']))}): {v['own']}\n")
	return ''.join(out)


def markdown(base, table, names, reserved, rules_url):
	C = COL
	o = [f'# Deviations from the canonical ABI: {base}\n', '\n',
	     f'Made by `scripts/abi-report` of the asm-generic series on the tree {base},\n',
	     'against the definition of the series (scripts/canonical-abi.txt), one row per\n',
	     'architecture ABI.  Two measures: the deviations by the rules of the definition\n',
	     '(the compiled check of the series, `scripts/canonical-abi.c`, judges those it can see), and the\n',
	     'syscall-level count of v1, kept as it was defined.\n', '\n',
	     '## By the rules\n', '\n',
	     'Each deviation counts once: a legacy syscall each (live syscalls beyond the\n',
	     'canonical set: legacy tags, or the old calls of a table of its own), a canonical\n',
	     'syscall lacking each (clone3 when broken), a private table once (numbered by a\n',
	     'table of its own), a private copy of a must-be-generic uapi header each (the\n',
	     'check fails it), an override each (a wrapper that includes the asm-generic\n',
	     'header and defines macros over it: the check passes it, the report lists it),\n',
	     'and each rule of the definition the check can see that is broken\n',
	     '(minsigstksz, audit-arch, clone-args, ptrace-regsets).  **dev** is their sum;\n',
	     '0 is canonical.  Sorted by dev.  Each kind links to its rule below.\n', '\n',
	     '| ABI | table | legacy syscalls | lacking | private table | private copy | override | rules | **dev** |\n',
	     '|---|---|--:|--:|--:|--:|--:|--:|--:|\n']
	by_dev = [r for r in _sorted_by(table, C['dev']) if r[C['dev']] != '-']
	for r in by_dev:
		o.append('| ' + ' | '.join(r[C[c]] for c in ('abi', 'table', 'extra', 'lacking', 'private',
							      'copy', 'override', 'rules')) +
			 f" | **{r[C['dev']]}** |\n")
	for r in table:
		if r[C['dev']] == '-':
			o.append(f"\n{r[0]}: no syscall table of its own (it has the host's ABI).\n")
	o += ['\n', 'Nearest to canonical by the rules:\n', '\n']
	o += [f"{i + 1}. {r[0]}: {r[C['dev']]}\n" for i, r in enumerate(by_dev[:6])]
	o += ['\n', '## The syscall-level count (v1)\n', '\n',
	      '**total** = extra + lacking + renumbered + uapi; 0 is canonical.\n',
	      'extra: live syscalls beyond the canonical set (legacy tags are shown in [ ]);\n',
	      'lacking: canonical syscalls not there (clone3 counts when broken);\n',
	      'renumb: canonical syscalls under another number; uapi: own copies of headers\n',
	      'that must be asm-generic, wrappers included; own: arch syscalls in the reserved\n',
	      f'numbers {reserved} (allowed); optional: memfd_secret. Sorted by total.\n', '\n',
	      '| ABI | table | tags | syscalls | extra | lacking | renumb | uapi | own | optional | **total** |\n',
	      '|---|---|---|--:|--:|--:|--:|--:|--:|--:|--:|\n']
	for r in _sorted_by(table, C['total']):
		if r[C['total']] == '-':
			continue
		o.append(f"| {r[0]} | {r[1]} | {'(all)' if r[2] == '-' else r[2]} | " +
			 ' | '.join(r[C[c]] for c in ('syscalls', 'extra', 'lacking', 'renumb', 'uapi', 'own',
						      'optional')) + f" | **{r[C['total']]}** |\n")
	o += ['\n', '## The deviations by name\n', '\n',
	      'Per ABI, each deviation with its kind and the rule it breaks; "allowed" lines\n',
	      'are not deviations.\n']
	o.append(_by_name(names, rules_url, reserved))
	return ''.join(o)


def _esc(s):
	return s.replace('&', '&amp;').replace('<', '&lt;').replace('>', '&gt;')


def _inline(s):
	s = _esc(s)
	while True:
		m = re.search(r'\*\*[^*]+\*\*', s)
		if not m:
			break
		s = s[:m.start()] + '<b>' + m.group(0)[2:-2] + '</b>' + s[m.end():]
	while True:
		m = re.search('`[^`]+`', s)
		if not m:
			break
		s = s[:m.start()] + '<code>' + m.group(0)[1:-1] + '</code>' + s[m.end():]
	while True:
		m = re.search(r'\[[^\]]+\]\([^)]+\)', s)
		if not m:
			break
		t = m.group(0)[1:].split(']', 1)[0]
		u = m.group(0).split('(', 1)[1][:-1]
		s = s[:m.start()] + f'<a href="{u}">{t}</a>' + s[m.end():]
	return s


def html(md, title):
	"""The Markdown of markdown() as one page: headings, tables (numbers
	right-aligned from the fourth column on), lists, paragraphs."""
	o = ['<!DOCTYPE html>', '<html><head><meta charset="utf-8"><title>' + _esc(title) + '</title>',
	     '<style>body{font-family:sans-serif;max-width:80em;margin:auto}table{border-collapse:collapse}'
	     'td,th{border:1px solid #999;padding:2px 6px}td.n{text-align:right}li{margin:2px 0}</style>'
	     '</head><body>']
	st = {'p': False, 'ul': False, 'ol': False, 'table': False}

	def close_all():
		for t in ('p', 'ul', 'ol', 'table'):
			if st[t]:
				o.append(f'</{t}>')
			st[t] = False

	def open_(t):
		if not st[t]:
			close_all()
			st[t] = True
			o.append(f'<{t}>')
			return True
		return False

	for l in lines_of(md):
		if l.startswith('# '):
			close_all()
			o.append('<h1>' + _inline(l[2:]) + '</h1>')
		elif l.startswith('### '):
			close_all()
			o.append('<h3>' + _inline(l[4:]) + '</h3>')
		elif l.startswith('## '):
			close_all()
			o.append('<h2>' + _inline(l[3:]) + '</h2>')
		elif l.startswith('|---'):
			continue
		elif l.startswith('| '):
			c = re.split(_SPACE + r'*\|' + _SPACE + '*', l)
			tag = 'th' if open_('table') else 'td'
			s = '<tr>'
			for i in range(1, len(c) - 1):
				cls = ' class="n"' if tag == 'td' and i + 1 > 4 else ''
				s += f'<{tag}{cls}>{_inline(c[i])}</{tag}>'
			o.append(s + '</tr>')
		elif l.startswith('- '):
			open_('ul')
			o.append('<li>' + _inline(l[2:]) + '</li>')
		elif re.match('[0-9]+\\. ', l):
			open_('ol')
			o.append('<li>' + _inline(re.sub('^[0-9]+\\. ', '', l, count=1)) + '</li>')
		elif l == '':
			close_all()
		else:
			if not st['p']:
				close_all()
				st['p'] = True
				o.append('<p>')
			o.append(_inline(l))
	close_all()
	o.append('</body></html>')
	return '\n'.join(o) + '\n'


def run(args):
	prog = common.prog()
	k = args.tree or os.environ.get('TREE')
	if not k:
		raise common.Usage('no KERNEL_TREE given and $TREE is not set')
	if not (os.path.isfile(os.path.join(k, 'scripts/syscallhdr.sh')) and os.path.isdir(os.path.join(k, 'arch'))):
		raise common.Error(f"{k} is not a kernel tree (no scripts/syscallhdr.sh): name one, or run 'make tree'")
	k = os.path.abspath(k)
	if not shutil.which('make'):
		raise common.Error("'make' not found: install the Debian package 'make' (make deps does it)")
	series = os.environ.get('QUILT_SERIES') or os.path.join(common.repo(), 'series')
	pdir = os.environ.get('QUILT_PATCHES') or os.path.join(common.repo(), 'patches')
	defn = find_definition(k, args.definition, pdir, series, os.environ.get('TREE', ''))
	table, names, reserved = measure(k, defn, prog, args.jobs)
	if args.fmt == 'tsv':
		out = tsv(table)
	else:
		base = os.path.basename(k)
		out = markdown(base, table, names, reserved, args.rules_url)
		if args.fmt == 'html':
			out = html(out, f'Deviations from the canonical ABI: {base}')
	sys.stdout.buffer.write(out.encode('utf-8', 'surrogateescape'))
	sys.stdout.flush()
	return common.Exit.OK


def add_parser(sub):
	p = sub.add_parser(
		allow_abbrev=False, name='abi-report', help='how each architecture deviates from the canonical ABI',
		formatter_class=argparse.RawDescriptionHelpFormatter,
		description='How every architecture of a kernel tree deviates from the canonical ABI '
		'of the series\n(scripts/canonical-abi.txt; Documentation/canonical-abi.md): one row '
		'per user ABI,\nthe deviations by the rules (dev) beside the syscall-level count of v1 '
		'(total).\nReads the tree only: make reads scripts/Makefile.asm-headers (nothing is '
		'built),\nthe tree\'s syscallhdr.sh and syscalltbl.sh compute the effective tables.',
		epilog='The columns:\n' + __doc__.split('number with the canonical set of its word size:\n', 1)[1]
		.split('\nThe stages,', 1)[0] +
		'\nExit codes: 0 done, 1 an error (not a kernel tree, no definition, a table\n'
		'not found, a script of the tree failed), 2 usage.')
	# as before: the last of --md, --html, --tsv counts
	p.add_argument('--md', dest='fmt', action='store_const', const='md',
		       help='Markdown (the default): the two tables, then the deviations by name')
	p.add_argument('--html', dest='fmt', action='store_const', const='html',
		       help='the same Markdown as one static HTML page')
	p.add_argument('--tsv', dest='fmt', action='store_const', const='tsv',
		       help='the table only, tab-separated, with a header line')
	p.set_defaults(fmt='md')
	p.add_argument('--def', dest='definition', metavar='FILE',
		       help="the definition to use (default: the tree's scripts/canonical-abi.txt, else "
		       "the one a patch of the series adds ($QUILT_SERIES, $QUILT_PATCHES; for the "
		       "baseline, which has none), else $TREE's)")
	p.add_argument('--rules-url', default='canonical-abi.md', metavar='URL',
		       help='where the Markdown and HTML link each kind of deviation to its rule, '
		       'URL#rule-NAME (default: canonical-abi.md, Documentation/canonical-abi.md beside the report)')
	p.add_argument('-j', '--jobs', type=int, default=2, metavar='N',
		       help='read the Kbuild variables of N architectures at once (default: 2; '
		       'the output does not depend on it)')
	p.add_argument('tree', nargs='?', metavar='KERNEL_TREE', help='the kernel tree (default: $TREE)')
	p.set_defaults(func=run)
	return p
