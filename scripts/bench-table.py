#!/usr/bin/env python3
"""Renders `interception-bench --json FILE` as the README's Markdown table.

Usage: scripts/bench-table.py [--docc] FILE.json

Columns as the benchmark prints them: the median, its ratios to `direct_call` and to
`send_unintercepted` (taken within the run, when those cases are in it), allocations per
operation, and the case's description. Figures keep four significant digits, as the tables in
README.md do. `--docc`: the DocC Performance article's table (names as code, no ratios).
"""
import json
import sys


def figure(value):
    """A time with four significant digits (at most two decimals)."""
    if value >= 1000:
        return f"{value:.0f}"
    if value >= 100:
        return f"{value:.1f}"
    return f"{value:.2f}"


def main():
    arguments = sys.argv[1:]
    docc = "--docc" in arguments
    files = [a for a in arguments if a != "--docc"]
    if len(files) != 1:
        sys.exit("usage: bench-table.py [--docc] FILE.json")
    with open(files[0]) as f:
        # The machine's record (name "machine") has no timings.
        cases = [case for case in json.load(f) if "ns_per_op" in case]
    by_name = {case["name"]: case["ns_per_op"] for case in cases}
    direct = by_name.get("direct_call")
    send = by_name.get("send_unintercepted")
    if docc:
        print("| case | ns/op | allocs/op | what it measures |")
        print("|---|---:|---:|---|")
    else:
        print("| case | ns/op | × direct | × send | allocs/op | what it measures |")
        print("|---|---:|---:|---:|---:|---|")
    for case in cases:
        ns = case["ns_per_op"]
        allocs = case["allocs_per_op"]
        allocs_text = f"{allocs:.0f}" if allocs >= 0.5 or allocs == 0 else f"{allocs:.3f}"
        if docc:
            print(f"| `{case['name']}` | {figure(ns)} | {allocs_text} | {case['description']} |")
            continue
        ratios = [f"{ns / base:.2f}" if base else "" for base in (direct, send)]
        print(f"| {case['name']} | {figure(ns)} | {ratios[0]} | {ratios[1]} | {allocs_text} "
              f"| {case['description']} |")


if __name__ == "__main__":
    main()
