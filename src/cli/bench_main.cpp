// tare::main: the main() of a benchmark executable. Everything it does is in bench_driver.
#include "cli/bench_driver.hpp"

int main(int argc, char** argv) {
    return tare::cli::bench_driver(argc, argv);
}
