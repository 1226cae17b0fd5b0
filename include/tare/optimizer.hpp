#pragma once
/// \file
/// Barriers that keep the optimizer from deleting or hoisting the work being measured.

namespace tare {

/// Forces `value` to be materialised: the compiler must assume it is read, so the code
/// that produced it cannot be removed. Same contract as Google Benchmark's DoNotOptimize.
template <class T>
inline __attribute__((always_inline)) void do_not_optimize(T const& value) {
    // The "m" operand makes the object's address escape without forcing it into a register.
    asm volatile("" : : "r,m"(value) : "memory");
}

/// As above, for a non-const lvalue: the compiler must also assume `value` was written.
template <class T>
inline __attribute__((always_inline)) void do_not_optimize(T& value) {
#if defined(__clang__)
    asm volatile("" : "+r,m"(value) : : "memory");
#else
    asm volatile("" : "+m,r"(value) : : "memory");
#endif
}

/// A compiler-level memory fence: all pending writes must be considered visible.
inline __attribute__((always_inline)) void clobber_memory() {
    asm volatile("" : : : "memory");
}

}  // namespace tare
