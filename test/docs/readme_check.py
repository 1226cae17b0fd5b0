#!/usr/bin/env python3
"""The README opens with the two commands a newcomer runs, each alone in a fenced block, before
any other code block: scripts/demo, then scripts/test; and CI runs that same scripts/test.

Usage: readme_check.py SOURCE_DIR
"""
import os
import re
import sys

root = sys.argv[1]
with open(os.path.join(root, "README.md")) as f:
    readme = f.read()
blocks = re.findall(r"```[a-z]*\n(.*?)```", readme, re.S)
first = [b.strip() for b in blocks[:2]]
failures = []
if first != ["scripts/demo", "scripts/test"]:
    failures.append(f"the README's first code blocks are {first}, not scripts/demo and scripts/test")
with open(os.path.join(root, ".ci", "run")) as f:
    if not re.search(r"^[^#\n]*scripts/test\b", f.read(), re.M):
        failures.append(".ci/run does not call scripts/test")
for script in ("scripts/demo", "scripts/test"):
    path = os.path.join(root, script)
    if not os.access(path, os.X_OK):
        failures.append(f"{script} is not an executable script")
    else:
        with open(path) as f:
            if "scripts/deps" not in f.read():
                failures.append(f"{script} does not install what is missing (scripts/deps)")
for f in failures:
    print("FAILED:", f)
sys.exit(1 if failures else 0)
