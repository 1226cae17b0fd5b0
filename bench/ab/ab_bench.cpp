// The A/B study's bodies under tare (bench/ab/README.md). Built as ab_a1, ab_a2 (identical),
// ab_slow10, ab_slow20, ab_slow50 (TARE_AB_SLOWDOWN_PERMILLE).
#include <tare/tare.hpp>

#include "bodies.hpp"

namespace {

template <class Body>
void run_body(tare::State& state) {
    Body body;  // setup: never measured
    for (auto _ : state) {
        tare::do_not_optimize(body);  // the inputs may have changed: the work cannot be hoisted
        auto r = body.run();
        tare::do_not_optimize(r);
    }
}

void hash_64k(tare::State& state) {
    run_body<ab::hash_64k>(state);
}
void sort_2k(tare::State& state) {
    run_body<ab::sort_2k>(state);
}
void parse_csv(tare::State& state) {
    run_body<ab::parse_csv>(state);
}
void map_500(tare::State& state) {
    run_body<ab::map_500>(state);
}

TARE_BENCHMARK(hash_64k);
TARE_BENCHMARK(sort_2k);
TARE_BENCHMARK(parse_csv);
TARE_BENCHMARK(map_500);

}  // namespace
