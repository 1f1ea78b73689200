#!/usr/bin/env bash
# The public surface of the `regalloc` crate, counted two ways so that a
# change to it (issue 27, item 7: internals `pub(crate)`) can be measured
# before and after with the same command.
#
# 1. rustdoc: `cargo doc -p regalloc --no-deps` (stable; rustdoc's JSON
#    output needs nightly), then the item pages under target/doc/regalloc/
#    counted by kind (struct, enum, fn, constant, macro, trait, type,
#    static; a module is its directory's index.html, the crate root not
#    counted). Redirect pages (an item re-exported from a private module
#    gets a page where it is visible and a redirect where it is defined)
#    are left out, so each public item is counted once. Inside the pages,
#    the members a user can name: inherent methods and associated
#    constants (the "Implementations" section only; trait-impl methods
#    such as `fmt` are not surface of their own), public fields and enum
#    variants.
# 2. grep: `pub` declarations in regalloc/src outside test code (files
#    named tests.rs, directories named tests, and the item after each
#    `#[cfg(test)]`), by kind; `pub(crate)`/`pub(super)`/`pub(in ...)` are
#    counted apart as restricted. A `pub` item inside a `pub(crate)`
#    module is not reachable from outside: the rustdoc count is the
#    surface, the grep count shows how much text still says `pub`.
#
# Usage: bench/public_items.sh [--no-doc]   (--no-doc: reuse target/doc)
# Run from anywhere; prints a small table on stdout.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

if [ "${1:-}" != "--no-doc" ]; then
    cargo doc -p regalloc --no-deps --quiet
fi
doc="$root/target/doc/regalloc"
[ -d "$doc" ] || { echo "no $doc: run without --no-doc" >&2; exit 1; }

# Item pages that are not redirects.
pages=$(find "$doc" -name '*.html' ! -name 'all.html' -print0 |
    xargs -0 grep -L 'http-equiv="refresh"' | sort)

echo "rustdoc item pages (target/doc/regalloc):"
total=0
for kind in mod struct enum fn constant macro trait type static; do
    if [ "$kind" = mod ]; then
        n=$(printf '%s\n' "$pages" | grep -c '/index\.html$' || true)
        n=$((n - 1)) # the crate root
    else
        n=$(printf '%s\n' "$pages" | grep -c "/$kind\.[^/]*\.html\$" || true)
    fi
    total=$((total + n))
    printf '  %-10s %5d\n' "$kind" "$n"
done
printf '  %-10s %5d\n' "items" "$total"

# Members named in each item page: inherent methods and associated
# constants sit between id="implementations-list" and the next section
# (trait, auto-trait or blanket implementations).
members=$(printf '%s\n' "$pages" | grep -E '/(struct|enum|trait)\.[^/]*\.html$' |
    xargs cat | awk '
        { line = $0 }
        {
            while (length(line) > 0) {
                if (!inherent) {
                    at = index(line, "id=\"implementations-list\"")
                    if (at == 0) break
                    inherent = 1
                    line = substr(line, at + 1)
                } else {
                    stop = match(line, /id="(trait-implementations|synthetic-implementations|blanket-implementations|implementors)/)
                    part = stop ? substr(line, 1, stop - 1) : line
                    methods += gsub(/id="method\.[^"]*"/, "", part)
                    consts += gsub(/id="associatedconstant\.[^"]*"/, "", part)
                    if (!stop) break
                    inherent = 0
                    line = substr(line, stop + 1)
                }
            }
        }
        /<\/html>/ { inherent = 0 }
        END { print methods + 0, consts + 0 }')
fields=$(printf '%s\n' "$pages" | grep -E '/(struct|enum)\.[^/]*\.html$' |
    xargs grep -o 'id="structfield\.[^"]*"' | wc -l)
variants=$(printf '%s\n' "$pages" | grep -E '/enum\.[^/]*\.html$' |
    xargs grep -o 'id="variant\.[^"]*"' | wc -l)
echo "rustdoc members:"
printf '  %-10s %5d\n' "methods" "${members% *}" "assoc-const" "${members#* }" \
    "fields" "$fields" "variants" "$variants"

# `pub` declarations outside test code.
find regalloc/src -name '*.rs' ! -name tests.rs ! -path '*/tests/*' -print0 |
    sort -z | xargs -0 awk '
    FNR == 1 { skipping = 0; pending = 0; depth = 0 }
    # The item after #[cfg(test)]: one line ending in ";", or a braced block.
    /^[[:space:]]*#\[cfg\(test\)\]/ { pending = 1; next }
    pending && /^[[:space:]]*#\[/ { next }
    pending {
        pending = 0
        opened = gsub(/\{/, "{"); closed = gsub(/\}/, "}")
        if (opened > closed) { skipping = 1; depth = opened - closed }
        next
    }
    skipping {
        depth += gsub(/\{/, "{") - gsub(/\}/, "}")
        if (depth <= 0) skipping = 0
        next
    }
    /^[[:space:]]*pub(\((crate|super|in [^)]*)\))?[[:space:]]/ {
        restricted = ($0 ~ /^[[:space:]]*pub\(/)
        rest = $0
        sub(/^[[:space:]]*pub(\([^)]*\))?[[:space:]]+/, "", rest)
        # Qualifiers of a function (`const fn`, `unsafe extern "C" fn`).
        while (rest ~ /^(unsafe|const|async|extern "[^"]*")[[:space:]]+(unsafe|const|async|extern|fn)[[:space:]]/)
            sub(/^(unsafe|const|async|extern "[^"]*")[[:space:]]+/, "", rest)
        if (rest ~ /^(fn|struct|enum|trait|type|const|static|mod|use|macro)[[:space:](<{;]/) {
            split(rest, word, /[[:space:](<{;]/); kind = word[1]
        } else if (rest ~ /^[A-Za-z_][A-Za-z_0-9]*[[:space:]]*:/) {
            kind = "field"
        } else {
            kind = "other"
        }
        if (restricted) restricted_count[kind]++; else public_count[kind]++
    }
    END {
        print "pub declarations in regalloc/src (test code left out):"
        printf "  %-10s %5s %10s\n", "kind", "pub", "restricted"
        n = split("mod use fn struct enum trait type const static macro field other", kinds, " ")
        for (i = 1; i <= n; i++) {
            k = kinds[i]
            printf "  %-10s %5d %10d\n", k, public_count[k], restricted_count[k]
            all += public_count[k]; rall += restricted_count[k]
        }
        printf "  %-10s %5d %10d\n", "total", all, rall
    }'
