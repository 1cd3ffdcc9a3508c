#!/usr/bin/env bash
# Renders an analysis report in headless Chromium to a PNG, for a person to
# look at (not run in CI: it needs Debian's chromium package).
#   analysis/render_report.sh gevo-runs/<run>/analysis/report.html report.png
set -euo pipefail
html="$(realpath "$1")"
png="${2:-${html%.html}.png}"
chromium="${CHROMIUM:-/usr/bin/chromium}"
[[ -x "$chromium" ]] || { echo "error: no $chromium (apt-get install chromium)" >&2; exit 2; }
profile="$(mktemp -d)"
trap 'rm -rf "$profile"' EXIT
"$chromium" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
  --disable-background-networking --disable-component-update --disable-sync \
  --user-data-dir="$profile" --hide-scrollbars --window-size=1200,2400 \
  --screenshot="$(realpath -m "$png")" "file://$html" 2>/dev/null
echo "wrote $png"
