#pragma once
// The lines of a test suite's allocation sites, marked in its source with "// site: NAME": what
// the sites tests of tare's own benchmarks (sites_test.cpp) and of a Google Benchmark suite
// (test/gbench/gbench_sites_test.cpp) expect a site's line to be.

#include <fstream>
#include <map>
#include <string>

namespace tare::test {

/// NAME -> line number of each "// site: NAME" marker in `source`.
inline std::map<std::string, int> marked_lines(const std::string& source) {
    std::map<std::string, int> out;
    std::ifstream in(source);
    int n = 0;
    for (std::string line; std::getline(in, line);) {
        ++n;
        if (const auto at = line.find("// site: "); at != std::string::npos)
            out[line.substr(at + 9)] = n;
    }
    return out;
}

}  // namespace tare::test
