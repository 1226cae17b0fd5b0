#!/usr/bin/env python3
"""Runs the shell steps of the two workflows in docs/ci.md (GitHub Actions and GitLab CI) on this
machine, as the services would run them, so that the documented commands cannot rot.

Each job runs in its own folder; the GitHub matrix and GitLab's `parallel:` become one job per
shard; artifacts are handed from job to job; `if:` conditions are evaluated for a push to the main
branch and for a pull (merge) request. What cannot run here is replaced, and said so in
docs/ci.md, "How the workflows are tested":
- the build steps (GitHub steps named "Build ...", GitLab's before_script) lay out the test's own
  executables at SUITE (the head) and base/SUITE (the base), with tare on PATH;
- RUN_FLAGS and COMPARE_FLAGS are short;
- `gh` and `bencher` are recorders on PATH, and the github-action-benchmark step is a check of the
  file it would read.
Then it checks what a user would see. Needs python3-yaml and python3-jsonschema.

Usage: ci_workflows_check.py DOC TARE BASE_EXE HEAD_EXE BMF_SCHEMA ACCOUNTING(0|1)"""
import fnmatch
import glob
import json
import os
import re
import shutil
import stat
import subprocess
import sys
import tempfile

try:
    import jsonschema
    import yaml
except ImportError as e:
    sys.exit(f"{e.name} is missing (Debian: apt-get install python3-yaml python3-jsonschema)")

DOC, TARE, BASE_EXE, HEAD_EXE, SCHEMA, ACCOUNTING = sys.argv[1:7]
ACCOUNTING = ACCOUNTING == "1"
SOURCE = os.path.dirname(os.path.dirname(os.path.abspath(DOC)))  # tare's sources, where DOC is
# COMPARE_FLAGS must make the head's threefold slowdown of `spin` certain on a loaded machine
# (ctest -j2 on two CPUs, other tests pinned to the same CPU) once `tare merge` judges the shards'
# rows as one family. A round's figure is the median of its sample pairs' log-ratios; the verdict,
# a Student t interval over rounds at 1 - 0.05*R/3. With 4 rounds of 4 samples, two preempted
# samples moved a round's median (a round even read the head faster), and 3 degrees of freedom
# put t at 4.9 at 98.3 %: rounds reading +92 % to +1360 % still gave [-47 %, +5556 %], no change,
# in 1 of 15-20 runs under load. With 8 samples a round's median outlasts three preempted pairs,
# and 8 rounds bring t to 3.1: under the same load the interval's low end stayed above +100 %.
SHORT = {
    "RUN_FLAGS": "--processes=2 --min-time=0.02",
    "COMPARE_FLAGS": "--threshold=1 --rounds=8 --min-time=0.1 --samples=8",
}
MEMORY = ["allocs-per-iter", "bytes-per-iter", "peak-live-bytes", "retained-bytes-per-iter"]
failures = []


def check(ok, what):
    if not ok:
        failures.append(what)
        print("FAILED:", what)


def yaml_block(text, heading):
    """The first ```yaml block after the line `heading`."""
    start = text.index("\n" + heading + "\n")
    m = re.compile(r"```yaml\n(.*?)```", re.S).search(text, start)
    return yaml.safe_load(m.group(1))


RECORDER = """#!/bin/sh
# Records a call of {name} (a service's client, not reached from a test): its arguments, one a
# line, and a copy of each file a --file / --body-file argument names.
dir="{dir}"
n=$(ls "$dir" | wc -l)
out="$dir/{name}-$n"
mkdir -p "$out"
printf '%s\\n' "$@" > "$out/args"
prev=""
for a in "$@"; do
  case "$prev" in --file|--body-file) cp "$a" "$out/file" || exit 3 ;; esac
  prev="$a"
done
# A new project: a measure looked up is not there yet.
[ "{name} $1 $2" = "bencher measure view" ] && exit 1
exit 0
"""


def make_tools(root):
    """A bin folder with tare, and recorders for gh and bencher; their records go to root/calls."""
    bin_dir = os.path.join(root, "bin")
    calls = os.path.join(root, "calls")
    os.makedirs(bin_dir)
    os.makedirs(calls)
    os.symlink(os.path.abspath(TARE), os.path.join(bin_dir, "tare"))
    for name in ("gh", "bencher"):
        path = os.path.join(bin_dir, name)
        with open(path, "w") as f:
            f.write(RECORDER.format(name=name, dir=calls))
        os.chmod(path, os.stat(path).st_mode | stat.S_IEXEC)
    return bin_dir, calls


def lay_out(work, suite, base):
    """The test's stand-in for a build: the head at SUITE, and the base at base/SUITE."""
    for path, exe in [(suite, HEAD_EXE)] + ([("base/" + suite, BASE_EXE)] if base else []):
        target = os.path.join(work, path)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        if not os.path.exists(target):
            os.symlink(os.path.abspath(exe), target)


def run_shell(script, work, env, shell):
    r = subprocess.run(shell + [script], cwd=work, env=env, capture_output=True, text=True, timeout=600)
    if r.returncode != 0:
        print(f"  exit {r.returncode}\n  stdout: {r.stdout[-2000:]}\n  stderr: {r.stderr[-2000:]}")
    return r.returncode


def base_env(bin_dir, variables):
    env = dict(os.environ)
    env["PATH"] = bin_dir + os.pathsep + env.get("PATH", "")
    env.update({k: str(v) for k, v in variables.items()})
    env.update(SHORT)
    return env


# ---------------------------------------------------------------------------------------------
# GitHub Actions


def github_expr(text, context):
    def one(m):
        key = m.group(1).strip()
        if key not in context:
            raise KeyError(f"expression the test does not know: ${{{{ {key} }}}}")
        return str(context[key])

    return re.sub(r"\$\{\{(.*?)\}\}", one, text)


def github_if(cond, event, work):
    """Clauses joined by &&: the event's name, or a file of the job's folder (hashFiles)."""
    for clause in cond.split("&&"):
        event_m = re.fullmatch(r"github\.event_name == '(\w+)'", clause.strip())
        file_m = re.fullmatch(r"hashFiles\('([^']+)'\) != ''", clause.strip())
        if event_m:
            if event_m.group(1) != event:
                return False
        elif file_m:
            if not glob.glob(os.path.join(work, file_m.group(1))):
                return False
        else:
            raise ValueError(f"if: condition the test does not know: {cond}")
    return True


def run_github(workflow, event):
    print(f"== GitHub Actions, {event}")
    root = tempfile.mkdtemp(prefix="tare-gh-")
    bin_dir, calls = make_tools(root)
    artifacts = os.path.join(root, "artifacts")
    os.makedirs(artifacts)
    variables = workflow.get("env", {})
    suite = variables["SUITE"]
    outcome = {}
    for job_name, job in workflow["jobs"].items():  # in order; `needs` point backwards here
        needs = [job["needs"]] if isinstance(job.get("needs"), str) else job.get("needs", [])
        if any(outcome.get(need) != "success" for need in needs):
            outcome[job_name] = "skipped"  # as GitHub skips a job whose needs failed
            continue
        matrix = job.get("strategy", {}).get("matrix", {})
        instances = [{"matrix.shard": s} for s in matrix.get("shard", [])] or [{}]
        results = []
        for inst in instances:
            work = os.path.join(root, job_name + "-" + str(inst.get("matrix.shard", "")))
            os.makedirs(work)
            context = dict(inst)
            context.update({
                "github.event.pull_request.base.sha": "0" * 40,
                "github.event.pull_request.number": "42",
                "github.token": "token",
                "secrets.GITHUB_TOKEN": "token",
                "secrets.BENCHER_API_TOKEN": "token",
            })
            env = base_env(bin_dir, variables)
            env.update({"GITHUB_REPOSITORY": "owner/project", "RUNNER_TEMP": os.path.join(work, "tmp"),
                        "GITHUB_PATH": os.path.join(work, "github_path"), "GITHUB_EVENT_NAME": event})
            status = "success"
            for step in job["steps"]:
                if "if" in step and not github_if(step["if"], event, work):
                    continue
                name = step.get("name", step.get("uses", ""))
                uses = step.get("uses", "")
                inputs = {k: github_expr(str(v), context) for k, v in step.get("with", {}).items()}
                if name.startswith("Build"):
                    check(name in ("Build tare", "Build the suite", "Build the base's suite"),
                          f"a build step the test does not know: {name}")
                    if name != "Build tare":
                        lay_out(work, suite, base=name == "Build the base's suite")
                elif uses.startswith("actions/checkout@"):
                    pass
                elif uses.startswith("actions/upload-artifact@"):
                    dest = os.path.join(artifacts, inputs["name"])
                    os.makedirs(dest)
                    for f in glob.glob(os.path.join(work, inputs["path"].strip('"'))):
                        shutil.copy(f, dest)
                elif uses.startswith("actions/download-artifact@"):
                    check(inputs.get("merge-multiple") == "True", "download-artifact merges the shards")
                    for d in sorted(os.listdir(artifacts)):
                        if fnmatch.fnmatch(d, inputs["pattern"]):
                            for f in os.listdir(os.path.join(artifacts, d)):
                                shutil.copy(os.path.join(artifacts, d, f), work)
                elif uses.startswith("bencherdev/bencher@"):
                    pass  # installs the bencher CLI, which the test's tools stand in for
                elif uses.startswith("benchmark-action/github-action-benchmark@"):
                    check_action_file(os.path.join(work, inputs["output-file-path"]), inputs["tool"])
                    with open(os.path.join(calls, "action-" + inputs["tool"]), "w") as f:
                        f.write(inputs["output-file-path"])
                elif "run" in step:
                    step_env = dict(env)
                    step_env.update({k: github_expr(str(v), context) for k, v in step.get("env", {}).items()})
                    print(f"  {job_name} {inst}: {name}")
                    code = run_shell(github_expr(step["run"], context), work, step_env,
                                     ["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c"])
                    if code != 0:
                        status = f"failed at {name} ({code})"
                        break
                else:
                    check(False, f"a step the test does not know: {step}")
            results.append((work, status))
        outcome[job_name] = "success" if all(s == "success" for _, s in results) else \
            "; ".join(s for _, s in results if s != "success")
        for work, _ in results:
            outcome.setdefault("_work_" + job_name, work)
    return root, calls, outcome


# ---------------------------------------------------------------------------------------------
# GitLab CI


def run_gitlab(pipeline, event):
    print(f"== GitLab CI, {event}")
    root = tempfile.mkdtemp(prefix="tare-gl-")
    bin_dir, calls = make_tools(root)
    # As GitLab sets them: CI_DEFAULT_BRANCH in every pipeline, CI_COMMIT_BRANCH only in a
    # branch's (without the default branch, an unset CI_COMMIT_BRANCH would equal it).
    variables = dict(pipeline.get("variables", {}))
    variables["CI_DEFAULT_BRANCH"] = "main"
    if event == "merge_request":
        variables["CI_MERGE_REQUEST_DIFF_BASE_SHA"] = "0" * 40
    else:
        variables["CI_COMMIT_BRANCH"] = "main"
    suite = variables["SUITE"]
    artifacts = {}  # job instance -> files
    outcome = {}
    jobs = {k: v for k, v in pipeline.items() if isinstance(v, dict) and "script" in v}
    for stage in pipeline["stages"]:
        for job_name, job in jobs.items():
            if job.get("stage") != stage:
                continue
            n = int(job.get("parallel", 1))
            statuses = []
            for index in range(1, n + 1):
                instance = f"{job_name} {index}/{n}" if n > 1 else job_name
                work = os.path.join(root, instance.replace(" ", "-").replace("/", "of"))
                os.makedirs(work)
                for need in job.get("needs", []):
                    for inst, files in artifacts.items():
                        if inst == need or inst.startswith(need + " "):
                            for f in files:
                                shutil.copy(f, work)
                env = base_env(bin_dir, variables)
                if n > 1:
                    env.update({"CI_NODE_INDEX": str(index), "CI_NODE_TOTAL": str(n)})
                # before_script: the builds, which are the test's own.
                lay_out(work, suite, base=event == "merge_request")
                script = "\n".join(job["script"])
                print(f"  {instance}")
                code = run_shell(script, work, env, ["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c"])
                status = "success" if code == 0 else f"failed ({code})"
                statuses.append(status)
                keep = job.get("artifacts", {})
                if status == "success" or keep.get("when") == "always":
                    files = []
                    for pattern in keep.get("paths", []):
                        files += [f for f in glob.glob(os.path.join(work, pattern)) if os.path.isfile(f)]
                    artifacts[instance] = files
                outcome["_work_" + job_name] = work
            outcome[job_name] = "success" if all(s == "success" for s in statuses) else "; ".join(statuses)
    return root, calls, outcome


# ---------------------------------------------------------------------------------------------
# What a user would see


def listed(exe):
    return sorted(subprocess.run([exe, "--list"], capture_output=True, text=True, check=True).stdout.split())


def check_action_file(path, tool):
    check(os.path.exists(path), f"the action's file {path} exists")
    if not os.path.exists(path):
        return
    with open(path) as f:
        doc = json.load(f)
    check(isinstance(doc, list), f"{path} is an array")
    for e in doc:
        check(set(e) <= {"name", "unit", "value", "range", "extra"} and isinstance(e.get("value"), (int, float)),
              f"{path}: an entry of the action's shape: {e}")
    if tool == "customSmallerIsBetter":
        names = " ".join(e["name"] for e in doc)
        check("allocate (latency)" in names, f"{path} has allocate's time")
        if ACCOUNTING:
            for m in MEMORY:
                check(f"allocate ({m})" in names, f"{path} has allocate's {m}")


def recorded(calls, name):
    return sorted(d for d in os.listdir(calls) if d.startswith(name + "-"))


def check_merged_results(work):
    with open(os.path.join(work, "results.json")) as f:
        doc = json.load(f)
    names = sorted(b["name"] for b in doc["benchmarks"])
    check(names == listed(HEAD_EXE), f"the merged results hold every benchmark once: {names}")
    check(len(doc["context"]["merged_from"]) >= 2, "the merged results keep every shard's context")


def bmf_measures():
    """Every measure tare's BMF can hold: those src/report/export/ writes, and those the approved
    BMF files of the golden tests hold."""
    with open(os.path.join(SOURCE, "src", "report", "export", "exports.cpp")) as f:
        code = f.read()
    found = set(re.findall(r'\badd\(out, "([a-z-]+)"', code))
    found |= set(re.findall(r'\bmeasure \w+\{"([a-z-]+)"', code))
    found |= set(re.findall(r'"([a-z-]+-change)"', code))
    for path in glob.glob(os.path.join(os.path.dirname(os.path.abspath(SCHEMA)), "approved", "*.bmf.json")):
        with open(path) as f:
            for figures in json.load(f).values():
                found |= set(figures)
    return found


def flag(args, name):
    return args[args.index(name) + 1] if name in args and args.index(name) + 1 < len(args) else None


def check_bencher(calls):
    """One `bencher run` of the BMF file, after every measure it can hold was created with its
    units in the same project."""
    records = sorted(recorded(calls, "bencher"), key=lambda d: int(d.rsplit("-", 1)[1]))
    calls_args = []
    for d in records:
        with open(os.path.join(calls, d, "args")) as f:
            calls_args.append((d, f.read().rstrip("\n").split("\n")))
    runs = [(d, a) for d, a in calls_args if a[0] == "run"]
    check(len(runs) == 1, f"bencher run was called once: {[a for _, a in runs]}")
    if not runs:
        return
    run_dir, args = runs[0]
    project = flag(args, "--project")
    created = {}
    for i, (d, a) in enumerate(calls_args):
        if a[:2] == ["measure", "create"]:
            check(calls_args.index(runs[0]) > i, f"measure {a} is created before bencher run")
            check(len(a) > 2 and a[2] == project, f"measure create names the run's project {project}: {a}")
            check(bool(flag(a, "--name")) and bool(flag(a, "--units")), f"measure create has a name and units: {a}")
            created[flag(a, "--slug")] = flag(a, "--units")
    expected = bmf_measures()
    check(len(expected) >= 11, f"the measures of tare's BMF were found: {sorted(expected)}")
    check(set(created) == expected,
          f"the measures created in Bencher are those tare's BMF can hold: missing {sorted(expected - set(created))}, "
          f"not in BMF {sorted(set(created) - expected)}")
    check("--adapter" in args and flag(args, "--adapter") == "json", "bencher reads BMF")
    with open(os.path.join(calls, run_dir, "file")) as f:
        bmf = json.load(f)
    with open(SCHEMA) as f:
        jsonschema.validate(bmf, json.load(f))
    check("allocate" in bmf and "latency" in bmf["allocate"], "BMF has allocate's latency")
    if ACCOUNTING:
        for m in MEMORY:
            check(m in bmf.get("allocate", {}), f"BMF has allocate's {m}")
    check("page-faults-per-iter" in bmf.get("allocate", {}), "BMF has allocate's page faults")


def check_comparison(text, where):
    check("spin" in text and "slower" in text, f"{where}: the comparison shows spin slower")


def dependency_table():
    """configure's header checks (cmake/TareDependencies.cmake): (name, package) pairs."""
    with open(os.path.join(SOURCE, "cmake", "TareDependencies.cmake")) as f:
        return re.findall(r'"([^"|]+)\|[^"|]+\|([^"|]+)"', f.read())


def master_project_options():
    """The TARE_BUILD_* options that are on when tare is the top-level project, the tools' excepted:
    what a tool-only build turns off."""
    with open(os.path.join(SOURCE, "CMakeLists.txt")) as f:
        found = re.findall(r"option\((TARE_BUILD_\w+)[^)]*\$\{TARE_MASTER_PROJECT\}\)", f.read())
    return [o for o in found if o != "TARE_BUILD_TOOLS"]


def installed_packages(script):
    return set(" ".join(re.findall(r"apt-get install([^\n]*)", script)).split())


def check_tare_configure(where, script, root):
    """The workflow's configure of tare, run here with every header package the workflow does not
    install counted missing (-DTARE_HAVE_<NAME>_HEADER=OFF), as on the service's fresh runner: it
    must configure. And it turns off what only tare's own development needs (tests, examples,
    self-benchmarks), whose other dependencies (GoogleTest, zstd, Python) no header check names."""
    script = script.replace("\\\n", " ")
    lines = [l.strip() for l in script.split("\n") if re.match(r"\s*cmake -S ", l)]
    check(len(lines) == 1, f"{where}: one configure of tare: {lines}")
    if len(lines) != 1:
        return
    line = lines[0]
    args = line.split()
    for option in master_project_options():
        check(f"-D{option}=OFF" in args, f"{where}: the configure of tare turns {option} off: {line}")
    packages = installed_packages(script)
    switches = []
    for name, package in dependency_table():
        if package not in packages:
            switches.append("-DTARE_HAVE_" + re.sub(r"[^A-Z0-9]", "_", name.upper()) + "_HEADER=OFF")
    tmp = tempfile.mkdtemp(prefix="tare-configure-")
    try:
        os.symlink(SOURCE, os.path.join(tmp, "tare"))
        # The workflow's folders, $RUNNER_TEMP or root, stand at tmp: tare's sources at tare/.
        command = line.replace(root + "/", tmp + "/") if root else line
        env = dict(os.environ)
        env["RUNNER_TEMP"] = tmp
        r = subprocess.run(["bash", "-c", command + " " + " ".join(switches)], cwd=tmp, env=env,
                           capture_output=True, text=True, timeout=300)
        check(r.returncode == 0, f"{where}: the configure of tare passes with only the packages the workflow "
                                 f"installs ({' '.join(switches)}):\n{r.stderr[-2000:]}")
    finally:
        shutil.rmtree(tmp)


def check_installs(github, gitlab):
    """Every package and tool the workflows call is installed by the workflows themselves."""
    check(len(dependency_table()) >= 4, f"the packages configure checks for were found: {dependency_table()}")
    check(len(master_project_options()) >= 3, f"the top-level project's options were found: {master_project_options()}")
    for job_name, job in github["jobs"].items():
        steps = job["steps"]
        for i, step in enumerate(steps):
            run = step.get("run", "")
            if step.get("name") == "Build tare":
                for p in ("cmake", "g++"):
                    check(p in installed_packages(run), f"GitHub {job_name}: Build tare installs {p}")
                check_tare_configure(f"GitHub {job_name}", run, None)
            if re.search(r"^\s*bencher ", run, re.M):
                check(any(s.get("uses", "").startswith("bencherdev/bencher@") for s in steps[:i]),
                      f"GitHub {job_name}: the bencher CLI is installed before {step.get('name')}")
    anchor = "\n".join(gitlab[".tare"])
    for p in ("cmake", "g++", "make"):
        check(p in installed_packages(anchor), f"GitLab: the tare steps install {p}")
    check_tare_configure("GitLab", anchor, "/tmp")
    for job_name, job in gitlab.items():
        if isinstance(job, dict) and "script" in job and re.search(r"^\s*bencher ", "\n".join(job["script"]), re.M):
            before = "\n".join(str(line) for line in job.get("before_script", []))
            check("install-cli.sh" in before, f"GitLab {job_name}: the bencher CLI is installed")


def main():
    with open(DOC) as f:
        text = f.read()
    github = yaml_block(text, "## GitHub Actions")
    github = {("on" if k is True else k): v for k, v in github.items()}  # YAML 1.1 reads `on` as true
    gitlab = yaml_block(text, "## GitLab CI")
    check_installs(github, gitlab)

    root, calls, outcome = run_github(github, "push")
    check(outcome["bench"] == "success" and outcome["publish"] == "success", f"push: every job passes: {outcome}")
    check_merged_results(outcome["_work_publish"])
    check_bencher(calls)
    check(os.path.exists(os.path.join(calls, "action-customSmallerIsBetter")), "push: the action gets smaller.json")
    check(not recorded(calls, "gh"), "push: no pull-request comment")
    shutil.rmtree(root)

    root, calls, outcome = run_github(github, "pull_request")
    check(outcome["bench"] == "success", f"pull request: the shards pass: {outcome}")
    check(outcome["publish"].startswith("failed at Comment the comparison (1)"),
          f"pull request: the head's slowdown fails the check: {outcome}")
    comments = recorded(calls, "gh")
    check(len(comments) == 1, f"pull request: one comment: {comments}")
    if comments:
        with open(os.path.join(calls, comments[0], "args")) as f:
            args = f.read().split("\n")
        check(args[:3] == ["pr", "comment", "42"], f"the comment goes to the pull request: {args}")
        with open(os.path.join(calls, comments[0], "file")) as f:
            check_comparison(f.read(), "the comment")
    with open(os.path.join(outcome["_work_publish"], "compare.json")) as f:
        merged = json.load(f)
    check(sorted(r["name"] for r in merged["rows"]) == sorted(set(listed(BASE_EXE)) & set(listed(HEAD_EXE))),
          "the merged comparison has every common benchmark once")
    check(merged["only_in_head"] == ["only_in_head"], f"only_in_head is named: {merged['only_in_head']}")
    check(not recorded(calls, "bencher"), "pull request: nothing sent to Bencher")
    shutil.rmtree(root)

    root, calls, outcome = run_gitlab(gitlab, "push")
    check(outcome["bench"] == "success" and outcome["publish"] == "success", f"main: every job passes: {outcome}")
    check_merged_results(outcome["_work_publish"])
    check_bencher(calls)
    shutil.rmtree(root)

    root, calls, outcome = run_gitlab(gitlab, "merge_request")
    check(outcome["publish"] == "failed (1)", f"merge request: the slowdown fails the job: {outcome}")
    md = os.path.join(outcome["_work_publish"], "compare.md")
    check(os.path.exists(md), "merge request: compare.md is written")
    if os.path.exists(md):
        with open(md) as f:
            check_comparison(f.read(), "compare.md")
    check(not recorded(calls, "bencher"), "merge request: nothing sent to Bencher")
    shutil.rmtree(root)

    if failures:
        print(f"{len(failures)} check(s) failed")
        return 1
    print("every documented workflow step ran as documented")
    return 0


if __name__ == "__main__":
    sys.exit(main())
