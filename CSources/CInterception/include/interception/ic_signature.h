/*
 * ic_signature.h — Objective-C type encodings and parsed signatures.
 *
 * Grammar (Apple's "Type Encodings"):
 *   c i s l q C I S L Q   char int short long(32-bit) long-long, and unsigned variants
 *   f d D                 float double long-double
 *   B v * @ # : ?         bool void char* object class selector unknown
 *   @"Name"  @?  ^?       object with a class name, block, function pointer
 *   ^type                 pointer                  [Ntype]  array of N
 *   {name=types}          struct (fields may be preceded by "quoted" names; {name} is an
 *                         incomplete struct, usable behind a pointer)
 *   (name=types)          union                    bN       bit-field of N bits
 *   r n N o O R V         qualifiers (const, in, inout, out, bycopy, byref, oneway): ignored
 *   digits after a type   frame offsets: ignored
 * `l`/`L` are 32-bit and `q`/`Q` 64-bit, as in Objective-C.
 *
 * A signature is the parse of a whole function or method encoding: return type first, then each
 * argument ("i@:i" returns int and takes self, _cmd and an int). Unions, bit-fields, `?` or an
 * incomplete struct as a value, `v` as an argument, zero-sized aggregates and an array returned
 * by value are refused as IC_ERR_UNSUPPORTED_ENCODING; syntax errors as
 * IC_ERR_MALFORMED_ENCODING. Both report the byte offset (ic_error_position()). An array
 * argument decays to a pointer, as in C. Variadic functions cannot be described by an encoding
 * and are therefore never produced.
 *
 * Signatures are interned by their normalized encoding (qualifiers, quoted names and offsets
 * removed): equal meaning gives an equal pointer. They are immortal and immutable; every
 * function here is thread-safe.
 */
#ifndef IC_SIGNATURE_H
#define IC_SIGNATURE_H

#include "ic_base.h"

IC_EXTERN_C_BEGIN

/* Limits of the parser. */
#define IC_ENCODING_MAX_DEPTH     64    /* nesting of pointers, arrays and structs */
#define IC_ENCODING_MAX_ARGUMENTS 128   /* arguments of a signature, self and _cmd included */
#define IC_ENCODING_MAX_LENGTH    65536 /* bytes of an encoding string */

/*
 * Parses a function or method type encoding into a signature (cached).
 * Errors: NULL with IC_ERR_INVALID_ARGUMENT (NULL), IC_ERR_MALFORMED_ENCODING,
 * IC_ERR_UNSUPPORTED_ENCODING, IC_ERR_LIMIT (see limits), IC_ERR_FFI; the position is recorded.
 */
IC_EXPORT const ic_signature *ic_signature_parse(const char *types);

/* The normalized encoding of the whole signature, e.g. "i@:i". */
IC_EXPORT const char *ic_signature_types(const ic_signature *sig);

/* The number of arguments, self and _cmd included for a method. */
IC_EXPORT size_t ic_signature_argument_count(const ic_signature *sig);

/* Whether the first two arguments are an object (`@`) and a selector (`:`). */
IC_EXPORT bool ic_signature_is_method(const ic_signature *sig);

/* The normalized encoding of argument `index`, e.g. "{Point=dd}", or NULL if out of range. */
IC_EXPORT const char *ic_signature_argument_type(const ic_signature *sig, size_t index);

/* The size and alignment of argument `index` as passed (an array argument is a pointer);
 * 0 if out of range. */
IC_EXPORT size_t ic_signature_argument_size(const ic_signature *sig, size_t index);
IC_EXPORT size_t ic_signature_argument_alignment(const ic_signature *sig, size_t index);

/* The normalized encoding, size and alignment of the return type ("v", 0, 1 for void). */
IC_EXPORT const char *ic_signature_return_type(const ic_signature *sig);
IC_EXPORT size_t ic_signature_return_size(const ic_signature *sig);
IC_EXPORT size_t ic_signature_return_alignment(const ic_signature *sig);

/*
 * Size and alignment of the single type at the start of `type` (NSGetSizeAndAlignment).
 * `*end`, if not NULL, receives a pointer just past the type and any frame-offset digits.
 * Errors: as ic_signature_parse.
 */
IC_EXPORT ic_status ic_encoding_size_and_alignment(const char *type, size_t *size,
                                                   size_t *alignment, const char **end);

/*
 * Checks the syntax of a function or method encoding without requiring it to be callable
 * (unions and bit-fields pass). Errors: IC_ERR_MALFORMED_ENCODING with position,
 * IC_ERR_INVALID_ARGUMENT, IC_ERR_LIMIT.
 */
IC_EXPORT ic_status ic_encoding_validate(const char *types);

IC_EXTERN_C_END

#endif /* IC_SIGNATURE_H */
