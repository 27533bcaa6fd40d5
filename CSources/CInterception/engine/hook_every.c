/*
 * hook_every.c — every method of one object hooked at once (ic_hook_every.h).
 */
#include "ic_hook_every.h"

#include <stdlib.h>

#include "../support/error.h"
#include "interception.h"

/* The selectors of `cls`'s chain, each once, into a malloc'ed array (`*count`); NULL with
 * `*count` 0 and the error recorded when out of memory (or for a chain without methods). */
static ic_sel *chain_selectors(ic_class *cls, size_t *count)
{
    ic_sel *sels = NULL;
    size_t n = 0, capacity = 0;
    *count = 0;
    for (; cls; cls = ic_class_superclass(cls)) {
        size_t method_count = 0;
        ic_error_clear();
        ic_method **methods = ic_class_copy_method_list(cls, &method_count);
        if (!methods && ic_error_status() != IC_OK) {
            free(sels);
            return NULL;
        }
        for (size_t i = 0; i < method_count; i++) {
            ic_sel sel = ic_method_selector(methods[i]);
            bool seen = false;
            for (size_t j = 0; j < n && !seen; j++)
                seen = sels[j] == sel;
            if (seen) continue;
            if (n == capacity) {
                capacity = capacity ? capacity * 2 : 32;
                ic_sel *grown = realloc(sels, capacity * sizeof *grown);
                if (!grown) {
                    free(methods);
                    free(sels);
                    ic_fail(IC_ERR_OUT_OF_MEMORY, "out of memory listing the methods to hook");
                    return NULL;
                }
                sels = grown;
            }
            sels[n++] = sel;
        }
        free(methods);
    }
    *count = n;
    return sels;
}

ic_status ic_object_hook_every_method(ic_id obj, ic_hook_position position, uint32_t options,
                                      ic_observer_fn fn, void *context, ic_hook_skipped_fn skipped,
                                      void *skipped_context, size_t *hooked)
{
    if (hooked) *hooked = 0;
    if (!obj || !fn)
        return ic_fail(IC_ERR_INVALID_ARGUMENT, "ic_object_hook_every_method: %s is NULL",
                       !obj ? "object" : "fn");
    if (ic_object_as_class(obj))
        return ic_fail(IC_ERR_INVALID_ARGUMENT,
                       "ic_object_hook_every_method: a class object cannot be hooked per object");
    if (position != IC_HOOK_BEFORE && position != IC_HOOK_AFTER && position != IC_HOOK_INSTEAD)
        return ic_fail(IC_ERR_INVALID_ARGUMENT, "ic_object_hook_every_method: unknown position %d",
                       (int)position);
    if (options & ~(uint32_t)IC_HOOK_ONE_SHOT)
        return ic_fail(IC_ERR_INVALID_ARGUMENT, "ic_object_hook_every_method: unknown option 0x%x",
                       (unsigned)(options & ~(uint32_t)IC_HOOK_ONE_SHOT));
    if (ic_object_is_deallocating(obj))
        return ic_fail(IC_ERR_DEALLOCATING, "ic_object_hook_every_method: the object is being "
                                            "deallocated");
    size_t count = 0;
    ic_sel *sels = chain_selectors(ic_intercept_original_class(obj), &count);
    if (!sels && ic_error_status() != IC_OK) return ic_error_status();
    ic_observer_token *tokens = count ? malloc(count * sizeof *tokens) : NULL;
    if (count && !tokens) {
        free(sels);
        return ic_fail(IC_ERR_OUT_OF_MEMORY, "out of memory hooking every method");
    }
    size_t added = 0;
    ic_status failure = IC_OK;
    for (size_t i = 0; i < count && failure == IC_OK; i++) {
        ic_status status =
            ic_hook_object(obj, sels[i], position, options, fn, context, NULL, &tokens[added]);
        if (status == IC_OK)
            added++;
        else if (status == IC_ERR_OUT_OF_MEMORY || status == IC_ERR_DEALLOCATING)
            failure = status;
        else if (skipped) {
            /* A copy: the callback may make calls that overwrite the thread's message. */
            char message[768];
            skipped(sels[i], status, ic_error_copy(message, sizeof message), skipped_context);
        }
    }
    free(sels);
    if (failure != IC_OK) {
        /* Nothing stays: the hooks added are removed (which cannot fail) and the error kept. */
        for (size_t i = 0; i < added; i++)
            ic_hook_remove(tokens[i]);
        free(tokens);
        return ic_fail(failure, failure == IC_ERR_OUT_OF_MEMORY
                                    ? "out of memory hooking every method"
                                    : "ic_object_hook_every_method: the object is being "
                                      "deallocated");
    }
    free(tokens);
    if (hooked) *hooked = added;
    return IC_OK;
}
