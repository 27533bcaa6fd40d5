#!/usr/bin/env bash
# Builds the DocC archives of the Interception and RxCore modules offline, with the toolchain
# alone (no swift-docc-plugin, nothing downloaded): SwiftPM extracts the symbol graphs
# (`swift package dump-symbol-graph`, which builds the package first), then the toolchain's
# `docc convert` turns each module's catalog and symbol graphs into an archive. Any DocC warning,
# in a catalog or in a doc comment of the sources, is an error: the script exits non-zero.
#
#   scripts/docs.sh                  # archives in .build/docs/{Interception,RxCore}.doccarchive
#
# Environment: DOCS_SCRATCH_PATH (SwiftPM scratch path, default .build: CI reuses its build),
# DOCS_OUTPUT (default $DOCS_SCRATCH_PATH/docs). Preview an archive with any static file server
# (the archives are transformed for static hosting), e.g. `python3 -m http.server` in the
# archive, then open /documentation/interception.
set -euo pipefail
cd "$(dirname "$0")/.."

SCRATCH=${DOCS_SCRATCH_PATH:-.build}
OUT=${DOCS_OUTPUT:-$SCRATCH/docs}
MODULES=(Interception RxCore)

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
exit "$status"
