// A body that starts a daemon, as a server under test or a careless library might: a grandchild
// in a session of its own, whose parent has exited, holding none of the benchmark's descriptors.
// No process group kill reaches it; tare must still end it (docs/cli.md, "Interrupting a run").
#include <fcntl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <tare/tare.hpp>

static void start_daemon() {
    const pid_t child = ::fork();
    if (child != 0) {
        if (child > 0)
            ::waitpid(child, nullptr, 0);
        return;
    }
    ::setsid();
    if (::fork() == 0) {
        const int null = ::open("/dev/null", O_RDWR);
        for (int fd = 0; fd < 3; ++fd)
            ::dup2(null, fd);
        ::syscall(SYS_close_range, 3u, ~0u, 0u);
        for (;;)
            ::pause();
    }
    ::_exit(0);
}

static void daemonises(tare::State& state) {
    static const bool started = (start_daemon(), true);
    (void)started;
    unsigned x = 0;
    for (auto _ : state) {
        tare::do_not_optimize(++x);
    }
}
TARE_BENCHMARK(daemonises);
