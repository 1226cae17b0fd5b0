#include <memory>
#include <vector>

#include "tare/benchmark.hpp"

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

}  // namespace

benchmark* register_benchmark(std::string name, benchmark_function fn) {
    storage().push_back(std::make_unique<benchmark>(std::move(name), std::move(fn)));
    views().push_back(storage().back().get());
    return views().back();
}

const std::vector<benchmark*>& registered_benchmarks() {
    return views();
}

}  // namespace tare
