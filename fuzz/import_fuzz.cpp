// `tare history import`: tare's BMF dump and github-action-benchmark's data.js, through the reader
// the command uses; what it accepts is checked as `tare history check` checks it, and exported
// in both formats, which must read back.
#include <cstdint>
#include <string>
#include <variant>

#include "history/check.hpp"
#include "history/interchange.hpp"
#include "report/export/history_exports.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace tare;
    const std::string text(reinterpret_cast<const char*>(data), size);
    auto read = history::parse_import(text, "fuzz.json", "main");
    auto* runs = std::get_if<std::vector<history::imported_run>>(&read);
    if (runs == nullptr)
        return 0;
    std::vector<history_run> listed;
    std::vector<std::vector<history_figure>> figures;
    for (const auto& r : *runs) {
        listed.push_back(r.run);
        figures.push_back(r.figures);
    }
    if (listed.size() <= 40) {  // the permutation test is quadratic in the runs: kept to a fuzzer's pace
        history::check_options o;
        o.permutations = 19;
        (void)history::check_history(listed, figures, o);
    }
    for (const std::string& again :
         {report::render_history_bmf(listed, figures), report::render_history_gab_data(listed, figures)}) {
        if (!std::holds_alternative<std::vector<history::imported_run>>(
                history::parse_import(again, "again", "main")))
            std::abort();  // an export its own reader refuses
    }
    return 0;
}
