#include "instrument/callgrind_graph.hpp"

#include <algorithm>
#include <charconv>
#include <optional>
#include <string_view>
#include <unordered_map>

#include "instrument/callgrind_format.hpp"

namespace tare::instrument {

namespace {

std::vector<std::pair<std::string_view, std::size_t>> words_of(std::string_view line, std::size_t from) {
    std::vector<std::pair<std::string_view, std::size_t>> out;  // each word and its column (1-based)
    std::size_t i = from;
    while (true) {
        while (i < line.size() && callgrind_blank(line[i])) {
            ++i;
        }
        if (i >= line.size()) {
            return out;
        }
        std::size_t j = i;
        while (j < line.size() && !callgrind_blank(line[j])) {
            ++j;
        }
        out.emplace_back(line.substr(i, j - i), i + 1);
        i = j;
    }
}

std::optional<std::uint64_t> number(std::string_view w, int base = 10) {
    std::uint64_t v = 0;
    const auto [p, ec] = std::from_chars(w.data(), w.data() + w.size(), v, base);
    if (ec != std::errc{} || p != w.data() + w.size() || w.empty()) {
        return std::nullopt;
    }
    return v;
}

// A position column: absolute (decimal or 0x-hex), relative to the last ("+N", "-N"), or the
// same again ("*"). Its value is not needed: only the costs after it are.
bool position_word(std::string_view w) {
    if (w == "*") {
        return true;
    }
    if (w.starts_with('+') || w.starts_with('-')) {
        return number(w.substr(1)).has_value();
    }
    if (w.starts_with("0x")) {
        return number(w.substr(2), 16).has_value();
    }
    return number(w).has_value();
}

class graph_reader {
public:
    graph_reader(const std::string& origin, const std::string& event) : origin_(origin), event_(event) {}

    // One line of the dump; an error stops the reading.
    std::optional<io::read_error> line(std::string_view l, std::size_t no) {
        no_ = no;
        if (l.empty() || l.front() == '#' || std::all_of(l.begin(), l.end(), callgrind_blank)) {
            return std::nullopt;
        }
        const char c = l.front();
        if ((c >= '0' && c <= '9') || c == '+' || c == '-' || c == '*') {
            return cost_line(l);
        }
        const std::size_t key_end = l.find_first_of(":=");
        if (key_end == std::string_view::npos) {
            return error(1, "not a Callgrind line: \"" + std::string(l.substr(0, 40)) + "\"");
        }
        const std::string_view key = l.substr(0, key_end);
        return l[key_end] == ':' ? header(key, l, key_end + 1) : specification(key, l.substr(key_end + 1));
    }

    std::variant<callgrind_graph, io::read_error> finish() {
        if (!event_index_) {
            return io::read_error{origin_ + ": not a Callgrind dump (no \"events:\" line)"};
        }
        if (call_pending_) {
            return io::read_error{origin_ + ": the dump ends after a \"calls=\" line, before its cost"};
        }
        if (!have_total_) {
            return io::read_error{origin_ + ": a Callgrind dump without its \"summary:\" line"};
        }
        return std::move(graph_);
    }

private:
    io::read_error error(std::size_t column, const std::string& what) const {
        return {origin_ + ":" + std::to_string(no_) + ":" + std::to_string(column) + ": " + what};
    }

    std::optional<io::read_error> header(std::string_view key, std::string_view l, std::size_t from) {
        if (key == "positions") {
            positions_ = words_of(l, from).size();
            if (positions_ == 0 || positions_ > 2) {
                return error(1, "\"positions:\" names " + std::to_string(positions_) +
                                    " columns (\"instr\", \"line\" or both)");
            }
        } else if (key == "events") {
            if (events_ != 0) {
                return error(1, "a second \"events:\" line");
            }
            const auto words = words_of(l, from);
            events_ = words.size();
            if (events_ == 0) {
                return error(from + 1, "an \"events:\" line that names no event");
            }
            for (std::size_t i = 0; i < words.size(); ++i) {
                if (words[i].first == event_) {
                    event_index_ = i;
                }
            }
            if (!event_index_) {
                return error(1, "the dump does not count \"" + event_ + "\"");
            }
        } else if (key == "summary" || (key == "totals" && !have_total_)) {
            if (!event_index_) {
                return error(1, "\"" + std::string(key) + ":\" before the \"events:\" line");
            }
            const auto words = words_of(l, from);
            if (words.size() > events_) {
                return error(words[events_].second,
                             "more totals than the " + std::to_string(events_) + " events");
            }
            graph_.total = 0;
            if (*event_index_ < words.size()) {
                const auto v = number(words[*event_index_].first);
                if (!v) {
                    return error(words[*event_index_].second, "not a count");
                }
                graph_.total = *v;
            }
            have_total_ = true;
        }
        return std::nullopt;  // version, creator, pid, cmd, part, desc, thread, event: not needed
    }

    std::optional<io::read_error> specification(std::string_view key, std::string_view value) {
        const std::size_t column = key.size() + 2;
        if (key == "fn" || key == "cfn" || key == "cfl" || key == "jfn") {
            if (key == "cfl") {
                return std::nullopt;  // the callee's file: not needed
            }
            auto f = function_named(value, column);
            if (auto* e = std::get_if<io::read_error>(&f)) {
                return std::move(*e);
            }
            if (call_pending_) {
                return error(1, "a \"" + std::string(key) + "=\" line between \"calls=\" and its cost");
            }
            const auto index = std::get<std::uint32_t>(f);
            if (key == "fn") {
                fn_ = index;
                cfn_.reset();
            } else if (key == "cfn") {
                cfn_ = index;
            }  // jfn: a jump's target, named (the name may be used later) but not a call
            return std::nullopt;
        }
        if (key == "calls") {
            const auto words = words_of(value, 0);
            const auto count = words.empty() ? std::nullopt : number(words.front().first);
            if (!count) {
                return error(column, "\"calls=\" without a count of calls");
            }
            if (!fn_ || !cfn_) {
                return error(
                    1, "\"calls=\" before the \"fn=\" and \"cfn=\" lines that name its caller and callee");
            }
            if (call_pending_) {
                return error(1, "a second \"calls=\" line before the first one's cost");
            }
            call_pending_ = true;
            call_count_ = *count;
            return std::nullopt;
        }
        if (key == "jump" || key == "jcnd") {
            skip_cost_ = true;  // its source position follows, with no cost of its own
            return std::nullopt;
        }
        if (key == "ob" || key == "fl" || key == "fi" || key == "fe" || key == "cob" || key == "cfi" ||
            key == "jfi") {
            return std::nullopt;  // objects and files: the graph is by function
        }
        return error(1, "an unknown specification \"" + std::string(key.substr(0, 20)) + "=\"");
    }

    // "(ID) name" defines a compressed name, "(ID)" refers to one, "name" is given whole.
    std::variant<std::uint32_t, io::read_error> function_named(std::string_view value, std::size_t column) {
        std::string_view name = value;
        std::optional<std::uint64_t> id;
        if (value.starts_with('(')) {
            const std::size_t close = value.find(')');
            id = close == std::string_view::npos ? std::nullopt : number(value.substr(1, close - 1));
            if (!id) {
                return error(column, "a name's compressed id is not \"(NUMBER)\"");
            }
            name = value.substr(close + 1);
            if (name.starts_with(' ')) {
                name.remove_prefix(1);
            }
            if (name.empty()) {
                const auto known = ids_.find(*id);
                if (known == ids_.end()) {
                    return error(column,
                                 "the name id (" + std::to_string(*id) + ") is used before it is defined");
                }
                return known->second;
            }
        }
        if (name.empty()) {
            return error(column, "an empty function name");
        }
        auto [it, added] =
            by_name_.try_emplace(std::string(name), static_cast<std::uint32_t>(graph_.functions.size()));
        if (added) {
            graph_.functions.emplace_back(name);
            graph_.self.push_back(0);
        }
        if (id) {
            ids_[*id] = it->second;
        }
        return it->second;
    }

    std::optional<io::read_error> cost_line(std::string_view l) {
        if (!event_index_) {
            return error(1, "a cost line before the \"events:\" line");
        }
        const auto words = words_of(l, 0);
        if (words.size() < positions_) {
            return error(
                1, "a cost line with fewer than its " + std::to_string(positions_) + " position columns");
        }
        for (std::size_t i = 0; i < positions_; ++i) {
            if (!position_word(words[i].first)) {
                return error(words[i].second,
                             "\"" + std::string(words[i].first.substr(0, 40)) + "\" is not a position");
            }
        }
        if (words.size() - positions_ > events_) {
            return error(words[positions_ + events_].second,
                         "more costs than the " + std::to_string(events_) + " events");
        }
        std::uint64_t cost = 0;
        for (std::size_t i = positions_; i < words.size(); ++i) {
            const auto v = number(words[i].first);
            if (!v) {
                return error(words[i].second,
                             "\"" + std::string(words[i].first.substr(0, 40)) + "\" is not a count");
            }
            if (i - positions_ == *event_index_) {
                cost = *v;
            }
        }
        if (skip_cost_) {
            skip_cost_ = false;
            return std::nullopt;
        }
        if (!fn_) {
            return error(1, "a cost line before any \"fn=\" line");
        }
        if (call_pending_) {
            call_pending_ = false;
            return add_call(*fn_, *cfn_, cost);
        }
        if (__builtin_add_overflow(graph_.self[*fn_], cost, &graph_.self[*fn_])) {
            return error(1, "a function's cost past 2^64");
        }
        return std::nullopt;
    }

    std::optional<io::read_error> add_call(std::uint32_t caller, std::uint32_t callee, std::uint64_t cost) {
        const std::uint64_t key = (std::uint64_t{caller} << 32U) | callee;
        auto [it, added] = edge_of_.try_emplace(key, graph_.calls.size());
        if (added) {
            graph_.calls.push_back({caller, callee, 0, 0});
        }
        callgrind_call& c = graph_.calls[it->second];
        if (__builtin_add_overflow(c.cost, cost, &c.cost) ||
            __builtin_add_overflow(c.calls, call_count_, &c.calls)) {
            return error(1, "a call's cost or count past 2^64");
        }
        return std::nullopt;
    }

    const std::string& origin_;
    const std::string& event_;
    std::size_t no_ = 0;
    std::size_t positions_ = 1;
    std::size_t events_ = 0;
    std::optional<std::size_t> event_index_;
    bool have_total_ = false;
    std::optional<std::uint32_t> fn_;
    std::optional<std::uint32_t> cfn_;
    bool call_pending_ = false;
    bool skip_cost_ = false;
    std::uint64_t call_count_ = 0;
    std::unordered_map<std::uint64_t, std::uint32_t> ids_;
    std::unordered_map<std::string, std::uint32_t> by_name_;
    std::unordered_map<std::uint64_t, std::size_t> edge_of_;
    callgrind_graph graph_;
};

}  // namespace

std::variant<callgrind_graph, io::read_error> parse_callgrind_graph(const std::string& text,
                                                                    const std::string& origin,
                                                                    const std::string& event) {
    graph_reader reader(origin, event);
    std::size_t pos = 0;
    std::size_t no = 0;
    while (pos < text.size()) {
        const std::size_t end = std::min(text.find('\n', pos), text.size());
        if (auto e = reader.line(std::string_view(text.data() + pos, end - pos), ++no)) {
            return std::move(*e);
        }
        pos = end + 1;
    }
    return reader.finish();
}

}  // namespace tare::instrument
