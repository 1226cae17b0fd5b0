#pragma once
// The command line of a benchmark executable (docs/cli.md).

namespace tare::driver {

/// Parses the flags, runs the selected benchmarks, prints and writes the reports.
/// Returns 0 when every benchmark ran, 1 when one failed, 2 for bad arguments.
int bench_driver(int argc, char** argv);

}  // namespace tare::driver
