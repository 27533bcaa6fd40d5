/*
 * sweep.c — the sweep's driver: runs every case of every area, each in its own process, failing
 * each allocation of its operation in turn (sweep.h), and the helpers the cases share.
 *
 * Usage: alloc-sweep [--verbose] [--count] [--no-fork] [--list-functions] [NAME-SUBSTRING...]
 *   --verbose         prints, per case, how many allocations its operation made, and their bytes
 *   --count           only counts: runs each operation twice, failing nothing, and prints the
 *                     second run's allocations and bytes (what an operation costs in memory)
 *   --no-fork         runs the cases in this process (for a debugger); stops at the first failure
 *   --list-functions  prints coverage.c's table (name and how it is covered) and exits
 * Exits non-zero if a case fails, crashes, leaks or a public function lacks coverage.
 */
#include "sweep.h"

#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "coverage.h"
#include "failing_alloc.h"

/* Larger than any operation's allocation count: a case that reaches it never stops failing. */
#define AF_MAX_ALLOCATIONS 4096

static const af_case *const *areas_list(void)
{
    static const af_case *const areas[] = {
        af_runtime_cases, af_object_cases, af_property_cases,   af_protocol_cases, af_ffi_cases,
        af_engine_cases,  af_hook_cases,   af_hook_state_cases, af_spy_cases,      NULL,
    };
    return areas;
}

/* ---- where a failed check is reported from */

static const af_case *current_case;
static size_t current_n;
static af_fail_mode current_mode;
static const char *current_step = "set-up";

void af_fail(const char *file, int line, const char *fmt, ...)
{
    af_disarm();
    fprintf(stderr, "FAIL %s [%s, allocation %zu%s]: %s:%d: ", current_case->name, current_step,
            current_n, current_mode == AF_FAIL_FROM_ON ? " and every later one" : "", file, line);
    va_list args;
    va_start(args, fmt);
    vfprintf(stderr, fmt, args);
    va_end(args);
    fputc('\n', stderr);
    fflush(stderr);
    _exit(1);
}

/* ---- running one case */

static unsigned next_id;
static bool verbose;

static void start(af_ctx *c, size_t case_index)
{
    memset(c, 0, sizeof *c);
    c->id = ++next_id;
    snprintf(c->name, sizeof c->name, "AF%zu_%u", case_index, c->id);
}

static void finish(const af_case *k, af_ctx *c)
{
    current_step = "tear-down";
    if (k->teardown) k->teardown(c);
    ic_intercept_quiesce();
}

/* One run of the operation with allocation `n` failing (`mode`); returns whether a failure was
 * injected at all (false: the operation makes fewer than n allocations: the sweep is done). */
/* Bytes the last run without an injected failure requested (what the operation costs). */
static size_t bytes_of_success;

static bool run_once(const af_case *k, size_t case_index, size_t n, af_fail_mode mode, size_t *made)
{
    af_ctx c;
    current_n = n;
    current_mode = mode;
    start(&c, case_index);
    current_step = "set-up";
    if (k->setup) k->setup(&c);
    current_step = "operation";
    ic_error_clear();
    af_arm(n, mode);
    ic_status status = k->run(&c);
    *made = af_disarm();
    bool injected = af_failed_any();
    if (!injected) bytes_of_success = af_allocated_bytes();
    if (k->flags & AF_NO_ALLOCATION)
        AF_CHECK(*made == 0, "made %zu allocations; this operation must make none", *made);
    if (status == IC_OK) {
        current_step = "check after success";
        if (k->check_done) k->check_done(&c);
    } else {
        AF_CHECK(!(k->flags & (AF_CANNOT_FAIL | AF_NO_ALLOCATION)),
                 "failed with %s (%s); this operation must not fail", ic_status_name(status),
                 ic_error_message());
        AF_CHECK(injected, "failed with %s (%s) although no allocation failed",
                 ic_status_name(status), ic_error_message());
        AF_CHECK(status == IC_ERR_OUT_OF_MEMORY && ic_error_status() == IC_ERR_OUT_OF_MEMORY,
                 "failed with %s, last error %s (%s): expected IC_ERR_OUT_OF_MEMORY for both",
                 ic_status_name(status), ic_status_name(ic_error_status()), ic_error_message());
        current_step = "check after failure";
        if (k->check_untouched) k->check_untouched(&c);
        current_step = "retry";
        ic_error_clear();
        status = k->run(&c);
        AF_CHECK(status == IC_OK, "the retry failed with %s (%s)", ic_status_name(status),
                 ic_error_message());
        current_step = "check after the retry";
        if (k->check_done) k->check_done(&c);
    }
    finish(k, &c);
    return injected;
}

/* run_once in a process of its own, for a case whose operation may trap (af_case.trap): the run
 * passes if it exits normally or aborts with the documented message. */
static bool run_once_may_trap(const af_case *k, size_t case_index, size_t n, af_fail_mode mode,
                              size_t *made)
{
    enum { INJECTED = 0, NOT_INJECTED = 3 };
    int pipe_fds[2];
    if (pipe(pipe_fds) != 0) af_fail(__FILE__, __LINE__, "pipe failed");
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        close(pipe_fds[0]);
        dup2(pipe_fds[1], STDERR_FILENO);
        bool injected = run_once(k, case_index, n, mode, made);
        fflush(NULL);
        exit(injected ? INJECTED : NOT_INJECTED);
    }
    close(pipe_fds[1]);
    char output[8192];
    size_t length = 0;
    for (ssize_t r; (r = read(pipe_fds[0], output + length, sizeof output - 1 - length)) > 0;)
        length += (size_t)r;
    output[length] = '\0';
    close(pipe_fds[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    current_n = n;
    current_mode = mode;
    *made = n; /* at least */
    if (WIFEXITED(status) && WEXITSTATUS(status) == NOT_INJECTED) return false;
    if (WIFEXITED(status) && WEXITSTATUS(status) == INJECTED) return true;
    bool trapped = WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT && strstr(output, k->trap);
    if (!trapped) fputs(output, stderr);
    AF_CHECK(trapped, "the run ended with %s %d, not the trap \"%s\"",
             WIFSIGNALED(status) ? "signal" : "exit status",
             WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status), k->trap);
    return true;
}

static bool count_only;

/* Runs case `k` twice, failing nothing, and prints what its operation allocated the second time
 * (the first pays for what the process makes once: tables, signatures, dispatch pages). */
static void count_case(const af_case *k, size_t case_index)
{
    current_case = k;
    size_t made = 0, bytes = 0;
    for (int run = 0; run < 2; run++) {
        af_ctx c;
        start(&c, case_index);
        current_step = "set-up";
        if (k->setup) k->setup(&c);
        current_step = "operation";
        af_arm(0, AF_FAIL_ONE);
        ic_status status = k->run(&c);
        made = af_disarm();
        bytes = af_allocated_bytes();
        AF_CHECK(status == IC_OK, "failed with %s (%s)", ic_status_name(status),
                 ic_error_message());
        /* As after a success in the sweep: the check also records what the operation consumed
         * (an object it released), so that the tear-down does not release it again. */
        current_step = "check after success";
        if (k->check_done) k->check_done(&c);
        finish(k, &c);
    }
    printf("  %-66s %3zu allocation%s, %5zu bytes\n", k->name, made, made == 1 ? " " : "s", bytes);
}

/* Runs case `k` for every N in both modes. */
static void run_case(const af_case *k, size_t case_index)
{
    if (count_only) {
        count_case(k, case_index);
        return;
    }
    current_case = k;
    size_t most = 0;
    for (int mode = AF_FAIL_ONE; mode <= AF_FAIL_FROM_ON; mode++) {
        for (size_t n = 1;; n++) {
            size_t made = 0;
            if (!(k->trap ? run_once_may_trap : run_once)(k, case_index, n, (af_fail_mode)mode,
                                                          &made))
                break;
            if (made > most) most = made;
            AF_CHECK(n < AF_MAX_ALLOCATIONS, "still allocating after %d failures",
                     AF_MAX_ALLOCATIONS);
        }
    }
    if (verbose)
        printf("  %-66s %3zu allocation%s, %5zu bytes\n", k->name, most, most == 1 ? " " : "s",
               k->trap ? 0 : bytes_of_success);
}

/* ---- the cases' shared set-up */

ic_sel af_add, af_ping, af_vec, af_value, af_set_value, af_copy;

static int add_one(ic_id self, ic_sel cmd, int x)
{
    (void)self, (void)cmd;
    return x + 1;
}

static void ping(ic_id self, ic_sel cmd)
{
    (void)self, (void)cmd;
}

static af_vec3 vec(ic_id self, ic_sel cmd)
{
    (void)self, (void)cmd;
    return (af_vec3){1, 2, 3};
}

static ic_id copy_self(ic_id self, ic_sel cmd)
{
    (void)cmd;
    return ic_retain(self);
}

ic_class *af_make_class(af_ctx *c, const char *suffix)
{
    char name[96];
    snprintf(name, sizeof name, "%s%s", c->name, suffix);
    ic_class *cls = AF_NOT_NULL(ic_class_allocate(name, NULL, 16));
    AF_OK(ic_class_add_method(cls, af_add, (ic_imp)add_one, "i@:i"));
    AF_OK(ic_class_add_method(cls, af_ping, (ic_imp)ping, "v@:"));
    AF_OK(ic_class_add_method(cls, af_vec, (ic_imp)vec, "{v=ddd}@:"));
    AF_OK(ic_class_add_method(cls, af_copy, (ic_imp)copy_self, "@@:"));
    AF_OK(ic_class_register(cls));
    return cls;
}

ic_id af_make_object(af_ctx *c, const char *suffix)
{
    return AF_NOT_NULL(ic_class_create_instance(af_make_class(c, suffix)));
}

int af_send_add(ic_id obj, int x)
{
    return IC_MSG(IC_FN(int, int), obj, af_add, x);
}

af_vec3 af_send_vec(ic_id obj)
{
    return IC_MSG(IC_FN(af_vec3), obj, af_vec);
}

void af_warm(af_ctx *c, ic_id obj)
{
    af_send_add(obj, 1);
    af_send_vec(obj);
    IC_MSG(IC_FN(void), obj, af_ping);
    for (int i = 0; i < 4; i++)
        c->counter[i].calls = 0;
}

static void count_nothing(ic_id object, void *context)
{
    (void)object, (void)context;
}

void af_warm_dealloc(ic_id obj)
{
    ic_id sibling = AF_NOT_NULL(ic_class_create_instance(ic_intercept_original_class(obj)));
    ic_observer_token token;
    AF_OK(ic_intercept_prepare(sibling, af_add));
    AF_OK(ic_intercept_prepare(sibling, af_vec));
    AF_OK(ic_intercept_add_dealloc_observer(sibling, IC_OBSERVE_BEFORE, count_nothing, NULL, NULL,
                                            &token));
    af_send_add(sibling, 1);
    af_send_vec(sibling);
    ic_release(sibling);
    ic_intercept_quiesce();
}

void af_count_call(ic_invocation *call, void *context)
{
    (void)call;
    ((af_counter *)context)->calls++;
}

void af_instead_calls_original(ic_invocation *call, void *context)
{
    ((af_counter *)context)->calls++;
    ic_hook_call_original(call);
}

void af_count_release(void *context)
{
    ((af_counter *)context)->released++;
}

void af_count_dealloc(ic_id object, void *context)
{
    (void)object;
    ((af_counter *)context)->deaths++;
}

void af_release_objects(af_ctx *c)
{
    for (int i = 0; i < 3; i++)
        ic_release(c->obj[i]);
    ic_intercept_quiesce();
}

void af_take_counters(af_ctx *c)
{
    ic_intercept_get_counters(&c->counters);
    if (c->cls[0]) AF_OK(ic_intercept_get_class_counters(c->cls[0], &c->class_counters));
}

void af_check_counters(af_ctx *c, long observers, long objects)
{
    ic_intercept_counters now, cls_now;
    ic_intercept_get_counters(&now);
    AF_CHECK((long)(now.live_observers - c->counters.live_observers) == observers,
             "live observers changed by %ld, expected %ld",
             (long)(now.live_observers - c->counters.live_observers), observers);
    AF_CHECK((long)(now.intercepted_objects - c->counters.intercepted_objects) == objects,
             "intercepted objects changed by %ld, expected %ld",
             (long)(now.intercepted_objects - c->counters.intercepted_objects), objects);
    if (!c->cls[0]) return;
    AF_OK(ic_intercept_get_class_counters(c->cls[0], &cls_now));
    AF_CHECK((long)(cls_now.live_observers - c->class_counters.live_observers) == observers,
             "the class's live observers changed by %ld, expected %ld",
             (long)(cls_now.live_observers - c->class_counters.live_observers), observers);
    AF_CHECK((long)(cls_now.intercepted_objects - c->class_counters.intercepted_objects) == objects,
             "the class's intercepted objects changed by %ld, expected %ld",
             (long)(cls_now.intercepted_objects - c->class_counters.intercepted_objects), objects);
}

static ic_id zombies[1 << 14];
static size_t zombie_count;

void af_keep_zombie(ic_id zombie)
{
    if (zombie_count < sizeof zombies / sizeof zombies[0]) zombies[zombie_count++] = zombie;
}

/* ---- coverage: every function coverage.c marks as swept is named by a case */

static bool names_function(const char *functions, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = functions; (p = strstr(p, name)) != NULL; p += n) {
        bool starts = p == functions || p[-1] == ' ';
        bool ends = p[n] == '\0' || p[n] == ' ';
        if (starts && ends) return true;
    }
    return false;
}

static int check_coverage(void)
{
    int missing = 0;
    for (const af_function *f = af_functions; f->name; f++) {
        bool found = false;
        for (const af_case *const *area = areas_list(); *area && !found; area++)
            for (const af_case *k = *area; k->name && !found; k++)
                found = names_function(k->functions, f->name);
        if (f->unswept_reason == NULL && !found) {
            fprintf(stderr, "coverage: %s is marked as swept but no case names it\n", f->name);
            missing++;
        }
        if (f->unswept_reason != NULL && found) {
            fprintf(stderr, "coverage: %s is swept by a case but listed as not swept (%s)\n",
                    f->name, f->unswept_reason);
            missing++;
        }
    }
    for (const af_case *const *area = areas_list(); *area; area++) {
        for (const af_case *k = *area; k->name; k++) {
            char names[1024];
            snprintf(names, sizeof names, "%s", k->functions);
            for (char *save, *word = strtok_r(names, " ", &save); word;
                 word = strtok_r(NULL, " ", &save)) {
                bool listed = false;
                for (const af_function *f = af_functions; f->name && !listed; f++)
                    listed = strcmp(f->name, word) == 0;
                if (!listed) {
                    fprintf(stderr, "coverage: case %s names %s, which coverage.c does not list\n",
                            k->name, word);
                    missing++;
                }
            }
        }
    }
    return missing;
}

/* ---- main */

static bool selected(const af_case *k, int argc, char **argv, int first)
{
    if (first >= argc) return true;
    for (int i = first; i < argc; i++)
        if (strstr(k->name, argv[i])) return true;
    return false;
}

int main(int argc, char **argv)
{
    bool fork_cases = true;
    int first = 1;
    for (; first < argc && argv[first][0] == '-'; first++) {
        if (strcmp(argv[first], "--verbose") == 0) {
            verbose = true;
        } else if (strcmp(argv[first], "--count") == 0) {
            count_only = true;
        } else if (strcmp(argv[first], "--no-fork") == 0) {
            fork_cases = false;
        } else if (strcmp(argv[first], "--list-functions") == 0) {
            for (const af_function *f = af_functions; f->name; f++)
                printf("%s\t%s\n", f->name, f->unswept_reason ? f->unswept_reason : "swept");
            return 0;
        } else {
            fprintf(stderr,
                    "usage: %s [--verbose] [--count] [--no-fork] [--list-functions] [NAME...]\n",
                    argv[0]);
            return 2;
        }
    }
    setvbuf(stdout, NULL, _IOLBF, 0);
    af_add = ic_sel_register("add:");
    af_ping = ic_sel_register("ping");
    af_vec = ic_sel_register("vec");
    af_value = ic_sel_register("value");
    af_set_value = ic_sel_register("setValue:");
    af_copy = ic_sel_register("copy");

    int failures = check_coverage();
    size_t cases = 0, case_index = 0;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (const af_case *const *area = areas_list(); *area; area++) {
        for (const af_case *k = *area; k->name; k++, case_index++) {
            if (!selected(k, argc, argv, first)) continue;
            cases++;
            if (!fork_cases) {
                run_case(k, case_index);
                continue;
            }
            fflush(stdout);
            pid_t pid = fork();
            if (pid < 0) {
                perror("fork");
                return 2;
            }
            if (pid == 0) {
                run_case(k, case_index);
                fflush(stdout);
                exit(0); /* LeakSanitizer checks this case's process at exit */
            }
            int status = 0;
            waitpid(pid, &status, 0);
            if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
                failures++;
                if (WIFSIGNALED(status))
                    fprintf(stderr, "FAIL %s: killed by signal %d\n", k->name, WTERMSIG(status));
                else
                    fprintf(stderr, "FAIL %s: exit status %d\n", k->name, WEXITSTATUS(status));
            }
        }
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double seconds = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
    printf("alloc-sweep: %zu case%s, %d failure%s, %.1f s\n", cases, cases == 1 ? "" : "s",
           failures, failures == 1 ? "" : "s", seconds);
    return failures ? 1 : 0;
}
