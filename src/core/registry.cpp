#include <memory>
#include <vector>

#include "tare/benchmark.hpp"
#include "tare/variants.hpp"

namespace tare {

namespace {

// A function-local static so registration from other translation units' static
// initialisers is safe whatever the initialisation order.
std::vector<std::unique_ptr<benchmark>>& storage() {
    static std::vector<std::unique_ptr<benchmark>> all;
    return all;
}

std::vector<benchmark*>& views() {
    static std::vector<benchmark*> all;
    return all;
}

std::vector<variant_group>& groups() {
    static std::vector<variant_group> all;
    return all;
}

}  // namespace

benchmark* register_benchmark(std::string name, benchmark_function fn) {
    storage().push_back(std::make_unique<benchmark>(std::move(name), std::move(fn)));
    views().push_back(storage().back().get());
    return views().back();
}

const std::vector<benchmark*>& registered_benchmarks() {
    return views();
}

// Recorded as declared: the members may not be registered yet (static initialisation order
// across translation units is unspecified), so they are checked when the executable starts
// (core::resolve_variants), where an error can be printed and the exit status chosen.
void register_variants(std::string group, std::vector<std::string> members) {
    groups().push_back({std::move(group), std::move(members)});
}

const std::vector<variant_group>& registered_variant_groups() {
    return groups();
}

namespace detail {

std::vector<std::string> split_member_names(std::string_view names) {
    std::vector<std::string> out;
    const auto is_space = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; };
    std::size_t start = 0;
    while (start <= names.size()) {
        std::size_t end = names.find(',', start);
        if (end == std::string_view::npos) {
            end = names.size();
        }
        std::string_view name = names.substr(start, end - start);
        while (!name.empty() && is_space(name.front())) {
            name.remove_prefix(1);
        }
        while (!name.empty() && is_space(name.back())) {
            name.remove_suffix(1);
        }
        out.emplace_back(name);
        start = end + 1;
    }
    return out;
}

}  // namespace detail

}  // namespace tare
