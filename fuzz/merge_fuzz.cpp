// `tare merge`: up to four documents, separated by NUL bytes (JSON text holds none, so a
// separator never falls inside a document), joined as the command joins them: comparisons when
// the first is one (every other must be too), results files (tare/1 or Google Benchmark JSON)
// otherwise. One document alone is merged with itself, which a merge refuses unless it holds no
// benchmark. What a merge gives goes through every reporter and export, and reads back, once
// written, to the same bytes, as the command's --json file must.
#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "compare/aggregate.hpp"
#include "compare/merge.hpp"
#include "documents.hpp"
#include "io/compare_mapping.hpp"
#include "io/gbench_reader.hpp"

namespace {

constexpr std::size_t max_documents = 4;

std::vector<std::string> split_documents(const std::string& bytes) {
    std::vector<std::string> texts;
    std::size_t start = 0;
    while (texts.size() + 1 < max_documents) {
        const std::size_t nul = bytes.find('\0', start);
        if (nul == std::string::npos)
            break;
        texts.push_back(bytes.substr(start, nul - start));
        start = nul + 1;
    }
    texts.push_back(bytes.substr(start));  // the rest, NUL bytes and all: for the reader to refuse
    if (texts.size() == 1)
        texts.push_back(texts.front());
    return texts;
}

// Each file's name, as the merge's messages name it.
std::string path_of(std::size_t i) {
    return "shard-" + std::to_string(i) + ".json";
}

template <class Results>
void check_merged(const Results& merged) {
    tare::fuzz::render_all(merged);
    tare::fuzz::export_all(merged);
}

void merge_comparisons(const std::vector<std::string>& texts) {
    std::vector<tare::compare::compare_merge_input> inputs;
    for (std::size_t i = 0; i < texts.size(); ++i) {
        if (tare::io::document_schema(texts[i]) != "tare-compare/1")
            return;  // merge joins files of one kind
        auto read = tare::io::parse_compare_json(texts[i], path_of(i));
        auto* results = std::get_if<tare::compare_results>(&read);
        if (results == nullptr)
            return;
        inputs.push_back({path_of(i), std::move(*results)});
    }
    auto merged = tare::compare::merge_comparisons(std::move(inputs));
    if (const auto* results = std::get_if<tare::compare_results>(&merged)) {
        check_merged(*results);
        (void)tare::compare::has_regression(*results, 0);  // --fail-on-regression
        tare::fuzz::check_round_trip(
            *results, [](const std::string& t) { return tare::io::parse_compare_json(t, "merged.json"); });
    }
}

void merge_results(const std::vector<std::string>& texts) {
    std::vector<tare::compare::merge_input> inputs;
    for (std::size_t i = 0; i < texts.size(); ++i) {
        auto read = tare::io::parse_any_results(texts[i], path_of(i));
        auto* results = std::get_if<tare::run_results>(&read);
        if (results == nullptr)
            return;
        inputs.push_back({path_of(i), std::move(*results)});
    }
    auto merged = tare::compare::merge_results(std::move(inputs));
    if (const auto* results = std::get_if<tare::run_results>(&merged)) {
        check_merged(*results);
        tare::fuzz::check_round_trip(
            *results, [](const std::string& t) { return tare::io::parse_any_results(t, "merged.json"); });
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const auto texts = split_documents(std::string(reinterpret_cast<const char*>(data), size));
    if (tare::io::document_schema(texts.front()) == "tare-compare/1") {
        merge_comparisons(texts);
    } else {
        merge_results(texts);
    }
    return 0;
}
