#!/bin/sh
# scripts/abi-report on a copy of the baseline with the Part 2 patches
# applied and the fixture architectures of tests/canonical-abi.sh:
#  - riscv/64's and x86/64's syscall-level figures (v1's measure) equal
#    those counted here straight from the tables;
#  - the count by the rules: riscv/64's private copies and overrides are
#    those counted here from its uapi headers, the minimal fixture has no
#    deviation, each fixture that breaks a rule has one of that kind;
#  - every link of the Markdown report goes to an anchor of
#    Documentation/canonical-abi.md.
# Nothing is built: no build lock.
. "$(dirname "$0")/tap.sh"
. "$T_DIR/canonical-abi.sh"

[ -f "$SRC/scripts/syscall.tbl" ] || skip_all "no baseline at $SRC (make tree)"
[ -f "$CABI_P1" ] && [ -f "$CABI_P2" ] || skip_all "the Part 2 patches are not in $QUILT_PATCHES"

plan 12

cabi_setup

# --- the report, against counts made here from the tables ---
"$REPO/scripts/abi-report" --tsv "$K" > "$TMP/report" 2> "$TMP/report.err" ||
	sed 's/^/# /' "$TMP/report.err"
row() {
	awk -F'\t' -v r="$1" '$1 == r { print $6, $7, $8, $9, $12 }' "$TMP/report"
}
# count TABLE TAGS UAPIDIR: "extra lacking renumbered uapi total" of the
# live lines of TABLE with one of TAGS against common+64 of
# scripts/syscall.tbl; arch tags in 244-259 and memfd_secret aside.
count() {
	awk -v tags=" $2 " '
	FNR == NR {
		if (/^#/ || NF < 4 || $4 == "sys_ni_syscall") next
		if ($2 == "common" || $2 == "64") canon[$3] = $1
		else if ($2 == "memfd_secret") opt[$3] = 1
		next
	}
	/^#/ || NF < 4 || $4 == "sys_ni_syscall" || $4 == "-" { next }
	index(tags, " " $2 " ") {
		if ($3 in opt) next
		has[$3] = 1
		if ($3 in canon) { if (canon[$3] != $1) ren++ }
		else if ($2 !~ /^(common|64|time32|stat64|renameat|rlimit)$/ && $1 >= 244 && $1 <= 259) next
		else extra++
	}
	END {
		for (n in canon) if (!(n in has)) lack++
		printf "%d %d %d", extra, lack, ren
	}' "$SRC/scripts/syscall.tbl" "$1"
	u=0
	for h in bitsperlong errno fcntl ioctl ioctls ipcbuf mman msgbuf param poll \
		posix_types resource sembuf setup shmbuf siginfo signal socket sockios \
		stat statfs swab termbits termios types; do
		[ -e "$3/$h.h" ] && u=$((u + 1))
	done
	echo " $u"
}
rv=$(sed -n 's/^syscall_abis_64 += //p' "$SRC/arch/riscv/kernel/Makefile.syscalls")
set -- $(count "$SRC/scripts/syscall.tbl" "common 64 $rv" "$SRC/arch/riscv/include/uapi/asm")
is "$(row riscv/64)" "$* $(($1 + $2 + $3 + $4))" "riscv/64: extra lacking renumbered uapi total as counted from the table"
set -- $(count "$SRC/arch/x86/entry/syscalls/syscall_64.tbl" "common 64" "$SRC/arch/x86/include/uapi/asm")
is "$(row x86/64)" "$* $(($1 + $2 + $3 + $4))" "x86/64: the same counted from syscall_64.tbl"
is "$(row canon/32) $(row canon/64)" "0 0 0 0 0 0 0 0 0 0" "the minimal fixture architecture: no deviation (v1)"
is "$(awk -F'\t' '$1 == "cantime" || $1 ~ /^cantime\// { print $1, ($6 > 0) }' "$TMP/report" | paste -sd' ')" \
	"cantime/32 1 cantime/64 0" "the time32 fixture: extra syscalls on 32-bit only"

# --- the count by the rules ---
# by FIELD ROW: "copy override private rules dev" of ROW
by() {
	awk -F'\t' -v r="$1" '$1 == r { print $13, $14, $15, $16, $17 }' "$TMP/report"
}
rc=0 ro=0
for h in $(sed -n 's/^uapi-generic//p' "$K/scripts/canonical-abi.txt"); do
	f=$SRC/arch/riscv/include/uapi/asm/$h
	[ -e "$f" ] || continue
	if grep -q "#include <asm-generic/$h>" "$f"; then ro=$((ro + 1)); else rc=$((rc + 1)); fi
done
set -- $(row riscv/64)
is "$(by riscv/64 | cut -d' ' -f1-3)" "$rc $ro 0" "riscv/64: private copies and wrappers as counted from its uapi headers, its own table none"
is "$(by canon/64) $(by canon/32)" "0 0 0 0 0 0 0 0 0 0" "the minimal fixture: no deviation by the rules"
is "$(by canwrap/64)" "0 1 0 0 1" "a wrapper: one override, no private copy"
is "$(by canhdr/64 | cut -d' ' -f1)" 1 "an own fcntl.h: one private copy"
is "$(by cantbl/64 | cut -d' ' -f3)" 1 "a table of its own: one private table"
is "$(by canmin/64 | cut -d' ' -f4) $(by canaudit/64 | cut -d' ' -f4) $(by canback/64 | cut -d' ' -f4)" \
	"1 1 1" "no AT_MINSIGSTKSZ, riscv's AUDIT_ARCH, CLONE_BACKWARDS: one broken rule each"

"$REPO/scripts/abi-report" --md "$K" > "$TMP/report.md" 2>/dev/null
like "$(cat "$TMP/report.md")" "override \\(1\\) \\[rule\\]\\(canonical-abi.md#rule-uapi-generic\\): signal.h\\(SIGSTKSZ\\)" \
	"the Markdown names canwrap's override with its macro and links the rule"
miss=
for a in $(grep -o '](canonical-abi.md#[a-z-]*)' "$TMP/report.md" | sed 's/.*#//; s/)$//' | sort -u); do
	grep -q "id=\"$a\"" "$REPO/Documentation/canonical-abi.md" || miss="$miss $a"
done
is "$miss" "" "every rule the report links to has its anchor in Documentation/canonical-abi.md"
done_testing
