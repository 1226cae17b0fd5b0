#!/usr/bin/env python3
"""The resident set of a command over its run: where a command's peak memory is, by phase.

Runs the command (its output discarded), reads VmRSS from /proc/PID/status every --every seconds,
prints it every --print seconds, then the peak and when it was reached. /usr/bin/time gives the
peak alone; this says whether it is while reading, while pairing or while writing.

Usage: bench/rss_over_time.py [--every 0.2] [--print 5] -- COMMAND [ARG...]
"""

import argparse
import subprocess
import sys
import time


def rss_kib(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--every", type=float, default=0.2)
    parser.add_argument("--print", type=float, default=5.0, dest="print_every")
    parser.add_argument("command", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not command:
        sys.exit("give the command to run after --")
    start = time.monotonic()
    child = subprocess.Popen(command, stdout=subprocess.DEVNULL)
    peak, peak_at, printed = 0, 0.0, -args.print_every
    while child.poll() is None:
        try:
            kib = rss_kib(child.pid)
        except OSError:  # ended between the poll and the read
            break
        now = time.monotonic() - start
        if kib > peak:
            peak, peak_at = kib, now
        if now - printed >= args.print_every:
            print(f"{now:7.1f} s {kib / 1024:8.0f} MiB", flush=True)
            printed = now
        time.sleep(args.every)
    print(f"exit {child.wait()} after {time.monotonic() - start:.1f} s; peak {peak / 1024:.0f} MiB at {peak_at:.1f} s")


if __name__ == "__main__":
    main()
