#include "report/profile/profile_files.hpp"

#include <cmath>
#include <map>
#include <set>
#include <tuple>

#include <nlohmann/json.hpp>

namespace tare::report {

namespace {

using ordered = nlohmann::ordered_json;

// A stack of one measure: frame keys outermost first, and its weight per iteration.
struct weighted_stack {
    std::vector<std::size_t> frames;
    double weight = 0;
};

struct measure_stacks {
    std::string slug;  // the folded file's suffix
    std::string title;
    std::string unit;  // speedscope's: "none" or "bytes"
    double per = 1;    // the pass's iterations: a folded file holds whole counts over the pass
    std::vector<weighted_stack> stacks;
};

// The frames of one benchmark's file, each once: speedscope's shared table.
class frames_table {
public:
    std::size_t index(const std::string& name, const std::optional<std::string>& file,
                      const std::optional<std::uint32_t>& line) {
        auto key = std::make_tuple(name, file.value_or(""), line.value_or(0));
        auto [it, added] = index_.try_emplace(key, frames_.size());
        if (added) {
            ordered f = {{"name", name}};
            if (file) {
                f["file"] = *file;
            }
            if (line) {
                f["line"] = *line;
            }
            frames_.push_back(std::move(f));
            names_.push_back(name);
        }
        return it->second;
    }
    const ordered& json() const { return frames_; }
    const std::string& name(std::size_t i) const { return names_[i]; }

private:
    std::map<std::tuple<std::string, std::string, std::uint32_t>, std::size_t> index_;
    ordered frames_ = ordered::array();
    std::vector<std::string> names_;
};

measure_stacks instructions_of(const benchmark_result& r, frames_table& frames) {
    measure_stacks m{"instructions",
                     "instructions per iteration",
                     "none",
                     static_cast<double>(r.counts ? r.counts->iterations : r.iterations),
                     {}};
    std::vector<std::size_t> shared;
    for (const std::string& f : r.profile->frames) {
        shared.push_back(frames.index(f, std::nullopt, std::nullopt));
    }
    for (const profile_stack& s : r.profile->stacks) {
        weighted_stack w{{}, s.self};
        for (std::uint32_t f : s.frames) {
            w.frames.push_back(shared[f]);
        }
        m.stacks.push_back(std::move(w));
    }
    return m;
}

// The allocation sites' stacks (innermost first in the results), outermost first here.
measure_stacks sites_of(const std::vector<alloc_site>& sites, double alloc_site::*figure, measure_stacks m,
                        frames_table& frames) {
    for (const alloc_site& s : sites) {
        if (!std::isfinite(s.*figure)) {
            continue;
        }
        // Another thread's stack begins where that thread began.
        const std::string thread = thread_frame(s);
        std::vector<std::size_t> stack(s.stack.size() + (thread.empty() ? 0 : 1));
        std::size_t k = 0;
        if (!thread.empty()) {
            stack[k++] = frames.index(thread, std::nullopt, std::nullopt);
        }
        for (auto f = s.stack.rbegin(); f != s.stack.rend(); ++f) {
            stack[k++] = frames.index(f->function, f->file, f->line);
        }
        m.stacks.push_back({std::move(stack), s.*figure});
    }
    return m;
}

std::string folded(const measure_stacks& m, const frames_table& frames) {
    std::string out;
    for (const weighted_stack& s : m.stacks) {
        const double whole = std::round(s.weight * m.per);
        if (!(whole >= 1) || !std::isfinite(whole)) {
            continue;  // less than one over the whole pass, or past any count
        }
        for (std::size_t i = 0; i < s.frames.size(); ++i) {
            out += (i == 0 ? "" : ";") + folded_frame(frames.name(s.frames[i]));
        }
        char buf[64];
        std::snprintf(buf, sizeof buf, " %.0f\n", whole);
        out += buf;
    }
    return out;
}

ordered speedscope_profile(const measure_stacks& m, const std::string& benchmark) {
    ordered samples = ordered::array();
    ordered weights = ordered::array();
    double total = 0;
    for (const weighted_stack& s : m.stacks) {
        if (!std::isfinite(total + s.weight)) {
            continue;  // a figure too large to add up (the readers bound them): left out, not null
        }
        samples.push_back(s.frames);
        weights.push_back(s.weight);
        total += s.weight;
    }
    return {{"type", "sampled"},
            {"name", benchmark + ": " + m.title},
            {"unit", m.unit},
            {"startValue", 0},
            {"endValue", total},
            {"samples", std::move(samples)},
            {"weights", std::move(weights)}};
}

// "parse/64" -> "parse_64"; a name met before gets "~2", "~3", ...
std::string file_stem(const std::string& name, std::set<std::string>& used) {
    std::string stem;
    for (char c : name) {
        const bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                           c == '.' || c == '_' || c == '-';
        stem += plain ? c : '_';
    }
    if (stem.empty() || stem.front() == '.') {
        stem.insert(0, "_");
    }
    stem = stem.substr(0, 180);
    std::string out = stem;
    for (int n = 2; !used.insert(out).second; ++n) {
        out = stem + "~" + std::to_string(n);
    }
    return out;
}

}  // namespace

std::string thread_frame(const alloc_site& site) {
    if (site.threads.empty()) {
        return site.thread == 0 ? std::string() : "thread " + std::to_string(site.thread);
    }
    std::string out = "threads ";
    for (std::size_t i = 0; i < site.threads.size(); ++i) {
        const std::uint32_t t = site.threads[i].thread;
        out += (i == 0 ? "" : ", ") + (t == 0 ? std::string("main") : std::to_string(t));
    }
    return out;
}

std::string folded_frame(const std::string& function) {
    std::string out = function;
    for (char& c : out) {
        if (c == ';') {
            c = ',';
        } else if (c == '\n' || c == '\r') {
            c = ' ';
        }
    }
    return out;
}

std::vector<profile_file> profile_files(const run_results& results) {
    std::vector<profile_file> out;
    std::set<std::string> used;
    for (const benchmark_result& r : results.benchmarks) {
        if (failed(r) || (!r.profile && (!r.sites || r.alloc_sites.empty()))) {
            continue;
        }
        frames_table frames;
        std::vector<measure_stacks> measures;
        if (r.profile) {
            measures.push_back(instructions_of(r, frames));
        }
        if (r.sites && !r.alloc_sites.empty()) {  // a region that allocates nothing has no stacks
            const auto pass = static_cast<double>(r.sites->iterations);
            measures.push_back(sites_of(r.alloc_sites, &alloc_site::allocs_per_iter,
                                        {"allocations", "allocations per iteration", "none", pass, {}},
                                        frames));
            measures.push_back(sites_of(r.alloc_sites, &alloc_site::bytes_per_iter,
                                        {"bytes", "bytes allocated per iteration", "bytes", pass, {}},
                                        frames));
            measures.push_back(sites_of(r.retained_sites, &alloc_site::bytes_per_iter,
                                        {"retained", "bytes still live per iteration", "bytes", pass, {}},
                                        frames));
        }
        const std::string stem = file_stem(r.name, used);
        ordered profiles = ordered::array();
        for (const measure_stacks& m : measures) {
            out.push_back({stem + "." + m.slug + ".folded", folded(m, frames)});
            profiles.push_back(speedscope_profile(m, r.name));
        }
        ordered file = {{"$schema", "https://www.speedscope.app/file-format-schema.json"},
                        {"shared", {{"frames", frames.json()}}},
                        {"profiles", std::move(profiles)},
                        {"name", r.name},
                        {"activeProfileIndex", 0},
                        {"exporter", "tare " + results.context.tare_version}};
        out.push_back({stem + ".speedscope.json", file.dump(1) + "\n"});
    }
    return out;
}

}  // namespace tare::report
