#!/bin/sh
# Every requirement id (FR12, NFR19) and amendment id (A7) cited in the sources, tests and docs
# must have a row in docs/requirements.md, so a newcomer can look up what a comment refers to.
# Exits non-zero and lists the missing ids otherwise. Run by `make lint`.
set -eu
cd "$(dirname "$0")/.."
table=docs/requirements.md
[ -f "$table" ] || { echo "$table is missing" >&2; exit 1; }
cited=$(grep -rhoE --include='*.swift' --include='*.md' --include='*.yaml' --exclude=requirements.md \
            '\b(FR|NFR)[0-9]+b?\b|\bA[0-9]+\b' Sources Tests docs \
        | sort -u)
defined=$(grep -oE '^\| (FR|NFR|A)[0-9]+b? \|' "$table" | tr -d '| ' | sort -u)
missing=$(printf '%s\n' "$cited" | grep -vxF -e "$defined" || true)
if [ -n "$missing" ]; then
    echo "cited but not defined in $table:" >&2
    printf '  %s\n' $missing >&2
    exit 1
fi
echo "requirement ids: $(printf '%s\n' "$cited" | wc -l | tr -d ' ') cited, all defined in $table"
