#!/usr/bin/env bash
# kernel/check-image.sh IMAGE LIKE
# Does a kernel built elsewhere (an upstream tree, a distribution kernel) have what the
# scenarios need to boot it with the expectations of lab kernel LIKE? The options are those
# of LIKE's config fragments (kernel/kernels: lab.config, real-initrd.config, full.config,
# ...): every CONFIG_X=VALUE line must be in IMAGE's own config, read from the image
# (CONFIG_IKCONFIG: scripts/extract-ikconfig of the Debian tree, kernel/build.sh tree).
# Prints one line per missing or different option, by name, then a summary.
# Exit status: 0 every option is there; 1 some are missing (listed); 2 bad input; 3 IMAGE
# has no embedded config, so nothing can be checked (build it with CONFIG_IKCONFIG=y).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
die() { printf 'check-image: %s\n' "$*" >&2; exit 2; }
[ $# -eq 2 ] || { echo "usage: $0 IMAGE LIKE" >&2; exit 2; }
image=$1 like=$2
[ -f "$image" ] || die "$image: no such file"
line=$(awk -v k="$like" '!/^#/ && $1 == k { print; exit }' "$here/kernels")
[ -n "$line" ] || die "unknown kernel '$like' (kernel/kernels)"
read -r -a frags <<<"$(awk '{ for (i = 3; i <= NF && $i !~ /=/; i++) printf "%s ", $i }' <<<"$line")"
extract=${EXTRACT_IKCONFIG:-}
if [ -z "$extract" ]; then
	tree=$("$here/build.sh" tree) || die "kernel/build.sh tree failed (the Debian source, for scripts/extract-ikconfig)"
	extract=$tree/scripts/extract-ikconfig
fi
[ -x "$extract" ] || die "$extract is missing"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/check-image.XXXXXX") || die "mktemp -d failed"
trap 'rm -rf "$tmp"' EXIT
if ! "$extract" "$image" >"$tmp/config" 2>/dev/null || ! grep -q '^CONFIG_' "$tmp/config"; then
	printf 'check-image: %s has no embedded config (CONFIG_IKCONFIG): the %d fragment(s) of %s (%s) cannot be checked\n' \
		"$image" "${#frags[@]}" "$like" "${frags[*]}" >&2
	exit 3
fi
missing=0 n=0
for f in "${frags[@]}"; do
	[ -f "$here/config/$f" ] || die "kernel/config/$f is missing"
	while IFS= read -r opt; do
		n=$((n + 1))
		name=${opt%%=*} want=${opt#*=}
		have=$(sed -n "s/^$name=//p" "$tmp/config" | head -n 1)
		if [ "$have" != "$want" ]; then
			missing=$((missing + 1))
			printf 'check-image: %s: want %s=%s (%s), the image has %s\n' "$(basename "$image")" \
				"$name" "$want" "$f" "${have:+$name=$have}${have:-it not set}"
		fi
	done < <(grep -E '^CONFIG_[A-Za-z0-9_]+=' "$here/config/$f")
done
if [ "$missing" -gt 0 ]; then
	printf 'check-image: %d of the %d options %s needs are missing: merge make lab-config LIKE=%s into its config\n' \
		"$missing" "$n" "$like" "$like"
	exit 1
fi
printf 'check-image: %s has every one of the %d options of %s (%s)\n' "$image" "$n" "$like" "${frags[*]}"
