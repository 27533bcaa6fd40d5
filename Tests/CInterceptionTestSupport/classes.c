/*
 * classes.c — C test classes (ict_classes.h).
 */
#include "ict_classes.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct ict_log {
    char text[4096];
};

ict_log *ict_log_create(void)
{
    return calloc(1, sizeof(ict_log));
}

void ict_log_destroy(ict_log *log)
{
    free(log);
}

void ict_log_append(ict_log *log, const char *entry)
{
    size_t used = strlen(log->text);
    snprintf(log->text + used, sizeof log->text - used, "%s%s", used ? ", " : "", entry);
}

const char *ict_log_text(const ict_log *log)
{
    return log->text;
}

typedef struct logged_storage {
    ict_log *log;
    char tag[32];
    ic_id *watched_weak;
    char watched_tag[32];
} logged_storage;

static ic_class *logged_class;
static pthread_once_t logged_once = PTHREAD_ONCE_INIT;

static void logged_dealloc(ic_id self, ic_sel cmd)
{
    logged_storage *s = ic_object_storage_for_class(self, logged_class);
    char entry[96];
    snprintf(entry, sizeof entry, "dealloc %s", s->tag);
    ict_log_append(s->log, entry);
    if (s->watched_weak) {
        ic_id seen = ic_weak_load_retained(s->watched_weak);
        snprintf(entry, sizeof entry, "weak %s=%s", s->watched_tag, seen ? "set" : "nil");
        ict_log_append(s->log, entry);
        ic_release(seen);
    }
    ic_super super = {self, ic_class_superclass(logged_class)};
    IC_MSG_SUPER(IC_FN(void), &super, cmd);
}

static void make_logged_class(void)
{
    ic_class *cls = ic_class_allocate("ICTLogged", NULL, sizeof(logged_storage));
    if (!cls ||
        ic_class_add_method(cls, ic_sel_register("dealloc"), (ic_imp)logged_dealloc, "v@:") !=
            IC_OK ||
        ic_class_register(cls) != IC_OK) {
        fprintf(stderr, "ICTLogged: %s\n", ic_error_message());
        abort();
    }
    logged_class = cls;
}

ic_class *ict_logged_class(void)
{
    pthread_once(&logged_once, make_logged_class);
    return logged_class;
}

ic_id ict_logged_new(ict_log *log, const char *tag)
{
    ic_id obj = ic_class_create_instance(ict_logged_class());
    logged_storage *s = ic_object_storage_for_class(obj, logged_class);
    s->log = log;
    snprintf(s->tag, sizeof s->tag, "%s", tag);
    return obj;
}

void ict_logged_watch_weak(ic_id logged, ic_id *weak_location, const char *tag)
{
    logged_storage *s = ic_object_storage_for_class(logged, logged_class);
    s->watched_weak = weak_location;
    snprintf(s->watched_tag, sizeof s->watched_tag, "%s", tag);
}

int ict_send_add_by_name(ic_id receiver)
{
    return IC_MSG_NAMED(IC_FN(int, int), receiver, "add:", 41);
}

static _Thread_local char cstring_last_read[256];

long long ict_cstring_length_imp(ic_id self, ic_sel cmd, const char *s)
{
    (void)self;
    (void)cmd;
    snprintf(cstring_last_read, sizeof cstring_last_read, "%s", s ? s : "(null)");
    return s ? (long long)strlen(s) : -1;
}

const char *ict_cstring_greeting_imp(ic_id self, ic_sel cmd)
{
    (void)self;
    (void)cmd;
    return "hello from C";
}

const char *ict_cstring_null_imp(ic_id self, ic_sel cmd)
{
    (void)self;
    (void)cmd;
    return NULL;
}

const char *ict_cstring_last_read(void)
{
    return cstring_last_read;
}
