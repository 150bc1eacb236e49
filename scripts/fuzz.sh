#!/usr/bin/env bash
# scripts/fuzz.sh — builds the libFuzzer targets of tests/fuzz (clang, -DAILE_FUZZ=ON, in the
# hardening build build-asan/ that scripts/test.sh's sanitizer run shares) and runs each for a fixed time on a copy of its committed seed corpus
# (tests/fuzz/corpus/NAME/), so the repository is never written; the targets run side by side. Fails on the first crash, leak,
# timeout or sanitizer report, and keeps the input that caused it (its path and the command that
# replays it are printed). scripts/test.sh calls it after the normal suite; docs/hardening.md
# ("Fuzzing and sanitizers") says what the runs found.
#
#   scripts/fuzz.sh                          every target, AILE_FUZZ_TIME seconds each
#   scripts/fuzz.sh fuzz_sse_meter           one target
#   AILE_FUZZ_TIME=3600 scripts/fuzz.sh      an hour per target
#
# Knobs (environment): AILE_FUZZ_TIME (seconds per target, default 30), AILE_FUZZ_BUILD_DIR (default
# build-asan), AILE_FUZZ_KEEP=DIR (keep each target's grown corpus in DIR/NAME instead of
# throwing it away), AILE_NO_INSTALL=1 (scripts/lib/common.sh).
set -euo pipefail
AILE_SCRIPT=fuzz
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"
cd "$AILE_ROOT"

fuzz_time="${AILE_FUZZ_TIME:-30}"
build_dir="${AILE_FUZZ_BUILD_DIR:-$AILE_HARDENING_BUILD_DIR}"
fuzz_dir="$AILE_ROOT/tests/fuzz"

# clang and its libFuzzer, ASan and UBSan runtimes; the build's own packages come from test.sh or
# setup-and-run.sh, or are installed here when this script runs alone.
apt_install "${AILE_BUILD_PACKAGES[@]}" clang libclang-rt-14-dev

# The targets, as tests/fuzz/CMakeLists.txt declares them (one aile_add_fuzzer line each).
mapfile -t all_targets < <(sed -n 's/^[[:space:]]*aile_add_fuzzer(\([A-Za-z0-9_]*\).*/\1/p' "$fuzz_dir/CMakeLists.txt")
targets=("$@")
[[ ${#targets[@]} -gt 0 ]] || targets=("${all_targets[@]}")
[[ ${#targets[@]} -gt 0 ]] || die "tests/fuzz/CMakeLists.txt declares no target"
for t in "${targets[@]}"; do
    [[ " ${all_targets[*]} " == *" $t "* ]] || die "no fuzz target \"$t\" (the targets: ${all_targets[*]})"
    [[ -d "$fuzz_dir/corpus/$t" ]] || die "fuzz target $t has no seed corpus: commit one under tests/fuzz/corpus/$t/"
done

# --- build ---------------------------------------------------------------------------------------
# The hardening build (scripts/lib/common.sh): only the fuzz targets are built here.
AILE_HARDENING_BUILD_DIR="$build_dir" aile_configure_hardening_build
log "building the fuzz targets (${targets[*]}) into ${build_dir#"$AILE_ROOT"/}/"
cmake --build "$build_dir" --target "${targets[@]}" || die "the fuzz build failed (see above)"

# --- run ----------------------------------------------------------------------------------------
work="$(mktemp -d "${TMPDIR:-/tmp}/aile-fuzz.XXXXXX")"
trap 'rm -rf "$work"' EXIT
artifacts="$build_dir/fuzz-artifacts"
mkdir -p "$artifacts"
# A sanitizer report is a failure; leaks are checked (libFuzzer's -detect_leaks) per input.
export ASAN_OPTIONS="${ASAN_OPTIONS:-abort_on_error=1:detect_stack_use_after_return=1:strict_string_checks=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
export QT_LOGGING_RULES="*.debug=false"
# The targets run side by side, each for the whole AILE_FUZZ_TIME (a libFuzzer process uses one
# core): CI's wall time is one target's, not the sum. Their reports are printed one target at a time.
pids=()
for t in "${targets[@]}"; do
    corpus="$work/$t"
    mkdir -p "$corpus"
    cp -r "$fuzz_dir/corpus/$t/." "$corpus/"
    seeds=$(find "$corpus" -type f | wc -l)
    log "$t: ${fuzz_time}s on a copy of its $seeds seeds"
    ( rc=0
      "$build_dir/tests/fuzz/$t" "$corpus" -max_total_time="$fuzz_time" -timeout=25 -rss_limit_mb=2048 \
          -artifact_prefix="$artifacts/$t-" -print_final_stats=1 >"$work/$t.log" 2>&1 || rc=$?
      echo "$rc" >"$work/$t.rc" ) &
    pids+=($!)
done
wait "${pids[@]}" || true
failed=()
for t in "${targets[@]}"; do
    corpus="$work/$t"
    rc="$(cat "$work/$t.rc" 2>/dev/null || echo 1)"
    grep -E '^(stat::number_of_executed_units|stat::peak_rss_mb|#[0-9]+ +DONE)' "$work/$t.log" | sed "s/^/[fuzz] $t: /" >&2 || true
    if [[ $rc -ne 0 ]]; then
        tail -60 "$work/$t.log" >&2
        crash="$(grep -o "$artifacts/$t-[^ ]*" "$work/$t.log" | tail -1 || true)"
        log "$t FAILED (exit $rc)${crash:+; the input: $crash; replay it: $build_dir/tests/fuzz/$t $crash}"
        failed+=("$t")
    else
        log "$t: clean ($(find "$corpus" -type f | wc -l) inputs in the corpus at the end)"
    fi
    if [[ -n "${AILE_FUZZ_KEEP:-}" ]]; then
        mkdir -p "$AILE_FUZZ_KEEP/$t" && cp -r "$corpus/." "$AILE_FUZZ_KEEP/$t/"
    fi
done
if [[ ${#failed[@]} -gt 0 ]]; then
    log "fuzzing: ${#failed[@]} of ${#targets[@]} targets failed: ${failed[*]}"
    exit 1
fi
log "fuzzing: all ${#targets[@]} targets ran clean for ${fuzz_time}s each"
