/*
 * ic_base.h — basic types, status codes and error reporting of the Interception runtime.
 *
 * Every exported symbol of the runtime starts with `ic_` (types and functions) or `IC_` (macros
 * and enumerators). The runtime is thread-safe: every function may be called from any thread
 * unless its documentation says otherwise.
 */
#ifndef IC_BASE_H
#define IC_BASE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
#define IC_EXTERN_C_BEGIN extern "C" {
#define IC_EXTERN_C_END   }
#else
#define IC_EXTERN_C_BEGIN
#define IC_EXTERN_C_END
#endif

#define IC_EXPORT __attribute__((visibility("default")))

IC_EXTERN_C_BEGIN

/* ---------------------------------------------------------------------------------------------
 * Core types
 * ------------------------------------------------------------------------------------------- */

/* An object of the runtime (the `id` of Objective-C). Opaque; the class pointer comes first. */
typedef struct ic_object *ic_id;

/* A class. Opaque. Registered classes are immortal. */
typedef struct ic_class ic_class;

/* A selector: an interned method name. Immortal; compare selectors with `==`. */
typedef const struct ic_selector *ic_sel;

/* A method implementation. Its real type is `R (*)(ic_id self, ic_sel _cmd, args...)`, as
 * described by the method's type encoding; cast it to that type before calling it. */
typedef void (*ic_imp)(void);

/* A method of a class: selector, implementation and type encoding. Immortal. */
typedef struct ic_method ic_method;

/* A parsed type encoding of a function or method. Interned and immortal. See ic_signature.h. */
typedef struct ic_signature ic_signature;

/* A call packaged as data (the NSInvocation of this runtime). See ic_invocation.h. */
typedef struct ic_invocation ic_invocation;

/* ---------------------------------------------------------------------------------------------
 * Status codes and the thread-local last error
 * ------------------------------------------------------------------------------------------- */

typedef enum ic_status {
    IC_OK = 0,
    IC_ERR_INVALID_ARGUMENT,         /* NULL or otherwise invalid argument */
    IC_ERR_OUT_OF_MEMORY,            /* an allocation failed */
    IC_ERR_MALFORMED_ENCODING,       /* a type encoding does not follow the grammar */
    IC_ERR_UNSUPPORTED_ENCODING,     /* well-formed, but cannot be called (union, bit-field…) */
    IC_ERR_DUPLICATE_CLASS,          /* a class with this name already exists */
    IC_ERR_CLASS_NOT_REGISTERED,     /* the class must be registered first */
    IC_ERR_CLASS_ALREADY_REGISTERED, /* the class is registered; the operation needs it not to be */
    IC_ERR_METHOD_EXISTS,            /* the class itself already implements the selector */
    IC_ERR_METHOD_NOT_FOUND,         /* the selector is not implemented */
    IC_ERR_INDEX_OUT_OF_RANGE,       /* an argument index beyond the signature */
    IC_ERR_SIGNATURE_MISMATCH,       /* an encoding that does not fit where it is used */
    IC_ERR_NOT_A_CLOSURE,            /* the IMP was not made by ic_closure_imp_create */
    IC_ERR_DEALLOCATING,             /* the object is being deallocated */
    IC_ERR_INCOMPATIBLE_CLASS,       /* an object cannot be moved to that class */
    IC_ERR_FFI,                      /* libffi refused to prepare a call or closure */
    IC_ERR_LIMIT,                    /* a fixed limit of the runtime was reached */
    /* Interception engine (ic_intercept.h) */
    IC_ERR_FORBIDDEN_SELECTOR,    /* this selector must not be intercepted */
    IC_ERR_UNSUPPORTED_SIGNATURE, /* the method's signature cannot be intercepted */
    IC_ERR_CLASS_SWAPPED,         /* the object's class was changed by someone else */
    IC_ERR_COLLISION,             /* an IMP or class changed under the engine while swapping */
    IC_ERR_OBSERVER_NOT_FOUND,    /* unknown observer token, or already removed */
    /* Properties and key-value coding (ic_property.h) */
    IC_ERR_PROPERTY_EXISTS, /* the class itself already declares a property of that name */
    IC_ERR_UNKNOWN_KEY,     /* no accessor answers the key */
    IC_ERR_READONLY_KEY,    /* the key's property is readonly */
} ic_status;

/* The enumerator's name, e.g. "IC_ERR_MALFORMED_ENCODING". Immortal string. */
IC_EXPORT const char *ic_status_name(ic_status status);

/*
 * The last error of the calling thread. Functions that fail return a status code (or NULL) and
 * record the status, a message and, for type encodings, the offending position here. Successful
 * calls leave the last error unchanged (as errno does).
 */
IC_EXPORT ic_status ic_error_status(void);

/* The message of the last error, e.g. "malformed type encoding "{P=ii" at 4: expected '}'".
 * Valid until the next failing call on this thread; "" if none. */
IC_EXPORT const char *ic_error_message(void);

/* The offending byte offset in a type encoding for encoding errors; -1 otherwise. */
IC_EXPORT long ic_error_position(void);

/* Resets the calling thread's last error to IC_OK. */
IC_EXPORT void ic_error_clear(void);

/* The version of the runtime, as "MAJOR.MINOR.PATCH". Immortal string. */
IC_EXPORT const char *ic_runtime_version(void);

IC_EXTERN_C_END

#endif /* IC_BASE_H */
