#!/bin/sh
# make export on the mini baseline (its stand-in get_maintainer.pl): the
# sender's identity stamped in place of the placeholder (From:, one
# Signed-off-by: for two, another author's From: and trailers kept), no
# identity or a placeholder left refused; one b4 series a destination of
# the series file, each with its cover letter, version, prefix,
# base-commit and To:/Cc:; a destination with no maintainer warned and
# listed; uncommitted patches, a placeholder in a patch's content, a
# missing b4 and wrong destination lines refused; b4 am + git am of the mails give the quilt tree.
. "$(dirname "$0")/tap.sh"
. "$T_DIR/mini.sh"
command -v b4 >/dev/null 2>&1 || skip_all "b4 is not installed (make deps)"
mini_setup
unset SENDER ALLOW_DIRTY
X=$OUT/export/$BASE
g=$X/git
P=$QUILT_PATCHES
PH="asm-generic series <series@example.org>"

# alpha: the placeholder's, signed twice; beta: Rhea's, reviewed, then the
# placeholder's sign-off; generic: a header no one maintains but a list;
# docs: a file no one is named for.
sed -i "s/^Signed-off-by: $PH$/&\n&/" "$P/alpha-param.patch"
sed -i -e "s/^From: $PH$/From: Rhea Author <rhea@example.net>/" \
	-e "s/^Signed-off-by: $PH$/Reviewed-by: Ivo Reviewer <ivo@example.net>\nSigned-off-by: Rhea Author <rhea@example.net>\n&/" \
	"$P/beta-param.patch"
cp "$T_DIR/fixtures/mini/generic-param.patch" "$P/"
cat > "$P/docs-notes.patch" <<EOP
From: $PH
Subject: [PATCH] Documentation: add notes

Add notes.

Verified: the fixture tree has no build; this is a test patch.

Signed-off-by: $PH
---
--- /dev/null
+++ b/Documentation/notes.txt
@@ -0,0 +1 @@
+Notes.
EOP
mkdir -p "$P/covers"
for d in fix rest generic docs; do
	printf '%s: the %s series\n\nThe %s series, on @BASE@.\n' "$d" "$d" "$d" > "$P/covers/$d"
done
cat > "$QUILT_SERIES" <<'EOS'
# four destinations
#@ destination: fix
#@ version: 3
#@ trailer: Cc: stable@example.org
#@ cover: covers/fix
alpha-param.patch
#@ destination: rest
#@ prefix: RFC
#@ cover: covers/rest
beta-param.patch
#@ destination: generic
#@ cover: covers/generic
generic-param.patch
#@ destination: docs
#@ cover: covers/docs
docs-notes.patch
EOS
cp "$QUILT_SERIES" "$TMP/series.good"
noid() {
	env -u SENDER HOME="$TMP/home" GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1 "$@"
}
msg() { git --git-dir="$g" log -1 --format=%B "$1"; }
M="make -s -C $REPO"

plan 60

# The sender.
if [ -n "$(git -C "$REPO" config --local user.email 2>/dev/null)" ]; then
	_result 0 "# SKIP the repository has its own user.email"
	_result 0 "# SKIP"
else
	out=$(noid scripts/export 2>&1) && rc=0 || rc=$?
	isnt "$rc" 0 "no sender identity: refused"
	like "$out" "no sender identity: .*git config user.name .*SENDER=\"Your Name <you@example.org>\" make export" \
		"saying how to set one"
fi
out=$(SENDER=nobody scripts/export 2>&1) && rc=0 || rc=$?
like "$rc $out" "^1 .*the sender \"nobody\" \(SENDER\) is not \"Name <address>\"" "a SENDER that is not Name <address>: refused"
out=$(SENDER="$PH" scripts/export 2>&1) && rc=0 || rc=$?
like "$rc $out" "^1 .*is the repository's placeholder" "the placeholder as the sender: refused"
# one line, one address with a domain: the rule lint applies to From:
out=$(SENDER="$(printf 'Jane Tester <jane@example.org>\nBcc: evil@attacker.org')" scripts/export 2>&1) && rc=0 || rc=$?
like "$rc $(echo $out)" "^1 .*the sender \"Jane Tester <jane@example.org> Bcc: evil@attacker.org\" \(SENDER\) is not" \
	"a SENDER with a second line (a Bcc: header): refused"
out=$(SENDER='J <a@b>' scripts/export 2>&1) && rc=0 || rc=$?
like "$rc $out" "^1 .*the sender \"J <a@b>\" \(SENDER\) is not .*local@domain.tld" "a SENDER without a domain: refused"
out=$(SENDER='Jane <jane@localhost>' scripts/export 2>&1) && rc=0 || rc=$?
like "$rc $out" "^1 .*the sender \"Jane <jane@localhost>\" \(SENDER\) is not" "a SENDER at localhost: refused"
printf '[user]\n\tname = Gita Config\n\temail = gita@example.com\n' > "$TMP/gitconfig"
out=$(env -u SENDER GIT_CONFIG_GLOBAL="$TMP/gitconfig" GIT_CONFIG_NOSYSTEM=1 scripts/export 2>&1) && rc=0 || rc=$?
is "$rc" 0 "git config user.name and user.email are the sender"
like "$(grep -h '^From: ' "$X"/fix/*.eml)" "^From: Gita Config <gita@example.com>$" "the mails are from them"

export SENDER="Sam Sender <sam@example.com>"
out=$(scripts/export 2>&1) && rc=0 || rc=$?
is "$rc" 0 "SENDER= is the sender"
a=$(awk -F'\t' '$2 == "alpha-param.patch" { print $4 }' "$X/patches")
b=$(awk -F'\t' '$2 == "beta-param.patch" { print $4 }' "$X/patches")
is "$(git --git-dir="$g" log -1 --format='%an <%ae>' "$a")" "$SENDER" "a placeholder From: makes the sender the author"
is "$(msg "$a" | grep -c '^Signed-off-by: ')" 1 "two placeholder Signed-off-by: lines become one"
is "$(msg "$a" | sed -n '/^Cc: /,$p')" "Cc: stable@example.org
Signed-off-by: $SENDER" "the sender's, below the destination's trailer"
is "$(git --git-dir="$g" log -1 --format='%an <%ae>' "$b")" "Rhea Author <rhea@example.net>" "another author stays the author"
is "$(msg "$b" | sed -n '/^Reviewed-by: /,$p')" "Reviewed-by: Ivo Reviewer <ivo@example.net>
Signed-off-by: Rhea Author <rhea@example.net>
Signed-off-by: $SENDER" "their trailers stay; the placeholder's sign-off is the sender's"
bm=$(cat "$X"/rest/*.eml)
like "$bm" "^From: Sam Sender <sam@example.com>" "their mail is from the sender"
like "$bm" "^From: Rhea Author <rhea@example.net>$" "with their From: first in the body"
is "$(grep -rl 'series@example.org' "$X"/fix "$X"/rest "$X"/generic "$X"/docs | wc -l)" 0 "no mail has the placeholder"

# One series a destination.
is "$(cut -f1 "$X/destinations" | paste -sd' ')" "fix rest generic docs" "one series a destination, in series order"
is "$(ls "$X/fix" "$X/rest" "$X/generic" "$X/docs" | grep -c '\.eml$')" 4 "b4 wrote each one's mail"
like "$(cat "$X"/fix/*.eml)" "^Subject: \[PATCH v3\] alpha: use asm-generic/param.h" "with its version"
like "$bm" "^Subject: \[PATCH RFC\] beta: use asm-generic/param.h" "and prefix"
like "$bm" "^The rest series, on 9.9.1.$" "and cover letter, @BASE@ replaced"
like "$(cat "$X"/fix/*.eml)" "^base-commit: $(git --git-dir="$g" rev-parse baseline)$" "the first is on the baseline"
like "$bm" "^base-commit: $a$" "the next on the first"
like "$bm" "^  \[PATCH v3\] alpha: use asm-generic/param.h$" "whose mail its cover letter names"
to=0
for m in "$X"/*/*.eml; do grep -q '^To: ' "$m" && to=$((to + 1)); done
is "$to" 4 "every mail has a To:"
like "$bm" "^To: Beta Maintainer <beta@example.org>" "get_maintainer.pl's maintainer"
like "$(sed -n '/^Cc: /,/^[^ C]/p' "$X"/rest/*.eml | tr -d '\n')" "\"Beta Reviewer \\(ACME\\)\" <beta-review@example.org>, +linux-beta@example.org" \
	"reviewers and lists Cc:"
like "$out" "warning: destination generic: scripts/get_maintainer.pl names no maintainer for its patches \(generic-param.patch\)" \
	"a destination with no maintainer is warned about"
is "$(cat "$X/no-maintainer")" "generic: generic-param.patch
docs: docs-notes.patch" "and listed"
like "$(grep '^To: ' "$X"/docs/*.eml)" "^To: Sam Sender <sam@example.com>$" "one with no recipient at all goes to the sender alone"
is "$(git --git-dir="$g" for-each-ref --format='%(refname:short)' 'refs/heads/b4/*' | paste -sd' ')" \
	"b4/docs b4/fix b4/generic b4/rest" "each is a b4 prep branch"
cid=$(git --git-dir="$g" config branch.b4/rest.b4-tracking | sed -n 's/.*"change-id": *"\([^"]*\)".*/\1/p')
like "$(git --git-dir="$g" config branch.b4/rest.b4-tracking)" '"prefixes": \["RFC"\]' "with its prefixes"
check "exported again" scripts/export
is "$(git --git-dir="$g" config branch.b4/rest.b4-tracking | sed -n 's/.*"change-id": *"\([^"]*\)".*/\1/p')" "$cid" \
	"a destination keeps its change-id"
check "make tree" $M tree
check "b4 am and git am of the mails, destination after destination, give the quilt tree" am_matches_tree

# Bad input.
sed -i "s/^Signed-off-by: Rhea/Acked-by: $PH\n&/" "$P/beta-param.patch"
out=$(scripts/export 2>&1) && rc=0 || rc=$?
like "$rc $out" "^1 .*beta-param.patch: the placeholder series@example.org is still in its message .*Acked-by: asm-generic series" \
	"a placeholder left in a trailer: refused, naming the patch"
sed -i "/^Acked-by: $PH/d" "$P/beta-param.patch"
sed -i 's/^+Notes.$/+Notes, by asm-generic series <series@example.org>./' "$P/docs-notes.patch"
out=$(scripts/export 2>&1) && rc=0 || rc=$?
like "$rc $out" "^1 .*docs-notes.patch adds the placeholder series@example.org to the tree \(line [0-9]+: \+Notes, by" \
	"a patch that adds the placeholder to the tree: refused"
like "$(ALLOW_PLACEHOLDER=1 scripts/export 2>&1)" "warning: docs-notes.patch adds the placeholder .*exported anyway \(ALLOW_PLACEHOLDER=1\)" \
	"ALLOW_PLACEHOLDER=1 exports it, warned"
sed -i 's/^+Notes, by .*/+Notes./' "$P/docs-notes.patch"
{ echo alpha-param.patch; grep -vx 'alpha-param.patch' "$TMP/series.good"; } > "$QUILT_SERIES"
out=$(scripts/export 2>&1) && rc=0 || rc=$?
like "$rc $(echo $out)" "^1 .*alpha-param.patch is above the first \"#@ destination:\" line" "a patch without destination: refused"
sed 's/^#@ destination: generic/#@ destination: fix/' "$TMP/series.good" > "$QUILT_SERIES"
like "$(scripts/export 2>&1)" "destination fix again: a destination is one run of patches" "a destination twice: refused"
sed 's|^#@ cover: covers/docs|#@ cover: covers/nothere|' "$TMP/series.good" > "$QUILT_SERIES"
like "$(scripts/export 2>&1)" "destination docs: no cover letter .*covers/nothere" "a missing cover letter: refused"
cp "$TMP/series.good" "$QUILT_SERIES"
# uncommitted: the patches in a git repository where they are only added
git init -q "$TMP/repo"
cp -a "$P" "$TMP/repo/patches"
git -C "$TMP/repo" add patches
echo "# an edit" >> "$TMP/repo/patches/series"
out=$(QUILT_PATCHES=$TMP/repo/patches QUILT_SERIES=$TMP/repo/patches/series scripts/export 2>&1) && rc=0 || rc=$?
like "$rc $(echo $out)" "^1 .*uncommitted changes to .*patches/series, .*alpha-param.patch.*ALLOW_DIRTY=1" \
	"uncommitted patches and series: refused, naming them"
out=$(ALLOW_DIRTY=1 QUILT_PATCHES=$TMP/repo/patches QUILT_SERIES=$TMP/repo/patches/series scripts/export 2>&1) && rc=0 || rc=$?
like "$rc $(echo $out)" "^0 .*warning: exporting uncommitted changes \(ALLOW_DIRTY=1\)" "ALLOW_DIRTY=1 exports them, warned"
# no b4: every program of the PATH but b4
mkdir -p "$TMP/nob4"
for d in $(echo "$PATH" | tr ':' ' '); do
	for f in "$d"/*; do
		n=${f##*/}
		[ "$n" != b4 ] && [ -x "$f" ] && [ ! -e "$TMP/nob4/$n" ] && ln -s "$f" "$TMP/nob4/$n"
	done
done 2>/dev/null
out=$(PATH=$TMP/nob4 scripts/export 2>&1) && rc=0 || rc=$?
like "$rc $out" "^1 .*'b4' not found: install the Debian package 'b4'" "a missing b4: refused, naming its package"
# A From: that is not an address, and an export that fails part way.
cp "$P/docs-notes.patch" "$TMP/docs-notes.good"
sed -i 's/^From: .*/From: Jane Doe <Jane Doe>/' "$P/docs-notes.patch"
out=$(scripts/export 2>&1) && rc=0 || rc=$?
like "$rc $(echo $out)" "^1 .*docs-notes.patch: From: \"Jane Doe <Jane Doe>\" is not \"Name <address>\"" "From: Jane Doe <Jane Doe>: refused"
like "$out" "left incomplete, marked .*/STALE" "the export that failed part way says so"
check "and leaves the STALE mark beside the old mails" test -f "$X/STALE"
cp "$TMP/docs-notes.good" "$P/docs-notes.patch"
check "a complete export removes it" sh -c "scripts/export && test ! -e '$X/STALE'"
# base-commit: the export's own baseline, warned; BASE_COMMIT= the mainline one.
like "$(scripts/export 2>&1)" "warning: base-commit: [0-9a-f]{12} is this export's import of the .* BASE_COMMIT=" \
	"without BASE_COMMIT the export warns that its base-commit is its own import"
out=$(BASE_COMMIT=v9.9 scripts/export 2>&1) && rc=0 || rc=$?
like "$rc $out" "^1 .*BASE_COMMIT=v9.9 is not a full commit id" "a BASE_COMMIT that is not a commit id: refused"
mb=0123456789abcdef0123456789abcdef01234567
out=$(BASE_COMMIT=$mb scripts/export 2>&1) && rc=0 || rc=$?
is "$rc" 0 "BASE_COMMIT=SHA: exported"
is "$(cat "$X"/*/*.eml | grep -c "^base-commit: $mb$")" 4 "every destination's cover letter is on that commit"
is "$(grep -c '^prerequisite-patch-id: [0-9a-f]\{40\}$' "$X"/generic/*.eml)" 2 \
	"the third names the two patches before it by patch-id"
# A MAINTAINERS entry the patch adds: its placeholder M: is the sender.
printf -- '--- /dev/null\n+++ b/MAINTAINERS\n@@ -0,0 +1,3 @@\n+NOTES\n+M:\t%s\n+F:\tDocumentation/notes.txt\n' "$PH" \
	>> "$P/docs-notes.patch"
out=$(scripts/export 2>&1) && rc=0 || rc=$?
like "$rc $out" "^0 .*docs-notes.patch: MAINTAINERS M: $SENDER \(1 line\(s\) of the placeholder\)" \
	"a MAINTAINERS entry's placeholder M: becomes the sender: exported, said"
like "$(cat "$X"/docs/*.eml)" "^\+M:	$SENDER$" "the mail's entry names the sender"
is "$(grep -rl 'series@example.org' "$X"/docs | wc -l)" 0 "and has no placeholder left"
# a later patch with the entry's M: line as context applies to the stamped tree
printf 'From: %s\nSubject: [PATCH] MAINTAINERS: notes are a list too\n\nAdd the list.\n\nSigned-off-by: %s\n---\n--- a/MAINTAINERS\n+++ b/MAINTAINERS\n@@ -1,3 +1,4 @@\n NOTES\n M:\t%s\n+L:\tnotes@example.org\n F:\tDocumentation/notes.txt\n' \
	"$PH" "$PH" "$PH" > "$P/docs-more.patch"
echo docs-more.patch >> "$QUILT_SERIES"
out=$(scripts/export 2>&1) && rc=0 || rc=$?
like "$rc $(echo $out)" "^0 .*docs-more.patch: MAINTAINERS M: $SENDER" "a later patch whose context is the placeholder's M: line: stamped too, exported"
cp "$TMP/series.good" "$QUILT_SERIES"
rm -f "$P/docs-more.patch"
cp "$TMP/docs-notes.good" "$P/docs-notes.patch"
done_testing
