// Symbolization on Linux with elfutils' libdw (docs/accounting.md, "Allocation sites").
//
// libdw is opened with dlopen when a benchmark first asks for sites, not linked: a benchmark
// executable links tare's library, and that library stays free of dependencies the timed
// path never uses. Without libdw (not installed), dladdr() names the functions of the dynamic
// symbol table and every other frame is "module+0xOFFSET".
//
// Why libdw: it reads DWARF's inline information (dwarf_getscopes), so a call inlined from a
// header is shown where the user's code made it, and it finds separate debug files the
// standard way. Rejected: libbacktrace (not packaged on its own by Debian), addr2line as a child
// process (binutils may be absent, and a process per address is slow), and glibc's
// backtrace_symbols (dynamic symbols only, no lines).

#include <cxxabi.h>
#include <dlfcn.h>
#include <unistd.h>
#if TARE_HAVE_LIBDW
#include <dwarf.h>
#include <elfutils/libdwfl.h>
#endif

#include <cstdio>
#include <cstdlib>
#include <string_view>
#include <unordered_map>

#include "os/symbolize.hpp"

namespace tare::os {

namespace {

std::string demangled(const char* name) {
    if (name == nullptr) {
        return {};
    }
    int status = 0;
    char* d = abi::__cxa_demangle(name, nullptr, nullptr, &status);
    if (status != 0 || d == nullptr) {
        return name;
    }
    std::string out = d;
    std::free(d);
    return out;
}

std::string hex_offset(const std::string& module, std::uintptr_t offset) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "+0x%zx", static_cast<std::size_t>(offset));
    const auto slash = module.rfind('/');
    return (slash == std::string::npos ? module : module.substr(slash + 1)) + buf;
}

// dladdr(): the nearest dynamic symbol, or module and offset.
source_frame by_dladdr(std::uintptr_t address) {
    source_frame f;
    Dl_info info{};
    if (dladdr(reinterpret_cast<void*>(address), &info) == 0) {
        char buf[32];
        std::snprintf(buf, sizeof buf, "0x%zx", static_cast<std::size_t>(address));
        f.function = buf;
        return f;
    }
    f.module = info.dli_fname != nullptr ? info.dli_fname : "";
    if (info.dli_sname != nullptr) {
        f.function = without_parameters(demangled(info.dli_sname));
    } else {
        f.function = hex_offset(f.module, address - reinterpret_cast<std::uintptr_t>(info.dli_fbase));
    }
    return f;
}

class dladdr_symbolizer final : public symbolizer {
public:
    std::vector<source_frame> frames_at(std::uintptr_t return_address) override {
        return {by_dladdr(return_address - 1)};
    }
    bool reads_debug_info() const noexcept override { return false; }
};

#if TARE_HAVE_LIBDW
// The libdw functions used, looked up in the library dlopen gave.
struct libdw_api {
    decltype(&dwfl_begin) begin = nullptr;
    decltype(&dwfl_end) end = nullptr;
    decltype(&dwfl_linux_proc_report) proc_report = nullptr;
    decltype(&dwfl_linux_proc_find_elf) proc_find_elf = nullptr;
    decltype(&dwfl_standard_find_debuginfo) find_debuginfo = nullptr;
    decltype(&dwfl_report_end) report_end = nullptr;
    decltype(&dwfl_addrmodule) addrmodule = nullptr;
    decltype(&dwfl_module_info) module_info = nullptr;
    decltype(&dwfl_module_addrname) addrname = nullptr;
    decltype(&dwfl_module_addrdie) addrdie = nullptr;
    decltype(&dwfl_module_getsrc) getsrc = nullptr;
    decltype(&dwfl_lineinfo) lineinfo = nullptr;
    decltype(&dwarf_getscopes) getscopes = nullptr;
    decltype(&dwarf_getscopes_die) getscopes_die = nullptr;
    decltype(&dwarf_tag) tag = nullptr;
    decltype(&dwarf_diename) diename = nullptr;
    decltype(&dwarf_attr_integrate) attr_integrate = nullptr;
    decltype(&dwarf_formstring) formstring = nullptr;
    decltype(&dwarf_formudata) formudata = nullptr;
    decltype(&dwarf_getsrcfiles) getsrcfiles = nullptr;
    decltype(&dwarf_filesrc) filesrc = nullptr;

    // Every function, or false (and the library closed) when one is missing.
    bool load(void* lib) {
        bool ok = true;
        auto get = [&](auto& fn, const char* name) {
            fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(dlsym(lib, name));
            ok = ok && fn != nullptr;
        };
        get(begin, "dwfl_begin");
        get(end, "dwfl_end");
        get(proc_report, "dwfl_linux_proc_report");
        get(proc_find_elf, "dwfl_linux_proc_find_elf");
        get(find_debuginfo, "dwfl_standard_find_debuginfo");
        get(report_end, "dwfl_report_end");
        get(addrmodule, "dwfl_addrmodule");
        get(module_info, "dwfl_module_info");
        get(addrname, "dwfl_module_addrname");
        get(addrdie, "dwfl_module_addrdie");
        get(getsrc, "dwfl_module_getsrc");
        get(lineinfo, "dwfl_lineinfo");
        get(getscopes, "dwarf_getscopes");
        get(getscopes_die, "dwarf_getscopes_die");
        get(tag, "dwarf_tag");
        get(diename, "dwarf_diename");
        get(attr_integrate, "dwarf_attr_integrate");
        get(formstring, "dwarf_formstring");
        get(formudata, "dwarf_formudata");
        get(getsrcfiles, "dwarf_getsrcfiles");
        get(filesrc, "dwarf_filesrc");
        return ok;
    }
};

class libdw_symbolizer final : public symbolizer {
public:
    libdw_symbolizer(void* lib, const libdw_api& api) : lib_(lib), api_(api) {
        callbacks_.find_elf = api_.proc_find_elf;
        callbacks_.find_debuginfo = api_.find_debuginfo;
        dwfl_ = api_.begin(&callbacks_);
        if (dwfl_ != nullptr &&
            (api_.proc_report(dwfl_, getpid()) != 0 || api_.report_end(dwfl_, nullptr, nullptr) != 0)) {
            api_.end(dwfl_);
            dwfl_ = nullptr;
        }
    }
    libdw_symbolizer(const libdw_symbolizer&) = delete;
    libdw_symbolizer& operator=(const libdw_symbolizer&) = delete;
    libdw_symbolizer(libdw_symbolizer&&) = delete;
    libdw_symbolizer& operator=(libdw_symbolizer&&) = delete;
    ~libdw_symbolizer() override {
        if (dwfl_ != nullptr) {
            api_.end(dwfl_);
        }
        dlclose(lib_);
    }

    bool usable() const noexcept { return dwfl_ != nullptr; }
    bool reads_debug_info() const noexcept override { return true; }

    std::vector<source_frame> frames_at(std::uintptr_t return_address) override {
        auto [it, fresh] = cache_.try_emplace(return_address);
        if (fresh) {
            it->second = resolve(return_address - 1);  // inside the call instruction
        }
        return it->second;
    }

private:
    // The name a DIE of a function gives: its linkage name demangled; else, for the function
    // that holds the address, the symbol table's (a function of internal linkage has no linkage
    // name in DWARF, but its symbol is qualified: "(anonymous namespace)::f"); else the plain name.
    std::string function_name(Dwarf_Die* die, Dwfl_Module* mod, std::uintptr_t address) const {
        Dwarf_Attribute attr;
        for (unsigned at : {DW_AT_linkage_name, DW_AT_MIPS_linkage_name}) {
            if (api_.attr_integrate(die, at, &attr) != nullptr) {
                if (const char* s = api_.formstring(&attr)) {
                    return without_parameters(demangled(s));
                }
            }
        }
        if (api_.tag(die) == DW_TAG_subprogram) {
            if (const char* sym = api_.addrname(mod, address)) {
                return without_parameters(demangled(sym));
            }
        }
        const char* name = api_.diename(die);
        return name != nullptr ? name : "";
    }

    std::vector<source_frame> resolve(std::uintptr_t address) {
        Dwfl_Module* mod = dwfl_ != nullptr ? api_.addrmodule(dwfl_, address) : nullptr;
        if (mod == nullptr) {
            return {by_dladdr(address)};
        }
        Dwarf_Addr start = 0;
        const char* module_name =
            api_.module_info(mod, nullptr, &start, nullptr, nullptr, nullptr, nullptr, nullptr);
        const std::string module = module_name != nullptr ? module_name : "";

        // The innermost line: where in the innermost (perhaps inlined) function the call is.
        std::string file;
        int line = 0;
        if (Dwfl_Line* l = api_.getsrc(mod, address)) {
            Dwarf_Addr a = 0;
            if (const char* f = api_.lineinfo(l, &a, &line, nullptr, nullptr, nullptr)) {
                file = f;
            }
        }
        std::vector<source_frame> out;
        Dwarf_Addr bias = 0;
        Dwarf_Die* cu = api_.addrdie(mod, address, &bias);
        // The innermost scope at the address, then the scopes that really contain it: for an
        // inlined call, dwarf_getscopes continues with the inlined function's own definition
        // (its class, its namespace), dwarf_getscopes_die with the function it was inlined into
        // (as eu-addr2line --inlines does).
        Dwarf_Die* scopes = nullptr;
        int n = cu != nullptr ? api_.getscopes(cu, address - bias, &scopes) : 0;
        if (n > 0) {
            Dwarf_Die innermost = scopes[0];
            std::free(scopes);
            scopes = nullptr;
            n = api_.getscopes_die(&innermost, &scopes);
        }
        Dwarf_Files* files = nullptr;
        std::size_t nfiles = 0;
        if (cu != nullptr && api_.getsrcfiles(cu, &files, &nfiles) != 0) {
            files = nullptr;
        }
        for (int i = 0; i < n; ++i) {
            Dwarf_Die* die = &scopes[i];
            const int tag = api_.tag(die);
            if (tag != DW_TAG_inlined_subroutine && tag != DW_TAG_subprogram) {
                continue;
            }
            out.push_back({function_name(die, mod, address), file,
                           static_cast<std::uint32_t>(line > 0 ? line : 0), module});
            if (tag == DW_TAG_subprogram) {
                break;
            }
            // The next frame out is where this inlined call was made.
            Dwarf_Attribute attr;
            Dwarf_Word call_file = 0;
            Dwarf_Word call_line = 0;
            file.clear();
            line = 0;
            if (api_.attr_integrate(die, DW_AT_call_file, &attr) != nullptr &&
                api_.formudata(&attr, &call_file) == 0 && files != nullptr && call_file < nfiles) {
                if (const char* f = api_.filesrc(files, call_file, nullptr, nullptr)) {
                    file = f;
                }
            }
            if (api_.attr_integrate(die, DW_AT_call_line, &attr) != nullptr &&
                api_.formudata(&attr, &call_line) == 0) {
                line = static_cast<int>(call_line);
            }
        }
        std::free(scopes);
        if (out.empty()) {  // no debug information for this address: the symbol table's name
            source_frame f;
            f.module = module;
            f.file = file;
            f.line = static_cast<std::uint32_t>(line > 0 ? line : 0);
            const char* sym = api_.addrname(mod, address);
            f.function =
                sym != nullptr ? without_parameters(demangled(sym)) : hex_offset(module, address - start);
            out.push_back(std::move(f));
        }
        return out;
    }

    void* lib_;
    libdw_api api_;
    Dwfl_Callbacks callbacks_{};
    Dwfl* dwfl_ = nullptr;
    std::unordered_map<std::uintptr_t, std::vector<source_frame>> cache_;
};
#endif  // TARE_HAVE_LIBDW

}  // namespace

namespace {

// `name` from the last space outside brackets on: "void ns::f<int>" -> "ns::f<int>". The space
// of "operator new" (or "operator int") is part of the name; "(anonymous namespace)"'s is
// inside brackets.
std::string without_return_type(const std::string& name) {
    int depth = 0;
    std::size_t start = 0;
    for (std::size_t i = 0; i < name.size(); ++i) {
        const char c = name[i];
        if (c == '<' || c == '(' || c == '[') {
            ++depth;
        } else if (c == '>' || c == ')' || c == ']') {
            --depth;
        } else if (c == ' ' && depth == 0) {
            const std::string_view before(name.data(), i);
            if (before.size() < 8 || before.substr(before.size() - 8) != "operator") {
                start = i + 1;
            }
        }
    }
    return name.substr(start);
}

// `name` without its parameter list and trailing qualifiers only: "ns::f<int>(int) const" ->
// "ns::f<int>".
std::string parameters_removed(const std::string& name) {
    std::string s = name;
    // GCC's clones of a function ("f(int) [clone .cold]", "[clone .isra.0]") are that function.
    for (std::size_t at = s.rfind(" [clone "); at != std::string::npos && s.back() == ']';
         at = s.rfind(" [clone ")) {
        s.resize(at);
    }
    // Trailing qualifiers of a member function: " const", " volatile", " &", " &&".
    for (bool trimmed = true; trimmed;) {
        trimmed = false;
        for (const char* q : {" const", " volatile", " &&", " &"}) {
            const std::string suffix = q;
            if (s.size() > suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0) {
                s.resize(s.size() - suffix.size());
                trimmed = true;
            }
        }
    }
    if (s.empty() || s.back() != ')') {
        return s;
    }
    int depth = 0;
    for (std::size_t i = s.size(); i-- > 0;) {
        if (s[i] == ')') {
            ++depth;
        } else if (s[i] == '(' && --depth == 0) {
            // "operator()" keeps its own parentheses: the list is the one after them.
            return i == 0 ? s : s.substr(0, i);
        }
    }
    return s;
}

}  // namespace

std::string without_parameters(const std::string& name) {
    return without_return_type(parameters_removed(name));
}

std::unique_ptr<symbolizer> make_symbolizer() {
#if TARE_HAVE_LIBDW
    if (void* lib = dlopen("libdw.so.1", RTLD_NOW | RTLD_LOCAL)) {
        libdw_api api;
        if (api.load(lib)) {
            auto s = std::make_unique<libdw_symbolizer>(lib, api);
            if (s->usable()) {
                return s;
            }
            return std::make_unique<dladdr_symbolizer>();
        }
        dlclose(lib);
    }
#endif
    return std::make_unique<dladdr_symbolizer>();
}

}  // namespace tare::os
