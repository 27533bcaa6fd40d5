/*
 * ict_spy.h — C test classes and recorders for the C spy API: key path observation
 * (ic_observe.h), hooking every method (ic_hook_every.h), value and call descriptions
 * (ic_describe.h).
 */
#ifndef ICT_SPY_H
#define ICT_SPY_H

#include <interception/interception.h>

/*
 * Three registered classes (made on first use), with synthesized properties:
 *   ICTAddress  city (`*`, copy), zip (`i`)
 *   ICTPerson   name (`*`, copy), address (`@`, retain)
 *   ICTAccount  balance (`d`), owner (`@`, retain), manager (`@`, weak), flags (`{ICTFlags=iB}`),
 *               deposit: (v@:d, adds to balance through setBalance:), weird: (v@:(ICTU=id), a
 *               union: cannot be hooked), describeTo:named:count: (v@:@*q)
 * Instances are +1 (release them).
 */
ic_id ict_address_new(const char *city, int zip);
ic_id ict_person_new(const char *name, ic_id address);
ic_id ict_account_new(double balance, ic_id owner);
ic_class *ict_account_class(void);
void ict_account_deposit(ic_id account, double amount);
/* Sends describeTo:named:count:. */
void ict_account_describe_to(ic_id account, ic_id other, const char *name, long long count);

/* A recorder of key path changes: each delivery as "old->new" (ic_format_value of the type it was
 * made for, "none" for no value, "none(IC_ERR_...)" with a status), joined by ", ". Thread-safe;
 * also checks every delivery's old value is the previous delivery's new value. */
typedef struct ict_recorder ict_recorder;
ict_recorder *ict_recorder_create(const char *type);
void ict_recorder_destroy(ict_recorder *r);
/* The callback to pass to ic_object_observe_key_path with the recorder as context. */
void ict_recorder_record(const ic_observed_value *old_value, const ic_observed_value *new_value,
                         void *context);
/* The release function to pass with it: counts releases. */
void ict_recorder_release(void *context);
const char *ict_recorder_text(ict_recorder *r);
long ict_recorder_count(ict_recorder *r);
long ict_recorder_releases(ict_recorder *r);
/* Deliveries whose old value was not the previous new value (doubles only, for stress tests). */
long ict_recorder_breaks(ict_recorder *r);
/* From the next delivery on, the callback removes `*observation` (once) / sets key `key` of
 * `object` to `value` (a double, once: a change from inside the callback). */
void ict_recorder_remove_inside(ict_recorder *r, ic_key_path_observation **observation);
void ict_recorder_set_inside(ict_recorder *r, ic_id object, const char *key, double value);

/* Sets the double key `key` of `object` `count` times from each of `threads` threads (values
 * 1, 2, ... per thread), and removes `remove` (if not NULL) from one more thread meanwhile;
 * returns when all are done. */
void ict_concurrent_double_sets(ic_id object, const char *key, int threads, int count,
                                ic_key_path_observation *remove);

/* Sets the weak `manager` of `account` to a new person and releases the person (which dies, the
 * property zeroing), `count` times on each of `threads` threads, and removes `remove` (if not
 * NULL) from one more thread meanwhile; returns when all are done. */
void ict_concurrent_manager_churn(ic_id account, int threads, int count,
                                  ic_key_path_observation *remove);

/* A call log for ic_object_hook_every_method: each call as ic_invocation_describe gives it,
 * and each skipped selector as "skip <name> <status>". */
typedef struct ict_call_log ict_call_log;
ict_call_log *ict_call_log_create(void);
void ict_call_log_destroy(ict_call_log *log);
void ict_call_log_hook(ic_invocation *call, void *context); /* an ic_observer_fn */
void ict_call_log_skipped(ic_sel sel, ic_status status, const char *message, void *context);
const char *ict_call_log_calls(ict_call_log *log);
const char *ict_call_log_skips(ict_call_log *log);

#endif /* ICT_SPY_H */
