#!/usr/bin/env python3
"""Every registered test's command resolves to a program: a test whose COMMAND names an imported
target its folder never found (Python3::Interpreter in a leg that skips the find_package) is
passed to ctest as that literal word and reported "Not Run", failing the whole leg.

Usage: ctest_commands_check.py BUILD_DIR
"""
import json
import os
import shutil
import subprocess
import sys

build = sys.argv[1]
listing = subprocess.run(["ctest", "--show-only=json-v1"], cwd=build, check=True,
                         capture_output=True, text=True).stdout
failures = []
for test in json.loads(listing).get("tests", []):
    command = test.get("command") or []
    if not command:
        failures.append(f"{test['name']}: no command")
        continue
    program = command[0]
    found = os.access(program, os.X_OK) if os.path.isabs(program) else shutil.which(program)
    if not found:
        failures.append(f"{test['name']}: its command {program!r} is not a program")
for f in failures:
    print("FAILED:", f)
sys.exit(1 if failures else 0)
