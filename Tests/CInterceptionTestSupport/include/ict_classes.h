/*
 * ict_classes.h — C test classes whose behaviour is easiest to state in C (super sends from
 * dealloc, logging during destruction).
 */
#ifndef ICT_CLASSES_H
#define ICT_CLASSES_H

#include <interception.h>

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

#endif /* ICT_CLASSES_H */

/* Sends "add:" with 41 to `receiver` by name (IC_MSG_NAMED), as int (int). */
int ict_send_add_by_name(ic_id receiver);
