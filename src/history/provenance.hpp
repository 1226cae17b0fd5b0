#pragma once
// Where a run added to the history comes from: its commit, branch and date, as given on the
// command line or else asked of git, and of the CI service's variables for a checkout with no
// branch (docs/history.md, "Adding runs").

#include <optional>
#include <string>
#include <string_view>
#include <variant>

namespace tare::history {

struct provenance {
    std::string commit;
    std::string branch;
    std::string date;  // ISO 8601, UTC
};

/// `given` with what it lacks filled in: the commit from `git rev-parse HEAD` (else GITHUB_SHA,
/// CI_COMMIT_SHA); the branch from git (else GITHUB_HEAD_REF, GITHUB_REF_NAME,
/// CI_COMMIT_REF_NAME); the date from git's commit date of the commit, else `results_date` (the
/// results' own), else now. A given date is checked and normalised. The error says what is
/// missing and which flag gives it.
std::variant<provenance, std::string> complete_provenance(provenance given, const std::string& results_date);

/// `text` ("2026-12-04", "2026-12-04T10:30:00Z", "2026-12-04 10:30:00+01:00", ...) as
/// "YYYY-MM-DDTHH:MM:SSZ", from 1970 to 9999; nothing for anything else.
std::optional<std::string> normalize_date(std::string_view text);

}  // namespace tare::history
