// `tare exec --vs=CMD`: any string splits into words or is refused with a message.
#include <cstdint>
#include <string>

#include "exec/abba_runs.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string line(reinterpret_cast<const char*>(data), size);
    (void)tare::exec::split_command_line(line);
    return 0;
}
