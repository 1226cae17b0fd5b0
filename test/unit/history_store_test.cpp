// The history's SQLite store (history/store.hpp): what is added is read back in order, a file
// that is not a store is refused by name, and two writers or a killed one lose nothing.
#include "history/store.hpp"

#include <gtest/gtest.h>
#include <signal.h>
#include <sqlite3.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <variant>
#include <vector>

namespace tare::history {
namespace {

namespace fs = std::filesystem;

// A directory of this test process's own, removed at the end.
class history_store : public ::testing::Test {
protected:
    void SetUp() override {
        dir_ = fs::temp_directory_path() / ("tare-store-test-" + std::to_string(::getpid()));
        fs::create_directories(dir_);
    }
    void TearDown() override { fs::remove_all(dir_); }
    std::string path(const std::string& name) const { return (dir_ / name).string(); }

    fs::path dir_;
};

history_run run_at(const std::string& commit, const std::string& date, const std::string& branch = "main") {
    return history_run{0, commit, branch, date, commit + ".json", "tare/1", 1};
}

std::vector<history_figure> figures(double time, double allocs) {
    return {{"parse/64", "time_ns", time, time * 0.99, time * 1.01},
            {"parse/64", "allocs_per_iter", allocs, {}, {}}};
}

store open_store(const std::string& path, bool create = true) {
    auto s = store::open(path, create);
    if (auto* e = std::get_if<store_error>(&s))
        ADD_FAILURE() << e->message;
    return std::move(std::get<store>(s));
}

std::string open_error(const std::string& path, bool create = false) {
    auto s = store::open(path, create);
    auto* e = std::get_if<store_error>(&s);
    return e != nullptr ? e->message : "";
}

TEST_F(history_store, runs_come_back_by_date_with_their_figures) {
    store s = open_store(path("h.db"));
    ASSERT_FALSE(std::get<added_run>(s.add(run_at("b", "2026-12-02T00:00:00Z"), "d2", figures(110, 5)))
                     .already_present);
    ASSERT_FALSE(std::get<added_run>(s.add(run_at("a", "2026-12-01T00:00:00Z"), "d1", figures(100, 4)))
                     .already_present);
    s.add(run_at("x", "2026-12-03T00:00:00Z", "topic"), "d3", figures(90, 4));
    const auto runs = std::get<std::vector<history_run>>(s.runs("main", 0));
    ASSERT_EQ(runs.size(), 2U);
    EXPECT_EQ(runs[0].commit, "a");  // added second, dated first
    EXPECT_EQ(runs[1].commit, "b");
    const auto f = std::get<std::vector<std::vector<history_figure>>>(s.figures(runs));
    ASSERT_EQ(f.size(), 2U);
    ASSERT_EQ(f[0].size(), 2U);
    for (const history_figure& x : f[0]) {
        if (x.measure == "time_ns") {
            EXPECT_EQ(x.value, 100);
            EXPECT_EQ(x.low, 99);
        } else {
            EXPECT_EQ(x.value, 4);
            EXPECT_FALSE(x.low);
        }
    }
    // The newest N, still oldest first.
    const auto last = std::get<std::vector<history_run>>(s.runs("main", 1));
    ASSERT_EQ(last.size(), 1U);
    EXPECT_EQ(last[0].commit, "b");
    const auto branches = std::get<std::vector<std::pair<std::string, std::size_t>>>(s.branches());
    ASSERT_EQ(branches.size(), 2U);
    EXPECT_EQ(branches[0], (std::pair<std::string, std::size_t>{"main", 2}));
}

TEST_F(history_store, the_same_file_on_the_same_branch_is_added_once) {
    store s = open_store(path("h.db"));
    const auto first =
        std::get<added_run>(s.add(run_at("a", "2026-12-01T00:00:00Z"), "same", figures(100, 4)));
    const auto again =
        std::get<added_run>(s.add(run_at("a", "2026-12-01T00:00:00Z"), "same", figures(100, 4)));
    EXPECT_TRUE(again.already_present);
    EXPECT_EQ(again.id, first.id);
    EXPECT_EQ(std::get<std::vector<history_run>>(s.runs("main", 0)).size(), 1U);
}

TEST_F(history_store, the_file_names_its_schema_and_what_it_is) {
    { open_store(path("h.db")); }
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(path("h.db").c_str(), &db), SQLITE_OK);
    auto pragma = [db](const char* sql) {
        sqlite3_stmt* st = nullptr;
        sqlite3_prepare_v2(db, sql, -1, &st, nullptr);
        sqlite3_step(st);
        const std::string v = reinterpret_cast<const char*>(sqlite3_column_text(st, 0));
        sqlite3_finalize(st);
        return v;
    };
    EXPECT_EQ(pragma("PRAGMA user_version"), std::to_string(schema_version));
    EXPECT_EQ(pragma("PRAGMA application_id"), std::to_string(application_id));
    EXPECT_EQ(pragma("PRAGMA journal_mode"), "wal");
    // A newer tare's store is refused, not misread.
    sqlite3_exec(db, "PRAGMA user_version = 99", nullptr, nullptr, nullptr);
    sqlite3_close(db);
    EXPECT_NE(open_error(path("h.db")).find("schema 99, written by a newer tare"), std::string::npos)
        << open_error(path("h.db"));
}

TEST_F(history_store, what_is_not_a_store_is_refused_by_name) {
    EXPECT_EQ(open_error(path("none.db")), path("none.db") + ": no such file");
    std::ofstream(path("text.db"))
        << "not a database at all, but long enough to have a header of sorts....\n";
    EXPECT_NE(open_error(path("text.db")).find(path("text.db") + ": "), std::string::npos);
    EXPECT_NE(open_error(path("text.db")).find("not a database"), std::string::npos)
        << open_error(path("text.db"));
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(path("other.db").c_str(), &db), SQLITE_OK);
    sqlite3_exec(db, "CREATE TABLE t(x)", nullptr, nullptr, nullptr);
    sqlite3_close(db);
    EXPECT_NE(open_error(path("other.db")).find("not a tare history"), std::string::npos);
}

// Two processes adding at once: both wait their turn, every run is kept.
TEST_F(history_store, two_writers_at_once_both_land) {
    { open_store(path("h.db")); }
    pid_t kids[2];
    for (int k = 0; k < 2; ++k) {
        kids[k] = ::fork();
        ASSERT_GE(kids[k], 0);
        if (kids[k] == 0) {
            auto s = store::open(path("h.db"), false);
            bool ok = std::holds_alternative<store>(s);
            for (int i = 0; ok && i < 40; ++i) {
                const std::string id = std::to_string(k) + "-" + std::to_string(i);
                ok = std::holds_alternative<added_run>(
                    std::get<store>(s).add(run_at(id, "2026-12-01T00:00:00Z"), id, figures(100 + i, 4)));
            }
            ::_exit(ok ? 0 : 1);
        }
    }
    for (const pid_t kid : kids) {
        int status = 0;
        ASSERT_EQ(::waitpid(kid, &status, 0), kid);
        EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    }
    store s = open_store(path("h.db"), false);
    EXPECT_EQ(std::get<std::vector<history_run>>(s.runs("main", 0)).size(), 80U);
}

// A writer killed inside its transaction leaves nothing of its run, and the store works on.
TEST_F(history_store, a_writer_killed_half_way_leaves_nothing_behind) {
    { open_store(path("h.db")); }
    int ready[2];
    ASSERT_EQ(::pipe(ready), 0);
    const pid_t kid = ::fork();
    ASSERT_GE(kid, 0);
    if (kid == 0) {
        sqlite3* db = nullptr;
        sqlite3_open(path("h.db").c_str(), &db);
        sqlite3_exec(
            db,
            "BEGIN IMMEDIATE; INSERT INTO runs(commit_id, branch, date, source, kind, digest, benchmarks) "
            "VALUES('half', 'main', '2026-12-01T00:00:00Z', 'x', 'tare/1', 'd', 1); "
            "INSERT INTO figures(run, benchmark, measure, value) VALUES(last_insert_rowid(), 'b', 'time_ns', "
            "1);",
            nullptr, nullptr, nullptr);
        const char c = 'x';
        (void)!::write(ready[1], &c, 1);  // the transaction is open and written to
        ::pause();
        ::_exit(0);
    }
    ::close(ready[1]);
    char c = 0;
    ASSERT_EQ(::read(ready[0], &c, 1), 1);
    ::close(ready[0]);
    ::kill(kid, SIGKILL);
    int status = 0;
    ASSERT_EQ(::waitpid(kid, &status, 0), kid);
    store s = open_store(path("h.db"), false);
    EXPECT_TRUE(std::get<std::vector<history_run>>(s.runs("main", 0)).empty());
    EXPECT_TRUE(
        std::holds_alternative<added_run>(s.add(run_at("next", "2026-12-02T00:00:00Z"), "n", figures(1, 1))));
    EXPECT_EQ(std::get<std::vector<history_run>>(s.runs("main", 0)).size(), 1U);
}

TEST(history_digest, names_the_bytes) {
    EXPECT_EQ(digest_of(""), "cbf29ce484222325");
    EXPECT_NE(digest_of("a"), digest_of("b"));
    EXPECT_EQ(digest_of("abc"), digest_of(std::string("abc")));
}

}  // namespace
}  // namespace tare::history
