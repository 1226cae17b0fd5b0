// Seed case 001 (PARQUET-2423): parquet-cpp's SkipRecords built a new validity bitmap on every
// call; keeping one buffer alive and resizing it gained 2-10 % at small batch sizes.
//
// One iteration is ONE skip call of BatchSize records, so tare's allocs/iter reads directly as
// allocations per call: 1 for skip_fresh, 0 for skip_reused. The reader walks the 1M-level
// column batch after batch and rewinds at its end (rewinding allocates nothing).
#include <tare/tare.hpp>

#include <map>
#include <set>
#include <string>
#include <tuple>

#include "record_skipper.hpp"

namespace {

using skip_records::bitmap_policy;

const skip_records::column& column_for(int repetition) {
    // Built once per repetition and shared by its eight benchmarks; setup, in no figure.
    static std::map<int, skip_records::column> columns;
    auto it = columns.find(repetition);
    if (it == columns.end()) {
        it = columns.emplace(repetition, skip_records::make_column(repetition)).first;
    }
    return it->second;
}

void skip_bench(tare::State& state, bitmap_policy policy, int repetition, std::size_t batch) {
    const auto& column = column_for(repetition);
    skip_records::record_skipper reader(column, policy);
    // One whole pass before the loop: the reused bitmap reaches the largest size any batch
    // needs (Repetition 2's batches vary in levels), as it would in a reader that has been
    // working for a while, so the loop measures the steady state of both variants. The pass
    // also checks the record count; a comparison group calls the body once per block, so the
    // fresh variant (which has no state to warm up) makes it on its first call only.
    static std::set<std::tuple<bitmap_policy, int, std::size_t>> checked;
    if (policy == bitmap_policy::reused || checked.insert({policy, repetition, batch}).second) {
        std::size_t records = 0;
        while (!reader.at_end()) {
            records += reader.skip(batch);
        }
        if (records != column.num_records) {
            state.skip_with_error("skipped " + std::to_string(records) + " records of " +
                                  std::to_string(column.num_records));
            return;
        }
        reader.rewind();
    }
    // Throughput as the report has it: the column's encoded bytes (levels and values) that a
    // batch covers on average.
    state.set_bytes_per_iteration(static_cast<double>(column.encoded_bytes()) * static_cast<double>(batch) /
                                  static_cast<double>(column.num_records));
    for (auto _ : state) {
        if (reader.at_end()) {
            reader.rewind();
        }
        tare::do_not_optimize(reader.skip(batch));
    }
    tare::do_not_optimize(reader.checksum());
}

[[maybe_unused]] const bool registered = [] {
    for (const auto& [policy, label] :
         {std::pair{bitmap_policy::fresh, "skip_fresh"}, std::pair{bitmap_policy::reused, "skip_reused"}}) {
        for (int repetition : {0, 1, 2}) {
            for (std::size_t batch : std::initializer_list<std::size_t>{1, 10, 100, 1000}) {
                const std::string name = std::string(label) + "/Repetition:" + std::to_string(repetition) +
                                         "/BatchSize:" + std::to_string(batch);
                tare::register_benchmark(name, [policy = policy, repetition, batch](tare::State& state) {
                    skip_bench(state, policy, repetition, batch);
                });
            }
        }
    }
    // Comparison groups (docs/variants.md), one per Repetition and BatchSize: the fresh bitmap
    // (the base, before PARQUET-2423) is the baseline and the reused one (the fix) the member, as
    // the report's gain reads; interleaved, so the executable prints reused against fresh with an
    // interval and both sides' allocations. Named "skip/Repetition:R/BatchSize:B", no benchmark's name.
    for (int repetition : {0, 1, 2}) {
        for (std::size_t batch : std::initializer_list<std::size_t>{1, 10, 100, 1000}) {
            const std::string shape =
                "/Repetition:" + std::to_string(repetition) + "/BatchSize:" + std::to_string(batch);
            tare::register_variants("skip" + shape, {"skip_fresh" + shape, "skip_reused" + shape});
        }
    }
    return true;
}();

}  // namespace
