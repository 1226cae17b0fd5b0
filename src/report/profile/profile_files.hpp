#pragma once
// --profile's files (docs/profiles.md): for each profiled benchmark, its stacks in the formats
// existing viewers open. Folded stacks ("body;callee;leaf 1234", one stack a line: Brendan Gregg's
// flamegraph.pl, inferno, speedscope) and speedscope's own JSON file format (its published
// schema, https://www.speedscope.app/file-format-schema.json). Pure: results in, files out.

#include <string>
#include <utility>
#include <vector>

#include "model/run.hpp"

namespace tare::report {

/// One file to write under the profile directory: its name there and its bytes.
using profile_file = std::pair<std::string, std::string>;

/// The files of every benchmark of `results` that has a profile: its instruction profile, and its
/// allocation stacks (--alloc-sites) by allocations, bytes and retained bytes. Folded stacks hold
/// whole counts over the pass (a folded file's weights are integers): instructions over the
/// counted iterations, allocations and bytes over the sites pass's. The speedscope file holds the
/// same stacks per iteration. Names are the benchmark's, with characters outside [A-Za-z0-9._-]
/// made "_" and a "~N" added where two would meet.
std::vector<profile_file> profile_files(const run_results& results);

/// The frame an allocation site's stack begins with in a profile: "thread N" for another
/// thread's, "threads 1, 2" for a line several threads ran; empty for the benchmark's own thread.
std::string thread_frame(const alloc_site& site);

/// A folded-stacks line's frame: ';' (the separator) and line ends made ','/' '.
std::string folded_frame(const std::string& function);

}  // namespace tare::report
