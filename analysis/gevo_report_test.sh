#!/usr/bin/env bash
# The gevo_report rule's artifacts: the report in three forms and the minimal
# patch, with the labels of the two edits that matter.
set -euo pipefail
fail() { echo "FAIL: $*" >&2; exit 1; }
for f in "$@"; do
  case "$f" in
    *.html) html="$f" ;; *.md) md="$f" ;; *.json) json="$f" ;; *.min.gevo) min="$f" ;;
  esac
done
grep -q "<svg" "$html" || fail "no plot in $html"
grep -q "</html>" "$html" || fail "truncated $html"
grep -q "training schedule change</span><br/>epochs 5 -&gt; 2" "$html" || fail "no schedule label in the html"
grep -q "initialisation change" "$md" || fail "no initialisation label in the markdown"
grep -q '"label": "training schedule change"' "$json" || fail "no label in the json"
[[ $(grep -c "^constant" "$min") == 2 ]] || fail "the minimal patch should keep 2 edits: $(cat "$min")"
echo PASS
