// A stand-in allocator for sized_delete_test.cpp: a shared library that defines the malloc
// family (glibc's underneath) and its own sized operator deletes, which count their calls. It
// tells whether a sized delete under tare reaches the allocator's own, as it does without tare,
// which the real allocators' blocks cannot tell (their sized and unsized frees leave the same
// state behind).
#include <dlfcn.h>

#include <atomic>
#include <cstddef>
#include <new>

extern "C" {
void* __libc_malloc(std::size_t size) noexcept;
void* __libc_calloc(std::size_t count, std::size_t size) noexcept;
void* __libc_realloc(void* p, std::size_t size) noexcept;
void __libc_free(void* p) noexcept;
void* __libc_memalign(std::size_t align, std::size_t size) noexcept;
}

namespace {
std::atomic<int> sized_calls{0};
std::atomic<int> free_calls{0};
using usable_fn = std::size_t (*)(void*) noexcept;
std::atomic<usable_fn> glibc_usable{nullptr};
}  // namespace

#define FAKE_EXPORT __attribute__((visibility("default")))

extern "C" {

FAKE_EXPORT int fake_sized_delete_calls() noexcept {
    return sized_calls.load();
}
FAKE_EXPORT int fake_free_calls() noexcept {
    return free_calls.load();
}
FAKE_EXPORT void* malloc(std::size_t n) noexcept {
    return __libc_malloc(n);
}
FAKE_EXPORT void free(void* p) noexcept {
    if (p != nullptr)
        free_calls.fetch_add(1);
    __libc_free(p);
}
FAKE_EXPORT void* calloc(std::size_t count, std::size_t n) noexcept {
    return __libc_calloc(count, n);
}
FAKE_EXPORT void* realloc(void* p, std::size_t n) noexcept {
    return __libc_realloc(p, n);
}
FAKE_EXPORT void* memalign(std::size_t align, std::size_t n) noexcept {
    return __libc_memalign(align, n);
}
// glibc's, the definition after this module's (glibc exports no __libc_ name for it).
FAKE_EXPORT std::size_t malloc_usable_size(void* p) noexcept {
    usable_fn f = glibc_usable.load();
    if (f == nullptr) {
        f = reinterpret_cast<usable_fn>(dlsym(RTLD_NEXT, "malloc_usable_size"));
        glibc_usable.store(f);
    }
    return f(p);
}

}  // extern "C"

// The unsized ones are its free, as in jemalloc (GCC asks for them beside the sized ones).
FAKE_EXPORT void operator delete(void* p) noexcept {
    free(p);
}
FAKE_EXPORT void operator delete[](void* p) noexcept {
    free(p);
}
FAKE_EXPORT void operator delete(void* p, std::size_t) noexcept {
    sized_calls.fetch_add(1);
    __libc_free(p);
}
FAKE_EXPORT void operator delete[](void* p, std::size_t) noexcept {
    sized_calls.fetch_add(1);
    __libc_free(p);
}
FAKE_EXPORT void operator delete(void* p, std::size_t, std::align_val_t) noexcept {
    sized_calls.fetch_add(1);
    __libc_free(p);
}
FAKE_EXPORT void operator delete[](void* p, std::size_t, std::align_val_t) noexcept {
    sized_calls.fetch_add(1);
    __libc_free(p);
}
