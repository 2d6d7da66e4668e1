#!/usr/bin/env bash
# lab/tests/test_report.sh [RUN_DIR]: render lab/report's page in headless
# Chromium and check that the scenario x kernel matrix is on it: in the DOM
# Chromium builds (one row a scenario, one cell a kernel, PASS/FAIL as the
# .verdict files say) and on the screenshot (report.png has the pass/fail
# cell colours). Without RUN_DIR it uses a copy of lab/tests/data/run; with
# one, it writes RUN_DIR/report.html and report.png. Prints KTAP; exit 1 when
# a check failed, 2 when chromium (Debian's chromium package) is missing.
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
lab=$(dirname "$here")
CHROMIUM=${CHROMIUM:-chromium}
export COMPARE=${COMPARE:-$(dirname "$lab")/build/host/compare}

if ! command -v "$CHROMIUM" >/dev/null; then
	echo "test_report: $CHROMIUM is not installed: apt-get install chromium (Debian's package)" >&2
	exit 2
fi
command -v python3 >/dev/null || { echo "test_report: python3 is missing (reads the PNG)" >&2; exit 2; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/test_report.XXXXXX") || { echo "test_report: mktemp -d failed" >&2; exit 2; }
trap 'rm -rf "$tmp"' EXIT
if [ $# -ge 1 ]; then
	# absolute: Chromium gets it as a file:// URL
	run=$(cd "$1" && pwd -P) || { echo "test_report: $1 is not a directory" >&2; exit 2; }
else
	run=$tmp/run
	mkdir "$run" && cp "$here"/data/run/* "$run"/ || { echo "test_report: copying the fixture run failed" >&2; exit 2; }
	export RESULTS=$tmp/results	# no bench plots from the real results/
	# one failing boot, so that both colours must show
	printf 'FAIL\n60.0\ntimeout after 60 s\n' >"$run/pivot-full-debug.verdict"
fi

n=0 bad=0
ok() { n=$((n + 1)); printf 'ok %d %s\n' "$n" "$1"; }
notok() { n=$((n + 1)) bad=$((bad + 1)); printf 'not ok %d %s\n' "$n" "$1"; }
check() { # NAME COMMAND...
	local name=$1
	shift
	if "$@"; then ok "$name"; else notok "$name"; fi
}

echo 'KTAP version 1'
echo '1..5'
if "$lab/report" --png "$run" >"$tmp/report.out" 2>&1; then
	ok report_png
else
	sed 's/^/# /' "$tmp/report.out"
	notok report_png
fi

# the boots the matrix must show: NAME VERDICT per line
expected=$tmp/expected
for f in "$run"/*.log; do
	[ -f "${f%.log}.cmdline" ] || continue
	v=$(head -n 1 "${f%.log}.verdict" 2>/dev/null || true)
	[ "$v" = PASS ] || v=FAIL
	printf '%s %s\n' "$(basename "$f" .log)" "$v"
done | sort >"$expected"

dom=$tmp/dom.html
timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu --dump-dom "file://$run/report.html" \
	>"$dom" 2>"$tmp/chromium.err"
dom_dumped() {
	[ -s "$dom" ] && return 0
	echo "# chromium --dump-dom file://$run/report.html printed nothing; its stderr ends:"
	tail -n 5 "$tmp/chromium.err" | sed 's/^/#   /'
	return 1
}
check chromium_dump_dom dom_dumped

matrix_in_dom() {
	# Chromium's own DOM: the parser adds <tbody>, which the file does not have
	if ! tr -d '\n' <"$dom" | grep -q '<table class="matrix" id="matrix"><tbody>'; then
		echo "# the DOM has no matrix table (with Chromium's tbody)"
		return 1
	fi
	local want got
	want=$(wc -l <"$expected")
	got=$(grep -oE '<td class="(pass|fail)" title="[^"]*"><a href="[^"]+\.log">(PASS|FAIL)</a>' "$dom" |
		sed -E 's/.*href="([^"]+)\.log">(PASS|FAIL)<\/a>/\1 \2/' | sort)
	if [ "$got" != "$(cat "$expected")" ]; then
		echo "# the matrix cells (log verdict) are:"
		printf '%s\n' "$got" | sed 's/^/#   /'
		echo "# want:"
		sed 's/^/#   /' "$expected"
		return 1
	fi
	echo "# $want boots in the matrix, each linked to its log with its verdict"
}
check matrix_in_dom matrix_in_dom

# the screenshot: a PNG with pixels of the pass (and, when a boot failed, fail) cell colours
colours() {
	python3 - "$run/report.png" "$expected" <<'EOF'
import sys, zlib, struct
path, expected = sys.argv[1], sys.argv[2]
data = open(path, 'rb').read()
if data[:8] != b'\x89PNG\r\n\x1a\n':
    print('# report.png is not a PNG'); sys.exit(1)
pos, idat, w = 8, b'', 0
while pos < len(data):
    ln, typ = struct.unpack('>I4s', data[pos:pos + 8])
    body = data[pos + 8:pos + 8 + ln]
    if typ == b'IHDR':
        w, h, depth, ctype = struct.unpack('>IIBB', body[:10])
    elif typ == b'IDAT':
        idat += body
    pos += 12 + ln
if depth != 8 or ctype not in (2, 6):
    print('# report.png: colour type %d depth %d, not RGB(A) 8' % (ctype, depth)); sys.exit(1)
bpp = 3 if ctype == 2 else 4
raw, stride, prev, rows = zlib.decompress(idat), w * bpp, bytearray(w * bpp), []
i = 0
for y in range(h):
    f, line = raw[i], bytearray(raw[i + 1:i + 1 + stride]); i += 1 + stride
    for x in range(stride):
        a = line[x - bpp] if x >= bpp else 0
        b = prev[x]; c = prev[x - bpp] if x >= bpp else 0
        if f == 1: line[x] = (line[x] + a) & 255
        elif f == 2: line[x] = (line[x] + b) & 255
        elif f == 3: line[x] = (line[x] + (a + b) // 2) & 255
        elif f == 4:
            p = a + b - c; pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    rows.append(line); prev = line
def count(rgb):
    return sum(1 for r in rows for x in range(0, stride, bpp) if tuple(r[x:x + 3]) == rgb)
verdicts = open(expected).read().split()
ok = True
for name, rgb in (('PASS', (0xd8, 0xf5, 0xd8)), ('FAIL', (0xf8, 0xd0, 0xd0))):
    if name not in verdicts:
        continue
    n = count(rgb)
    print('# %s cells: %d pixels of #%02x%02x%02x in the %dx%d screenshot' % (name, n, *rgb, w, h))
    ok = ok and n > 100
sys.exit(0 if ok else 1)
EOF
}
check screenshot_has_matrix colours
check report_is_one_file bash -c '! grep -qiE "(src|href)=\"(https?:)?//" "$1"' _ "$run/report.html"
printf '# %d passed, %d failed\n' $((n - bad)) "$bad"
[ "$bad" -eq 0 ]
