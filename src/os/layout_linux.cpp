// Linux implementation of src/os/layout.hpp.
#include <elf.h>
#include <pthread.h>
#include <sys/personality.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string_view>
#include <utility>

#include "os/layout.hpp"

extern char** environ;  // NOLINT(readability-redundant-declaration): POSIX declares it nowhere

namespace tare::os {

namespace {

// The variables a launch sets and settle_layout reads and removes.
constexpr const char* stack_limit_name = "TARE_LAYOUT_STACK_LIMIT";
constexpr const char* thread_stack_name = "TARE_LAYOUT_THREAD_STACK";
constexpr const char* pad_name = "TARE_LAYOUT_PAD";

std::string entry(const char* name, const std::string& value) {
    return std::string(name) + '=' + value;
}

// The kernel keeps a gap of at least 128 MiB between the stack's top and the mmap area, so a
// limit from there up moves the area page by page (mm/util.c, mmap_base and MIN_GAP).
constexpr std::uint64_t min_gap = 128ULL << 20;
constexpr std::uint64_t page_steps = 1ULL << 16;  // 256 MiB of placements for code and heap
constexpr std::uint64_t pad_steps = 1ULL << 12;   // 64 KiB of stack placements, 16 bytes apart
constexpr std::uint64_t pad_span = 16 * pad_steps;

std::uint64_t splitmix(std::uint64_t& s) {
    std::uint64_t z = (s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

std::string limit_text(rlim_t v) {
    return v == RLIM_INFINITY ? std::string("unlimited") : std::to_string(v);
}

bool parse_u64(const char* s, std::uint64_t& out) {
    const char* end = s + std::strlen(s);
    auto r = std::from_chars(s, end, out);
    return r.ec == std::errc() && r.ptr == end;
}

}  // namespace

std::optional<std::string> program_interpreter(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    Elf64_Ehdr eh{};
    if (!in.read(reinterpret_cast<char*>(&eh), sizeof eh) || std::memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 ||
        eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_phentsize != sizeof(Elf64_Phdr)) {
        return std::nullopt;
    }
    for (Elf64_Half i = 0; i < eh.e_phnum; ++i) {
        Elf64_Phdr ph{};
        in.seekg(static_cast<std::streamoff>(eh.e_phoff + i * sizeof ph));
        if (!in.read(reinterpret_cast<char*>(&ph), sizeof ph)) {
            return std::nullopt;
        }
        if (ph.p_type != PT_INTERP) {
            continue;
        }
        if (ph.p_filesz == 0 || ph.p_filesz > 4096) {
            return std::nullopt;
        }
        std::string interp(ph.p_filesz, '\0');
        in.seekg(static_cast<std::streamoff>(ph.p_offset));
        if (!in.read(interp.data(), static_cast<std::streamsize>(interp.size()))) {
            return std::nullopt;
        }
        interp.resize(std::strlen(interp.c_str()));
        return interp.empty() ? std::nullopt : std::optional<std::string>(interp);
    }
    return std::nullopt;
}

std::variant<layout_launch, std::string> prepare_layout(const std::vector<std::string>& argv,
                                                        std::uint64_t seed,
                                                        const std::vector<std::string>& extra_env) {
    if (argv.empty()) {
        return std::string("no command");
    }
    if (access(argv[0].c_str(), X_OK) != 0) {
        return argv[0] + ": cannot execute: " + std::strerror(errno);
    }
    auto interp = program_interpreter(argv[0]);
    if (!interp) {
        return argv[0] + " has no program interpreter (a statically linked or non-ELF executable)";
    }
    rlimit stack{};
    if (getrlimit(RLIMIT_STACK, &stack) != 0) {
        return std::string("cannot read the stack limit");
    }
    std::uint64_t s = seed;
    const std::uint64_t pages = splitmix(s) % page_steps;
    const std::uint64_t pad = 16 * (splitmix(s) % pad_steps);
    const auto page = static_cast<std::uint64_t>(sysconf(_SC_PAGESIZE));
    const std::uint64_t most = min_gap + page_steps * page;
    if (stack.rlim_max != RLIM_INFINITY && stack.rlim_max < most) {
        return "the stack's hard limit (" + limit_text(stack.rlim_max) + " bytes) is below the " +
               std::to_string(most >> 20) + " MiB a chosen layout needs";
    }
    layout_launch l;
    l.stack_limit = min_gap + pages * page;

    l.argv.reserve(argv.size() + 1);
    l.argv.push_back(*interp);
    // The loader takes an argument starting with '-' for one of its options.
    l.argv.push_back(argv[0].front() == '-' ? "./" + argv[0] : argv[0]);
    l.argv.insert(l.argv.end(), argv.begin() + 1, argv.end());

    pthread_attr_t attr;
    std::size_t thread_stack = 0;
    if (pthread_getattr_default_np(&attr) == 0) {
        pthread_attr_getstacksize(&attr, &thread_stack);
        pthread_attr_destroy(&attr);
    }
    for (char** e = environ; e != nullptr && *e != nullptr; ++e) {
        if (std::string_view(*e).rfind("TARE_LAYOUT_", 0) != 0) {
            l.env.emplace_back(*e);
        }
    }
    l.env.insert(l.env.end(), extra_env.begin(), extra_env.end());
    l.env.push_back(entry(stack_limit_name, limit_text(stack.rlim_cur)));
    l.env.push_back(entry(thread_stack_name, std::to_string(thread_stack)));
    // The strings sit at the top of the stack: pad them to the same total for any program of
    // any path length, plus the seed's share, so the stack pointer is the seed's alone.
    std::uint64_t bytes = entry(pad_name, "").size() + 1;
    for (const auto* v : {&l.argv, &l.env}) {
        for (const auto& a : *v) {
            bytes += a.size() + 1;
        }
    }
    const std::uint64_t total = (bytes + pad_span - 1) / pad_span * pad_span + pad;
    l.env.push_back(entry(pad_name, std::string(total - bytes, 'x')));
    return l;
}

exec_plan::exec_plan(const std::vector<std::string>& argv, std::optional<std::uint64_t> layout_seed,
                     const std::vector<std::string>& extra_env, bool env_is_whole) {
    if (argv.empty()) {
        error_ = "no command";
        return;
    }
    if (layout_seed) {
        auto l = prepare_layout(argv, *layout_seed, extra_env);
        if (auto* e = std::get_if<std::string>(&l)) {
            error_ = std::move(*e);
            return;
        }
        auto& launch = std::get<layout_launch>(l);
        argv_ = std::move(launch.argv);
        env_ = std::move(launch.env);
        stack_limit_ = launch.stack_limit;
    } else {
        argv_ = argv;
        if (env_is_whole) {
            env_ = extra_env;
            whole_env_ = true;
        } else if (!extra_env.empty()) {
            for (char** e = environ; e != nullptr && *e != nullptr; ++e) {
                env_.emplace_back(*e);
            }
            env_.insert(env_.end(), extra_env.begin(), extra_env.end());
        }
    }
    // The strings do not move from here on (the class is neither copied nor moved).
    for (const auto& [from, to] : {std::pair{&argv_, &argv_ptrs_}, std::pair{&env_, &env_ptrs_}}) {
        to->reserve(from->size() + 1);
        for (auto& a : *from) {
            to->push_back(a.data());
        }
        to->push_back(nullptr);
    }
}

void exec_plan::exec() const noexcept {
    if (!error_.empty()) {
        errno = EINVAL;
        return;
    }
    if (!stack_limit_) {
        if (env_.empty() && !whole_env_) {
            execv(argv_ptrs_[0], argv_ptrs_.data());
        } else {
            execve(argv_ptrs_[0], argv_ptrs_.data(), env_ptrs_.data());
        }
        return;
    }
    const int current = personality(0xffffffff);
    if (current == -1 || personality(static_cast<unsigned long>(current) | ADDR_NO_RANDOMIZE) == -1) {
        return;
    }
    rlimit stack{};
    if (getrlimit(RLIMIT_STACK, &stack) != 0) {
        return;
    }
    stack.rlim_cur = *stack_limit_;
    if (setrlimit(RLIMIT_STACK, &stack) != 0) {
        return;
    }
    execve(argv_ptrs_[0], argv_ptrs_.data(), env_ptrs_.data());
}

void settle_layout() noexcept {
    const char* limit = std::getenv(stack_limit_name);
    if (limit == nullptr) {
        return;  // not started in a chosen layout
    }
    rlimit stack{};
    std::uint64_t v = 0;
    if (getrlimit(RLIMIT_STACK, &stack) == 0) {
        if (std::strcmp(limit, "unlimited") == 0) {
            stack.rlim_cur = RLIM_INFINITY;
            setrlimit(RLIMIT_STACK, &stack);
        } else if (parse_u64(limit, v)) {
            stack.rlim_cur = v;
            setrlimit(RLIMIT_STACK, &stack);
        }
    }
    // glibc sized its default thread stack from the large limit when this process started.
    const char* thread_stack = std::getenv(thread_stack_name);
    pthread_attr_t attr;
    if (thread_stack != nullptr && parse_u64(thread_stack, v) && v > 0 &&
        pthread_getattr_default_np(&attr) == 0) {
        pthread_attr_setstacksize(&attr, v);
        pthread_setattr_default_np(&attr);
        pthread_attr_destroy(&attr);
    }
    const int current = personality(0xffffffff);
    if (current != -1) {
        personality(static_cast<unsigned long>(current) & ~static_cast<unsigned long>(ADDR_NO_RANDOMIZE));
    }
    for (const char* name : {stack_limit_name, thread_stack_name, pad_name}) {
        unsetenv(name);
    }
}

}  // namespace tare::os
