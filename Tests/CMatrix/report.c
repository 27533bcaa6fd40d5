/*
 * report.c — areas, checks and the summary of the C matrix program (see cm.h).
 *
 * Single-threaded: the program runs its areas one after the other on the main thread.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cm.h"

#define CM_MAX_AREAS   32
#define CM_MAX_REASONS 8
#define CM_SHOWN       40 /* failures printed in full per area; the rest are counted */

struct cm_area {
    const char *name;
    size_t cases, checks, failures, skipped;
    struct {
        const char *reason;
        size_t count;
    } reasons[CM_MAX_REASONS];
};

static cm_area areas[CM_MAX_AREAS];
static size_t area_count;
static char label[256];

cm_area *cm_area_named(const char *name)
{
    for (size_t i = 0; i < area_count; i++)
        if (strcmp(areas[i].name, name) == 0) return &areas[i];
    if (area_count == CM_MAX_AREAS) {
        fprintf(stderr, "c-matrix: more than %d areas\n", CM_MAX_AREAS);
        exit(2);
    }
    areas[area_count].name = name;
    return &areas[area_count++];
}

void cm_case(cm_area *area)
{
    area->cases++;
}

void cm_skip(cm_area *area, const char *reason)
{
    area->skipped++;
    for (size_t i = 0; i < CM_MAX_REASONS; i++) {
        if (!area->reasons[i].reason) area->reasons[i].reason = reason;
        if (strcmp(area->reasons[i].reason, reason) == 0) {
            area->reasons[i].count++;
            return;
        }
    }
    fprintf(stderr, "c-matrix: area %s: more than %d skip reasons\n", area->name, CM_MAX_REASONS);
    exit(2);
}

void cm_label(const char *fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    vsnprintf(label, sizeof label, fmt, args);
    va_end(args);
}

bool cm_check(cm_area *area, bool ok, const char *fmt, ...)
{
    area->checks++;
    if (ok) return true;
    if (area->failures++ < CM_SHOWN) {
        va_list args;
        va_start(args, fmt);
        fprintf(stdout, "FAIL [%s] %s: ", area->name, label);
        vfprintf(stdout, fmt, args);
        fputc('\n', stdout);
        va_end(args);
        fflush(stdout);
    }
    return false;
}

size_t cm_summary(void)
{
    size_t failures = 0;
    printf("\n%-32s %8s %8s %8s %8s\n", "area", "cases", "checks", "skipped", "failed");
    for (size_t i = 0; i < area_count; i++) {
        const cm_area *a = &areas[i];
        printf("%-32s %8zu %8zu %8zu %8zu\n", a->name, a->cases, a->checks, a->skipped,
               a->failures);
        for (size_t r = 0; r < CM_MAX_REASONS && a->reasons[r].reason; r++)
            printf("    skipped %zu: %s\n", a->reasons[r].count, a->reasons[r].reason);
        if (a->failures > CM_SHOWN)
            printf("    (%zu failures not shown)\n", a->failures - CM_SHOWN);
        failures += a->failures;
    }
    return failures;
}
