/*
 * icb.h — the C side of the benchmark binary: hot loops for every C path, written in C because
 * that is the language whose path they measure, and a malloc counter.
 *
 * Each case is prepared once (icb_case_prepare), then run for `ops` operations per repetition
 * (icb_case_run), which returns the elapsed nanoseconds and checks the result of every
 * operation inside the timed loop: a wrong result makes icb_case_run return a negative value.
 */
#ifndef ICB_H
#define ICB_H

#include <stddef.h>
#include <stdint.h>

#include <interception/interception.h>

typedef struct icb_case icb_case;

/* The number of C cases, and case `i` by index or by name (NULL if none). */
size_t icb_case_count(void);
const icb_case *icb_case_at(size_t i);
const icb_case *icb_case_named(const char *name);

/* The case's name (as in the JSON output) and what it measures. */
const char *icb_case_name(const icb_case *c);
const char *icb_case_description(const icb_case *c);

/* Prepares the case (classes, objects, observers). Returns 0, or -1 with a message on stderr. */
int icb_case_prepare(const icb_case *c);

/* Runs `ops` operations; returns elapsed nanoseconds, or a negative value if a result was
 * wrong. */
double icb_case_run(const icb_case *c, uint64_t ops);

/* Allocations (malloc, calloc, realloc, aligned variants) made by the whole process so far. The
 * benchmark binary links malloc_counter.c, which interposes the allocator. */
uint64_t icb_allocation_count(void);

/* Bytes requested by those allocations (frees are not subtracted). */
uint64_t icb_allocated_bytes(void);

/* Allocations and bytes allocated inside the timed section of the last icb_case_run. */
uint64_t icb_last_run_allocations(void);
uint64_t icb_last_run_bytes(void);

/* The time now, in nanoseconds (CLOCK_MONOTONIC). */
double icb_now_ns(void);

/* Times `ops` sends of add: (i@:i) to `receiver` with IC_MSG, checking each result; returns the
 * elapsed nanoseconds, or a negative value if a result was wrong. */
double icb_time_msg_add(ic_id receiver, uint64_t ops);

/* add: for the Swift cases (i@:i), the same body as the C cases' method. */
int icb_swift_add(ic_id self, ic_sel cmd, int x);

/* sum:b:c:d:e:f: for the Swift generic-path case (q@:qqqqqq). */
long long icb_swift_sum6(ic_id self, ic_sel cmd, long long a, long long b, long long c, long long d,
                         long long e, long long f);

#endif /* ICB_H */
