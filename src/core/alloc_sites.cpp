#include "core/alloc_sites.hpp"

#include <algorithm>
#include <map>
#include <string_view>
#include <tuple>
#include <unordered_map>

namespace tare::core {

namespace {

bool starts_with(std::string_view s, std::string_view prefix) {
    return s.substr(0, prefix.size()) == prefix;
}

// The last component of a qualified name, template arguments ignored: "std::vector<int>::_M_x"
// -> "_M_x".
std::string_view last_component(std::string_view name) {
    int depth = 0;
    std::size_t start = 0;
    for (std::size_t i = 0; i < name.size(); ++i) {
        if (name[i] == '<') {
            ++depth;
        } else if (name[i] == '>') {
            --depth;
        } else if (depth == 0 && name[i] == ':' && i + 1 < name.size() && name[i + 1] == ':') {
            start = i + 2;
        }
    }
    return name.substr(start);
}

// A frame of the allocation path: tare's hook, the C library's allocation functions, operator
// new, and the standard library's allocators and the container internals that call them
// (members named _M_... or __..., by libstdc++'s convention for its implementation details).
bool allocation_path(std::string_view f) {
    if (starts_with(f, "tare::alloc::") || starts_with(f, "operator new") ||
        starts_with(f, "operator delete")) {
        return true;
    }
    for (std::string_view c : {"malloc", "calloc", "realloc", "reallocarray", "aligned_alloc",
                               "posix_memalign", "memalign", "valloc", "pvalloc", "__libc_malloc",
                               "__libc_calloc", "__libc_realloc", "backtrace", "__GI___backtrace"}) {
        if (f == c) {
            return true;
        }
    }
    if (starts_with(f, "std::") || starts_with(f, "__gnu_cxx::")) {
        const std::string_view last = last_component(f);
        return starts_with(last, "_M_") || starts_with(last, "__") || last == "allocate" ||
               starts_with(f, "std::allocator") || starts_with(f, "std::__new_allocator") ||
               starts_with(f, "__gnu_cxx::new_allocator") || starts_with(f, "std::allocator_traits");
    }
    return false;
}

// A frame named by module and offset alone ("bench+0x1a2b"): no symbol was found for it.
bool unnamed(std::string_view f) {
    return f.find("+0x") != std::string_view::npos;
}

bool standard_library(std::string_view f) {
    return starts_with(f, "std::") || starts_with(f, "__gnu_cxx::");
}

// Where the harness called the body, or a thread began: the stack ends before it. Google
// Benchmark's harness is its runner (benchmark::internal::, which calls a function body through
// FunctionBenchmark::Run and a lambda's through LambdaBenchmark::Run), a fixture's Run, which
// calls its BenchmarkCase, and RunSpecifiedBenchmarks, through which tare::gbench runs the suite
// (its wrapper, __wrap_..., is tare's). Rejected: every frame in namespace benchmark, as the
// instruction profile cuts, which would also cut a library call the body makes (State::SetLabel
// allocates a string: its site is the body's line that called it).
bool outside_body(std::string_view f) {
    return starts_with(f, "tare::") || starts_with(f, "benchmark::internal::") ||
           starts_with(f, "benchmark::Fixture::Run") || starts_with(f, "benchmark::RunSpecifiedBenchmarks") ||
           starts_with(f, "__wrap__ZN9benchmark") || f == "start_thread" || f == "clone" || f == "clone3" ||
           f == "execute_native_thread_routine" || f == "__libc_start_main" ||
           f == "__libc_start_call_main" || f == "main";
}

// A frame of Google Benchmark's shared library (libbenchmark.so...). Its runner's functions are
// hidden there, so they come unnamed ("libbenchmark.so.1.7.1+0x2d1dd"), and the exported one that
// calls a function body (FunctionBenchmark::Run) calls it as a tail call, leaving no frame: what
// sits outer of the body is unnamed frames of this module.
bool google_benchmark_library(const os::source_frame& f) {
    const std::string_view module = f.module;
    const std::size_t slash = module.rfind('/');
    return starts_with(slash == std::string_view::npos ? module : module.substr(slash + 1), "libbenchmark.");
}

// The plumbing between the harness (or a thread's start) and the body: std::function's and
// std::thread's invokers.
bool plumbing(std::string_view f) {
    return starts_with(f, "std::_Function_handler") || starts_with(f, "std::function") ||
           starts_with(f, "std::__invoke") || starts_with(f, "std::thread::_State_impl") ||
           starts_with(f, "std::thread::_Invoker") || starts_with(f, "std::__future_base");
}

stack_frame to_stack_frame(const os::source_frame& f) {
    stack_frame s;
    s.function = f.function;
    if (!f.file.empty()) {
        s.file = f.file;
    }
    if (f.line != 0) {
        s.line = f.line;
    }
    return s;
}

using stack_key = std::vector<std::tuple<std::string, std::string, std::uint32_t>>;

stack_key key_of(const std::vector<stack_frame>& stack) {
    stack_key k;
    for (const stack_frame& f : stack) {
        k.emplace_back(f.function, f.file.value_or(""), f.line.value_or(0));
    }
    return k;
}

struct tally {
    std::vector<stack_frame> stack;
    std::uint32_t thread = 0;  // the first thread seen at this stack
    std::uint64_t allocs = 0;
    std::uint64_t bytes = 0;
    std::map<std::uint32_t, std::pair<std::uint64_t, std::uint64_t>> threads;  // allocations, bytes
};

alloc_site to_site(const tally& t, double iterations, double share) {
    alloc_site s;
    s.stack = t.stack;
    if (s.stack.empty()) {  // every frame was the allocation path's or the harness's
        s.stack.push_back({"(unknown)", std::nullopt, std::nullopt});
    }
    s.allocs_per_iter = static_cast<double>(t.allocs) / iterations;
    s.bytes_per_iter = static_cast<double>(t.bytes) / iterations;
    s.share = share;
    s.thread = t.thread;
    if (t.threads.size() > 1) {  // one line run by several threads: one site, and each one's part
        std::uint64_t most = 0;
        for (const auto& [thread, counts] : t.threads) {
            s.threads.push_back({thread, static_cast<double>(counts.first) / iterations,
                                 static_cast<double>(counts.second) / iterations});
            if (counts.first > most) {
                most = counts.first;
                s.thread = thread;
            }
        }
    }
    return s;
}

// The `top` by allocations and the `top` by bytes, as one list, most allocations first.
std::vector<const tally*> top_of(const std::vector<tally>& all, std::size_t top) {
    std::vector<const tally*> by_allocs;
    for (const tally& t : all) {
        by_allocs.push_back(&t);
    }
    auto by_bytes = by_allocs;
    auto name = [](const tally* t) { return t->stack.empty() ? std::string() : t->stack.front().function; };
    std::stable_sort(by_allocs.begin(), by_allocs.end(), [&](const tally* a, const tally* b) {
        return std::make_tuple(b->allocs, b->bytes, name(a)) < std::make_tuple(a->allocs, a->bytes, name(b));
    });
    std::stable_sort(by_bytes.begin(), by_bytes.end(), [&](const tally* a, const tally* b) {
        return std::make_tuple(b->bytes, b->allocs, name(a)) < std::make_tuple(a->bytes, a->allocs, name(b));
    });
    std::vector<const tally*> out(
        by_allocs.begin(), by_allocs.begin() + static_cast<std::ptrdiff_t>(std::min(top, by_allocs.size())));
    for (std::size_t i = 0; i < std::min(top, by_bytes.size()); ++i) {
        if (std::find(out.begin(), out.end(), by_bytes[i]) == out.end()) {
            out.push_back(by_bytes[i]);
        }
    }
    std::stable_sort(out.begin(), out.end(), [&](const tally* a, const tally* b) {
        return std::make_tuple(b->allocs, b->bytes, name(a)) < std::make_tuple(a->allocs, a->bytes, name(b));
    });
    return out;
}

}  // namespace

std::vector<stack_frame> user_stack(std::span<void* const> frames, os::symbolizer& symbols) {
    std::vector<os::source_frame> logical;
    for (void* pc : frames) {
        for (os::source_frame& f : symbols.frames_at(reinterpret_cast<std::uintptr_t>(pc))) {
            logical.push_back(std::move(f));
        }
    }
    // Without debug information tare's hook is unnamed (it exports no symbol): frames without a
    // name inner to the first allocation function (malloc, operator new) are the hook's. Unnamed
    // frames further out are the program's, and stay.
    std::size_t begin = 0;
    while (begin < logical.size() && unnamed(logical[begin].function)) {
        ++begin;
    }
    if (begin == logical.size() || !allocation_path(logical[begin].function)) {
        begin = 0;
    }
    while (begin < logical.size() && allocation_path(logical[begin].function)) {
        ++begin;
    }
    // Once past a frame of the program's own, a frame of Google Benchmark's shared library is
    // its runner, which called the body: the body only calls into the library, never back out of
    // it but through the runner. Frames of the library inner to the program's (State::SetLabel,
    // and what it calls) are a call the body made, and stay.
    std::size_t end = begin;
    bool past_own = false;
    while (end < logical.size() && !outside_body(logical[end].function) &&
           !(past_own && google_benchmark_library(logical[end]))) {
        past_own = past_own || !google_benchmark_library(logical[end]);
        ++end;
    }
    while (end > begin && plumbing(logical[end - 1].function)) {
        --end;
    }
    std::vector<stack_frame> out;
    // A run of standard-library frames at the inner end is the library function the code
    // called (vector::push_back, not the emplace_back it inlines): one frame, at the line of
    // the caller that called it, where the user can change something.
    std::size_t library = begin;
    while (library < end && standard_library(logical[library].function)) {
        ++library;
    }
    if (library > begin && library < end) {
        stack_frame called = to_stack_frame(logical[library - 1]);
        const stack_frame caller = to_stack_frame(logical[library]);
        called.file = caller.file;
        called.line = caller.line;
        out.push_back(std::move(called));
        begin = library;
    }
    for (std::size_t i = begin; i < end; ++i) {
        out.push_back(to_stack_frame(logical[i]));
    }
    return out;
}

namespace {

// Each record's stack symbolized and grouped by stack and thread: `index` maps a group to its
// tally, `tally_of` a record to its group. `count` adds the record to the group's allocations.
// Grouped by stack alone: threads that ran the same line by the same stack (a pool's workers)
// are one site, with each thread's part. Rejected: a site per thread, which split one line of a
// pool into as many sites as it had workers, each with a fraction of the share.
struct site_groups {
    std::map<stack_key, std::size_t> index;
    std::vector<tally> tallies;
    std::vector<std::size_t> tally_of;

    void add(const alloc::site_record& r, std::uint32_t thread, bool count, os::symbolizer& symbols) {
        std::vector<stack_frame> stack = user_stack({r.frames, r.depth}, symbols);
        auto [it, fresh] = index.try_emplace(key_of(stack), tallies.size());
        if (fresh) {
            tallies.push_back({std::move(stack), thread, 0, 0, {}});
        }
        if (count) {
            tally& t = tallies[it->second];
            ++t.allocs;
            t.bytes += r.size;
            auto& [allocs, bytes] = t.threads[thread];
            ++allocs;
            bytes += r.size;
        }
        tally_of.push_back(it->second);
    }
};

// Other threads by the order of their first recorded allocation: 1, 2, ...
std::map<std::uint64_t, std::uint32_t> number_threads(std::span<const alloc::site_record> allocs,
                                                      std::span<const alloc::site_record> growth) {
    std::vector<const alloc::site_record*> order;
    for (const alloc::site_record& r : allocs) {
        order.push_back(&r);
    }
    for (const alloc::site_record& r : growth) {
        order.push_back(&r);
    }
    std::sort(order.begin(), order.end(),
              [](const alloc::site_record* a, const alloc::site_record* b) { return a->seq < b->seq; });
    std::map<std::uint64_t, std::uint32_t> number;
    for (const alloc::site_record* r : order) {
        if (r->thread != 0) {
            number.try_emplace(r->thread, static_cast<std::uint32_t>(number.size() + 1));
        }
    }
    return number;
}

// The records live at the end of the pass: its allocations and frees replayed in the order
// they happened. Record i is allocs[i], or growth[i - allocs.size()].
std::vector<std::size_t> live_records(std::span<const alloc::site_record> allocs,
                                      std::span<const alloc::site_record> growth,
                                      std::span<const alloc::free_record> frees) {
    struct event {
        std::uint64_t seq;
        const void* block;
        std::size_t record;  // SIZE_MAX for a free
    };
    std::vector<event> events;
    for (std::size_t i = 0; i < allocs.size(); ++i) {
        events.push_back({allocs[i].seq, allocs[i].block, i});
    }
    for (std::size_t i = 0; i < growth.size(); ++i) {
        events.push_back({growth[i].seq, growth[i].block, allocs.size() + i});
    }
    for (const alloc::free_record& f : frees) {
        events.push_back({f.seq, f.block, SIZE_MAX});
    }
    std::sort(events.begin(), events.end(), [](const event& a, const event& b) { return a.seq < b.seq; });
    std::unordered_map<const void*, std::size_t> live;
    for (const event& e : events) {
        if (e.record == SIZE_MAX) {
            live.erase(e.block);
        } else {
            live[e.block] = e.record;
        }
    }
    std::vector<std::size_t> out;
    for (const auto& [block, i] : live) {
        out.push_back(i);
    }
    std::sort(out.begin(), out.end());
    return out;
}

}  // namespace

std::vector<const void*> live_blocks(std::span<const alloc::site_record> allocs,
                                     std::span<const alloc::free_record> frees) {
    std::vector<const void*> out;
    for (std::size_t i : live_records(allocs, {}, frees)) {
        out.push_back(allocs[i].block);
    }
    return out;
}

site_summary summarize_sites(std::span<const alloc::site_record> allocs,
                             std::span<const alloc::free_record> frees, std::uint64_t iterations,
                             std::size_t top, os::symbolizer& symbols, growth_records growth) {
    site_summary out;
    if (allocs.empty() || iterations == 0) {
        return out;
    }
    const std::map<std::uint64_t, std::uint32_t> thread_number = number_threads(allocs, growth.records);
    const auto thread_of = [&](const alloc::site_record& r) {
        return r.thread == 0 ? 0 : thread_number.at(r.thread);
    };
    site_groups groups;
    for (const alloc::site_record& r : allocs) {
        groups.add(r, thread_of(r), true, symbols);
    }
    out.stacks = groups.tallies.size();
    const auto n = static_cast<double>(iterations);
    const auto total = static_cast<double>(allocs.size());
    for (const tally* t : top_of(groups.tallies, top)) {
        out.alloc_sites.push_back(to_site(*t, n, static_cast<double>(t->allocs) / total));
    }
    // Growth records join the groups (a site seen in both is one), counting no allocation.
    for (const alloc::site_record& r : growth.records) {
        groups.add(r, thread_of(r), false, symbols);
    }

    // What the pass left live, per group: blocks, bytes, and both per iteration of the records'
    // own span.
    struct kept {
        std::size_t group = 0;
        std::uint64_t blocks[2] = {};  // the pass's records, growth's
        std::uint64_t bytes[2] = {};
    };
    std::vector<kept> retained(groups.tallies.size());
    std::uint64_t retained_bytes = 0;
    for (std::size_t i : live_records(allocs, growth.records, frees)) {
        const std::size_t grown = i >= allocs.size() ? 1 : 0;
        const alloc::site_record& r = grown != 0 ? growth.records[i - allocs.size()] : allocs[i];
        kept& k = retained[groups.tally_of[i]];
        k.group = groups.tally_of[i];
        ++k.blocks[grown];
        k.bytes[grown] += r.size;
        retained_bytes += r.size;
    }
    std::erase_if(retained, [](const kept& k) { return k.blocks[0] + k.blocks[1] == 0; });
    const auto bytes_of = [](const kept& k) { return k.bytes[0] + k.bytes[1]; };
    std::stable_sort(retained.begin(), retained.end(),
                     [&](const kept& a, const kept& b) { return bytes_of(b) < bytes_of(a); });
    const double whole = static_cast<double>(std::max(growth.iterations, iterations));
    const auto per_iter = [&](const std::uint64_t(&v)[2]) {
        return static_cast<double>(v[0]) / n + static_cast<double>(v[1]) / whole;
    };
    for (std::size_t i = 0; i < std::min(top, retained.size()); ++i) {
        const kept& k = retained[i];
        const double share =
            retained_bytes > 0 ? static_cast<double>(bytes_of(k)) / static_cast<double>(retained_bytes) : 0.0;
        alloc_site s = to_site(groups.tallies[k.group], n, share);
        s.threads.clear();  // the parts are of the allocations, not of what stayed live
        s.allocs_per_iter = per_iter(k.blocks);
        s.bytes_per_iter = per_iter(k.bytes);
        out.retained_sites.push_back(std::move(s));
    }
    return out;
}

os::symbolizer& process_symbolizer() {
    static const std::unique_ptr<os::symbolizer> s = os::make_symbolizer();
    return *s;
}

}  // namespace tare::core
