#!/usr/bin/env python3
"""The dependency rule docs/architecture.md draws, held against the sources.

Reads the levels of src/'s folders from the code block under "## Dependencies" (a line a level,
the highest first; folders separated by two spaces, a description after three or more), then
every `#include "FOLDER/..."` under src/: a folder may include its own files and folders on a
lower line, nothing else. A folder the drawing leaves out is an error too. And no two files of
src/ and include/tare/ share a name (each folder's sources.cmake aside): a name says which file
it is in an include, an error message or a search, without its folder.

    layers_check.py SOURCE_DIR
"""
import pathlib
import re
import sys


def levels(doc: str) -> dict:
    section = doc.split("## Dependencies", 1)[1]
    block = section.split("```", 2)[1]
    rows = [line for line in block.splitlines() if line and not line.startswith(" ")]
    level = {}
    for height, row in enumerate(reversed(rows)):
        for folder in re.split(r" {3,}", row)[0].split("  "):
            level[folder.strip()] = height
    return level


def folder_of(path: pathlib.Path, src: pathlib.Path) -> str:
    parts = path.relative_to(src).parts
    return "/".join(parts[:2]) if parts[0] == "adapters" else parts[0]


def main() -> int:
    root = pathlib.Path(sys.argv[1])
    src = root / "src"
    level = levels((root / "docs" / "architecture.md").read_text())
    errors = []
    for path in sorted(src.rglob("*.[ch]pp")):
        own = folder_of(path, src)
        if own not in level:
            errors.append(f"{path.relative_to(root)}: src/{own}/ is not drawn in docs/architecture.md")
            continue
        for number, line in enumerate(path.read_text().splitlines(), 1):
            m = re.match(r'\s*#\s*include\s+"([a-z_]+)/', line)
            if not m:
                continue
            target = "adapters/gbench" if m.group(1) == "adapters" else m.group(1)
            if target == own or target == "tare":
                continue
            if target not in level:
                errors.append(f"{path.relative_to(root)}:{number}: includes src/{target}/, not drawn")
            elif level[target] >= level[own]:
                errors.append(f"{path.relative_to(root)}:{number}: src/{own}/ includes src/{target}/, "
                              "which is not on a lower line")
    seen = {}
    for path in sorted(list(src.rglob("*.[ch]pp")) + list((root / "include" / "tare").rglob("*.[ch]pp"))):
        if path.name in seen:
            errors.append(f"{path.relative_to(root)}: the same name as {seen[path.name].relative_to(root)}")
        seen.setdefault(path.name, path)
    for e in errors:
        print(e)
    if errors:
        return 1
    print(f"{len(level)} folders, every include points down; {len(seen)} file names, each once")
    return 0


if __name__ == "__main__":
    sys.exit(main())
