#!/bin/sh
# Two third-party Google Benchmark suites, each at two releases, built unmodified with
# tare::gbench, then measured with tare: bench/studies.md, "Third-party Google Benchmark suites".
#
#   bench/gbench_studies/run.sh PREFIX WORKDIR [STEP...]
#
# PREFIX: an installed tare with tare::gbench (cmake --install build --prefix PREFIX); its
# bin/tare runs the study. WORKDIR: where the sources, builds and results go (outside the
# repository, or under a gitignored build*/ directory). STEPs: fetch build study (default all).
#
# Environment:
#   GIT_BASE        where owner/name repositories are cloned from (default https://github.com)
#   JSON_TEST_DATA  a directory holding nlohmann/json_test_data v3.1.0's files; by default it is
#                   cloned from GIT_BASE. The suite's benchmarks of the selection below read only
#                   nativejson-benchmark/{canada,citm_catalog,twitter}.json.
#   JSON_FILTER, SPDLOG_FILTER  the benchmarks of `tare run` and the comparisons (regexes;
#                   defaults below); SPDLOG_COMPARE_FILTER narrows spdlog's comparisons
#   JOBS            build parallelism (default 2; builds run at nice 10)
set -eu

[ $# -ge 2 ] || { sed -n '2,20p' "$0" >&2; exit 2; }
PREFIX=$(cd "$1" && pwd)
WORK=$2
shift 2
STEPS=${*:-fetch build study}
HERE=$(cd "$(dirname "$0")" && pwd)
GIT_BASE=${GIT_BASE:-https://github.com}
JOBS=${JOBS:-2}
TARE=$PREFIX/bin/tare

JSON_TAGS="v3.11.2 v3.11.3"
SPDLOG_TAGS="v1.12.0 v1.13.0"
# nlohmann/json: every benchmark over the three nativejson-benchmark files and every BinaryToCbor
# size (the study's copy of the test data held only those three files; bench/studies.md).
JSON_FILTER=${JSON_FILTER:-'(canada|citm_catalog|twitter)|BinaryToCbor'}
# spdlog's latency: its single-threaded benchmarks; the ->Threads(num_cpus) ones (async and
# multi-threaded sinks) share the two CPUs with tare's pinned worker, and "full" needs an argument.
SPDLOG_FILTER=${SPDLOG_FILTER:-'^(null_sink_st|disabled-at|/dev/null_st)'}
# Every process of latency first builds a 3M-entry async queue (main, unconditionally): several
# seconds a process on a busy 2-core machine, in every round of a comparison. The comparisons
# take two of its benchmarks, the plain and the backtrace logger into a null sink.
SPDLOG_COMPARE_FILTER=${SPDLOG_COMPARE_FILTER:-'^null_sink_st(/backtrace)?$'}

mkdir -p "$WORK/src" "$WORK/build" "$WORK/results"
WORK=$(cd "$WORK" && pwd)

clone() {  # clone REPO TAG DIR
    [ -d "$3" ] || git -c advice.detachedHead=false clone -q --depth 1 --branch "$2" "$GIT_BASE/$1" "$3"
}

timed() {  # timed NAME COMMAND...: runs it, appends "NAME seconds" to results/seconds.txt
    name=$1; shift
    t0=$(date +%s.%N)
    rc=0; "$@" || rc=$?
    [ $rc -eq 0 ] || echo "$name exited with $rc" >&2
    t1=$(date +%s.%N)
    echo "$name $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }')" >> "$WORK/results/seconds.txt"
    return $rc
}

for step in $STEPS; do
case $step in
fetch)
    for t in $JSON_TAGS; do clone nlohmann/json "$t" "$WORK/src/json-$t"; done
    for t in $SPDLOG_TAGS; do clone gabime/spdlog "$t" "$WORK/src/spdlog-$t"; done
    if [ -z "${JSON_TEST_DATA:-}" ]; then clone nlohmann/json_test_data v3.1.0 "$WORK/src/json_test_data"; fi
    ;;
build)
    data=${JSON_TEST_DATA:-$WORK/src/json_test_data}
    data=$(cd "$data" && pwd)
    for t in $JSON_TAGS; do
        # The suite's own CMakeLists (its -O3 -flto, its target); Google Benchmark's FetchContent
        # resolved to benchmark_stub/, the test data to JSON_TEST_DATA.
        cmake -S "$WORK/src/json-$t/tests/benchmarks" -B "$WORK/build/json-$t" \
            -DCMAKE_PREFIX_PATH="$PREFIX" -DCMAKE_PROJECT_INCLUDE="$HERE/link_tare.cmake" \
            -DFETCHCONTENT_SOURCE_DIR_BENCHMARK="$HERE/benchmark_stub" \
            -DJSON_TestDataDirectory="$data" > "$WORK/build/json-$t.configure.log"
        timed "build json-$t" nice -n 10 cmake --build "$WORK/build/json-$t" -j"$JOBS" --target json_benchmarks \
            > "$WORK/build/json-$t.build.log"
    done
    for t in $SPDLOG_TAGS; do
        cmake -S "$WORK/src/spdlog-$t" -B "$WORK/build/spdlog-$t" -DCMAKE_BUILD_TYPE=Release \
            -DSPDLOG_BUILD_BENCH=ON -DSPDLOG_BUILD_EXAMPLE=OFF \
            -DCMAKE_PREFIX_PATH="$PREFIX" -DCMAKE_PROJECT_INCLUDE="$HERE/link_tare.cmake" \
            -DTARE_STUDY_TARGETS=latency > "$WORK/build/spdlog-$t.configure.log"
        timed "build spdlog-$t" nice -n 10 cmake --build "$WORK/build/spdlog-$t" -j"$JOBS" --target latency \
            > "$WORK/build/spdlog-$t.build.log"
    done
    ;;
study)
    R=$WORK/results
    set -- json "$WORK/build/json-v3.11.2/json_benchmarks" "$WORK/build/json-v3.11.3/json_benchmarks" "$JSON_FILTER" "$JSON_FILTER" \
           spdlog "$WORK/build/spdlog-v1.12.0/bench/latency" "$WORK/build/spdlog-v1.13.0/bench/latency" "$SPDLOG_FILTER" "$SPDLOG_COMPARE_FILTER"
    while [ $# -ge 5 ]; do
        s=$1 a=$2 b=$3 rf=$4 f=$5; shift 5
        # The memory columns of the newer release, for the hand count.
        timed "$s run" "$TARE" run "$b" --filter="$rf" --json="$R/$s-run.json" --md > "$R/$s-run.md" || true
        # Release A against release B, twice; then the newer release against itself (A/A).
        for i in 1 2; do
            timed "$s ab$i" "$TARE" compare "$a" "$b" --filter="$f" --json="$R/$s-ab$i.json" --md > "$R/$s-ab$i.md" || true
        done
        timed "$s aa" "$TARE" compare "$b" "$b" --filter="$f" --json="$R/$s-aa.json" --md > "$R/$s-aa.md" || true
    done
    python3 "$HERE/summary.py" "$R"
    ;;
*) echo "unknown step: $step" >&2; exit 2 ;;
esac
done
