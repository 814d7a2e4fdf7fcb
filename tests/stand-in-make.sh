# SPDX-License-Identifier: GPL-2.0
# tests/stand-in-make.sh - build-arch without a kernel: standin_setup makes
# a copy of the scripts in R=$TMP/repo (so that a test may replace one),
# configs/ with one target t (x86, host compiler), a tree T2=$TMP/tree2
# with arch/x86, and in $TMP/bin a make that configures by concatenation
# and "builds" vmlinux with one .cmd file, printing STANDIN_STEPS (default
# 1) Kbuild lines "  CC      kernel/fork.o", STANDIN_SLEEP seconds
# (default 0) apart.  Run build-arch with PATH=$TMP/bin:$PATH TREE=$T2
# CONFIGS=$R/configs.  Source it after tap.sh.

standin_setup() {
	R=$TMP/repo
	mkdir -p "$R/configs" "$TMP/bin"
	cp -a "$REPO/scripts" "$R/"
	cp "$REPO/configs/base.config" "$R/configs/"
	echo "t x86 - quick" > "$R/configs/targets"
	echo "# t" > "$R/configs/t.config"
	T2=$TMP/tree2
	mkdir -p "$T2/arch/x86" "$T2/kernel/configs" "$T2/scripts/kconfig"
	touch "$T2/Makefile" "$T2/arch/x86/Kconfig" "$T2/kernel/configs/tiny-base.config" \
		"$T2/kernel/configs/tiny.config" "$T2/kernel/fork.c" "$T2/notes.txt"
	printf '#!/bin/sh\nshift 3\nfor f; do cat "$f"; done >> "$1"\n' > "$T2/scripts/kconfig/merge_config.sh"
	cat > "$TMP/bin/make" <<'MAKE'
#!/bin/sh
for a; do case $a in O=*) o=${a#O=} ;; esac; t=$a; done
case $t in
tinyconfig) echo CONFIG_X=y > "$o/.config" ;;
vmlinux)
	mkdir -p "$o/kernel"
	i=0
	while [ "$i" -lt "${STANDIN_STEPS:-1}" ]; do
		[ "$i" -eq 0 ] || sleep "${STANDIN_SLEEP:-0}"
		echo "  CC      kernel/fork.o"
		i=$((i + 1))
	done
	printf 'savedcmd_kernel/fork.o := gcc -c %s\n\nsource_kernel/fork.o := %s\n' \
		"$TREE/kernel/fork.c" "$TREE/kernel/fork.c" > "$o/kernel/.fork.o.cmd"
	echo vmlinux > "$o/vmlinux" ;;
esac
MAKE
	chmod +x "$T2/scripts/kconfig/merge_config.sh" "$TMP/bin/make"
}
