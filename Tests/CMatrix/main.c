/*
 * main.c — the C matrix program (SPEC section 21; see cm.h): runs every area, prints the summary
 * (cases, checks, skips and failures per area) and exits 1 on any failed check.
 *
 * Built by CMake with -DINTERCEPTION_BUILD_TESTS=ON (target interception-c-matrix), natively and
 * cross-built for AArch64, where .ci/run runs it under qemu-aarch64.
 *
 * Usage: interception-c-matrix [--only AREA]  (AREA: abi, matrix, properties, zombies)
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "cm.h"

static const struct {
    const char *name;
    void (*run)(void);
} areas[] = {
    {"abi", cm_run_abi},         {"matrix", cm_run_matrix}, {"properties", cm_run_properties},
    {"zombies", cm_run_zombies}, {"unwind", cm_run_unwind},
};

int main(int argc, char **argv)
{
    const char *only = argc == 3 && strcmp(argv[1], "--only") == 0 ? argv[2] : NULL;
    if (argc != 1 && !only) {
        fprintf(stderr, "usage: %s [--only abi|matrix|properties|zombies|unwind]\n", argv[0]);
        return 2;
    }
    struct timespec start, end;
    clock_gettime(CLOCK_MONOTONIC, &start);
    size_t ran = 0;
    for (size_t i = 0; i < sizeof areas / sizeof areas[0]; i++) {
        if (only && strcmp(only, areas[i].name) != 0) continue;
        areas[i].run();
        ran++;
    }
    if (!ran) {
        fprintf(stderr, "no area named %s\n", only);
        return 2;
    }
    size_t failures = cm_summary();
    ic_intercept_counters counters;
    ic_intercept_get_counters(&counters);
    clock_gettime(CLOCK_MONOTONIC, &end);
    printf("live objects %zu, live observers %zu, intercepted objects %zu\n", counters.live_objects,
           counters.live_observers, counters.intercepted_objects);
    if (counters.live_objects || counters.live_observers || counters.intercepted_objects) {
        printf("FAIL: objects or observers left alive\n");
        failures++;
    }
    printf("%s in %.1f s\n", failures ? "FAILED" : "all checks passed",
           (double)(end.tv_sec - start.tv_sec) + (double)(end.tv_nsec - start.tv_nsec) / 1e9);
    return failures ? 1 : 0;
}
