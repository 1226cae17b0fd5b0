#pragma once
// The history's store: one SQLite file (docs/history.md, "The store"). Every run added is one
// row of `runs` and its figures rows of `figures`, written in one transaction: a writer killed
// half-way leaves nothing of its run, and two writers at once wait for each other (WAL mode and
// a busy timeout) rather than fail. The file says what it is (application_id) and which
// schema it holds (user_version); an older schema is migrated when opened, a newer one refused.
//
// Rejected: a JSON-lines file (what github-action-benchmark keeps): appends are not atomic past
// a pipe's buffer, two CI jobs appending at once interleave, and every check reads it all; a
// directory of results files (no transaction joins a run to its figures, and a killed copy
// leaves a partial file that the next check must guess about).

#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "model/history.hpp"

struct sqlite3;

namespace tare::history {

/// The schema this tare writes; a store of a higher version is refused (docs/history.md).
inline constexpr int schema_version = 1;
/// "tare" in the file's header: a store is told from any other SQLite file.
inline constexpr std::int32_t application_id = 0x74617265;

struct store_error {
    std::string message;  // "PATH: ..."
};

/// What add() did: the run's id, and whether an identical file was already in the history
/// (the same bytes on the same branch: a CI job retried), in which case nothing was added.
struct added_run {
    std::int64_t id = 0;
    bool already_present = false;
};

class store {
public:
    /// Opens the store at `path`, creating it when `create` (else a missing file is an error),
    /// migrating an older schema.
    static std::variant<store, store_error> open(const std::string& path, bool create);

    store(store&& other) noexcept;
    store& operator=(store&& other) noexcept;
    store(const store&) = delete;
    store& operator=(const store&) = delete;
    ~store();

    /// Adds `run` (its id is assigned) and its figures in one transaction. `digest` identifies
    /// the file's bytes: the same digest on the same branch is not added twice.
    std::variant<added_run, store_error> add(const history_run& run, const std::string& digest,
                                             const std::vector<history_figure>& figures);

    /// The runs of `branch`, oldest first (by date, then by the order they were added): the
    /// newest `last` of them, or all when `last` is 0.
    std::variant<std::vector<history_run>, store_error> runs(const std::string& branch,
                                                             std::size_t last) const;

    /// The figures of each of `runs`, in their order.
    std::variant<std::vector<std::vector<history_figure>>, store_error> figures(
        const std::vector<history_run>& runs) const;

    /// The branches the store holds runs of, with their counts, most runs first.
    std::variant<std::vector<std::pair<std::string, std::size_t>>, store_error> branches() const;

private:
    store(sqlite3* db, std::string path) : db_(db), path_(std::move(path)) {}
    store_error error(const std::string& what) const;

    sqlite3* db_ = nullptr;
    std::string path_;
};

/// A digest of a file's bytes for add() (64-bit FNV-1a, hexadecimal): not a security measure,
/// a name for "this very file".
std::string digest_of(const std::string& bytes);

}  // namespace tare::history
