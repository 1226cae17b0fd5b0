// Another local user plants symbolic links at every temporary-file name tare has used, in a
// shared, sticky temporary directory, before tare starts: each run must leave the files the
// links name untouched, still work, and leave nothing of its own behind. The planter is a real
// unprivileged process (setpriv as nobody), so the test needs root; CI runs as root.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "run_process.hpp"
#include "scratch.hpp"
#include "text_helpers.hpp"

namespace tare {
namespace {

namespace fs = std::filesystem;
using test::run_process;
using test::scratch;

constexpr int nobody = 65534;

// Every name an earlier tare built from a process id in $TMPDIR, for process `pid`.
std::vector<std::string> predictable_names(pid_t pid) {
    const std::string p = std::to_string(pid);
    std::vector<std::string> names{"tare-run-" + p + ".json", "tare-gbench-" + p + ".json",
                                   "tare-version-" + p};
    for (int i = 0; i < 8; ++i) {
        const std::string n = std::to_string(i);
        for (const char* stem : {"tare-isolate-", "tare-worker-", "tare-gbcmp-"})
            for (const char* suffix : {".json", ".err", ".list"})
                names.push_back(stem + p + "-" + n + suffix);
    }
    return names;
}

class planted_links : public testing::Test {
protected:
    void SetUp() override {
        if (::geteuid() != 0)
            GTEST_SKIP() << "needs root, to plant the links as another user (CI runs as root)";
        // A root-only place the links point into, and a sticky world-writable $TMPDIR, like /tmp.
        victims_ = scratch("victims");
        fs::create_directories(victims_);
        ::chmod(victims_.c_str(), 0700);
        tmp_ = scratch("shared-tmp");
        fs::create_directories(tmp_);
        ::chmod(scratch("").c_str(), 0755);  // nobody may reach the shared directory
        ::chmod(tmp_.c_str(), 01777);
        ::setenv("TMPDIR", tmp_.c_str(), 1);
    }

    fs::path victim(const std::string& name) {
        const fs::path v = victims_ / name;
        std::ofstream(v) << "precious " << name << "\n";
        return v;
    }

    // Runs `argv` with standard output and error in files, held before exec until nobody has
    // planted links to `target` at every predictable name of its process id. Returns its status.
    int run_after_planting(const std::vector<std::string>& argv, const fs::path& target, std::string* err) {
        int gate[2];
        EXPECT_EQ(::pipe(gate), 0);
        const fs::path out_file = scratch("held.out");
        const fs::path err_file = scratch("held.err");
        std::vector<char*> args;
        for (const std::string& a : argv)
            args.push_back(const_cast<char*>(a.c_str()));
        args.push_back(nullptr);
        const pid_t pid = ::fork();
        if (pid == 0) {
            ::close(gate[1]);
            char byte = 0;
            if (::read(gate[0], &byte, 1) != 1)
                ::_exit(121);
            const int o = ::open(out_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
            const int e = ::open(err_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
            ::dup2(o, 1);
            ::dup2(e, 2);
            ::execv(args[0], args.data());
            ::_exit(127);
        }
        ::close(gate[0]);
        std::string script = "cd \"$1\" && shift && for n in \"$@\"; do ln -s '" + target.string() +
                             "' \"$n\" || exit 1; done";
        std::vector<std::string> plant{"/usr/bin/setpriv",
                                       "--reuid=" + std::to_string(nobody),
                                       "--regid=" + std::to_string(nobody),
                                       "--clear-groups",
                                       "sh",
                                       "-c",
                                       script,
                                       "planter",
                                       tmp_.string()};
        for (const std::string& n : predictable_names(pid))
            plant.push_back(n);
        const auto planted = run_process(plant);
        EXPECT_EQ(planted.exit_code, 0) << planted.err;
        const char go = 1;
        EXPECT_EQ(::write(gate[1], &go, 1), 1);
        ::close(gate[1]);
        int status = 0;
        ::waitpid(pid, &status, 0);
        *err = slurp(err_file);
        return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    }

    // Only nobody's links are left in the shared directory: tare's own directory is gone.
    void expect_only_the_links_left() {
        for (const auto& entry : fs::directory_iterator(tmp_)) {
            struct stat st {};
            ::lstat(entry.path().c_str(), &st);
            EXPECT_TRUE(S_ISLNK(st.st_mode) && st.st_uid == static_cast<uid_t>(nobody))
                << "left behind: " << entry.path().filename();
        }
    }

    fs::path victims_;
    fs::path tmp_;
};

TEST_F(planted_links, tare_run_writes_through_none) {
    const fs::path v = victim("run");
    std::string err;
    const fs::path out = scratch("run.json");
    EXPECT_EQ(run_after_planting({TARE_COMMAND, "run", TARE_HOSTILE_BENCH, "--filter=^good_first$",
                                  "--min-time=0.01", "--json=" + out.string()},
                                 v, &err),
              0)
        << err;
    EXPECT_EQ(slurp(v), "precious run\n");
    EXPECT_NE(slurp(out).find("good_first"), std::string::npos);
    expect_only_the_links_left();
}

TEST_F(planted_links, an_isolated_run_writes_through_none) {
    const fs::path v = victim("isolate");
    std::string err;
    EXPECT_EQ(
        run_after_planting(
            {TARE_HOSTILE_BENCH, "--isolate", "--filter=^good_(first|last)$", "--min-time=0.01"}, v, &err),
        0)
        << err;
    EXPECT_EQ(slurp(v), "precious isolate\n");
    expect_only_the_links_left();
}

TEST_F(planted_links, tare_compare_writes_through_none) {
    const fs::path v = victim("compare");
    std::string err;
    EXPECT_EQ(run_after_planting({TARE_COMMAND, "compare", TARE_HOSTILE_BENCH, TARE_HOSTILE_BENCH,
                                  "--filter=^good_first$", "--rounds=2", "--min-time=0.01"},
                                 v, &err),
              0)
        << err;
    EXPECT_EQ(slurp(v), "precious compare\n");
    expect_only_the_links_left();
}

TEST_F(planted_links, google_benchmark_runs_and_compares_write_through_none) {
    const std::string gb = TARE_HOSTILE_GB_BENCH;
    if (gb.empty())
        GTEST_SKIP() << "built without Google Benchmark";
    const fs::path v = victim("gbench");
    std::string err;
    EXPECT_EQ(run_after_planting({TARE_COMMAND, "run", gb, "--filter=^BM_good$", "--min-time=0.01"}, v, &err),
              0)
        << err;
    EXPECT_EQ(run_after_planting(
                  {TARE_COMMAND, "run", gb, "--filter=^BM_good$", "--isolate", "--min-time=0.01"}, v, &err),
              0)
        << err;
    EXPECT_EQ(run_after_planting(
                  {TARE_COMMAND, "compare", gb, gb, "--filter=^BM_good$", "--rounds=2", "--min-time=0.01"}, v,
                  &err),
              0)
        << err;
    EXPECT_EQ(slurp(v), "precious gbench\n");
    expect_only_the_links_left();
}

// The user's own output path, in the shared directory, is a link nobody planted: refused by
// name, and the file it names untouched.
TEST_F(planted_links, an_output_path_another_user_linked_is_refused) {
    const fs::path v = victim("output");
    const fs::path out = tmp_ / "results.json";
    const auto planted = run_process({"/usr/bin/setpriv", "--reuid=" + std::to_string(nobody),
                                      "--regid=" + std::to_string(nobody), "--clear-groups", "/bin/ln", "-s",
                                      v.string(), out.string()});
    ASSERT_EQ(planted.exit_code, 0) << planted.err;
    const auto r = run_process(
        {TARE_HOSTILE_BENCH, "--filter=^good_first$", "--min-time=0.01", "--json=" + out.string()});
    EXPECT_EQ(r.exit_code, 1) << r.err;
    EXPECT_NE(r.err.find("does not follow it"), std::string::npos) << r.err;
    EXPECT_EQ(slurp(v), "precious output\n");
    const auto via_tare = run_process({TARE_COMMAND, "run", TARE_HOSTILE_BENCH, "--filter=^good_first$",
                                       "--min-time=0.01", "--json=" + out.string()});
    EXPECT_EQ(via_tare.exit_code, 2) << via_tare.err;
    EXPECT_NE(via_tare.err.find("does not follow it"), std::string::npos) << via_tare.err;
    EXPECT_EQ(slurp(v), "precious output\n");
}

}  // namespace
}  // namespace tare
