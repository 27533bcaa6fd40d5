/*
 * spy.c — the C test classes and recorders of ict_spy.h.
 */
#include "ict_spy.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void fail(const char *what)
{
    fprintf(stderr, "ict_spy: %s: %s\n", what, ic_error_message());
    abort();
}

static ic_class *address_class, *person_class, *account_class;
static pthread_once_t classes_once = PTHREAD_ONCE_INIT;

typedef union ict_u {
    int i;
    double d;
} ict_u;

static void deposit(ic_id self, ic_sel cmd, double amount)
{
    (void)cmd;
    double balance = IC_MSG_NAMED(IC_FN(double), self, "balance");
    IC_MSG_NAMED(IC_FN(void, double), self, "setBalance:", balance + amount);
}

static void weird(ic_id self, ic_sel cmd, ict_u u)
{
    (void)self, (void)cmd, (void)u;
}

static void describe_to(ic_id self, ic_sel cmd, ic_id other, const char *name, long long count)
{
    (void)self, (void)cmd, (void)other, (void)name, (void)count;
}

static ic_class *make(const char *name)
{
    ic_class *cls = ic_class_allocate(name, NULL, 0);
    if (!cls) fail(name);
    return cls;
}

static void property(ic_class *cls, const char *name, const char *type, unsigned attributes)
{
    if (!ic_class_add_property(cls, name, type, attributes, NULL, NULL)) fail(name);
}

static void make_classes(void)
{
    address_class = make("ICTAddress");
    property(address_class, "city", "*", IC_PROPERTY_COPY);
    property(address_class, "zip", "i", 0);
    person_class = make("ICTPerson");
    property(person_class, "name", "*", IC_PROPERTY_COPY);
    property(person_class, "address", "@", IC_PROPERTY_RETAIN);
    account_class = make("ICTAccount");
    property(account_class, "balance", "d", 0);
    property(account_class, "owner", "@", IC_PROPERTY_RETAIN);
    property(account_class, "manager", "@", IC_PROPERTY_WEAK);
    property(account_class, "flags", "{ICTFlags=iB}", 0);
    if (ic_class_add_method(account_class, ic_sel_register("deposit:"), (ic_imp)deposit, "v@:d") !=
            IC_OK ||
        ic_class_add_method(account_class, ic_sel_register("weird:"), (ic_imp)weird,
                            "v@:(ICTU=id)") != IC_OK ||
        ic_class_add_method(account_class, ic_sel_register("describeTo:named:count:"),
                            (ic_imp)describe_to, "v@:@*q") != IC_OK)
        fail("ICTAccount methods");
    if (ic_class_register(address_class) != IC_OK || ic_class_register(person_class) != IC_OK ||
        ic_class_register(account_class) != IC_OK)
        fail("register");
}

static void set(ic_id obj, const char *key, const char *type, const void *value, size_t size)
{
    if (ic_object_set_value_for_key(obj, key, type, value, size) != IC_OK) fail(key);
}

ic_id ict_address_new(const char *city, int zip)
{
    pthread_once(&classes_once, make_classes);
    ic_id obj = ic_class_create_instance(address_class);
    set(obj, "city", "*", &city, sizeof city);
    set(obj, "zip", "i", &zip, sizeof zip);
    return obj;
}

ic_id ict_person_new(const char *name, ic_id address)
{
    pthread_once(&classes_once, make_classes);
    ic_id obj = ic_class_create_instance(person_class);
    set(obj, "name", "*", &name, sizeof name);
    set(obj, "address", "@", &address, sizeof address);
    return obj;
}

ic_id ict_account_new(double balance, ic_id owner)
{
    pthread_once(&classes_once, make_classes);
    ic_id obj = ic_class_create_instance(account_class);
    set(obj, "balance", "d", &balance, sizeof balance);
    set(obj, "owner", "@", &owner, sizeof owner);
    return obj;
}

ic_class *ict_account_class(void)
{
    pthread_once(&classes_once, make_classes);
    return account_class;
}

void ict_account_deposit(ic_id account, double amount)
{
    IC_MSG_NAMED(IC_FN(void, double), account, "deposit:", amount);
}

void ict_account_describe_to(ic_id account, ic_id other, const char *name, long long count)
{
    IC_MSG_NAMED(IC_FN(void, ic_id, const char *, long long), account,
                 "describeTo:named:count:", other, name, count);
}

/* ---- the recorder */

struct ict_recorder {
    pthread_mutex_t lock;
    char type[64];
    char text[8192];
    size_t length;
    long count, releases, breaks;
    bool has_last;
    double last;
    ic_key_path_observation **remove_inside;
    ic_id set_object;
    char set_key[32];
    double set_value;
};

ict_recorder *ict_recorder_create(const char *type)
{
    ict_recorder *r = calloc(1, sizeof *r);
    pthread_mutex_init(&r->lock, NULL);
    snprintf(r->type, sizeof r->type, "%s", type);
    return r;
}

void ict_recorder_destroy(ict_recorder *r)
{
    pthread_mutex_destroy(&r->lock);
    free(r);
}

static int describe(const ict_recorder *r, const ic_observed_value *v, char *buffer, size_t size)
{
    if (!v->value && v->status == IC_OK) return snprintf(buffer, size, "none");
    if (!v->value) return snprintf(buffer, size, "none(%s)", ic_status_name(v->status));
    return ic_format_value(r->type, v->value, buffer, size);
}

void ict_recorder_record(const ic_observed_value *old_value, const ic_observed_value *new_value,
                         void *context)
{
    ict_recorder *r = context;
    char old_text[256], new_text[256];
    describe(r, old_value, old_text, sizeof old_text);
    describe(r, new_value, new_text, sizeof new_text);
    pthread_mutex_lock(&r->lock);
    bool is_double = strcmp(r->type, "d") == 0;
    if (is_double && r->has_last &&
        (!old_value->value || *(const double *)old_value->value != r->last))
        r->breaks++;
    if (is_double && new_value->value) {
        r->last = *(const double *)new_value->value;
        r->has_last = true;
    }
    if (r->count < 200) {
        int n = snprintf(r->text + r->length, sizeof r->text - r->length, "%s%s->%s",
                         r->length ? ", " : "", old_text, new_text);
        if (n > 0 && r->length + (size_t)n < sizeof r->text) r->length += (size_t)n;
    }
    r->count++;
    ic_key_path_observation **remove = r->remove_inside;
    r->remove_inside = NULL;
    ic_id set_object = r->set_object;
    r->set_object = NULL;
    pthread_mutex_unlock(&r->lock);
    if (remove) ic_key_path_observation_remove(*remove);
    if (set_object) {
        double value = r->set_value;
        ic_object_set_value_for_key(set_object, r->set_key, "d", &value, sizeof value);
    }
}

void ict_recorder_release(void *context)
{
    ict_recorder *r = context;
    pthread_mutex_lock(&r->lock);
    r->releases++;
    pthread_mutex_unlock(&r->lock);
}

const char *ict_recorder_text(ict_recorder *r)
{
    return r->text;
}

#define LOCKED_READ(r, field)                                                                      \
    do {                                                                                           \
        pthread_mutex_lock(&(r)->lock);                                                            \
        long value_ = (r)->field;                                                                  \
        pthread_mutex_unlock(&(r)->lock);                                                          \
        return value_;                                                                             \
    } while (0)

long ict_recorder_count(ict_recorder *r)
{
    LOCKED_READ(r, count);
}

long ict_recorder_releases(ict_recorder *r)
{
    LOCKED_READ(r, releases);
}

long ict_recorder_breaks(ict_recorder *r)
{
    LOCKED_READ(r, breaks);
}

void ict_recorder_remove_inside(ict_recorder *r, ic_key_path_observation **observation)
{
    pthread_mutex_lock(&r->lock);
    r->remove_inside = observation;
    pthread_mutex_unlock(&r->lock);
}

void ict_recorder_set_inside(ict_recorder *r, ic_id object, const char *key, double value)
{
    pthread_mutex_lock(&r->lock);
    r->set_object = object;
    snprintf(r->set_key, sizeof r->set_key, "%s", key);
    r->set_value = value;
    pthread_mutex_unlock(&r->lock);
}

typedef struct setter_job {
    ic_id object;
    const char *key;
    int count;
} setter_job;

static void *setter_thread(void *argument)
{
    setter_job *job = argument;
    for (int i = 1; i <= job->count; i++) {
        double value = i;
        ic_object_set_value_for_key(job->object, job->key, "d", &value, sizeof value);
    }
    return NULL;
}

static void *remover_thread(void *argument)
{
    ic_key_path_observation_remove(argument);
    return NULL;
}

/* Runs `body(job)` on `threads` threads, and removes `remove` (if not NULL) from one more. */
static void run_threads(void *(*body)(void *), setter_job *job, int threads,
                        ic_key_path_observation *remove)
{
    pthread_t ids[17];
    if (threads > 16) threads = 16;
    for (int i = 0; i < threads; i++)
        pthread_create(&ids[i], NULL, body, job);
    if (remove) pthread_create(&ids[threads], NULL, remover_thread, remove);
    for (int i = 0; i < threads + (remove != NULL); i++)
        pthread_join(ids[i], NULL);
}

void ict_concurrent_double_sets(ic_id object, const char *key, int threads, int count,
                                ic_key_path_observation *remove)
{
    setter_job job = {object, key, count};
    run_threads(setter_thread, &job, threads, remove);
}

static void *manager_churn_thread(void *argument)
{
    setter_job *job = argument;
    for (int i = 0; i < job->count; i++) {
        ic_id person = ict_person_new("P", NULL);
        ic_object_set_value_for_key(job->object, "manager", "@", &person, sizeof person);
        ic_release(person); /* the last strong reference: the weak property zeroes */
    }
    return NULL;
}

void ict_concurrent_manager_churn(ic_id account, int threads, int count,
                                  ic_key_path_observation *remove)
{
    setter_job job = {account, "manager", count};
    run_threads(manager_churn_thread, &job, threads, remove);
}

/* ---- the call log */

struct ict_call_log {
    pthread_mutex_t lock;
    char calls[4096];
    char skips[4096];
};

ict_call_log *ict_call_log_create(void)
{
    ict_call_log *log = calloc(1, sizeof *log);
    pthread_mutex_init(&log->lock, NULL);
    return log;
}

void ict_call_log_destroy(ict_call_log *log)
{
    pthread_mutex_destroy(&log->lock);
    free(log);
}

static void append(char *text, size_t size, const char *entry)
{
    size_t length = strlen(text);
    snprintf(text + length, size - length, "%s%s", length ? "; " : "", entry);
}

void ict_call_log_hook(ic_invocation *call, void *context)
{
    ict_call_log *log = context;
    char entry[256];
    ic_invocation_describe(call, entry, sizeof entry);
    pthread_mutex_lock(&log->lock);
    append(log->calls, sizeof log->calls, entry);
    pthread_mutex_unlock(&log->lock);
}

void ict_call_log_skipped(ic_sel sel, ic_status status, const char *message, void *context)
{
    (void)message;
    ict_call_log *log = context;
    char entry[256];
    snprintf(entry, sizeof entry, "skip %s %s", ic_sel_name(sel), ic_status_name(status));
    pthread_mutex_lock(&log->lock);
    append(log->skips, sizeof log->skips, entry);
    pthread_mutex_unlock(&log->lock);
}

const char *ict_call_log_calls(ict_call_log *log)
{
    return log->calls;
}

const char *ict_call_log_skips(ict_call_log *log)
{
    return log->skips;
}
