// core/alloc_sites.hpp with a symbolizer that knows the answer: which frames are folded away
// and where a stack is cut, how records become sites (grouping, threads, the top N by
// allocations and by bytes), and which blocks the pass left live. And the name helpers of
// os/symbolize.hpp, and the real symbolizer on a function of this program.
#include "core/alloc_sites.hpp"

#include <gtest/gtest.h>

#include <map>

namespace tare::core {
namespace {

// Addresses 1, 2, 3, ... stand for frames; each maps to the logical frames given.
class fake_symbolizer final : public os::symbolizer {
public:
    fake_symbolizer();
    std::map<std::uintptr_t, std::vector<os::source_frame>> frames;
    std::vector<os::source_frame> frames_at(std::uintptr_t return_address) override {
        return frames.at(return_address);
    }
    bool reads_debug_info() const noexcept override { return true; }
};

os::source_frame at(std::string function, std::string file = "", std::uint32_t line = 0) {
    return {std::move(function), std::move(file), line, "bench"};
}

std::vector<void*> addresses(std::initializer_list<std::uintptr_t> pcs) {
    std::vector<void*> out;
    for (auto pc : pcs)
        out.push_back(reinterpret_cast<void*>(pc));
    return out;
}

fake_symbolizer::fake_symbolizer() {
    auto& s = *this;
    s.frames[1] = {at("tare::alloc::detail::record_site")};
    s.frames[2] = {at("tare::alloc::detail::(anonymous namespace)::publish")};
    s.frames[3] = {at("operator new")};
    // One return address inside user code, with the standard library's calls inlined into it.
    s.frames[4] = {at("std::__new_allocator<int>::allocate", "new_allocator.h", 137),
                   at("std::_Vector_base<int>::_M_allocate", "stl_vector.h", 378),
                   at("std::vector<int>::_M_realloc_insert<int>", "vector.tcc", 453),
                   at("std::vector<int>::emplace_back<int>", "vector.tcc", 123),
                   at("std::vector<int>::push_back", "stl_vector.h", 1294),
                   at("encode", "encoder.cpp", 61)};
    s.frames[5] = {at("(anonymous namespace)::body", "bench.cpp", 20)};
    s.frames[6] = {at("std::_Function_handler<void (tare::State&), void (*)(tare::State&)>::_M_invoke")};
    s.frames[7] = {at("tare::detail::sample_driver::run")};
    s.frames[8] = {at("main")};
    s.frames[9] = {at("malloc")};
    s.frames[10] = {at("helper", "other.cpp", 7)};
    s.frames[11] = {at("worker_loop", "bench.cpp", 40)};
    s.frames[12] = {at("std::thread::_State_impl<std::thread::_Invoker<std::tuple<F> > >::_M_run")};
    s.frames[13] = {at("execute_native_thread_routine")};
    s.frames[14] = {at("start_thread")};
}

TEST(core_alloc_sites, a_stack_runs_from_the_call_the_code_made_to_the_body) {
    fake_symbolizer s;
    const auto pcs = addresses({1, 2, 3, 4, 5, 6, 7, 8});
    const std::vector<stack_frame> stack = user_stack(pcs, s);
    ASSERT_EQ(stack.size(), 3U);
    // The allocator's frames are gone; the library call the code made is one frame, at the
    // line of the code that made it.
    EXPECT_EQ(stack[0].function, "std::vector<int>::push_back");
    EXPECT_EQ(stack[0].file, "encoder.cpp");
    EXPECT_EQ(stack[0].line, 61U);
    EXPECT_EQ(stack[1].function, "encode");
    EXPECT_EQ(stack[1].line, 61U);
    EXPECT_EQ(stack[2].function, "(anonymous namespace)::body");  // std::function's invoker cut
}

// Without debug information tare's own hook has no names (it exports none): its frames, inner
// to the first named allocation function, are dropped with the allocation path; an unnamed frame
// of the program's own further out is kept.
TEST(core_alloc_sites, tares_own_unnamed_frames_never_appear) {
    fake_symbolizer s;
    s.frames[20] = {at("bench+0x1a2b")};
    s.frames[21] = {at("bench+0x1c00")};
    s.frames[22] = {at("bench+0x4400")};
    const std::vector<stack_frame> stack = user_stack(addresses({20, 21, 9, 22, 5, 6, 7}), s);
    ASSERT_EQ(stack.size(), 2U);
    EXPECT_EQ(stack[0].function, "bench+0x4400");
    EXPECT_EQ(stack[1].function, "(anonymous namespace)::body");
    // An unnamed frame that calls no allocation function is the program's: kept.
    const std::vector<stack_frame> own = user_stack(addresses({22, 5, 6}), s);
    ASSERT_EQ(own.size(), 2U);
    EXPECT_EQ(own[0].function, "bench+0x4400");
}

TEST(core_alloc_sites, a_threads_stack_ends_where_the_thread_began) {
    fake_symbolizer s;
    const std::vector<stack_frame> stack = user_stack(addresses({1, 2, 9, 10, 11, 12, 13, 14}), s);
    ASSERT_EQ(stack.size(), 2U);
    EXPECT_EQ(stack[0].function, "helper");
    EXPECT_EQ(stack[0].file, "other.cpp");
    EXPECT_EQ(stack[1].function, "worker_loop");
}

// A Google Benchmark suite's stack (tare::gbench's sites pass): the body is called by Google
// Benchmark's runner, which tare's worker called through RunSpecifiedBenchmarks. The stack ends at
// the body, a function's, a fixture's BenchmarkCase or a lambda's; a call the body made into
// Google Benchmark's State stays, at its line.
TEST(core_alloc_sites, a_google_benchmark_suites_stack_ends_at_its_body) {
    fake_symbolizer s;
    s.frames[30] = {at("BM_parse", "parse_bench.cpp", 12)};
    s.frames[31] = {at("benchmark::internal::FunctionBenchmark::Run")};
    s.frames[32] = {at("benchmark::internal::BenchmarkInstance::Run")};
    s.frames[33] = {at("benchmark::internal::(anonymous namespace)::RunInThread")};
    s.frames[34] = {at("benchmark::internal::BenchmarkRunner::DoOneRepetition")};
    s.frames[35] = {at("benchmark::RunSpecifiedBenchmarks")};
    s.frames[36] = {at("__wrap__ZN9benchmark22RunSpecifiedBenchmarksEv")};
    s.frames[37] = {at("tare::gbench::run_one")};
    s.frames[38] = {at("parse_fixture_BM_rows_Benchmark::BenchmarkCase", "parse_bench.cpp", 30)};
    s.frames[39] = {at("benchmark::Fixture::Run")};
    s.frames[40] = {at("benchmark::State::SetLabel", "benchmark.cc", 300)};
    s.frames[41] = {at("main::{lambda(benchmark::State&)#1}::operator()", "parse_bench.cpp", 44)};
    s.frames[42] = {at("benchmark::internal::LambdaBenchmark<main::{lambda(benchmark::State&)#1}>::Run")};

    const std::vector<stack_frame> plain =
        user_stack(addresses({1, 3, 10, 30, 31, 32, 33, 34, 35, 36, 37, 8}), s);
    ASSERT_EQ(plain.size(), 2U);
    EXPECT_EQ(plain[0].function, "helper");
    EXPECT_EQ(plain[1].function, "BM_parse");
    EXPECT_EQ(plain[1].line, 12U);

    const std::vector<stack_frame> fixture = user_stack(addresses({1, 3, 38, 39, 31, 32, 33}), s);
    ASSERT_EQ(fixture.size(), 1U);
    EXPECT_EQ(fixture[0].function, "parse_fixture_BM_rows_Benchmark::BenchmarkCase");

    const std::vector<stack_frame> lambda = user_stack(addresses({9, 41, 42, 32, 33}), s);
    ASSERT_EQ(lambda.size(), 1U);
    EXPECT_EQ(lambda[0].function, "main::{lambda(benchmark::State&)#1}::operator()");

    const std::vector<stack_frame> label = user_stack(addresses({3, 40, 30, 31, 32}), s);
    ASSERT_EQ(label.size(), 2U);
    EXPECT_EQ(label[0].function, "benchmark::State::SetLabel");
    EXPECT_EQ(label[1].function, "BM_parse");
}

// Google Benchmark's shared library hides its runner: its frames outer of the body are unnamed
// (the exported FunctionBenchmark::Run calls the body as a tail call, and leaves no frame). They
// end the stack as the named ones do; the library's frames inner to the body's, a call the body
// made into it, stay.
TEST(core_alloc_sites, a_shared_google_benchmarks_unnamed_runner_ends_the_stack) {
    fake_symbolizer s;
    const std::string library = "/usr/lib/x86_64-linux-gnu/libbenchmark.so.1.7.1";
    s.frames[30] = {at("BM_parse", "parse_bench.cpp", 12)};
    s.frames[50] = {{"libbenchmark.so.1.7.1+0x2d1dd", "", 0, library}};
    s.frames[51] = {{"libbenchmark.so.1.7.1+0x16a6b", "", 0, library}};
    s.frames[52] = {{"benchmark::RunSpecifiedBenchmarks", "", 0, library}};
    s.frames[53] = {{"benchmark::State::SetLabel", "", 0, library}};
    s.frames[54] = {{"libbenchmark.so.1.7.1+0x1d000", "", 0, library}};

    const std::vector<stack_frame> plain = user_stack(addresses({1, 3, 10, 30, 50, 51, 52, 8}), s);
    ASSERT_EQ(plain.size(), 2U);
    EXPECT_EQ(plain[0].function, "helper");
    EXPECT_EQ(plain[1].function, "BM_parse");

    // SetLabel and the unnamed helper it called are inner to the body: kept.
    const std::vector<stack_frame> label = user_stack(addresses({3, 54, 53, 30, 50, 51}), s);
    ASSERT_EQ(label.size(), 3U);
    EXPECT_EQ(label[0].function, "libbenchmark.so.1.7.1+0x1d000");
    EXPECT_EQ(label[1].function, "benchmark::State::SetLabel");
    EXPECT_EQ(label[2].function, "BM_parse");
}

alloc::site_record record(const void* block, std::uint64_t size, std::uint64_t seq,
                          std::initializer_list<std::uintptr_t> pcs, std::uint64_t thread = 0) {
    alloc::site_record r;
    r.block = block;
    r.size = size;
    r.seq = seq;
    r.thread = thread;
    for (auto pc : pcs)
        r.frames[r.depth++] = reinterpret_cast<void*>(pc);
    return r;
}

// Ten iterations: push_back 3 times (4 B each) an iteration from encode, helper once (100 B)
// from the body, and once (8 B) from another thread; two threads' ids reused.
TEST(core_alloc_sites, records_become_sites_per_iteration_with_their_share) {
    fake_symbolizer s;
    s.frames[15] = {at("helper", "other.cpp", 9)};
    std::vector<alloc::site_record> allocs;
    std::vector<char> blocks(100);
    std::uint64_t seq = 0;
    for (int i = 0; i < 10; ++i) {
        for (int k = 0; k < 3; ++k)
            allocs.push_back(record(&blocks[static_cast<std::size_t>(k)], 4, seq++, {1, 2, 3, 4, 5, 6, 7}));
        allocs.push_back(record(&blocks[10], 100, seq++, {1, 9, 15, 5, 6, 7}));
        allocs.push_back(record(&blocks[20], 8, seq++, {1, 9, 10, 11, 12, 13}, 0xabc));
    }
    const site_summary sum = summarize_sites(allocs, {}, 10, 5, s);
    ASSERT_EQ(sum.alloc_sites.size(), 3U);
    EXPECT_EQ(sum.alloc_sites[0].stack.front().function, "std::vector<int>::push_back");
    EXPECT_EQ(sum.alloc_sites[0].allocs_per_iter, 3.0);
    EXPECT_EQ(sum.alloc_sites[0].bytes_per_iter, 12.0);
    EXPECT_DOUBLE_EQ(sum.alloc_sites[0].share, 0.6);
    EXPECT_EQ(sum.alloc_sites[0].thread, 0U);
    // Ties on allocations: more bytes first.
    EXPECT_EQ(sum.alloc_sites[1].stack.front().function, "helper");
    EXPECT_EQ(sum.alloc_sites[1].stack.front().line, 9U);
    EXPECT_EQ(sum.alloc_sites[1].bytes_per_iter, 100.0);
    EXPECT_EQ(sum.alloc_sites[2].stack.front().function, "helper");
    EXPECT_EQ(sum.alloc_sites[2].thread, 1U);
    EXPECT_EQ(sum.alloc_sites[2].stack.front().line, 7U);

    // Top 1: the most allocations (push_back) and the most bytes (helper from the body).
    const site_summary one = summarize_sites(allocs, {}, 10, 1, s);
    ASSERT_EQ(one.alloc_sites.size(), 2U);
    EXPECT_EQ(one.alloc_sites[0].stack.front().function, "std::vector<int>::push_back");
    EXPECT_EQ(one.alloc_sites[1].bytes_per_iter, 100.0);
}

// Two threads running one line by the same stack (a pool's workers) are one site, with each
// thread's part; the site's thread is the one of most allocations.
TEST(core_alloc_sites, one_line_run_by_two_threads_is_one_site_with_each_threads_part) {
    fake_symbolizer s;
    std::vector<alloc::site_record> allocs;
    std::vector<char> blocks(10);
    std::uint64_t seq = 0;
    for (int i = 0; i < 10; ++i) {
        allocs.push_back(record(&blocks[0], 8, seq++, {1, 9, 10, 11, 12, 13}, 0xdef));
        allocs.push_back(record(&blocks[1], 8, seq++, {1, 9, 10, 11, 12, 13}, 0xabc));
        allocs.push_back(record(&blocks[2], 8, seq++, {1, 9, 10, 11, 12, 13}, 0xabc));
    }
    const site_summary sum = summarize_sites(allocs, {}, 10, 5, s);
    ASSERT_EQ(sum.alloc_sites.size(), 1U);
    EXPECT_EQ(sum.stacks, 1U);
    const alloc_site& site = sum.alloc_sites[0];
    EXPECT_EQ(site.allocs_per_iter, 3.0);
    EXPECT_DOUBLE_EQ(site.share, 1.0);
    ASSERT_EQ(site.threads.size(), 2U);
    EXPECT_EQ(site.threads[0].thread, 1U);  // 0xdef allocated first
    EXPECT_EQ(site.threads[0].allocs_per_iter, 1.0);
    EXPECT_EQ(site.threads[1].thread, 2U);
    EXPECT_EQ(site.threads[1].allocs_per_iter, 2.0);
    EXPECT_EQ(site.threads[1].bytes_per_iter, 16.0);
    EXPECT_EQ(site.thread, 2U);
}

// The pass's allocations and frees replayed in order: a block freed and its address reused
// by a later allocation that stays live is retained once; a freed one is not.
TEST(core_alloc_sites, retained_sites_are_what_the_pass_left_live) {
    fake_symbolizer s;
    char a = 0;
    char b = 0;
    std::vector<alloc::site_record> allocs{
        record(&a, 64, 0, {1, 2, 3, 4, 5, 6, 7}),  // freed at 1
        record(&a, 64, 2, {1, 9, 10, 5, 6, 7}),    // the same address again, kept
        record(&b, 32, 3, {1, 2, 3, 4, 5, 6, 7}),  // kept
        record(&b, 16, 5, {1, 2, 3, 4, 5, 6, 7}),  // b reused after its free at 4, kept
    };
    std::vector<alloc::free_record> frees{{&a, 1}, {&b, 4}};
    const site_summary sum = summarize_sites(allocs, frees, 2, 5, s);
    ASSERT_EQ(sum.retained_sites.size(), 2U);
    EXPECT_EQ(sum.retained_sites[0].stack.front().function, "helper");  // 64 B, then push_back's 16 B
    EXPECT_EQ(sum.retained_sites[0].bytes_per_iter, 32.0);
    EXPECT_EQ(sum.retained_sites[0].allocs_per_iter, 0.5);
    EXPECT_DOUBLE_EQ(sum.retained_sites[0].share, 0.8);
    EXPECT_EQ(sum.retained_sites[1].stack.front().function, "std::vector<int>::push_back");
    EXPECT_EQ(sum.retained_sites[1].bytes_per_iter, 8.0);
}

// A pass of 4 recorded iterations that ran on to 100: its growth records (a buffer reallocated
// twice, the first freed) take no part in the allocation sites and count in the retained ones
// over the whole pass; a site in both lists is one.
TEST(core_alloc_sites, growth_records_name_the_buffer_kept_over_the_whole_pass) {
    fake_symbolizer s;
    char temp = 0;
    char grown1 = 0;
    char grown2 = 0;
    std::vector<alloc::site_record> allocs;
    std::vector<alloc::free_record> frees;
    std::uint64_t seq = 0;
    for (int i = 0; i < 4; ++i) {
        allocs.push_back(record(&temp, 40, seq++, {1, 9, 10, 5, 6, 7}));  // a temporary: helper
        frees.push_back({&temp, seq++});
    }
    allocs.push_back(record(&grown1, 8, seq++, {1, 2, 3, 4, 5, 6, 7}));  // push_back, kept
    std::vector<alloc::site_record> growth{record(&grown1, 800, seq++, {1, 2, 3, 4, 5, 6, 7})};
    growth.push_back(record(&grown2, 1600, seq++, {1, 2, 3, 4, 5, 6, 7}));
    frees.push_back({&grown1, seq++});  // the first growth block, reallocated
    const site_summary sum = summarize_sites(allocs, frees, 4, 5, s, {growth, 100});
    ASSERT_EQ(sum.alloc_sites.size(), 2U);
    EXPECT_EQ(sum.alloc_sites[0].stack.front().function, "helper");
    EXPECT_EQ(sum.alloc_sites[0].allocs_per_iter, 1.0);
    EXPECT_EQ(sum.alloc_sites[1].allocs_per_iter, 0.25);  // growth records are not allocations here
    ASSERT_EQ(sum.retained_sites.size(), 1U);
    EXPECT_EQ(sum.retained_sites[0].stack.front().function, "std::vector<int>::push_back");
    EXPECT_EQ(sum.retained_sites[0].bytes_per_iter, 16.0);  // 1,600 over 100 iterations
    EXPECT_EQ(sum.retained_sites[0].allocs_per_iter, 0.01);
    EXPECT_EQ(sum.retained_sites[0].share, 1.0);
}

TEST(core_alloc_sites, names_lose_their_parameters_and_return_type) {
    EXPECT_EQ(os::without_parameters("ns::f<int>(int, char const*) const"), "ns::f<int>");
    EXPECT_EQ(os::without_parameters("void (anonymous namespace)::g<std::vector<int> >(int&)"),
              "(anonymous namespace)::g<std::vector<int> >");
    EXPECT_EQ(os::without_parameters("S::operator()(int) &&"), "S::operator()");
    EXPECT_EQ(os::without_parameters("operator new(unsigned long)"), "operator new");
    EXPECT_EQ(
        os::without_parameters(
            "std::vector<void (*)(int), std::allocator<void (*)(int)> >::push_back(void (* const&)(int))"),
        "std::vector<void (*)(int), std::allocator<void (*)(int)> >::push_back");
    EXPECT_EQ(os::without_parameters("main"), "main");
    EXPECT_EQ(os::without_parameters("operator new(unsigned long) [clone .cold]"), "operator new");
    EXPECT_EQ(os::without_parameters("ns::f(int) [clone .isra.0] [clone .cold]"), "ns::f");
}

__attribute__((noinline)) void marker_function() {
    asm volatile("");
}

TEST(core_alloc_sites, the_process_symbolizer_names_a_function_of_this_program) {
    const auto address = reinterpret_cast<std::uintptr_t>(&marker_function);
    const auto frames = process_symbolizer().frames_at(address + 1);
    ASSERT_FALSE(frames.empty());
    EXPECT_EQ(frames.back().function, "tare::core::(anonymous namespace)::marker_function");
}

}  // namespace
}  // namespace tare::core
