#pragma once
// Private to src/io: how a run's context maps to JSON (docs/json-schema.md, "context"), shared
// by tare/1 and by tare-compare/1, whose files-mode comparisons keep each side's context.

#include "io/json_codec.hpp"
#include "model/run.hpp"

namespace tare::io::codec {

template <>
struct fields<run_context> {
    template <class V, class C>
    static void map(V& v, C& c) {
        v("tare_version", c.tare_version);
        v("executable", c.executable);
        v("host", c.host);
        v("date", c.date);
        v("cpu", c.cpu);
        v("num_cpus", c.num_cpus);
        // tare additions
        v("clock_overhead_ns", c.clock_overhead_ns);
        v("loop_overhead_ns", c.loop_overhead_ns);
        v("accounting", c.accounting);
        v("processes", c.processes);
        v("interrupted", c.interrupted);
        v("gbench_memory", c.gbench_memory);
        v("instrument", c.instrument, omit_empty);  // --instrument: what counted, and how
        v("merged_from", c.merged_from, omit_empty);  // tare merge's inputs (docs/json-schema.md)
    }
};

}  // namespace tare::io::codec
