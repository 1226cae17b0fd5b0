#pragma once
// Code addresses of this process as source locations: function, file and line, inlined calls
// expanded (docs/accounting.md, "Allocation sites"). One implementation file per OS
// (symbolize_linux.cpp).

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace tare::os {

/// One logical frame: a function (an inlined one is a frame of its own), and where in it.
struct source_frame {
    std::string function;    // demangled, without its parameter list; "module+0xOFFSET" when unknown
    std::string file;        // "" without debug information
    std::uint32_t line = 0;  // 0 without debug information
    std::string module;      // the executable or shared object's path
};

class symbolizer {
public:
    symbolizer() = default;
    symbolizer(const symbolizer&) = delete;
    symbolizer& operator=(const symbolizer&) = delete;
    symbolizer(symbolizer&&) = delete;
    symbolizer& operator=(symbolizer&&) = delete;
    virtual ~symbolizer() = default;

    /// The frames of the call that returns to `return_address`, innermost first: the
    /// functions inlined at the call site, then the function that holds it.
    virtual std::vector<source_frame> frames_at(std::uintptr_t return_address) = 0;
    /// Whether source files and lines can be known (libdw was found); false: function names
    /// from the dynamic symbol table, or module and offset.
    virtual bool reads_debug_info() const noexcept = 0;
};

/// The symbolizer of this process. On Linux: elfutils' libdw, loaded when first asked for
/// (dlopen), so that a benchmark executable does not link it; without it, dladdr().
std::unique_ptr<symbolizer> make_symbolizer();

/// A demangled `name` without its parameter list, trailing qualifiers and return type:
/// "void ns::f<int>(int) const" -> "ns::f<int>".
std::string without_parameters(const std::string& name);

}  // namespace tare::os
