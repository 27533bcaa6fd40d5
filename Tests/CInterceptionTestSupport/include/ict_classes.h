/*
 * ict_classes.h — C test classes whose behaviour is easiest to state in C (super sends from
 * dealloc, logging during destruction).
 */
#ifndef ICT_CLASSES_H
#define ICT_CLASSES_H

#include <interception/interception.h>

/* A text log a test owns; appended to by test classes while objects die. Not thread-safe: one
 * log per test. */
typedef struct ict_log ict_log;
ict_log *ict_log_create(void);
void ict_log_destroy(ict_log *log);
void ict_log_append(ict_log *log, const char *entry);
/* Entries separated by ", ". */
const char *ict_log_text(const ict_log *log);

/*
 * The class "ICTLogged" (created on first use). Its dealloc appends "dealloc <tag>" to the
 * instance's log; if a weak location to watch was set, it then appends "weak <tag>=nil" or
 * "weak <tag>=set" according to what that weak location loads at that moment; then it calls
 * super. Instances are created with a count of 1 (caller owns).
 */
ic_class *ict_logged_class(void);
ic_id ict_logged_new(ict_log *log, const char *tag);
void ict_logged_watch_weak(ic_id logged, ic_id *weak_location, const char *tag);

/*
 * Methods implemented in C that take or return a C string (`*`), to add to a class:
 *   ict_cstring_length_imp    "q@:*"  strlen of the argument (-1 for NULL), whose characters it
 *                                     copies for ict_cstring_last_read (up to 255 bytes)
 *   ict_cstring_greeting_imp  "*@:"   a static "hello from C"
 *   ict_cstring_null_imp      "*@:"   NULL
 */
long long ict_cstring_length_imp(ic_id self, ic_sel cmd, const char *s);
const char *ict_cstring_greeting_imp(ic_id self, ic_sel cmd);
const char *ict_cstring_null_imp(ic_id self, ic_sel cmd);
/* What ict_cstring_length_imp last read on the calling thread ("(null)" for NULL). */
const char *ict_cstring_last_read(void);

#endif /* ICT_CLASSES_H */

/* Sends "add:" with 41 to `receiver` by name (IC_MSG_NAMED), as int (int). */
int ict_send_add_by_name(ic_id receiver);
