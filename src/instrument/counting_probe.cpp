#include "instrument/counting_probe.hpp"

namespace tare::instrument {

std::int64_t still_clock::now_ns() noexcept {
    return 0;
}

bool counting_probe::accounting() const noexcept {
    return inner_.accounting();
}

bool counting_probe::copies() const noexcept {
    return inner_.copies();
}

void counting_probe::region_begin() noexcept {
    inner_.region_begin();
    if (how_ == counter::callgrind) {
        os::callgrind::start_instrumentation();  // the setup before ran unsimulated, fast
    }
}

void counting_probe::resume() noexcept {
    inner_.resume();
    if (counting_) {
        on_ = true;
        if (how_ == counter::callgrind) {
            os::callgrind::toggle_collect();
        } else {
            hw_->start();
        }
    }
}

void counting_probe::pause() noexcept {
    if (on_) {
        on_ = false;
        if (how_ == counter::callgrind) {
            os::callgrind::toggle_collect();
        } else {
            hw_->stop();
        }
    }
    inner_.pause();
}

alloc::counters counting_probe::counters() noexcept {
    return inner_.counters();
}

void counting_probe::region_end() noexcept {
    if (how_ == counter::callgrind) {
        os::callgrind::stop_instrumentation();  // the teardown after runs unsimulated
    }
    inner_.region_end();
}

std::uint64_t counting_probe::page_faults() noexcept {
    return 0;
}

}  // namespace tare::instrument
