#!/bin/sh
# make submit-check on a stand-in baseline that has stand-ins of
# checkpatch.pl and get_maintainer.pl (tests/fixtures/submit), with a
# stand-in build: the base-commit line, checkpatch per mail, a build of
# each commit through git rebase --exec, the recipients per patch in the
# cover letter, and b4 am of the mails; each check can fail.
. "$(dirname "$0")/tap.sh"
. "$T_DIR/mini.sh"
command -v b4 >/dev/null 2>&1 || skip_all "b4 is not installed (make deps)"
mini_setup
cp -a "$T_DIR/fixtures/mini/tree" "$TMP/v3"
cp -a "$T_DIR/fixtures/submit/scripts" "$TMP/v3/"
mini_baseline 9.9.3 "$TMP/v3"
BASE=9.9.3
SRC=$OUT/src/$BASE
TREE=$OUT/linux-$BASE
SUBMIT_BUILD='echo "$(git -C "$TREE" log -1 --format=%s) $COMMIT" >> "$TMP/built"; echo "build-all: 1/1 ok in 0s"'
export BASE SRC TREE SUBMIT_BUILD TMP
SD=$OUT/submit/9.9.3
M="make -s -C $REPO"

plan 17

out=$($M submit-check 2>&1) && rc=0 || rc=$?
is "$rc" 0 "make submit-check passes on the fixture series"
like "$out" "BASE +base-commit: [0-9a-f]{40} \(baseline-9.9.3\)" "the cover letter has the base-commit line"
like "$out" "\[2/2\] checkpatch +ok +beta: use" "checkpatch runs on each mail"
g=$OUT/export/9.9.3/git
is "$(cat "$TMP/built")" "$(git --git-dir="$g" log --reverse --format='%s %H' baseline-9.9.3..series)" \
	"the build ran on each commit, in order, with the commit checked out"
cl=$(cat "$SD/mbox/0000-cover-letter.patch")
like "$cl" "^Recipients per patch" "the cover letter lists the recipients"
like "$(echo "$cl" | grep -A 2 '^  1/2 alpha')" "Alpha Maintainer <alpha@example.org>" "the first patch's"
like "$(echo "$cl" | grep -A 3 '^  2/2 beta')" "linux-beta@example.org" "the second patch's"
like "$(sed -n 2p "$SD/mbox/0002-beta-use-asm-generic-param.h.patch")" "^Message-Id: <asm-generic-9.9.3-2@" \
	"the mails are threaded"
like "$out" "B4 +b4 am: 2 patches on base-commit" "b4 am takes the series and its base"
like "$(cat "$SD/report.md")" "\| 2 \| beta: use asm-generic/param.h \| ok .* \| ok .* \| Beta Maintainer" \
	"the report has a row for each patch"

# A commit that does not build.
: > "$TMP/built"
out=$(SUBMIT_BUILD='case "$(git -C "$TREE" log -1 --format=%s)" in beta*) exit 1 ;; esac' $M submit-check 2>&1) && rc=0 || rc=$?
is "$rc" 2 "a commit that does not build fails it"
like "$out" "commit 2 \(beta: use asm-generic/param.h\) does not build" "naming the commit"
like "$(cat "$SD/report.md")" "Result: \*\*FAILED\*\*" "the report says so"

# checkpatch finds something.
sed -i 's/^+generic-y += param.h$/+generic-y += param.h # XXX/' "$QUILT_PATCHES/alpha-param.patch"
out=$($M submit-check 2>&1) && rc=0 || rc=$?
is "$rc" 2 "a checkpatch error fails it"
like "$out" "checkpatch.pl --strict on 0001-alpha-use-asm-generic-param.h.patch: 1 errors" "naming the mail"
sed -i 's/ # XXX$//' "$QUILT_PATCHES/alpha-param.patch"

# b4 must see the thread: a cover letter without its Message-Id fails it.
check "fixed, it passes again (the worktree is reused)" $M submit-check
mkdir -p "$TMP/bin"
printf '#!/bin/sh\necho "b4 stand-in: fails"; exit 1\n' > "$TMP/bin/b4"
chmod +x "$TMP/bin/b4"
out=$(PATH=$TMP/bin:$PATH scripts/submit-check 2>&1) && rc=0 || rc=$?
like "$rc $(echo $out)" "^1 .*b4 am of .*series.mbox failed" "a failing b4 am fails it"
done_testing
