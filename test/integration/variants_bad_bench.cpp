// A comparison group naming a benchmark that is not registered: the executable must refuse to
// run (exit 2, one error line), whatever flags it is given.
#include <tare/tare.hpp>

static void present(tare::State& state) {
    for (auto _ : state) {
        tare::do_not_optimize(state.iterations());
    }
}
TARE_BENCHMARK(present);

[[maybe_unused]] static const bool declared = [] {
    tare::register_variants("broken", {"present", "absent"});
    return true;
}();
