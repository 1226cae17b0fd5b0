#pragma once
/// \file
/// TARE_* macros: thin sugar over tare::register_benchmark. No unprefixed macro is defined,
/// so this header compiles beside Google Benchmark's BENCHMARK.

#include "tare/benchmark.hpp"

#define TARE_DETAIL_CONCAT2(a, b) a##b
#define TARE_DETAIL_CONCAT(a, b) TARE_DETAIL_CONCAT2(a, b)

/// Registers function `fn` under the name `fn`; chain `->arg(n)` for instances.
#define TARE_BENCHMARK(fn)                                                                      \
    [[maybe_unused]] static ::tare::benchmark* TARE_DETAIL_CONCAT(tare_registered_, __LINE__) = \
        ::tare::register_benchmark(#fn, fn)
