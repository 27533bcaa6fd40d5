/*
 * ic_describe.h — values and calls as text, for logs, spies and test failures.
 *
 * Both functions write as snprintf does: at most `length` bytes including the terminating NUL
 * (nothing when `length` is 0; `buffer` may then be NULL), and return the length the whole text
 * has (excluding the NUL), so a result >= `length` means it was cut (call again with a buffer of
 * result + 1 bytes). They allocate nothing (ic_format_value parses the type on the stack; only a
 * type of more than about 20 nested parts takes memory, and may then fail with
 * IC_ERR_OUT_OF_MEMORY).
 *
 * Formats, by type encoding: signed and unsigned integers in decimal (`c` too: it is often a
 * BOOL), `B` as true or false, `f` `d` `D` as the shortest decimal that reads back as the same
 * value (25.5, 0.1, 1e+100, inf, nan), `@` as `<Class: 0x...>` (the class an intercepted
 * object was made as) or nil, `#` as the class's name or Nil, `:` as `@selector(name)` or NULL,
 * `*` as the string in double quotes (with `\"` `\\` `\n` `\t` and `\xHH` escapes) or NULL,
 * pointers (`^`, `?`) as 0x... or NULL, a struct as {x, y} with its fields formatted in turn (or
 * {Name} when its fields are not given), an array as [a, b, c], `v` as void. Qualifiers
 * (r n N o O R V) are skipped.
 */
#ifndef IC_DESCRIBE_H
#define IC_DESCRIBE_H

#include "ic_base.h"
#include "ic_invocation.h"

IC_EXTERN_C_BEGIN

/*
 * Formats the value at `value`, of the single type encoding `type`, into `buffer` (above).
 * Errors: -1 with IC_ERR_INVALID_ARGUMENT (NULL type or value; NULL buffer with a length),
 * IC_ERR_MALFORMED_ENCODING, IC_ERR_UNSUPPORTED_ENCODING (a union or bit-field, or trailing
 * text after the type), IC_ERR_OUT_OF_MEMORY (above); the buffer then holds "" (if it has room
 * for it).
 */
IC_EXPORT int ic_format_value(const char *type, const void *value, char *buffer, size_t length);

/*
 * Describes a call: `-[Account deposit:] (25.5)` for an instance (its class as it was made, not
 * an interception subclass), `+[Account named:] ("x")` for a class object, the arguments after
 * the selector formatted as ic_format_value does, separated by ", " (no parentheses when there
 * are none; an array argument, passed as a pointer, as its address; one that cannot be
 * formatted, a union, as "?"). Errors: -1 with IC_ERR_INVALID_ARGUMENT (NULL invocation; NULL
 * buffer with a length).
 */
IC_EXPORT int ic_invocation_describe(const ic_invocation *inv, char *buffer, size_t length);

IC_EXTERN_C_END

#endif /* IC_DESCRIBE_H */
