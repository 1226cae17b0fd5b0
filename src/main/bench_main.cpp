// tare::main: the main() of a benchmark executable. Everything it does is in bench_driver.
#include "main/bench_driver.hpp"

int main(int argc, char** argv) {
    return tare::driver::bench_driver(argc, argv);
}
