#include "report/export/history_exports.hpp"

#include <cmath>
#include <cstdint>
#include <ctime>
#include <nlohmann/json.hpp>

#include "history/interchange.hpp"
#include "report/export/exports.hpp"

namespace tare::report {
namespace {

using nlohmann::ordered_json;

// A run's date as milliseconds since the epoch, as github-action-benchmark dates entries.
std::int64_t milliseconds_of(const std::string& date) {
    std::tm tm{};
    if (strptime(date.c_str(), "%Y-%m-%dT%H:%M:%SZ", &tm) == nullptr)
        return 0;
    return static_cast<std::int64_t>(timegm(&tm)) * 1000;
}

ordered_json gab_entry(const history_run& run, const std::string& benches, const char* tool) {
    ordered_json list = ordered_json::parse(benches);
    // A run's export says how it was sampled; a history keeps the figures, not the samples.
    for (ordered_json& b : list)
        b["extra"] = "run of " + run.date.substr(0, 10) + " (" + run.source + ")";
    return {{"commit", {{"id", run.commit}, {"message", ""}, {"timestamp", run.date}, {"url", ""}}},
            {"date", milliseconds_of(run.date)},
            {"tool", tool},
            {"benches", std::move(list)}};
}

}  // namespace

std::string render_history_bmf(const std::vector<history_run>& runs,
                               const std::vector<std::vector<history_figure>>& figures) {
    ordered_json doc = ordered_json::array();
    const auto bmf = make_export_reporter(export_format::bmf);
    for (std::size_t i = 0; i < runs.size() && i < figures.size(); ++i) {
        doc.push_back({{"commit", runs[i].commit},
                       {"branch", runs[i].branch},
                       {"date", runs[i].date},
                       {"results", ordered_json::parse(bmf->render(history::results_of(figures[i])))}});
    }
    return doc.dump(2) + "\n";
}

std::string render_history_gab_data(const std::vector<history_run>& runs,
                                    const std::vector<std::vector<history_figure>>& figures) {
    ordered_json smaller = ordered_json::array();
    ordered_json bigger = ordered_json::array();
    const auto gab = make_export_reporter(export_format::gab);
    const auto gab_bigger = make_export_reporter(export_format::gab_bigger);
    for (std::size_t i = 0; i < runs.size() && i < figures.size(); ++i) {
        const run_results r = history::results_of(figures[i]);
        smaller.push_back(gab_entry(runs[i], gab->render(r), "customSmallerIsBetter"));
        const std::string more = gab_bigger->render(r);
        if (!nothing_to_export(more, export_format::gab_bigger))
            bigger.push_back(gab_entry(runs[i], more, "customBiggerIsBetter"));
    }
    ordered_json entries = {{"tare", smaller}};
    if (!bigger.empty())
        entries["tare (bigger is better)"] = bigger;
    const std::int64_t last = runs.empty() ? 0 : milliseconds_of(runs.back().date);
    const ordered_json doc = {{"lastUpdate", last}, {"repoUrl", ""}, {"entries", entries}};
    return "window.BENCHMARK_DATA = " + doc.dump(2) + "\n";
}

}  // namespace tare::report
