#include "history/store.hpp"

#include <sqlite3.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <map>
#include <utility>

#include "model/hash.hpp"

namespace tare::history {
namespace {

// How long a writer waits for another to finish before it gives up: a CI job adding one run
// holds the lock for milliseconds, so a minute is only ever reached by a stuck process.
constexpr int busy_timeout_ms = 60'000;

// Each step takes the schema from version i to i + 1, in one transaction with the version's
// update. Version 1 is the first: a new file gets it from step 0.
constexpr const char* migrations[] = {
    "CREATE TABLE runs("
    "  id INTEGER PRIMARY KEY,"
    "  commit_id TEXT NOT NULL,"
    "  branch TEXT NOT NULL,"
    "  date TEXT NOT NULL,"
    "  source TEXT NOT NULL,"
    "  kind TEXT NOT NULL,"
    "  digest TEXT NOT NULL,"
    "  benchmarks INTEGER NOT NULL,"
    "  added TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),"
    "  UNIQUE(branch, digest));"
    "CREATE INDEX runs_by_branch ON runs(branch, date, id);"
    "CREATE TABLE figures("
    "  run INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
    "  benchmark TEXT NOT NULL,"
    "  measure TEXT NOT NULL,"
    "  value REAL NOT NULL,"
    "  low REAL,"
    "  high REAL,"
    "  PRIMARY KEY(run, benchmark, measure)) WITHOUT ROWID;",
};
static_assert(sizeof(migrations) / sizeof(migrations[0]) == schema_version);

// A prepared statement, finalised on every path out.
class statement {
public:
    statement(sqlite3* db, const char* sql) { rc_ = sqlite3_prepare_v2(db, sql, -1, &s_, nullptr); }
    statement(const statement&) = delete;
    statement& operator=(const statement&) = delete;
    statement(statement&&) = delete;
    statement& operator=(statement&&) = delete;
    ~statement() { sqlite3_finalize(s_); }

    bool ok() const { return rc_ == SQLITE_OK; }
    sqlite3_stmt* get() const { return s_; }
    void text(int i, const std::string& v) { sqlite3_bind_text(s_, i, v.c_str(), -1, SQLITE_TRANSIENT); }
    void integer(int i, std::int64_t v) { sqlite3_bind_int64(s_, i, v); }
    void real(int i, std::optional<double> v) {
        if (v)
            sqlite3_bind_double(s_, i, *v);
        else
            sqlite3_bind_null(s_, i);
    }
    int step() { return sqlite3_step(s_); }
    void reset() {
        sqlite3_reset(s_);
        sqlite3_clear_bindings(s_);
    }
    std::string column_text(int i) const {
        const unsigned char* t = sqlite3_column_text(s_, i);
        return t != nullptr ? reinterpret_cast<const char*>(t) : "";
    }
    std::optional<double> column_real(int i) const {
        if (sqlite3_column_type(s_, i) == SQLITE_NULL)
            return std::nullopt;
        return sqlite3_column_double(s_, i);
    }

private:
    sqlite3_stmt* s_ = nullptr;
    int rc_ = SQLITE_ERROR;
};

bool exec(sqlite3* db, const char* sql) {
    return sqlite3_exec(db, sql, nullptr, nullptr, nullptr) == SQLITE_OK;
}

std::int64_t pragma_int(sqlite3* db, const char* sql) {
    statement s(db, sql);
    return s.ok() && s.step() == SQLITE_ROW ? sqlite3_column_int64(s.get(), 0) : -1;
}

history_run run_of(const statement& s) {
    history_run r;
    r.id = sqlite3_column_int64(s.get(), 0);
    r.commit = s.column_text(1);
    r.branch = s.column_text(2);
    r.date = s.column_text(3);
    r.source = s.column_text(4);
    r.kind = s.column_text(5);
    r.benchmarks = static_cast<std::size_t>(sqlite3_column_int64(s.get(), 6));
    return r;
}

// Brings the open file to schema_version, or says why not. Under an immediate transaction, so
// two processes creating one store at once cannot both run a step.
std::optional<std::string> migrate(sqlite3* db) {
    if (!exec(db, "BEGIN IMMEDIATE"))
        return std::string(sqlite3_errmsg(db));
    const std::int64_t version = pragma_int(db, "PRAGMA user_version");
    const std::int64_t app = pragma_int(db, "PRAGMA application_id");
    const std::int64_t tables = pragma_int(db, "SELECT count(*) FROM sqlite_master");
    std::optional<std::string> why;
    if (version < 0 || app < 0 || tables < 0) {
        why = sqlite3_errmsg(db);
    } else if (app != application_id && (version != 0 || tables != 0)) {
        why = "an SQLite database, but not a tare history";
    } else if (version > schema_version) {
        why = "a history of schema " + std::to_string(version) +
              ", written by a newer tare (this one reads " + "up to schema " +
              std::to_string(schema_version) + ")";
    }
    for (std::int64_t v = version; !why && v < schema_version; ++v) {
        if (!exec(db, migrations[v]))
            why = std::string("cannot update its schema: ") + sqlite3_errmsg(db);
    }
    if (!why && version < schema_version) {
        const std::string set = "PRAGMA user_version = " + std::to_string(schema_version) +
                                "; PRAGMA application_id = " + std::to_string(application_id);
        if (!exec(db, set.c_str()))
            why = sqlite3_errmsg(db);
    }
    if (why || !exec(db, "COMMIT")) {
        if (!why)
            why = sqlite3_errmsg(db);
        exec(db, "ROLLBACK");
    }
    return why;
}

}  // namespace

std::variant<store, store_error> store::open(const std::string& path, bool create) {
    if (!create && ::access(path.c_str(), F_OK) != 0) {
        const int err = errno;
        return store_error{
            path + (err == ENOENT ? ": no such file" : ": cannot open: " + std::string(std::strerror(err)))};
    }
    sqlite3* db = nullptr;
    const int flags = SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0) | SQLITE_OPEN_NOMUTEX;
    if (sqlite3_open_v2(path.c_str(), &db, flags, nullptr) != SQLITE_OK) {
        store_error e{path + ": cannot open: " + (db != nullptr ? sqlite3_errmsg(db) : "out of memory")};
        sqlite3_close(db);
        return e;
    }
    store s(db, path);
    sqlite3_busy_timeout(db, busy_timeout_ms);
    sqlite3_extended_result_codes(db, 1);
    if (auto why = migrate(db))
        return store_error{path + ": " + *why};
    // WAL: readers never block the writer and a killed writer's transaction is simply absent
    // at the next open. The mode is kept in the file.
    if (!exec(db, "PRAGMA journal_mode = WAL") || !exec(db, "PRAGMA foreign_keys = ON"))
        return s.error("cannot set up");
    return s;
}

store::store(store&& other) noexcept
    : db_(std::exchange(other.db_, nullptr)), path_(std::move(other.path_)) {}

store& store::operator=(store&& other) noexcept {
    if (this != &other) {
        sqlite3_close(db_);
        db_ = std::exchange(other.db_, nullptr);
        path_ = std::move(other.path_);
    }
    return *this;
}

store::~store() {
    sqlite3_close(db_);
}

store_error store::error(const std::string& what) const {
    return store_error{path_ + ": " + what + ": " + sqlite3_errmsg(db_)};
}

std::variant<added_run, store_error> store::add(const history_run& run, const std::string& digest,
                                                const std::vector<history_figure>& figures) {
    if (!exec(db_, "BEGIN IMMEDIATE"))
        return error("cannot add");
    auto fail = [&](const char* what) {
        store_error e = error(what);
        exec(db_, "ROLLBACK");
        return e;
    };
    {
        statement seen(db_, "SELECT id FROM runs WHERE branch = ?1 AND digest = ?2");
        seen.text(1, run.branch);
        seen.text(2, digest);
        if (!seen.ok())
            return fail("cannot add");
        if (seen.step() == SQLITE_ROW) {
            const std::int64_t id = sqlite3_column_int64(seen.get(), 0);
            exec(db_, "ROLLBACK");
            return added_run{id, true};
        }
    }
    statement insert(db_,
                     "INSERT INTO runs(commit_id, branch, date, source, kind, digest, benchmarks) "
                     "VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7)");
    insert.text(1, run.commit);
    insert.text(2, run.branch);
    insert.text(3, run.date);
    insert.text(4, run.source);
    insert.text(5, run.kind);
    insert.text(6, digest);
    insert.integer(7, static_cast<std::int64_t>(run.benchmarks));
    if (!insert.ok() || insert.step() != SQLITE_DONE)
        return fail("cannot add the run");
    const std::int64_t id = sqlite3_last_insert_rowid(db_);
    statement figure(db_,
                     "INSERT OR REPLACE INTO figures(run, benchmark, measure, value, low, high) "
                     "VALUES(?1, ?2, ?3, ?4, ?5, ?6)");
    if (!figure.ok())
        return fail("cannot add the figures");
    for (const history_figure& f : figures) {
        figure.integer(1, id);
        figure.text(2, f.benchmark);
        figure.text(3, f.measure);
        figure.real(4, f.value);
        figure.real(5, f.low);
        figure.real(6, f.high);
        if (figure.step() != SQLITE_DONE)
            return fail("cannot add the figures");
        figure.reset();
    }
    if (!exec(db_, "COMMIT"))
        return fail("cannot add");
    return added_run{id, false};
}

std::variant<std::vector<history_run>, store_error> store::runs(const std::string& branch,
                                                                std::size_t last) const {
    statement s(db_,
                "SELECT id, commit_id, branch, date, source, kind, benchmarks FROM runs WHERE branch = ?1 "
                "ORDER BY date DESC, id DESC LIMIT ?2");
    s.text(1, branch);
    s.integer(2, last == 0 ? -1 : static_cast<std::int64_t>(last));
    if (!s.ok())
        return error("cannot read the runs");
    std::vector<history_run> out;
    int rc = SQLITE_OK;
    while ((rc = s.step()) == SQLITE_ROW)
        out.push_back(run_of(s));
    if (rc != SQLITE_DONE)
        return error("cannot read the runs");
    return std::vector<history_run>(out.rbegin(), out.rend());
}

std::variant<std::vector<std::vector<history_figure>>, store_error> store::figures(
    const std::vector<history_run>& runs) const {
    std::map<std::int64_t, std::size_t> position;
    for (std::size_t i = 0; i < runs.size(); ++i)
        position[runs[i].id] = i;
    std::vector<std::vector<history_figure>> out(runs.size());
    statement s(db_, "SELECT benchmark, measure, value, low, high FROM figures WHERE run = ?1");
    if (!s.ok())
        return error("cannot read the figures");
    for (const auto& [id, at] : position) {
        s.integer(1, id);
        int rc = SQLITE_OK;
        while ((rc = s.step()) == SQLITE_ROW)
            out[at].push_back({s.column_text(0), s.column_text(1), sqlite3_column_double(s.get(), 2),
                               s.column_real(3), s.column_real(4)});
        if (rc != SQLITE_DONE)
            return error("cannot read the figures");
        s.reset();
    }
    return out;
}

std::variant<std::vector<std::pair<std::string, std::size_t>>, store_error> store::branches() const {
    statement s(db_, "SELECT branch, count(*) FROM runs GROUP BY branch ORDER BY count(*) DESC, branch");
    if (!s.ok())
        return error("cannot read the branches");
    std::vector<std::pair<std::string, std::size_t>> out;
    while (s.step() == SQLITE_ROW)
        out.emplace_back(s.column_text(0), static_cast<std::size_t>(sqlite3_column_int64(s.get(), 1)));
    return out;
}

std::string digest_of(const std::string& bytes) {
    char text[17];
    std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(fnv1a_64(bytes)));
    return text;
}

}  // namespace tare::history
