#pragma once
/// \file
/// Barriers that keep the optimizer from deleting or hoisting the work being measured.

#include <type_traits>

namespace tare {

namespace detail {
// A value the asm can take in a register: anything else is handed over in memory.
template <class T>
inline constexpr bool fits_register = std::is_scalar_v<T> && sizeof(T) <= sizeof(void*);
}  // namespace detail

/// Forces `value` to be materialised: the compiler must assume it is read, so the code
/// that produced it cannot be removed. Same contract as Google Benchmark's DoNotOptimize.
///
/// Why one constraint per type rather than Google Benchmark's multi-alternative "r,m": with
/// AddressSanitizer, GCC 12 miscompiled the multi-alternative form (the value read back
/// after the asm came from a neighbouring stack slot), which the project's ASan build caught.
template <class T>
inline __attribute__((always_inline)) void do_not_optimize(T const& value) {
    if constexpr (detail::fits_register<T>) {
        asm volatile("" : : "r"(value) : "memory");
    } else {
        asm volatile("" : : "m"(value) : "memory");
    }
}

/// As above, for a non-const lvalue: the compiler must also assume `value` was written.
template <class T>
inline __attribute__((always_inline)) void do_not_optimize(T& value) {
    if constexpr (detail::fits_register<T>) {
        asm volatile("" : "+r"(value) : : "memory");
    } else {
        asm volatile("" : "+m"(value) : : "memory");
    }
}

/// A compiler-level memory fence: all pending writes must be considered visible.
inline __attribute__((always_inline)) void clobber_memory() {
    asm volatile("" : : : "memory");
}

}  // namespace tare
