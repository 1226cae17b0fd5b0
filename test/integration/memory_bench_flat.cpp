// Twenty bodies whose live heap does not grow from one iteration to the next and that map
// no fresh memory per iteration: none may draw a retained_growth or fresh_memory warning.
#include <tare/tare.hpp>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <functional>
#include <list>
#include <map>
#include <memory>
#include <numeric>
#include <set>
#include <sstream>
#include <string>
#include <unordered_map>
#include <vector>

namespace {

void reg(const char* name, tare::benchmark_function fn) {
    tare::register_benchmark(std::string("flat_") + name, std::move(fn))->min_time(0.02);
}

[[maybe_unused]] const bool registered = [] {
    reg("empty", [](tare::State& s) {
        for (auto _ : s) {
        }
    });
    reg("arithmetic", [](tare::State& s) {
        std::uint64_t x = 1;
        for (auto _ : s) {
            x = x * 6364136223846793005ULL + 1442695040888963407ULL;
            tare::do_not_optimize(x);
        }
    });
    reg("malloc_free", [](tare::State& s) {
        for (auto _ : s) {
            void* p = std::malloc(24);
            tare::do_not_optimize(p);
            std::free(p);
        }
    });
    reg("new_delete", [](tare::State& s) {
        for (auto _ : s) {
            auto* p = new std::uint64_t[8];
            tare::do_not_optimize(p);
            delete[] p;
        }
    });
    reg("vector_reused", [](tare::State& s) {
        std::vector<int> v;
        for (auto _ : s) {
            v.clear();
            for (int i = 0; i < 100; ++i) {
                v.push_back(i);
            }
            tare::do_not_optimize(v.data());
        }
    });
    reg("vector_fresh", [](tare::State& s) {
        for (auto _ : s) {
            std::vector<int> v(1000, 1);
            tare::do_not_optimize(v.data());
        }
    });
    reg("string_small", [](tare::State& s) {
        for (auto _ : s) {
            std::string str = "short";
            tare::do_not_optimize(str.data());
        }
    });
    reg("string_heap", [](tare::State& s) {
        for (auto _ : s) {
            std::string str(200, 'x');
            tare::do_not_optimize(str.data());
        }
    });
    reg("string_append_clear", [](tare::State& s) {
        std::string str;
        for (auto _ : s) {
            str.clear();
            for (int i = 0; i < 50; ++i) {
                str += "abcdefgh";
            }
            tare::do_not_optimize(str.data());
        }
    });
    reg("map_insert_erase", [](tare::State& s) {
        std::map<int, int> m;
        for (auto _ : s) {
            for (int i = 0; i < 16; ++i) {
                m[i] = i;
            }
            m.clear();
        }
    });
    reg("unordered_map_churn", [](tare::State& s) {
        std::unordered_map<int, std::string> m;
        int key = 0;
        for (auto _ : s) {
            m.emplace(key, "a value long enough to live on the heap");
            m.erase(key);
            ++key;
        }
    });
    reg("set_churn", [](tare::State& s) {
        std::set<int> m{1, 2, 3};
        for (auto _ : s) {
            m.insert(4);
            m.erase(4);
        }
    });
    reg("list_push_pop", [](tare::State& s) {
        std::list<int> l;
        for (auto _ : s) {
            l.push_back(1);
            l.pop_front();
        }
    });
    reg("deque_push_pop", [](tare::State& s) {
        std::deque<int> d;
        for (auto _ : s) {
            d.push_back(1);
            d.pop_front();
        }
    });
    reg("shared_ptr", [](tare::State& s) {
        for (auto _ : s) {
            auto p = std::make_shared<std::string>(100, 'x');
            tare::do_not_optimize(p.get());
        }
    });
    reg("unique_ptr_array", [](tare::State& s) {
        for (auto _ : s) {
            auto p = std::make_unique<char[]>(4096);
            tare::do_not_optimize(p.get());
        }
    });
    reg("function_object", [](tare::State& s) {
        std::string captured(64, 'c');
        for (auto _ : s) {
            std::function<std::size_t()> f = [captured] { return captured.size(); };
            tare::do_not_optimize(f);
        }
    });
    reg("sort_resident", [](tare::State& s) {
        std::vector<int> v(1000);
        for (auto _ : s) {
            std::iota(v.rbegin(), v.rend(), 0);
            std::sort(v.begin(), v.end());
            tare::do_not_optimize(v.data());
        }
    });
    reg("memcpy_resident_1mib", [](tare::State& s) {
        std::vector<char> a(1 << 20, 1);
        std::vector<char> b(1 << 20, 0);
        for (auto _ : s) {
            std::memcpy(b.data(), a.data(), a.size());
            tare::do_not_optimize(b.data());
        }
    });
    reg("ostringstream", [](tare::State& s) {
        for (auto _ : s) {
            std::ostringstream os;
            os << 12345 << " items, " << 6.5 << " ms";
            std::string out = os.str();
            tare::do_not_optimize(out.data());
        }
    });
    return true;
}();

}  // namespace
