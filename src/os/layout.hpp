#pragma once
// Starting a child in an address-space layout drawn from a seed: the same seed places the code,
// the libraries, the heap and the stack of any two builds of a program alike; a new seed, anew.
//
// Why: where the kernel's randomisation (ASLR) puts a program's code changes how fast it runs —
// branch predictors index by address. bench/ab's parse_csv moved by 2-3 % from one process of
// one binary to the next; built without PIE (its code at one address in every process) or run
// without ASLR, its interval was half as wide (bench/studies.md, "Layouts"). tare compare gives
// the two workers of a round one seed and every round a new one: each round still draws a fresh
// random layout, so the estimate is the same average over layouts as with the kernel's draws,
// but the two sides of a round share it (common random numbers, a standard variance reduction:
// Law, "Simulation Modeling and Analysis", ch. 11). Rejected: turning randomisation off (one
// layout for every round: a fixed bias the interval cannot see; Mytkowicz et al., "Producing
// wrong data without doing anything obviously wrong", ASPLOS 2009).
//
// How, on Linux: the child runs without the kernel's randomisation (personality
// ADDR_NO_RANDOMIZE), started through its program interpreter (the dynamic loader run as a
// program maps the executable in the mmap area, which the kernel places below the stack's limit:
// mm/util.c mmap_base), with a stack limit of 128 MiB + k pages, so the seed's k moves code,
// libraries and heap by whole pages; an environment entry of seed-drawn length, which also evens
// out the argument strings, moves the stack by the same bytes in every program.

#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace tare::os {

/// Everything a child needs to start in a seed's layout, prepared before fork (it allocates).
struct layout_launch {
    std::vector<std::string> argv;  // the program interpreter, then the program's argv
    std::vector<std::string> env;   // this process's environment, the pad, what settle_layout reads
    std::uint64_t stack_limit = 0;  // RLIMIT_STACK (soft) at exec: places the mmap area
};

/// The PT_INTERP of the ELF executable at `path` (its dynamic loader); nullopt when it has none
/// (statically linked), is not a 64-bit ELF file or cannot be read.
std::optional<std::string> program_interpreter(const std::string& path);

/// The launch of `argv` (argv[0] a path) in `seed`'s layout, or why it cannot be done; `extra_env`
/// ("NAME=value" entries) is added to this process's environment before the pad is measured.
std::variant<layout_launch, std::string> prepare_layout(const std::vector<std::string>& argv,
                                                        std::uint64_t seed,
                                                        const std::vector<std::string>& extra_env = {});

/// A program's exec, prepared before fork (that allocates) and done in the child (that may not):
/// plainly, or in a seed's layout. Neither copied nor moved: exec gets pointers into its strings.
/// Rejected: each spawn function preparing its own launch and pointer arrays (they did; two
/// copies of the same ten lines, one fix away from disagreeing).
class exec_plan {
public:
    /// `argv[0]` a path; with `layout_seed`, the launch of prepare_layout. `extra_env` ("NAME=value"
    /// entries) is added to this process's environment for the program; with `env_is_whole` (no
    /// layout), it is the program's whole environment instead.
    exec_plan(const std::vector<std::string>& argv, std::optional<std::uint64_t> layout_seed,
              const std::vector<std::string>& extra_env = {}, bool env_is_whole = false);
    exec_plan(const exec_plan&) = delete;
    exec_plan& operator=(const exec_plan&) = delete;
    exec_plan(exec_plan&&) = delete;
    exec_plan& operator=(exec_plan&&) = delete;
    ~exec_plan() = default;

    /// Why the program cannot be started so; empty when it can.
    const std::string& error() const noexcept { return error_; }
    /// In the child between fork and exec: for a layout, the kernel's randomisation off and the
    /// launch's stack limit, then execve. Returns only when that failed (errno says why).
    /// Allocates nothing.
    void exec() const noexcept;

private:
    std::vector<std::string> argv_;
    std::vector<std::string> env_;  // empty and !whole_env_: this process's environment
    bool whole_env_ = false;
    std::optional<std::uint64_t> stack_limit_;  // set: in a layout
    std::vector<char*> argv_ptrs_;
    std::vector<char*> env_ptrs_;
    std::string error_;
};

/// Called first thing in a process started so (a worker): gives back the stack limit and the
/// default thread stack size the starting process had, and the kernel's randomisation for the
/// processes this one starts. Does nothing in a process started otherwise.
void settle_layout() noexcept;

}  // namespace tare::os
