#!/usr/bin/env bash
# lab/tests/test_report.sh [RUN_DIR]: render lab/report/report's page in headless
# Chromium and check that the values table leads it and the scenario x kernel
# matrix is on it: in the DOM Chromium builds (the first table: one group of
# rows a scenario, one row a test, each cell the observed value of the .check
# file, highlighted where it differs from stock's; the matrix: one row a
# scenario, one cell a kernel, PASS/FAIL as the .verdict files say) and on the
# screenshot (report.png shows what leads the page: the highlighted values, or the pass/fail cells). Without RUN_DIR it uses a copy of lab/tests/data/run; with
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
RUN_ARG=("$@")
if [ $# -ge 1 ]; then
	# absolute: Chromium gets it as a file:// URL
	run=$(cd "$1" && pwd -P) || { echo "test_report: $1 is not a directory" >&2; exit 2; }
else
	run=$tmp/run
	mkdir "$run" && cp "$here"/data/run/* "$run"/ || { echo "test_report: copying the fixture run failed" >&2; exit 2; }
	export RESULTS=$tmp/results	# no bench plots from the real results/
	# one failing boot, so that both colours must show
	printf 'FAIL\n60.0\ntimeout after 60 s\n' >"$run/pivot-full-debug.verdict"
	# a not-ok test, and a second scenario (two groups of rows; no .check: values from the log)
	sed -i -E 's/^( +9  kcmp_fs +)ok      distinct/\1not ok  shared  /' "$run/pivot-full-debug.check"
	for k in stock full; do
		for f in "$run/pivot-$k".*; do cp "$f" "$run/legacy-$k.${f##*.}"; done
		rm "$run/legacy-$k.check"
	done
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
echo '1..7'
if "$lab/report/report" --png "$run" >"$tmp/report.out" 2>&1; then
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

# the values table: the page's first table, each cell the observed value of the boot's
# .check (else of its log), "changed" where it differs from stock's, "notok" where not ok
values_in_dom() {
	python3 - "$dom" "$run" <<'EOF'
import sys, os, re, html.parser
dom, run = sys.argv[1], sys.argv[2]
class P(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(); self.tables = []; self.stack = []; self.cell = None; self.row = None
    def handle_starttag(self, tag, a):
        a = dict(a)
        if tag == 'table': self.tables.append(a.get('id')); self.stack.append(a.get('id'))
        if not self.stack or self.stack[-1] != 'values': return
        if tag == 'tr': self.row = {'class': a.get('class', ''), 'cells': []}
        if tag in ('td', 'th'): self.cell = [tag, a.get('class', ''), '']
    def handle_endtag(self, tag):
        if tag == 'table' and self.stack: self.stack.pop()
        if not self.stack or self.stack[-1] != 'values': return
        if tag in ('td', 'th') and self.cell is not None: self.row['cells'].append(self.cell); self.cell = None
        if tag == 'tr' and self.row is not None: rows.append(self.row); self.row = None
    def handle_data(self, d):
        if self.cell is not None: self.cell[2] += d
rows = []
p = P(); p.feed(open(dom).read())
ok = True
def bad(msg):
    global ok; ok = False; print('# ' + msg)
if not p.tables or p.tables[0] != 'values':
    bad('the first table is %r, not the values table' % (p.tables[:1],))
if not rows:
    print('# no values table'); sys.exit(1)
kernels = [c[2] for c in rows[0]['cells'][1:]]
table, scen = {}, None
for r in rows[1:]:
    if 'group' in r['class']:
        scen = r['cells'][0][2].strip(); table[scen] = {}; continue
    table[scen][r['cells'][0][2].strip()] = r['cells'][1:]
def values(name):
    out, chk, log = {}, os.path.join(run, name + '.check'), os.path.join(run, name + '.log')
    if os.path.exists(chk):
        for line in open(chk):
            w = line.split()
            if len(w) >= 5 and re.fullmatch(r'[0-9]+|-', w[0]):
                out[w[1]] = ('not ok', w[4]) if w[2:4] == ['not', 'ok'] else (w[2], w[3])
    else:
        for line in open(log, errors='replace'):
            m = re.match(r' *(not ok|ok) [0-9]+ (\w+).*observed=(\S+)', line)
            if m: out[m.group(2)] = (m.group(1), m.group(3))
    return out
boots = sorted(f[:-4] for f in os.listdir(run) if f.endswith('.log') and os.path.exists(os.path.join(run, f[:-4] + '.cmdline')))
n = changed = 0
for name in boots:
    k = next(k for k in sorted(kernels, key=len, reverse=True) if name.endswith('-' + k))
    s = name[:-len(k) - 1]
    stock = values(s + '-stock') if s + '-stock' in boots else None
    if s not in table:
        bad('no group of rows for scenario %s' % s); continue
    for t, (res, obs) in values(name).items():
        cells = table[s].get(t)
        if cells is None:
            bad('%s: no row for test %s' % (s, t)); continue
        tag, cls, text = cells[kernels.index(k)]
        n += 1
        if text.strip() != obs:
            bad('%s %s on %s: the cell says %r, the boot observed %r' % (s, t, k, text, obs))
        want = stock is not None and k != 'stock' and stock.get(t, ('', '-'))[1] != obs
        changed += want
        if ('changed' in cls.split()) != want:
            bad('%s %s on %s: class %r, want changed=%s (stock: %s)' % (s, t, k, cls, want, stock and stock.get(t)))
        if ('notok' in cls.split()) != (res not in ('ok', 'skip')):
            bad('%s %s on %s: class %r for a %s test' % (s, t, k, cls, res))
print('# %d cells in %d groups hold the observed values, %d highlighted as changed from stock' % (n, len(table), changed))
if changed == 0 and any(b.endswith('-stock') for b in boots) and len(kernels) > 1:
    print('# (no value differs from stock)')
sys.exit(0 if ok and n > 0 else 1)
EOF
}
check values_table_leads values_in_dom
has_pivot_story() {
	# the fixture's pivot on stock and full: "pivot_root | EINVAL | ok" at a glance
	[ $# -ge 1 ] && return 0
	tr -d '\n' <"$dom" | grep -qE '<th class="test">pivot_root</th><td class="val" title="[^"]*">EINVAL</td><td class="val changed" title="[^"]*">ok</td>' ||
		{ echo "# no 'pivot_root: EINVAL | ok (changed)' row"; return 1; }
}
check values_pivot_root has_pivot_story "${RUN_ARG[@]}"

# the screenshot: a PNG with the colours of what leads the page: the highlighted values, or
# the pass (and, when a boot failed, fail) cells
colours() {
	python3 - "$run/report.png" "$expected" "$run/report.html" <<'EOF'
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
changed = '"val changed' in open(sys.argv[3]).read()
# The first screen shows what leads the page: the values table with its highlighted cells when
# a kernel differs from stock; otherwise the pass/fail grid comes first. (The grid's cells are
# checked in the DOM above: with a whole matrix it is far below the first screen.)
lead = [('changed', (0xff, 0xe0, 0x8a))] if changed else \
       [(v, rgb) for v, rgb in (('PASS', (0xd8, 0xf5, 0xd8)), ('FAIL', (0xf8, 0xd0, 0xd0))) if v in verdicts]
for name, rgb in lead:
    n = count(rgb)
    print('# %s cells: %d pixels of #%02x%02x%02x in the %dx%d screenshot' % (name, n, *rgb, w, h))
    ok = ok and n > 100
sys.exit(0 if ok else 1)
EOF
}
check screenshot_shows_the_lead colours
check report_is_one_file bash -c '! grep -qiE "(src|href)=\"(https?:)?//" "$1"' _ "$run/report.html"
printf '# %d passed, %d failed\n' $((n - bad)) "$bad"
[ "$bad" -eq 0 ]
