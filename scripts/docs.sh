#!/usr/bin/env bash
# Builds the documentation offline, warnings as errors (the script exits non-zero on any):
# - swift: the DocC archives of the Interception and RxCore modules, with the toolchain alone (no
#   swift-docc-plugin, nothing downloaded): SwiftPM extracts the symbol graphs
#   (`swift package dump-symbol-graph`, which builds the package first), then the toolchain's
#   `docc convert` turns each module's catalog and symbol graphs into an archive. A DocC warning,
#   in a catalog or in a doc comment of the sources, is an error.
# - c: the C API reference, Doxygen over the public headers' comments (docs/Doxyfile; the
#   comments are read through scripts/doxygen/filter.py), HTML. Installs Debian's doxygen if it
#   is missing. A Doxygen warning (an undocumented public declaration, a bad command) is an error.
#
#   scripts/docs.sh [all|swift|c]    # default all
#   # .build/docs/{Interception,RxCore}.doccarchive, .build/docs/c/html/index.html
#
# Environment: DOCS_SCRATCH_PATH (SwiftPM scratch path, default .build: CI reuses its build),
# DOCS_OUTPUT (default $DOCS_SCRATCH_PATH/docs). Preview an archive with any static file server
# (the archives are transformed for static hosting), e.g. `python3 -m http.server` in the
# archive, then open /documentation/interception; open the C reference's index.html directly.
set -euo pipefail
cd "$(dirname "$0")/.."

SCRATCH=${DOCS_SCRATCH_PATH:-.build}
OUT=${DOCS_OUTPUT:-$SCRATCH/docs}
MODULES=(Interception RxCore)
WHAT=${1:-all}
case "$WHAT" in
all | swift | c) ;;
*)
    echo "usage: scripts/docs.sh [all|swift|c]" >&2
    exit 2
    ;;
esac

# The C reference: Doxygen, warnings as errors (FAIL_ON_WARNINGS in docs/Doxyfile).
c_reference() {
    if ! command -v doxygen >/dev/null 2>&1; then
        if [ "$(id -u)" -eq 0 ]; then apt-get update && apt-get install -y doxygen; else
            sudo apt-get update && sudo apt-get install -y doxygen
        fi
    fi
    local out="$OUT/c" log
    log=$(mktemp)
    rm -rf "$out"
    mkdir -p "$out"
    if ! (cat docs/Doxyfile && echo "OUTPUT_DIRECTORY = \"$out\"") | doxygen - >"$log" 2>&1 ||
        grep -qi 'warning' "$log"; then
        cat "$log" >&2
        rm -f "$log"
        echo "docs.sh: c: doxygen failed or warned" >&2
        return 1
    fi
    rm -f "$log"
    echo "clean: C reference (doxygen $(doxygen --version)) in $out/html/index.html"
}

if [ "$WHAT" = c ]; then
    c_reference
    exit
fi

# The docc that ships with the toolchain, beside the swift driver.
DOCC="$(dirname "$(readlink -f "$(command -v swift)")")/docc"
if [ ! -x "$DOCC" ]; then
    DOCC=$(command -v docc || true)
fi
if [ -z "$DOCC" ] || [ ! -x "$DOCC" ]; then
    echo "docs.sh: no docc found beside $(command -v swift) nor on PATH" >&2
    exit 1
fi

log=$(mktemp)
trap 'rm -f "$log"' EXIT

# Builds what is not built yet, then writes <module>.symbols.json (and <module>@<Other>.symbols.json
# for extensions of other modules' types) for every module. Extension blocks let DocC document
# extensions of RxCore's and the standard library's types (for example Reactive.sentMessage).
# The command's exit status is not usable: with Swift 6.3 it also tries the test-runner modules
# SwiftPM synthesizes (InterceptionPackageTests, ...), which exist only after `swift test`, and
# exits 1 when they are missing. So the graph directory is emptied first and each module's graph
# must be there afterwards.
GRAPHS="$(dirname "$(swift build --scratch-path "$SCRATCH" --show-bin-path)")/symbolgraph"
rm -rf "$GRAPHS"
swift package --scratch-path "$SCRATCH" dump-symbol-graph --emit-extension-block-symbols \
    >"$log" 2>&1 || true
for module in "${MODULES[@]}"; do
    if [ ! -s "$GRAPHS/$module.symbols.json" ] ||
        grep -q "Failed to emit symbol graph for '$module'" "$log"; then
        cat "$log" >&2
        echo "docs.sh: no symbol graph for $module (swift package dump-symbol-graph)" >&2
        exit 1
    fi
done

mkdir -p "$OUT"
status=0
for module in "${MODULES[@]}"; do
    catalog=$(find Sources -type d -name "$module.docc" -print -quit)
    if [ -z "$catalog" ]; then
        echo "docs.sh: no $module.docc catalog under Sources" >&2
        exit 1
    fi
    # Only this module's graphs: the directory holds every module's.
    graphs="$OUT/symbol-graphs/$module"
    rm -rf "$graphs" "$OUT/$module.doccarchive"
    mkdir -p "$graphs"
    cp "$GRAPHS/$module.symbols.json" "$graphs/"
    find "$GRAPHS" -maxdepth 1 -name "$module@*.symbols.json" -exec cp {} "$graphs/" \;

    echo "docc convert $catalog -> $OUT/$module.doccarchive"
    if ! "$DOCC" convert "$catalog" \
        --additional-symbol-graph-dir "$graphs" \
        --fallback-display-name "$module" \
        --fallback-bundle-identifier "interception.$module" \
        --output-path "$OUT/$module.doccarchive" \
        --warnings-as-errors >"$log" 2>&1; then
        cat "$log" >&2
        echo "docs.sh: $module: docc convert failed" >&2
        status=1
    elif grep -q -i '^warning' "$log"; then
        cat "$log" >&2
        echo "docs.sh: $module: docc reported warnings" >&2
        status=1
    fi
done
[ "$status" -eq 0 ] && echo "clean: $(printf '%s.doccarchive ' "${MODULES[@]}")in $OUT"
if [ "$WHAT" = all ]; then c_reference || status=1; fi
exit "$status"
