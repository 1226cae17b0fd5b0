#pragma once
// Runs an example executable with --json=- and indexes its results by benchmark name.

#include <gtest/gtest.h>

#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "run_process.hpp"

namespace tare::test {

class example_results {
public:
    explicit example_results(const std::vector<std::string>& argv) {
        std::vector<std::string> full = argv;
        full.emplace_back("--json=-");
        const auto r = run_process(full);
        exit_code_ = r.exit_code;
        err_ = r.err;
        const auto doc = nlohmann::json::parse(r.out, nullptr, /*allow_exceptions=*/false);
        if (doc.is_discarded() || !doc.contains("benchmarks")) {
            return;
        }
        for (const auto& b : doc["benchmarks"]) {
            results_[b["name"].get<std::string>()] = b;
        }
    }

    int exit_code() const { return exit_code_; }
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
    std::map<std::string, nlohmann::json> results_;
};

}  // namespace tare::test
