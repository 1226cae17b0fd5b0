#!/usr/bin/env python3
"""What a benchmark links holds only what a benchmark runs.

Reads every symbol the installed libraries define (`nm --defined-only --extern-only`, demangled)
and checks each `tare::X` it names. The `tare` command's own namespaces and the types only its
commands make (comparisons, exec runs, histories) are refused wherever they appear. Every
qualifier `tare::X::` must be on an allowed list: a namespace of what a benchmark executable runs,
or a type of the public API or of a run's results. (A name directly in `tare::` that is neither is
not caught: the public API lives there.)

    check_library_symbols.py SOURCE_DIR LIBDIR [NM]

Exits 1 and lists the offending symbols, by library, when any is found.
"""
import pathlib
import re
import subprocess
import sys

# What each installed library may hold besides the public API and the run's model.
BENCHMARK_NAMESPACES = {"detail", "alloc", "os", "stats", "core", "report", "io", "instrument", "protocol"}
EXTRA_NAMESPACES = {
    "libtare.a": set(),
    "libtare_main.a": {"driver", "flags"},  # the benchmark executable's own main, its flag checks
    "libtare_gbench.a": {"gbench"},
    "libtare_copies.a": set(),
}
# The tare command's engines, and the results only its commands make.
TOOL_NAMESPACES = {"compare", "exec", "history", "counted"}
TOOL_TYPES = {"compare_row", "compare_results", "side_figures", "function_change", "allocation_change", "pairing",
              "family_control"}
TOOL_TYPE_PREFIXES = ("exec_", "history_")
# The headers whose types a benchmark's libraries may name: the public API, and a run's results.
TYPE_HEADERS = ["include/tare/*.hpp", "src/model/run.hpp", "src/model/sample.hpp", "src/model/sample_list.hpp",
                "src/model/change.hpp", "src/model/boxed.hpp"]


def declared_types(source: pathlib.Path) -> set:
    names = set()
    pattern = re.compile(r"\b(?:struct|class|enum class|enum|using)\s+([A-Za-z_]\w*)")
    for glob in TYPE_HEADERS:
        for header in source.glob(glob):
            names.update(pattern.findall(header.read_text()))
    return names


def defined_symbols(library: pathlib.Path, nm: str) -> list:
    out = subprocess.run([nm, "-C", "--defined-only", "--extern-only", str(library)],
                         check=True, capture_output=True, text=True).stdout
    symbols = []
    for line in out.splitlines():
        parts = line.split(" ", 2)
        if len(parts) == 3 and len(parts[1]) == 1:
            symbols.append(parts[2])
    return symbols


def offence(symbol: str, allowed: set, types: set):
    """Why `symbol` does not belong in a benchmark's library, or None."""
    for match in re.finditer(r"\btare::([A-Za-z_]\w*)(::)?", symbol):
        name, nested = match.group(1), match.group(2)
        if name in TOOL_NAMESPACES:
            return f"the tare command's namespace tare::{name}"
        if name in TOOL_TYPES or name.startswith(TOOL_TYPE_PREFIXES):
            return f"the tare command's model type tare::{name}"
        if nested and name not in allowed and name not in types:
            return f"tare::{name} is neither an allowed namespace nor a type of the API or a run's results"
    return None


def main() -> int:
    source, libdir = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
    nm = sys.argv[3] if len(sys.argv) > 3 and sys.argv[3] else "nm"
    types = declared_types(source)
    if not types:
        print(f"no type declarations found under {source}", file=sys.stderr)
        return 2
    failures = 0
    checked = 0
    for name, extra in EXTRA_NAMESPACES.items():
        library = libdir / name
        if not library.exists():
            if name == "libtare.a":
                print(f"{library} is not installed", file=sys.stderr)
                return 2
            continue
        allowed = BENCHMARK_NAMESPACES | extra
        symbols = defined_symbols(library, nm)
        if not symbols or (name == "libtare.a" and not any(s.startswith("tare::") for s in symbols)):
            # Objects nm cannot read (LTO's slim objects) list nothing: nothing was checked.
            print(f"{library}: {nm} lists no symbol of tare's", file=sys.stderr)
            return 2
        checked += len(symbols)
        for symbol in symbols:
            why = offence(symbol, allowed, types)
            if why:
                failures += 1
                print(f"{name}: {symbol}\n    {why}")
    if failures:
        print(f"{failures} symbol(s) of the installed libraries are not what a benchmark runs", file=sys.stderr)
        return 1
    print(f"{checked} symbols checked: each is what a benchmark runs")
    return 0


if __name__ == "__main__":
    sys.exit(main())
