#include "run_process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "scratch.hpp"

namespace tare::test {

process_result run_process(const std::vector<std::string>& argv) {
    process_result r;
    int out_pipe[2];
    int err_pipe[2];
    if (pipe(out_pipe) != 0 || pipe(err_pipe) != 0) {
        return r;
    }
    pid_t pid = fork();
    if (pid == 0) {
        dup2(out_pipe[1], 1);
        dup2(err_pipe[1], 2);
        close(out_pipe[0]);
        close(err_pipe[0]);
        std::vector<char*> args;
        for (const auto& a : argv) {
            args.push_back(const_cast<char*>(a.c_str()));
        }
        args.push_back(nullptr);
        execv(args[0], args.data());
        _exit(127);
    }
    close(out_pipe[1]);
    close(err_pipe[1]);
    std::array<pollfd, 2> fds{{{out_pipe[0], POLLIN, 0}, {err_pipe[0], POLLIN, 0}}};
    int open_fds = 2;
    char buf[65536];
    while (open_fds > 0) {
        if (poll(fds.data(), fds.size(), -1) < 0) {
            break;
        }
        for (std::size_t i = 0; i < fds.size(); ++i) {
            if (fds[i].fd < 0 || fds[i].revents == 0) {
                continue;
            }
            ssize_t n = read(fds[i].fd, buf, sizeof buf);
            if (n <= 0) {
                close(fds[i].fd);
                fds[i].fd = -1;
                --open_fds;
                continue;
            }
            (i == 0 ? r.out : r.err).append(buf, static_cast<std::size_t>(n));
        }
    }
    int status = 0;
    waitpid(pid, &status, 0);
    r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return r;
}

process_result run_logged(const std::vector<std::string>& argv, const std::string& name) {
    const std::string log = scratch(name).string();
    std::vector<std::string> shell = {"/bin/sh", "-c", "exec \"$@\" >\"$0\" 2>&1", log};
    shell.insert(shell.end(), argv.begin(), argv.end());
    process_result r = run_process(shell);
    std::ifstream in(log, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    r.out = text.str();
    return r;
}

std::vector<std::string> joined_log_faults(const std::string& log) {
    std::vector<std::string> faults;
    if (log.find('\r') != std::string::npos)
        faults.push_back("a carriage return: terminal codes in a log");
    const std::regex progress(R"(\[\d+/\d+\] )");
    std::istringstream in(log);
    std::string previous;
    bool in_table = false;
    for (std::string line; std::getline(in, line); previous = line) {
        // A table begins at the line above its rule (a line of "─" and blanks) and ends at a blank line.
        if (!in_table && line.rfind("─", 0) == 0 && line.find_first_not_of("─ ") == std::string::npos) {
            in_table = true;
            if (std::regex_search(previous, progress))
                faults.push_back("progress in a table's header: " + previous);
        }
        if (line.empty())
            in_table = false;
        std::smatch found;
        if (!std::regex_search(line, found, progress))
            continue;
        if (found.position(0) != 0)
            faults.push_back("progress inside a line: " + line);
        else if (in_table)
            faults.push_back("progress inside a table: " + line);
    }
    return faults;
}

std::string private_copy(const std::string& exe, const std::string& name) {
    namespace fs = std::filesystem;
    const fs::path to = scratch(name);
    fs::copy_file(exe, to, fs::copy_options::overwrite_existing);
    fs::permissions(to, fs::perms::owner_all);
    return to.string();
}

int processes_mentioning(const std::string& marker) {
    return processes_mentioning(std::vector<std::string>{marker});
}

int processes_mentioning(const std::vector<std::string>& markers) {
    namespace fs = std::filesystem;
    int n = 0;
    for (const auto& entry : fs::directory_iterator("/proc")) {
        const std::string pid = entry.path().filename().string();
        if (pid.find_first_not_of("0123456789") != std::string::npos || std::stoi(pid) == ::getpid())
            continue;
        std::ifstream in(entry.path() / "cmdline", std::ios::binary);
        std::stringstream ss;
        ss << in.rdbuf();
        const std::string line = ss.str();
        if (std::all_of(markers.begin(), markers.end(),
                        [&](const std::string& m) { return line.find(m) != std::string::npos; }))
            ++n;
    }
    return n;
}

}  // namespace tare::test
