// The timing engine under a manual clock: calibration, warm-up, sampling and the memory
// window are checked exactly, with no real time involved.
#include "core/sample_driver.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <stdexcept>

#include "core/metrics.hpp"
#include "unit/manual_probes.hpp"

namespace tare {
namespace {

using detail::sample_driver;
using detail::sample_plan;
using test::manual_clock;
using test::manual_probe;

sample_plan small_plan() {
    sample_plan p;
    p.budget_ns = 1e6;         // 1 ms
    p.clock_overhead_ns = 20;  // target sample: max(1e6/100, 1000*20, 1e4) = 20 us
    return p;
}

TEST(sample_driver, calibrates_samples_to_the_target_duration) {
    manual_clock clock;
    manual_probe probe;
    sample_driver driver(clock, probe, small_plan());
    auto out = driver.run("b", {}, [&](State& s) {
        for (auto _ : s) {
            clock.advance(100);  // every iteration costs exactly 100 ns
        }
    });
    ASSERT_FALSE(out.error) << out.error->message;
    ASSERT_GE(out.samples.size(), 10U);
    for (const sample& smp : out.samples) {
        EXPECT_EQ(smp.iterations, 200U);  // 20 us / 100 ns
        EXPECT_DOUBLE_EQ(smp.elapsed_ns, 20000.0);
    }
    // Measured samples cover the budget and no more than one sample beyond it.
    double measured = 0;
    for (const sample& smp : out.samples) {
        measured += smp.elapsed_ns;
    }
    EXPECT_GE(measured, 1e6);
    EXPECT_LT(measured, 1e6 + 20000.0 + 1);
    EXPECT_GT(out.warmup_iterations, 0U);
    EXPECT_EQ(out.total_iterations, out.warmup_iterations + 200U * out.samples.size());
}

TEST(sample_driver, clock_reads_are_outside_the_measured_interval) {
    manual_clock clock(/*read_cost=*/30);
    manual_probe probe;
    sample_driver driver(clock, probe, small_plan());
    auto out = driver.run("b", {}, [&](State& s) {
        for (auto _ : s) {
            clock.advance(50);
        }
    });
    ASSERT_FALSE(out.error);
    for (const sample& smp : out.samples) {
        // One read's cost lands inside each interval (the read that starts it returns before
        // its own cost is paid): 30 ns per sample, never per iteration.
        EXPECT_DOUBLE_EQ(smp.elapsed_ns, 50.0 * static_cast<double>(smp.iterations) + 30.0);
    }
}

// Under a manual clock an empty loop takes no time at any count, as a loop the compiler removed
// does: calibration stops growing at the plan's bound and measures there. The bound is set low
// because this test's loop is real work when the test's code is unoptimised (the sanitizer
// legs): at the default 10^9 it ran some 10^11 iterations, eleven minutes under ASan.
TEST(sample_driver, empty_body_calibration_terminates) {
    manual_clock clock(/*read_cost=*/25);
    manual_probe probe;
    sample_plan plan = small_plan();
    plan.optimized_away_iterations = 10000;
    sample_driver driver(clock, probe, plan);
    auto out = driver.run("empty", {}, [&](State& s) {
        for (auto _ : s) {
        }
    });
    ASSERT_FALSE(out.error);
    EXPECT_TRUE(out.optimized_away);
    EXPECT_EQ(out.samples.size(), plan.min_samples);
    for (const sample& smp : out.samples) {
        EXPECT_GE(smp.iterations, plan.optimized_away_iterations);
        EXPECT_LE(smp.iterations, 100 * plan.optimized_away_iterations);
    }
}

TEST(sample_driver, long_bodies_take_few_samples) {
    manual_clock clock;
    manual_probe probe;
    sample_driver driver(clock, probe, small_plan());
    auto out = driver.run("slow", {}, [&](State& s) {
        for (auto _ : s) {
            clock.advance(2000000);  // 2 ms an iteration, twice the budget
        }
    });
    ASSERT_FALSE(out.error);
    EXPECT_EQ(out.samples.size(), 3U);
    for (const sample& smp : out.samples) {
        EXPECT_EQ(smp.iterations, 1U);
    }
}

// The process's CPU time over the measured samples' windows only: a body that spends 40 % of its
// time on a CPU, after calibration and warm-up that spent all of theirs.
TEST(sample_driver, the_cpu_time_of_the_measured_samples_is_kept) {
    manual_clock clock;
    manual_probe probe;
    sample_plan plan = small_plan();
    plan.fixed_iterations = 1000;  // 5 ms measured: long enough to judge
    plan.fixed_samples = 5;
    probe.measure_cpu();
    sample_driver driver(clock, probe, plan);
    auto out = driver.run("waits", {}, [&](State& s) {
        for (auto _ : s) {
            clock.advance(1000);
            probe.cpu(400);
        }
    });
    ASSERT_FALSE(out.error);
    ASSERT_TRUE(out.measured_cpu_ns.has_value());
    EXPECT_DOUBLE_EQ(*out.measured_cpu_ns, 5 * 1000 * 400.0);
    benchmark_result r;
    core::derive_time(out, r);
    EXPECT_TRUE(std::any_of(r.warnings.begin(), r.warnings.end(),
                            [](const warning& w) { return w.kind == "contended"; }));
}

// A probe that does not read CPU time gives none, and no warning: never a 0 that looks measured.
TEST(sample_driver, no_cpu_time_without_a_reading) {
    manual_clock clock;
    manual_probe probe;
    sample_plan plan = small_plan();
    plan.fixed_iterations = 10;
    plan.fixed_samples = 5;
    sample_driver driver(clock, probe, plan);
    auto out = driver.run("plain", {}, [&](State& s) {
        for (auto _ : s) {
            clock.advance(1000);
        }
    });
    EXPECT_FALSE(out.measured_cpu_ns.has_value());
}

TEST(sample_driver, fixed_iterations_and_samples) {
    manual_clock clock;
    manual_probe probe;
    sample_plan plan = small_plan();
    plan.fixed_iterations = 7;
    plan.fixed_samples = 5;
    sample_driver driver(clock, probe, plan);
    auto out = driver.run("fixed", {}, [&](State& s) {
        for (auto _ : s) {
            clock.advance(10);
        }
    });
    ASSERT_FALSE(out.error);
    ASSERT_EQ(out.samples.size(), 5U);
    EXPECT_EQ(out.warmup_iterations, 0U);
    EXPECT_EQ(out.total_iterations, 35U);
    for (std::size_t i = 0; i < 5; ++i) {
        EXPECT_EQ(out.samples[i].iterations, 7U);
        EXPECT_EQ(out.samples[i].iterations_before, 7U * i);
    }
}

TEST(sample_driver, setup_and_teardown_are_outside_the_window) {
    manual_clock clock;
    manual_probe probe;
    sample_plan plan = small_plan();
    plan.fixed_iterations = 4;
    plan.fixed_samples = 3;
    sample_driver driver(clock, probe, plan);
    auto out = driver.run("mem", {}, [&](State& s) {
        probe.allocate(1 << 20);  // setup: not counted
        clock.advance(1000000);
        probe.fault(500);
        for (auto _ : s) {
            probe.allocate(24);
            probe.allocate(24);
            probe.release(24);
            probe.fault(2);
            clock.advance(100);
        }
        probe.allocate(4096);  // teardown: not counted
        probe.fault(100);
    });
    ASSERT_FALSE(out.error);
    ASSERT_EQ(out.samples.size(), 3U);
    for (std::size_t i = 0; i < 3; ++i) {
        EXPECT_EQ(out.samples[i].allocs, 8U);
        EXPECT_EQ(out.samples[i].bytes, 8U * 24);
        EXPECT_EQ(out.samples[i].page_faults, 8U);
        EXPECT_DOUBLE_EQ(out.samples[i].elapsed_ns, 400.0);
        EXPECT_EQ(out.samples[i].live_bytes_end, static_cast<std::int64_t>(24 * 4 * (i + 1)));
    }
    EXPECT_EQ(out.peak_live_bytes, 24 * 12 + 24);
    EXPECT_EQ(probe.regions(), 1);
    EXPECT_EQ(probe.regions_ended(), 1);
    EXPECT_FALSE(probe.counting());
}

TEST(sample_driver, untimed_inputs_are_outside_time_and_memory) {
    manual_clock clock;
    manual_probe probe;
    sample_plan plan = small_plan();
    plan.fixed_iterations = 10;
    plan.fixed_samples = 4;
    plan.input_chunk = 3;  // a sample of 10 is made of chunks 3, 3, 3, 1
    sample_driver driver(clock, probe, plan);
    int made = 0;
    int used = 0;
    auto out = driver.run("inputs", {}, [&](State& s) {
        auto inputs = s.with_inputs([&] {
            clock.advance(5000);  // making an input is slow...
            probe.allocate(64);   // ...and allocates: neither may be measured
            probe.fault(1);
            return made++;
        });
        for (int& v : inputs) {
            EXPECT_EQ(v, used);  // each iteration gets the next fresh input
            ++used;
            clock.advance(10);
        }
    });
    ASSERT_FALSE(out.error) << out.error->message;
    EXPECT_EQ(used, 40);
    EXPECT_EQ(made, 40);
    for (const sample& smp : out.samples) {
        EXPECT_EQ(smp.iterations, 10U);
        EXPECT_DOUBLE_EQ(smp.elapsed_ns, 100.0);
        EXPECT_EQ(smp.allocs, 0U);
        EXPECT_EQ(smp.page_faults, 0U);
    }
}

TEST(sample_driver, exception_in_the_body_is_an_error_and_closes_the_region) {
    manual_clock clock;
    manual_probe probe;
    sample_driver driver(clock, probe, small_plan());
    auto out = driver.run("throws", {}, [&](State& s) {
        int i = 0;
        for (auto _ : s) {
            clock.advance(10);
            if (++i == 1000) {
                throw std::runtime_error("boom");
            }
        }
    });
    ASSERT_TRUE(out.error);
    EXPECT_EQ(out.error->kind, "exception");
    EXPECT_EQ(out.error->message, "boom");
    EXPECT_FALSE(probe.counting());
    EXPECT_EQ(probe.regions_ended(), 1);
}

TEST(sample_driver, skip_with_error_before_or_inside_the_loop) {
    manual_clock clock;
    manual_probe probe;
    sample_driver driver(clock, probe, small_plan());
    auto before = driver.run("skip", {}, [&](State& s) {
        s.skip_with_error("no input file");
        for (auto _ : s) {
            ADD_FAILURE() << "the loop must not run";
        }
    });
    ASSERT_TRUE(before.error);
    EXPECT_EQ(before.error->kind, "skipped");
    EXPECT_EQ(before.error->message, "no input file");

    sample_driver driver2(clock, probe, small_plan());
    auto inside = driver2.run("skip2", {}, [&](State& s) {
        for (auto _ : s) {
            clock.advance(10);
            s.skip_with_error("bad state");
        }
    });
    ASSERT_TRUE(inside.error);
    EXPECT_EQ(inside.error->kind, "skipped");
}

TEST(sample_driver, misuse_is_reported) {
    manual_clock clock;
    manual_probe probe;
    sample_driver driver(clock, probe, small_plan());
    auto none = driver.run("noloop", {}, [&](State&) {});
    ASSERT_TRUE(none.error);
    EXPECT_EQ(none.error->kind, "no_loop");

    sample_driver driver2(clock, probe, small_plan());
    auto twice = driver2.run("twice", {}, [&](State& s) {
        for (auto _ : s) {
            clock.advance(100);
        }
        for (auto _ : s) {
            clock.advance(100);
        }
    });
    ASSERT_TRUE(twice.error);
    EXPECT_EQ(twice.error->kind, "loop_twice");  // was "skipped", as if the body had asked
    EXPECT_NE(twice.error->message.find("ran twice"), std::string::npos) << twice.error->message;
}

// A break was accepted as a normal result, timed on the samples before it.
TEST(sample_driver, leaving_the_loop_early_is_an_error_of_its_own) {
    manual_clock clock;
    manual_probe probe;
    sample_plan plan = small_plan();
    plan.fixed_iterations = 1000;
    sample_driver driver(clock, probe, plan);
    std::uint64_t ran = 0;
    auto out = driver.run("breaks", {}, [&](State& s) {
        for (auto _ : s) {
            clock.advance(100);
            if (++ran == 2500)
                break;
        }
    });
    ASSERT_TRUE(out.error);
    EXPECT_EQ(out.error->kind, "loop_left_early");
    EXPECT_NE(out.error->message.find("in the chunk of 1000 iterations that began after 2000"),
              std::string::npos)
        << out.error->message;
    EXPECT_FALSE(probe.counting());  // the window is closed all the same

    // return from inside the loop, during calibration, and from a loop over inputs
    sample_driver calibrating(clock, probe, small_plan());
    auto returned = calibrating.run("returns", {}, [&](State& s) {
        for (auto _ : s) {
            clock.advance(100);
            return;
        }
    });
    ASSERT_TRUE(returned.error);
    EXPECT_EQ(returned.error->kind, "loop_left_early");

    sample_driver with_inputs(clock, probe, plan);
    auto inputs = with_inputs.run("inputs", {}, [&](State& s) {
        auto batch = s.with_inputs([] { return 1; });
        for (int& v : batch) {
            if (v == 1)
                break;
        }
    });
    ASSERT_TRUE(inputs.error);
    EXPECT_EQ(inputs.error->kind, "loop_left_early");

    // The break skip_with_error() asks for is a skip.
    sample_driver skipping(clock, probe, plan);
    auto skipped = skipping.run("skips", {}, [&](State& s) {
        for (auto _ : s) {
            s.skip_with_error("no input");
            break;
        }
    });
    ASSERT_TRUE(skipped.error);
    EXPECT_EQ(skipped.error->kind, "skipped");
}

// A leak past the cap before any sample was measured read "no_samples: the loop ended before a
// sample was measured", with no word of the cap that ended it.
TEST(sample_driver, the_heap_cap_is_named_when_it_ends_the_loop_before_a_sample) {
    manual_clock clock;
    manual_probe probe;
    sample_plan plan = small_plan();
    plan.max_live_bytes = std::int64_t{2} << 20;
    sample_driver driver(clock, probe, plan);
    auto out = driver.run("leaks_3_mib", {}, [&](State& s) {
        for (auto _ : s) {
            probe.allocate(std::int64_t{3} << 20);
            clock.advance(100);
        }
    });
    ASSERT_TRUE(out.error);
    EXPECT_EQ(out.error->kind, "heap_cap");
    EXPECT_EQ(
        out.error->message,
        "the region's live heap passed the cap of 2 MiB after 1 iteration, before a sample was measured");
}

TEST(sample_driver, runaway_live_heap_stops_measuring) {
    manual_clock clock;
    manual_probe probe;
    sample_plan plan = small_plan();
    plan.fixed_iterations = 10;
    plan.max_live_bytes = 1000;
    sample_driver driver(clock, probe, plan);
    auto out = driver.run("leak", {}, [&](State& s) {
        for (auto _ : s) {
            probe.allocate(40);
            clock.advance(100);
        }
    });
    ASSERT_FALSE(out.error);
    ASSERT_TRUE(out.stopped_early);
    EXPECT_EQ(out.samples.size(), 3U);  // 400, 800, 1200 > 1000: stop after the third
}

TEST(sample_driver, args_counters_and_throughput_reach_the_outcome) {
    manual_clock clock;
    manual_probe probe;
    sample_plan plan = small_plan();
    plan.fixed_iterations = 1;
    plan.fixed_samples = 1;
    sample_driver driver(clock, probe, plan);
    auto out = driver.run("b/7", {7, 9}, [&](State& s) {
        EXPECT_EQ(s.arg(0), 7);
        EXPECT_EQ(s.arg(1), 9);
        EXPECT_THROW((void)s.arg(2), std::out_of_range);
        EXPECT_EQ(s.name(), "b/7");
        s.set_bytes_per_iteration(1024);
        s.set_items_per_iteration(3);
        for (auto _ : s) {
            clock.advance(100);
        }
        s.set_counter("ratio", 0.5);
        s.set_counter("ratio", 0.25);
    });
    ASSERT_FALSE(out.error);
    EXPECT_EQ(out.bytes_per_iteration, 1024);
    EXPECT_EQ(out.items_per_iteration, 3);
    ASSERT_EQ(out.counters.size(), 1U);
    EXPECT_EQ(out.counters[0].second, 0.25);
}

}  // namespace
}  // namespace tare
