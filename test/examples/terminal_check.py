#!/usr/bin/env python3
"""The example suites on a terminal and through a pipe.

Each example executable runs once, piped, with a small budget and --json. Then, for each:
  - its standard error, not a terminal, holds one progress line per benchmark ("[i/N] name done
    in ..."), so a CI log shows life; on a terminal, one live line rewritten in place instead;
  - `tare run FILE` on a pseudo-terminal 100 columns wide (COLUMNS=100) prints no line wider
    than 100 display columns, and names the columns it left out;
  - the same through a pipe is byte for byte what it prints without COLUMNS: a pipe gets the
    whole table, uncoloured, whatever the terminal it came from;
  - at COLUMNS=80 no line is wider either, and time, allocations, bytes and the peak heap stay;
    --wide prints every column on the terminal, as a pipe gets them;
  - colour: --color=always colours the verdicts and warnings, on a terminal --color=auto does
    too, and NO_COLOR or --color=never leaves none.

Usage: terminal_check.py TARE EXAMPLE...
"""

import os
import pty
import re
import select
import subprocess
import sys
import tempfile
import unicodedata

ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")


def width(line):
    """Display columns, as the table engine counts them (one a code point, combining marks 0)."""
    return sum(0 if unicodedata.combining(c) else 1 for c in line)


def on_terminal(argv, env, stderr_too=False):
    """Runs argv with standard output (and standard error, if asked) on a pseudo-terminal;
    returns what it printed there."""
    leader, follower = pty.openpty()
    proc = subprocess.Popen(argv, stdout=follower, stderr=follower if stderr_too else subprocess.DEVNULL, env=env)
    os.close(follower)
    out = b""
    while True:
        ready, _, _ = select.select([leader], [], [], 120)
        if not ready:
            proc.kill()
            raise TimeoutError(" ".join(argv))
        try:
            chunk = os.read(leader, 65536)
        except OSError:  # the follower side closed: the program ended
            break
        if not chunk:
            break
        out += chunk
    proc.wait()
    os.close(leader)
    return out.decode("utf-8").replace("\r\n", "\n")


def main():
    tare, examples = sys.argv[1], sys.argv[2:]
    failures = []
    base_env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "NO_COLOR")}
    with tempfile.TemporaryDirectory(prefix="tare-terminal-") as scratch:
        for exe in examples:
            name = os.path.basename(exe)
            results = os.path.join(scratch, name + ".json")
            run = subprocess.run([exe, "--min-time=0.001", "--json=" + results], capture_output=True, text=True,
                                 env=base_env, timeout=300)
            if run.returncode not in (0, 1):
                failures.append(f"{name}: exited {run.returncode}: {run.stderr[-500:]}")
                continue
            done = [line for line in run.stderr.splitlines() if re.match(r"^\[\d+/\d+\] .* done in ", line)]
            listed = subprocess.run([exe, "--list"], capture_output=True, text=True, env=base_env).stdout.split()
            if not done or int(done[-1].split("/")[1].split("]")[0]) != len(done):
                failures.append(f"{name}: {len(done)} progress lines in its log: {run.stderr[:300]!r}")
            if len(listed) < len(done):
                failures.append(f"{name}: more progress lines than benchmarks")

            env100 = dict(base_env, COLUMNS="100")
            shown = on_terminal([tare, "run", results], env100)
            plain = ANSI.sub("", shown)
            for line in plain.splitlines():
                if width(line) > 100:
                    failures.append(f"{name}: a line of {width(line)} columns at COLUMNS=100: {line!r}")
            piped = subprocess.run([tare, "run", results], capture_output=True, text=True, env=base_env).stdout
            piped100 = subprocess.run([tare, "run", results], capture_output=True, text=True, env=env100).stdout
            if piped != piped100:
                failures.append(f"{name}: COLUMNS changed the piped table")
            if ANSI.search(piped):
                failures.append(f"{name}: colour in piped output")
            if max(width(line) for line in piped.splitlines()) > 100 and "not shown at 100 columns" not in plain:
                failures.append(f"{name}: columns left out without saying so")
            coloured = subprocess.run([tare, "run", results, "--color=always"], capture_output=True, text=True,
                                      env=base_env).stdout
            if ("warning" in piped or "faster" in piped or "slower" in piped) and not ANSI.search(coloured):
                failures.append(f"{name}: --color=always left the verdicts and warnings plain")
            if ANSI.search(coloured) and not ANSI.search(shown):
                failures.append(f"{name}: no colour on a terminal with --color=auto")
            for extra_env, flags, what in ((dict(env100, NO_COLOR="1"), [], "NO_COLOR"),
                                           (env100, ["--color=never"], "--color=never")):
                if ANSI.search(on_terminal([tare, "run", results] + flags, extra_env)):
                    failures.append(f"{name}: colour on a terminal with {what}")
            # At 80 columns nothing wraps, and the figures tare is for stay: time, allocations,
            # bytes and the peak heap (the columns least needed go first). --wide keeps every one.
            env80 = dict(base_env, COLUMNS="80")
            at80 = ANSI.sub("", on_terminal([tare, "run", results], env80))
            for line in at80.splitlines():
                if width(line) > 80:
                    failures.append(f"{name}: a line of {width(line)} columns at COLUMNS=80: {line!r}")
            header = next((line for line in at80.splitlines() if line.startswith("benchmark")), "")
            for kept in ("time/iter", "allocs/iter", "bytes/iter", "peak heap"):
                if "allocs/iter" in piped and kept not in header:
                    failures.append(f"{name}: {kept} left out at 80 columns: {header!r}")
            wide = ANSI.sub("", on_terminal([tare, "run", results, "--wide"], env80))
            if "not shown at" in wide or max(width(line) for line in wide.splitlines()) != \
                    max(width(line) for line in piped.splitlines()):
                failures.append(f"{name}: --wide left columns out on a terminal")
            if name == "quickstart_bench":
                # On a terminal, one live line rewritten in place, and no log lines.
                live = on_terminal([exe, "--min-time=0.001"], env100, stderr_too=True)
                if "\r\x1b[K[1/" not in live or " done in " in live:
                    failures.append(f"{name}: no live progress line on a terminal: {live[:200]!r}")
            print(f"{name}: {len(done)} progress lines; widest line on a 100-column terminal "
                  f"{max(width(line) for line in plain.splitlines())}, piped {max(width(line) for line in piped.splitlines())}")
    for f in failures:
        print("FAIL:", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
