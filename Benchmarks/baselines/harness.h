/*
 * harness.h — the timing loop shared by the baseline programs (plain C, header-only so each
 * program stays one compile command).
 *
 * It follows interception-bench's method so the numbers compare: one warm-up run of ops/4+1
 * operations, then `reps` timed repetitions of `ops` operations each on CLOCK_MONOTONIC, ns/op
 * per repetition, reported as median, min and max. A case function returns the elapsed ns, or a
 * negative number when any result in its loop was wrong; the harness then fails the case.
 *
 * Output: one tab-separated line per case on stdout,
 *   name  median_ns  min_ns  max_ns  reps  ops_per_rep
 * which run.sh turns into the table and the JSON file.
 */
#ifndef BASELINES_HARNESS_H
#define BASELINES_HARNESS_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef double (*bench_case_fn)(uint64_t ops);

static inline double bench_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int bench_compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* `--quick` on the command line: a smoke run (1/100 of the operations, 3 repetitions). */
static int bench_quick;

static inline void bench_parse_arguments(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--quick") == 0) {
            bench_quick = 1;
        } else {
            fprintf(stderr, "usage: %s [--quick]\n", argv[0]);
            exit(2);
        }
    }
}

/* Runs one case and prints its line; returns 0, or 1 when a result check failed. */
static inline int bench_run(const char *name, uint64_t ops, int reps, bench_case_fn fn)
{
    if (bench_quick) {
        ops = ops / 100 + 1;
        reps = 3;
    }
    double per_op[64];
    if (reps > 64) reps = 64;
    if (fn(ops / 4 + 1) < 0) {
        fprintf(stderr, "%s: wrong result in warm-up\n", name);
        return 1;
    }
    for (int r = 0; r < reps; r++) {
        double ns = fn(ops);
        if (ns < 0) {
            fprintf(stderr, "%s: wrong result in repetition %d\n", name, r);
            return 1;
        }
        per_op[r] = ns / (double)ops;
    }
    qsort(per_op, (size_t)reps, sizeof per_op[0], bench_compare_doubles);
    printf("%s\t%.3f\t%.3f\t%.3f\t%d\t%llu\n", name, per_op[reps / 2], per_op[0], per_op[reps - 1],
           reps, (unsigned long long)ops);
    fflush(stdout);
    return 0;
}

#endif /* BASELINES_HARNESS_H */
