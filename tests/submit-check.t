#!/bin/sh
# make submit-check on a stand-in baseline that has stand-ins of
# checkpatch.pl and get_maintainer.pl (tests/fixtures/submit and the mini
# tree), with a stand-in build, on a series of two destinations: the
# base-commit line of each, the placeholder gone from the mails, To: on
# every mail, checkpatch per mail by scripts/checkpatch (the ignored types
# and their reasons in the report), a build of each commit through git
# rebase --exec, and b4 am of each destination's mails; each check can
# fail.
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
SENDER="Sam Sender <sam@example.com>"
# the ignore policy of this test: every patch, and beta's XXX, with reasons
CHECKPATCH_IGNORE=$TMP/checkpatch-ignore
printf '%s\n' '* UNKNOWN_COMMIT_ID # no history in the stand-in' \
	'beta-param.patch TEST_XXX # beta keeps its XXX on purpose' > "$CHECKPATCH_IGNORE"
export BASE SRC TREE SUBMIT_BUILD TMP SENDER CHECKPATCH_IGNORE
# two destinations: alpha's fix, then beta and a generic header
mkdir -p "$TMP/patches/covers"
printf 'alpha: the fix\n\nThe alpha fix, for @BASE@.\n' > "$TMP/patches/covers/fix"
printf 'beta and generic: the rest\n\nThe rest, on top of the fix.\n' > "$TMP/patches/covers/rest"
cp "$T_DIR/fixtures/mini/generic-param.patch" "$TMP/patches/"
cat > "$QUILT_SERIES" <<'EOS'
#@ destination: fix
#@ version: 2
#@ trailer: Cc: stable@example.org
#@ cover: covers/fix
alpha-param.patch
#@ destination: rest
#@ prefix: RFC
#@ cover: covers/rest
beta-param.patch
generic-param.patch
EOS
SD=$OUT/submit/9.9.3
X=$OUT/export/9.9.3
M="make -s -C $REPO"

plan 26

out=$($M submit-check 2>&1) && rc=0 || rc=$?
is "$rc" 0 "make submit-check passes on the fixture series"
g=$X/git
like "$out" "BASE +fix: base-commit $(git --git-dir="$g" rev-parse baseline-9.9.3 | cut -c1-12) \(baseline-9.9.3\)" \
	"the first destination's mail has the base-commit of the baseline"
like "$out" "BASE +rest: base-commit $(git --git-dir="$g" rev-parse series~2 | cut -c1-12) \(the last commit of the destination before it\)" \
	"the second's, the last commit of the first"
like "$out" "\[2/3\] checkpatch +ok +beta: use" "checkpatch runs on each mail"
is "$(cat "$TMP/built")" "$(git --git-dir="$g" log --reverse --format='%s %H' baseline-9.9.3..series)" \
	"the build ran on each commit, in order, with the commit checked out"
fm=$(cat "$X"/fix/*.eml)
like "$fm" "^Subject: \[PATCH v2\] alpha: use asm-generic/param.h" "one patch, v2: its own mail, no cover letter"
like "$fm" "^To: Alpha Maintainer <alpha@example.org>" "To: its maintainer"
like "$(echo "$fm" | sed -n '/^Cc: /,/^[^ C]/p')" "alpha-review@example.org.*linux-alpha@example.org|stable@example.org" \
	"Cc: the reviewer, the list, stable"
like "$fm" "^Cc: stable@example.org
Signed-off-by: Sam Sender <sam@example.com>" "the destination's trailer, above the sender's Signed-off-by:"
cl=$(cat "$X"/rest/0000-*.eml)
like "$cl" "^Subject: \[PATCH RFC 0/2\] beta and generic: the rest" "the second has a cover letter from its file"
like "$cl" "^  \[PATCH v2\] alpha: use asm-generic/param.h" "which names what it needs first"
like "$(sed -n '/^Cc: /,/^[A-Z]/p' "$X"/rest/0002-*.eml)" "linux-arch@example.org" \
	"every mail of a destination has all its recipients"
like "$(grep '^In-Reply-To: ' "$X"/rest/0001-*.eml)" "$(grep '^Message-Id: ' "$X"/rest/0000-*.eml | sed 's/^Message-Id: //')" \
	"the mails are threaded"
like "$out" "B4 +b4 am: 3 patches of 2 destinations" "b4 am takes each destination on its base"
rp=$(cat "$SD/report.md")
like "$rp" "\| 2 \| rest \| beta: use asm-generic/param.h \| ok .* \| ok .* \| Beta Maintainer" \
	"the report has a row for each patch"
like "$rp" '\| Beta Maintainer <beta@example.org>, "Beta Reviewer \(ACME\)" <beta-review@example.org>, linux-beta@example.org' \
	"with its recipients, a name's own parentheses kept"
like "$rp" "TEST_XXX, in beta-param.patch: beta keeps its XXX on purpose" \
	"and lists the ignored checkpatch types with their reasons"

# A commit that does not build.
: > "$TMP/built"
out=$(SUBMIT_BUILD='case "$(git -C "$TREE" log -1 --format=%s)" in beta*) exit 1 ;; esac' $M submit-check 2>&1) && rc=0 || rc=$?
is "$rc" 2 "a commit that does not build fails it"
like "$out" "commit 2 \(beta: use asm-generic/param.h\) does not build" "naming the commit"
like "$(cat "$SD/report.md")" "Result: \*\*FAILED\*\*" "the report says so"

# checkpatch finds something that is not ignored; beta's XXX is.
sed -i 's/^+generic-y += param.h$/+generic-y += param.h # XXX/' "$QUILT_PATCHES/alpha-param.patch" "$QUILT_PATCHES/beta-param.patch"
out=$($M submit-check 2>&1) && rc=0 || rc=$?
like "$rc $(echo $out)" "^2 .*checkpatch --strict on fix/0001-alpha-use-asm-generic-param-h.eml \(alpha-param.patch\): 1 errors" \
	"a checkpatch error fails it, naming the mail"
sed -i 's/ # XXX$//' "$QUILT_PATCHES/alpha-param.patch"

# b4 must see the thread: a failing b4 am fails it.
check "fixed, it passes again (the worktree is reused)" $M submit-check
# BASE_COMMIT: the mainline commit in the covers, the round trip on the export's own baseline.
out=$(BASE_COMMIT=0123456789abcdef0123456789abcdef01234567 $M submit-check 2>&1) && rc=0 || rc=$?
is "$rc" 0 "BASE_COMMIT=SHA: submit-check passes"
like "$out" "BASE +rest: base-commit 0123456789ab \(BASE_COMMIT\) and 1 prerequisite-patch-id: lines" \
	"the second destination is on that commit, with the first's patch as a prerequisite"
like "$out" "B4 +b4 am: 3 patches of 2 destinations" "b4 am and git am still give the series' tree" 
mkdir -p "$TMP/bin"
printf '#!/bin/sh\ncase " $* " in *" am "*) echo "b4 stand-in: fails"; exit 1 ;; esac\nexec %s "$@"\n' "$(command -v b4)" > "$TMP/bin/b4"
chmod +x "$TMP/bin/b4"
out=$(PATH=$TMP/bin:$PATH scripts/submit-check 2>&1) && rc=0 || rc=$?
like "$rc $(echo $out)" "^1 .*b4 am of the mails of fix failed" "a failing b4 am fails it"
done_testing
