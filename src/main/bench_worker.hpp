#pragma once
// Worker mode of a benchmark executable: `tare compare` drives it over the protocol of
// src/protocol/worker_protocol.hpp, one sample at a time.

#include <string>
#include <vector>

#include "core/runner.hpp"

namespace tare::driver {

/// Serves the controller on descriptors 3 and 4 until it says quit or closes the channel.
/// `spec` is the flag's value ("3,4", for the record). Returns the process exit status.
int run_worker(const std::string& spec, const std::vector<core::instance>& instances);

}  // namespace tare::driver
