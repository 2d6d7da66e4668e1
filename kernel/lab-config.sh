#!/usr/bin/env bash
# kernel/lab-config.sh LIKE: the config fragments of lab kernel LIKE (kernel/kernels), as one
# fragment to merge into a kernel tree of your own (scripts/kconfig/merge_config.sh, on top of
# your config), so that make lab KERNEL_IMAGE=... LIKE=LIKE can boot it. CONFIG_IKCONFIG=y is
# added, so that the lab can read the options back from the image and name a missing one.
# The options come on top of tinyconfig in the lab; a full distribution config has most.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
[ $# -eq 1 ] || { echo "usage: $0 LIKE" >&2; exit 2; }
line=$(awk -v k="$1" '!/^#/ && $1 == k { print; exit }' "$here/kernels")
[ -n "$line" ] || { echo "lab-config: unknown kernel '$1' (kernel/kernels: $(awk '!/^#/ && NF { printf "%s ", $1 }' "$here/kernels"))" >&2; exit 2; }
read -r -a frags <<<"$(awk '{ for (i = 3; i <= NF && $i !~ /=/; i++) printf "%s ", $i }' <<<"$line")"
printf '# nullfs-lab: what the scenarios of lab kernel %s need (kernel/config/%s)\n' "$1" "${frags[*]}"
printf '# merge: scripts/kconfig/merge_config.sh .config THIS-FILE; make olddefconfig\n'
printf '# (the kernel must also carry the series up to %s: kernel/patches/)\n' "$(awk '{ print $2 }' <<<"$line")"
printf 'CONFIG_IKCONFIG=y\n'
for f in "${frags[@]}"; do
	printf '\n# --- %s\n' "$f"
	grep -E '^(CONFIG_[A-Za-z0-9_]+=|# CONFIG_[A-Za-z0-9_]+ is not set)' "$here/config/$f"
done
