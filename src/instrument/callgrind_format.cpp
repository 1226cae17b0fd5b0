#include "instrument/callgrind_format.hpp"

#include <algorithm>
#include <charconv>
#include <string_view>

namespace tare::instrument {

std::optional<std::uint64_t> callgrind_totals::get(const std::string& event) const {
    for (const auto& [name, value] : events) {
        if (name == event) {
            return value;
        }
    }
    return std::nullopt;
}

namespace {

io::read_error at(const std::string& origin, std::size_t line, std::size_t column, const std::string& what) {
    return {origin + ":" + std::to_string(line) + ":" + std::to_string(column) + ": " + what};
}

}  // namespace

std::variant<callgrind_totals, io::read_error> parse_callgrind_dump(const std::string& text,
                                                                    const std::string& origin) {
    callgrind_totals out;
    bool have_events = false;
    bool have_summary = false;
    std::size_t events_line = 0;
    std::size_t line_no = 0;
    std::size_t pos = 0;
    while (pos < text.size() && !have_summary) {
        const std::size_t end = std::min(text.find('\n', pos), text.size());
        const std::string_view line(text.data() + pos, end - pos);
        pos = end + 1;
        ++line_no;
        const bool is_events = line.starts_with("events:");
        const bool is_summary = line.starts_with("summary:");
        if (!is_events && !is_summary) {
            continue;
        }
        std::size_t i = line.find(':') + 1;
        std::size_t field = 0;
        while (true) {
            while (i < line.size() && callgrind_blank(line[i])) {
                ++i;
            }
            if (i >= line.size()) {
                break;
            }
            std::size_t j = i;
            while (j < line.size() && !callgrind_blank(line[j])) {
                ++j;
            }
            const std::string_view word = line.substr(i, j - i);
            const std::size_t column = i + 1;
            if (is_events) {
                if (have_events) {
                    return at(
                        origin, line_no, 1,
                        "a second \"events:\" line (the first is line " + std::to_string(events_line) + ")");
                }
                out.events.emplace_back(std::string(word), 0);
            } else {
                if (!have_events) {
                    return at(origin, line_no, 1, "\"summary:\" before the \"events:\" line");
                }
                if (field >= out.events.size()) {
                    return at(origin, line_no, column,
                              "more totals than the " + std::to_string(out.events.size()) + " events");
                }
                std::uint64_t v = 0;
                const auto [p, ec] = std::from_chars(word.data(), word.data() + word.size(), v);
                if (ec != std::errc{} || p != word.data() + word.size()) {
                    return at(origin, line_no, column,
                              "\"" + std::string(word.substr(0, 40)) + "\" is not a count");
                }
                out.events[field].second = v;
            }
            ++field;
            i = j;
        }
        if (is_events) {
            if (out.events.empty()) {
                return at(origin, line_no, 8, "an \"events:\" line that names no event");
            }
            have_events = true;
            events_line = line_no;
        } else {
            have_summary = true;
        }
    }
    if (!have_events) {
        return io::read_error{origin + ": not a Callgrind dump (no \"events:\" line)"};
    }
    if (!have_summary) {
        return io::read_error{origin + ": a Callgrind dump without its \"summary:\" line"};
    }
    return out;
}

callgrind_figures per_iteration(const callgrind_totals& totals, std::uint64_t iterations) {
    const auto n = static_cast<double>(std::max<std::uint64_t>(iterations, 1));
    auto ev = [&](const char* name) { return static_cast<double>(totals.get(name).value_or(0)); };
    callgrind_figures f;
    f.instructions = ev("Ir") / n;
    f.data_reads = ev("Dr") / n;
    f.data_writes = ev("Dw") / n;
    const double l1 = ev("I1mr") + ev("D1mr") + ev("D1mw");
    const double ll = ev("ILmr") + ev("DLmr") + ev("DLmw");
    f.l1_misses = l1 / n;
    f.ll_misses = ll / n;
    const double accesses = ev("Ir") + ev("Dr") + ev("Dw");
    // A miss of LL missed L1 too, so L1 hits are accesses - L1 misses and LL hits L1 - LL misses.
    f.estimated_cycles = ((accesses - l1) + 5 * (l1 - ll) + 35 * ll) / n;
    return f;
}

}  // namespace tare::instrument
