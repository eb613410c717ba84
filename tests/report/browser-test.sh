#!/usr/bin/env bash
# The HTML report in a real browser: analyzes kernels/seeds_small.json offline with the recorded
# H200 measurements (--measured), writes the page and the `compare --html` page, loads both in
# headless Chromium, checks the rendered DOM and the console (check-dom.py), and keeps
# screenshots (1280 px light, 1280 px dark, phone) in OUT_DIR.
#   browser-test.sh WARPLENS_BIN OUT_DIR
# Exit 0 ok, 1 a check failed, 77 skipped (no CUDA toolchain to compile the seed kernels).
set -euo pipefail
bin="$1"; out="$2"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
mkdir -p "$out"
cd "$root"
measured=validation/h200/measured_seeds_small.json

browser=""
for b in "${CHROMIUM:-}" chromium chromium-browser google-chrome; do
  [[ -n "$b" ]] && command -v "$b" >/dev/null 2>&1 && { browser="$(command -v "$b")"; break; }
done
if [[ -z "$browser" ]]; then
  echo "report_browser: no Chromium found (scripts/setup installs the Debian package 'chromium'," \
       "or set CHROMIUM=/path/to/chrome)" >&2
  exit 1
fi

export WARPLENS_CACHE="${WARPLENS_CACHE:-$out/cache}"
t0=$(date +%s.%N)
status=0
"$bin" suite kernels/seeds_small.json --format json -o "$out/predicted.json" \
  --html "$out/report.html" --measured "$measured" 2>"$out/suite.log" || status=$?
t1=$(date +%s.%N)
if [[ $status -ne 0 ]]; then
  if grep -qi "nvcc\|toolchain\|cuda" "$out/suite.log"; then
    echo "report_browser: SKIPPED, the seed kernels need the CUDA toolchain:" >&2
    tail -3 "$out/suite.log" >&2
    exit 77
  fi
  echo "report_browser: warplens suite failed (status $status):" >&2
  tail -20 "$out/suite.log" >&2
  exit 1
fi
awk "BEGIN{printf \"suite + report: %.1f s\\n\", $t1 - $t0}"
# compare's own verdicts are checked by the validation tests; here only its page matters
rm -f "$out/compare.html"
cstatus=0
timeout 60 "$bin" compare "$out/predicted.json" "$measured" --html "$out/compare.html" \
  --format json -o "$out/compare.json" || cstatus=$?
[[ -s "$out/compare.html" ]] || { echo "report_browser: compare --html wrote no page (status $cstatus)" >&2; exit 1; }
[[ $cstatus -eq 0 ]] || echo "report_browser: note: warplens compare exited with status $cstatus after writing its page" >&2

# One headless Chromium run; the console goes to $2.log (--enable-logging=stderr).
chrome() { # URL NAME [extra flags...]
  local url="$1" name="$2"; shift 2
  timeout 60 "$browser" --headless --no-sandbox --disable-gpu --no-first-run \
    --disable-extensions --disable-background-networking --user-data-dir="$out/profile" \
    --enable-logging=stderr --v=0 "$@" "$url" >"$out/$name.out" 2>"$out/$name.log"
}
page="file://$out/report.html"
chrome "$page" dom-default --dump-dom
chrome "$page?expand=all" dom-expanded --dump-dom
chrome "file://$out/compare.html?expand=all" dom-compare --dump-dom
chrome "$page" shot-1280 --window-size=1280,2400 --hide-scrollbars --screenshot="$out/report-1280.png"
# (headless screenshots of a scrolled page come out blank: the filter (?q=) brings a launch up)
chrome "$page?theme=dark&expand=all&q=transpose_shared32_f32_64" shot-dark --window-size=1280,2600 \
  --hide-scrollbars --screenshot="$out/report-1280-dark.png"
chrome "$page?expand=all&q=transpose_naive_f32_64" shot-diagram --window-size=1280,2600 \
  --hide-scrollbars --screenshot="$out/report-diagram.png"
chrome "$page" shot-phone --window-size=390,1700 --hide-scrollbars --screenshot="$out/report-phone.png"

python3 "$root/tests/report/check-dom.py" "$out"
