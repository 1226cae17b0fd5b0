#pragma once
/// \file
/// The umbrella header: everything a benchmark source needs.
///
///     #include <tare/tare.hpp>
///     static void bm(tare::State& state) { for (auto _ : state) { work(); } }
///     TARE_BENCHMARK(bm);

#include "tare/benchmark.hpp"
#include "tare/inputs.hpp"
#include "tare/macros.hpp"
#include "tare/optimizer.hpp"
#include "tare/report.hpp"
#include "tare/state.hpp"
#include "tare/variants.hpp"
#include "tare/version.hpp"
