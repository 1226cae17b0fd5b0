#pragma once
// Runs an example executable with --json=- and indexes its results by benchmark name, and keeps
// its comparisons (comparison groups, docs/variants.md).

#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "run_process.hpp"

namespace tare::test {

/// The line of `file` (under examples/) that holds `text`, 0 when none does: how a test names
/// the line an allocation site must point at without copying its number.
inline int line_holding(const std::string& file, const std::string& text) {
    std::ifstream in(std::string(TARE_EXAMPLES_DIR) + "/" + file);
    int n = 0;
    for (std::string line; std::getline(in, line);) {
        ++n;
        if (line.find(text) != std::string::npos)
            return n;
    }
    return 0;
}

class example_results {
public:
    explicit example_results(const std::vector<std::string>& argv) {
        std::vector<std::string> full = argv;
        full.emplace_back("--json=-");
        const auto r = run_process(full);
        exit_code_ = r.exit_code;
        err_ = r.err;
        text_ = r.out;
        const auto doc = nlohmann::json::parse(r.out, nullptr, /*allow_exceptions=*/false);
        if (doc.is_discarded() || !doc.contains("benchmarks")) {
            return;
        }
        for (const auto& b : doc["benchmarks"]) {
            results_[b["name"].get<std::string>()] = b;
        }
        if (doc.contains("comparisons")) {  // present only when comparison groups ran
            for (const auto& c : doc["comparisons"]) {
                comparisons_.push_back(c);
            }
        }
    }

    int exit_code() const { return exit_code_; }
    /// The tare/1 document the executable wrote, as it wrote it.
    const std::string& text() const { return text_; }
    const std::string& err() const { return err_; }
    const std::map<std::string, nlohmann::json>& all() const { return results_; }

    /// The result named `name`; a null JSON value (and a test failure) when there is none.
    const nlohmann::json& get(const std::string& name) const {
        static const nlohmann::json missing;
        const auto it = results_.find(name);
        if (it == results_.end()) {
            ADD_FAILURE() << "no result for " << name << "\n" << err_;
            return missing;
        }
        return it->second;
    }

    /// The top-level "comparisons" of the run (docs/variants.md), in the executable's order.
    const std::vector<nlohmann::json>& comparisons() const { return comparisons_; }

    /// The comparison `name` whose member is `member`; a null JSON value (and a test failure)
    /// when there is none.
    const nlohmann::json& comparison(const std::string& name, const std::string& member) const {
        static const nlohmann::json missing;
        for (const auto& c : comparisons_) {
            if (c["name"] == name && c["member"] == member) {
                return c;
            }
        }
        ADD_FAILURE() << "no comparison " << name << " with member " << member << "\n" << err_;
        return missing;
    }

    /// A memory figure of a comparison: `figure` ("allocs_per_iter", ...) on `side` ("baseline",
    /// "member" or "change").
    static double memory(const nlohmann::json& c, const char* figure, const char* side) {
        return c["memory"][figure][side].get<double>();
    }

    static bool has_warning(const nlohmann::json& b, const std::string& kind) {
        if (!b.contains("warnings")) {
            return false;
        }
        for (const auto& w : b["warnings"]) {
            if (w["kind"] == kind) {
                return true;
            }
        }
        return false;
    }

private:
    int exit_code_ = -1;
    std::string err_;
    std::string text_;
    std::map<std::string, nlohmann::json> results_;
    std::vector<nlohmann::json> comparisons_;
};

}  // namespace tare::test
