#!/bin/sh
# The canonical ABI of Part 2 of the series: on a copy of the baseline's
# scripts/, include/ and arch/ with the Part 2 patches applied,
#  - scripts/check-canonical-abi.sh --doc passes, and fails when the
#    document and the definition disagree;
#  - the Kbuild hook (scripts/Makefile.asm-headers, run as Kbuild runs it
#    for the uapi headers, under the build lock) stops riscv when
#    ARCH_HAS_CANONICAL_ABI is set and not otherwise, passes a minimal
#    fixture architecture and fails each fixture with one deviation;
#  - scripts/abi-report's figures for riscv/64 and x86/64 equal those
#    counted here straight from the tables, and the fixture architecture
#    has none.
. "$(dirname "$0")/tap.sh"

[ -f "$SRC/scripts/syscall.tbl" ] || skip_all "no baseline at $SRC (make tree)"
P1=$QUILT_PATCHES/canonical-abi-definition.patch
P2=$QUILT_PATCHES/canonical-abi-kconfig-check.patch
[ -f "$P1" ] && [ -f "$P2" ] || skip_all "the Part 2 patches are not in $QUILT_PATCHES"
need flock util-linux

plan 21

K=$TMP/k
mkdir -p "$K/Documentation"
for d in scripts include arch Documentation/arch MAINTAINERS; do
	cp -al "$SRC/$d" "$K/$d"
done
for p in "$P1" "$P2"; do
	(cd "$K" && patch -s -p1 -F0 < "$p") || echo "# $p does not apply"
done
CHK="sh $K/scripts/check-canonical-abi.sh --srctree $K"
# The copy is hard-linked to the baseline: a file the test changes is
# replaced by a copy of its own first.
own_copy() {
	cp "$K/$1" "$TMP/own" && rm -f "$K/$1" && mv "$TMP/own" "$K/$1"
}

# --- the definition and its document ---
check "the definition and Documentation/arch/canonical-abi.rst agree" $CHK --doc
cp -a "$K/Documentation/arch/canonical-abi.rst" "$TMP/rst"
sed -i '/^- ``rlimit``/d' "$K/Documentation/arch/canonical-abi.rst"
$CHK --doc > "$TMP/doc.out" 2>&1 && rc=0 || rc=$?
is "$rc" 1 "a legacy tag missing from the document fails the check"
like "$(cat "$TMP/doc.out")" "'legacy' lacks rlimit" "and names the key and the tag"
rm -f "$K/Documentation/arch/canonical-abi.rst"
cp -a "$TMP/rst" "$K/Documentation/arch/canonical-abi.rst"

# --- fixture architectures ---
# canon: the minimum the definition asks for; each other one deviates once.
fixture() {
	_a=$K/arch/$1
	mkdir -p "$_a/include/uapi/asm" "$_a/include/asm" "$_a/kernel"
	: > "$_a/Kconfig"
	printf 'syscall-y += unistd_32.h\nsyscall-y += unistd_64.h\n' > "$_a/include/uapi/asm/Kbuild"
	for h in byteorder.h ptrace.h sigcontext.h unistd.h; do
		echo "/* $h of a fixture */" > "$_a/include/uapi/asm/$h"
	done
	echo "/* asm/unistd.h of a fixture */" > "$_a/include/asm/unistd.h"
}
fixture canon
fixture cantime
echo 'syscall_abis_32 += time32' > "$K/arch/cantime/kernel/Makefile.syscalls"
fixture canhdr
echo '/* own fcntl.h */' > "$K/arch/canhdr/include/uapi/asm/fcntl.h"
fixture cannr
echo 'syscall_abis_64 += cannr' > "$K/arch/cannr/kernel/Makefile.syscalls"
own_copy scripts/syscall.tbl
# the first number after the table's last: outside the reserved range
CANNR=$(awk '!/^#/ && NF { n = $1 } END { print n + 1 }' "$K/scripts/syscall.tbl")
printf '%s\tcannr\tcannr_frob\t\t\tsys_cannr_frob\n' "$CANNR" >> "$K/scripts/syscall.tbl"
fixture canclone
echo '#define __ARCH_BROKEN_SYS_CLONE3' >> "$K/arch/canclone/include/asm/unistd.h"
fixture canown
echo 'syscall_abis_32 += canown' > "$K/arch/canown/kernel/Makefile.syscalls"
printf '250\tcanown\tcanown_frob\t\t\tsys_canown_frob\n' > "$TMP/line"
awk -v l="$(cat "$TMP/line")" '/^260[[:space:]]/ && !done { print l; done = 1 } { print }' \
	"$K/scripts/syscall.tbl" > "$TMP/tbl" && mv "$TMP/tbl" "$K/scripts/syscall.tbl"

# --- the Kbuild hook: each arch's uapi asm headers as Kbuild makes them,
# all under one hold of the build lock ---
cat > "$TMP/hook.sh" <<'EOF'
# hook.sh K OUT ARCH YES: make K's uapi asm headers of ARCH in OUT/ARCH,
# with ARCH_HAS_CANONICAL_ABI set if YES is y.
mkdir -p "$2/$3/$4"
cd "$2/$3/$4" || exit 1
y=
[ "$4" = y ] && y=CONFIG_ARCH_HAS_CANONICAL_ABI=y
make -s -f "$1/scripts/Makefile.asm-headers" srctree="$1" SRCARCH="$3" \
	obj="arch/$3/include/generated/uapi/asm" generic=include/uapi/asm-generic \
	CONFIG_SHELL=sh $y > "$2/$3.$4.out" 2>&1
echo $? > "$2/$3.$4.rc"
EOF
flock /tmp/kbuild.lock sh -c '
	for a in riscv:y riscv:n canon:y cantime:y canhdr:y cannr:y canclone:y canown:y; do
		sh "$1" "$2" "$3" "${a%:*}" "${a#*:}"
	done' sh "$TMP/hook.sh" "$K" "$TMP/hook"
H=$TMP/hook
is "$(cat "$H/riscv.n.rc")" 0 "riscv without ARCH_HAS_CANONICAL_ABI: the uapi headers are made as before"
check "riscv without it: unistd_64.h is generated" test -s "$H/riscv/n/arch/riscv/include/generated/uapi/asm/unistd_64.h"
is "$(cat "$H/riscv.y.rc")" 2 "riscv with ARCH_HAS_CANONICAL_ABI: the build stops"
like "$(cat "$H/riscv.y.out")" "syscall_abis_64 asks for the legacy ABI tag 'rlimit'" \
	"riscv: it names the legacy rlimit tag"
like "$(cat "$H/riscv.y.out")" "arch/riscv/include/uapi/asm/setup.h: must be include/uapi/asm-generic/setup.h" \
	"riscv: it names its own setup.h"
is "$(cat "$H/canon.y.rc")" 0 "the minimal fixture architecture passes"
is "$(cat "$H/canown.y.rc")" 0 "a syscall of its own tag in the reserved numbers passes"
is "$(cat "$H/cantime.y.rc"):$(grep -c '^canonical ABI: ' "$H/cantime.y.out")" 2:2 "time32 fails, one deviation"
like "$(cat "$H/cantime.y.out")" "legacy ABI tag 'time32'" "the time32 tag is named"
is "$(cat "$H/canhdr.y.rc")" 2 "an own copy of fcntl.h fails"
like "$(cat "$H/canhdr.y.out")" "arch/canhdr/include/uapi/asm/fcntl.h: must be" "fcntl.h is named"
is "$(cat "$H/cannr.y.rc")" 2 "a syscall of its own tag at $CANNR fails"
like "$(cat "$H/cannr.y.out")" "syscall $CANNR 'cannr_frob' of tag 'cannr' is outside the reserved range 244-259" \
	"the syscall and the range are named"
is "$(cat "$H/canclone.y.rc")" 2 "__ARCH_BROKEN_SYS_CLONE3 fails"

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
is "$(row canon/32) $(row canon/64)" "0 0 0 0 0 0 0 0 0 0" "the minimal fixture architecture: no deviation"
is "$(awk -F'\t' '$1 == "cantime" || $1 ~ /^cantime\// { print $1, ($6 > 0) }' "$TMP/report" | paste -sd' ')" \
	"cantime/32 1 cantime/64 0" "the time32 fixture: extra syscalls on 32-bit only"
done_testing
