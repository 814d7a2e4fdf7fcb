#!/bin/sh
# scripts/checkpatch, the one checkpatch policy of lint, ci-series and
# submit-check, with a stand-in checkpatch.pl: --strict --show-types,
# --ignore of the types scripts/checkpatch-ignore accepts for the patch
# (its own line and "*"), each printed with its reason; --as names a
# mail; a line without a reason is an error; the real ignore file gives
# a reason for every line.  A quilt patch that adds or deletes a file
# reaches checkpatch.pl with the "new file mode"/"deleted file mode" line
# its mail will have (FILE_PATH_CHANGES), the patch file untouched.
. "$(dirname "$0")/tap.sh"
K=$TMP/kernel
mkdir -p "$K/scripts"
# the stand-in: records its arguments; an added XXX is TEST_XXX, unless ignored
cat > "$K/scripts/checkpatch.pl" <<'EOC'
#!/bin/sh
echo "$*" > "$ARGS"
# as the real one may: its CamelCase cache, in the folder it runs in
: > .checkpatch-camelcase.date.202612051602
ign=
while [ $# -gt 1 ]; do [ "$1" = --ignore ] && ign=$2; shift; done
cp "$1" "$SEEN"
if grep -q '^\(new\|deleted\) file mode' "$1" && ! echo ",$ign," | grep -q ',FILE_PATH_CHANGES,'; then
	echo "WARNING:FILE_PATH_CHANGES: added, moved or deleted file(s), does MAINTAINERS need updating?"
	echo "total: 0 errors, 1 warnings, 0 checks, 3 lines checked"
	exit 1
fi
if grep -q '^+.*XXX' "$1" && ! echo ",$ign," | grep -q ',TEST_XXX,'; then
	echo "ERROR:TEST_XXX: XXX in an added line"
	echo "total: 1 errors, 0 warnings, 0 checks, 3 lines checked"
	exit 1
fi
echo "total: 0 errors, 0 warnings, 0 checks, 3 lines checked"
EOC
chmod +x "$K/scripts/checkpatch.pl"
ARGS=$TMP/args
SEEN=$TMP/seen
CHECKPATCH_IGNORE=$TMP/ignore
export ARGS SEEN CHECKPATCH_IGNORE
cat > "$CHECKPATCH_IGNORE" <<'EOI'
# a comment
* ONE # every patch has its reason
p.patch TEST_XXX,TWO # p keeps its XXX on purpose
bad.patch THREE
moved.patch FILE_PATH_CHANGES # its files are in folders MAINTAINERS covers
EOI
printf -- '--- a/f\n+++ b/f\n+clean\n' > "$TMP/q.patch"
printf -- '--- a/f\n+++ b/f\n+XXX\n' > "$TMP/p.patch"
cp "$TMP/p.patch" "$TMP/x.patch"
cp "$TMP/p.patch" "$TMP/0001-a-mail.eml"
: > "$TMP/bad.patch"
printf 'x\n---\n--- a/Kbuild\n+++ b/Kbuild\n+y\n--- /dev/null\n+++ b/new.h\n+n\n--- a/old.h\n+++ /dev/null\n-o\n' > "$TMP/new.patch"
cp "$TMP/new.patch" "$TMP/moved.patch"
printf 'diff --git a/new.h b/new.h\nnew file mode 100644\n--- /dev/null\n+++ b/new.h\n+n\n' > "$TMP/git.patch"
C="$REPO/scripts/checkpatch --tree $K"

plan 20

out=$($C "$TMP/q.patch" 2>&1) && rc=0 || rc=$?
is "$rc" 0 "a clean patch passes"
like "$out" "^# checkpatch-ignore: \*: ONE: every patch has its reason$" "the types ignored for every patch, with the reason"
like "$(cat "$ARGS")" "^--root=$K --strict --no-color --show-types --ignore ONE $TMP/q.patch$" "checkpatch.pl --root=TREE --strict --show-types --ignore them"
is "$(ls -a "$K" | grep -c '^\.checkpatch-camelcase')" 0 "nothing written into the tree (checkpatch.pl's CamelCase cache)"
out=$($C "$TMP/p.patch" 2>&1) && rc=0 || rc=$?
is "$rc" 0 "a patch may keep the types its line accepts"
like "$out" "^# checkpatch-ignore: p.patch: TEST_XXX,TWO: p keeps its XXX on purpose$" "named with their reason"
like "$(cat "$ARGS")" "--ignore ONE,TEST_XXX,TWO " "and ignored"
out=$($C "$TMP/x.patch" 2>&1) && rc=0 || rc=$?
like "$rc $(echo $out)" "^1 .*ERROR:TEST_XXX" "another patch may not"
check "--as names a mail as the patch it is" $C --as p.patch "$TMP/0001-a-mail.eml"
out=$($C "$TMP/x.patch" "$TMP/q.patch" 2>&1) && rc=0 || rc=$?
like "$rc $(cat "$ARGS")" "^1 .*q.patch$" "several patches: each checked, the status of the worst"
$C -q "$TMP/q.patch" > /dev/null 2>&1
like "$(cat "$ARGS")" "--show-types -q --ignore" "-q goes to checkpatch.pl"
out=$($C "$TMP/bad.patch" 2>&1) && rc=0 || rc=$?
like "$rc $out" "^2 .*line 4: bad.patch THREE has no reason" "a line without a reason is an error"
is "$($REPO/scripts/checkpatch --ignored p.patch)" "ONE	every patch has its reason
TEST_XXX	p keeps its XXX on purpose
TWO	p keeps its XXX on purpose" "--ignored lists a patch's types and reasons"
out=$($C "$TMP/new.patch" 2>&1) && rc=0 || rc=$?
like "$rc $(echo $out)" "^1 .*WARNING:FILE_PATH_CHANGES" \
	"a quilt patch that adds and deletes files: checkpatch asks about MAINTAINERS, as of its mail"
is "$(cat "$SEEN")" "x
---
--- a/Kbuild
+++ b/Kbuild
+y
new file mode 100644
--- /dev/null
+++ b/new.h
+n
deleted file mode 100644
--- a/old.h
+++ /dev/null
-o" "checkpatch.pl reads the mail's file mode lines, where git puts them"
check "the patch file is left as it was" cmp "$TMP/new.patch" "$TMP/moved.patch"
check "a patch whose line accepts FILE_PATH_CHANGES passes" $C "$TMP/moved.patch"
$C "$TMP/git.patch" > /dev/null 2>&1
check "a patch in git's form goes to checkpatch.pl as it is" cmp "$SEEN" "$TMP/git.patch"
unset CHECKPATCH_IGNORE
bad=
for n in $(awk '!/^#/ && NF { print $1 }' "$REPO/scripts/checkpatch-ignore"); do
	"$REPO/scripts/checkpatch" --ignored "$n" > /dev/null 2>&1 || bad="$bad $n"
done
is "$bad" "" "every line of scripts/checkpatch-ignore has a reason"
# lint, ci-series (its loop: scripts/seriesci/ci_series.py) and
# submit-check run scripts/checkpatch, not checkpatch.pl
is "$(grep -l -e 'scripts/checkpatch"' -e "scripts, 'checkpatch')" "$REPO/scripts/lint" "$REPO/scripts/seriesci/ci_series.py" "$REPO/scripts/submit-check" | wc -l) $(cat "$REPO/scripts/lint" "$REPO/scripts/seriesci/ci_series.py" "$REPO/scripts/submit-check" | grep -v '^[[:space:]]*#' | grep -c 'scripts/checkpatch\.pl --strict')" \
	"3 0" "lint, ci-series and submit-check share scripts/checkpatch"
done_testing
