#include "tare/state.hpp"

#include <stdexcept>
#include <string>

#include "core/sample_driver.hpp"

namespace tare {

std::int64_t State::arg(std::size_t i) const {
    if (i >= args_.size()) {
        throw std::out_of_range("state.arg(" + std::to_string(i) + "): benchmark '" + name_ + "' has " +
                                std::to_string(args_.size()) + " argument(s)");
    }
    return args_[i];
}

void State::set_counter(std::string_view name, double v) {
    for (auto& [key, current] : counters_) {
        if (key == name) {
            current = v;
            return;
        }
    }
    counters_.emplace_back(std::string(name), v);
}

void State::skip_with_error(std::string_view message) {
    errored_ = true;
    error_ = std::string(message);
}

std::uint64_t State::start_loop(detail::refill_fn refill, void* ctx) {
    return driver_->start_loop(*this, refill, ctx);
}

std::uint64_t State::next_chunk(detail::refill_fn refill, void* ctx) {
    return driver_->next_chunk(*this, refill, ctx);
}

std::uint64_t State::max_input_chunk() const noexcept {
    return driver_->max_input_chunk();
}

}  // namespace tare
