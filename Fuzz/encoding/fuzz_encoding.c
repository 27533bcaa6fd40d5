/*
 * fuzz_encoding.c — libFuzzer target for the type-encoding parser.
 *
 * Area: type encodings (encoding.c, signature.c), invocations, closure IMPs.
 * Purpose: arbitrary bytes, as a NUL-terminated string, go through ic_encoding_validate,
 * ic_encoding_size_and_alignment (type after type) and ic_signature_parse, under AddressSanitizer
 * and UndefinedBehaviorSanitizer. A signature that parses is read through every accessor, gets a
 * heap invocation (filled, read back, copied, destroyed) and is called through ffi_call into a
 * closure IMP of the same signature, so the parser's sizes, libffi's layouts and the invocation
 * buffers must agree. Invariants that do not hold abort, which libFuzzer reports as a crash:
 *   - an encoding that parses also validates;
 *   - parsing a signature's normalized encoding gives the same signature (interning);
 *   - every argument's and the return type's size and alignment are those of its encoding
 *     measured alone (an array argument is a pointer); sizes are multiples of alignments, which
 *     are powers of two;
 *   - a refused encoding reports a position inside the string.
 * Build and run: Fuzz/encoding/run.sh [seconds].
 */
#include <interception/interception.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* By-value data above this is not called: ffi_call and closures copy arguments onto the stack,
 * and a method taking megabytes by value would overflow it in C as well. */
#define CALL_LIMIT (1u << 20)

#define CHECK(cond)                                                                                \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "fuzz_encoding: invariant failed: %s (line %d)\n", #cond, __LINE__);   \
            abort();                                                                               \
        }                                                                                          \
    } while (0)

static bool is_power_of_two(size_t x)
{
    return x && !(x & (x - 1));
}

static void check_position(size_t length)
{
    ic_status s = ic_error_status();
    if (s == IC_ERR_MALFORMED_ENCODING || s == IC_ERR_UNSUPPORTED_ENCODING) {
        long at = ic_error_position();
        CHECK(at >= 0 && (size_t)at <= length);
    }
}

/* Size and alignment of a value of encoding `type` measured alone. */
static void expect_layout(const char *type, size_t size, size_t alignment, bool argument)
{
    if (argument && type[0] == '[') { /* decays to a pointer */
        CHECK(size == sizeof(void *) && alignment == _Alignof(void *));
        return;
    }
    size_t s = 0, a = 0;
    const char *end = NULL;
    CHECK(ic_encoding_size_and_alignment(type, &s, &a, &end) == IC_OK);
    CHECK(*end == '\0');
    CHECK(s == size && a == alignment);
}

/* The closure IMP's body: reads every argument, sets a return value. */
static void callee(ic_invocation *call, void *context)
{
    unsigned char *scratch = context;
    const ic_signature *sig = ic_invocation_signature(call);
    for (size_t i = 0; i < ic_signature_argument_count(sig); i++)
        CHECK(ic_invocation_get_argument(call, i, scratch) == IC_OK);
    memset(scratch, 0x01, ic_signature_return_size(sig)); /* a valid value of every type */
    if (ic_signature_return_size(sig))
        CHECK(ic_invocation_set_return_value(call, scratch) == IC_OK);
}

static void exercise(const ic_signature *sig)
{
    size_t count = ic_signature_argument_count(sig);
    CHECK(count <= IC_ENCODING_MAX_ARGUMENTS);
    CHECK(ic_signature_parse(ic_signature_types(sig)) == sig);
    size_t total = ic_signature_return_size(sig), largest = total;
    const char *ret = ic_signature_return_type(sig);
    if (ret[0] == 'v' && ret[1] == '\0')
        CHECK(ic_signature_return_size(sig) == 0 && ic_signature_return_alignment(sig) == 1);
    else
        expect_layout(ret, ic_signature_return_size(sig), ic_signature_return_alignment(sig),
                      false);
    for (size_t i = 0; i < count; i++) {
        size_t size = ic_signature_argument_size(sig, i);
        expect_layout(ic_signature_argument_type(sig, i), size,
                      ic_signature_argument_alignment(sig, i), true);
        total += size;
        largest = size > largest ? size : largest;
    }
    CHECK(ic_signature_argument_type(sig, count) == NULL);
    if (total > CALL_LIMIT) return;

    ic_invocation *inv = ic_invocation_create(sig);
    CHECK(inv);
    unsigned char *value = malloc(largest + 1);
    unsigned char *back = malloc(largest + 1);
    for (size_t i = 0; i < count; i++) {
        size_t size = ic_signature_argument_size(sig, i);
        memset(value, (int)(0x11 * (i + 1)), size);
        CHECK(ic_invocation_set_argument(inv, i, value) == IC_OK);
        CHECK(ic_invocation_get_argument(inv, i, back) == IC_OK);
        CHECK(memcmp(value, back, size) == 0);
    }
    CHECK(ic_invocation_set_argument(inv, count, value) == IC_ERR_INDEX_OUT_OF_RANGE);
    ic_invocation *copy = ic_invocation_copy(inv);
    CHECK(copy);
    ic_imp imp = ic_closure_imp_create(sig, callee, back, NULL);
    if (imp) { /* IC_ERR_FFI is possible for shapes libffi refuses */
        CHECK(ic_invocation_invoke_imp(copy, imp) == IC_OK);
        /* The result comes back as set, except a long double's padding: the x87 stack carries
         * 10 of its 16 bytes. */
        size_t rsize = ic_signature_return_size(sig);
        if (rsize && !strchr(ic_signature_return_type(sig), 'D')) {
            CHECK(ic_invocation_get_return_value(copy, value) == IC_OK);
            for (size_t k = 0; k < rsize; k++)
                CHECK(value[k] == 0x01);
        }
        CHECK(ic_closure_imp_destroy(imp) == IC_OK);
    }
    ic_invocation_destroy(copy);
    ic_invocation_destroy(inv);
    free(value);
    free(back);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    memcpy(text, data, size);
    text[size] = '\0';
    size_t length = strlen(text);

    ic_error_clear();
    ic_status valid = ic_encoding_validate(text);
    if (valid != IC_OK) check_position(length);

    for (const char *p = text; *p;) {
        size_t s = 0, a = 0;
        const char *end = NULL;
        if (ic_encoding_size_and_alignment(p, &s, &a, &end) != IC_OK) {
            check_position(length);
            break;
        }
        CHECK(end > p && end <= text + length);
        CHECK(is_power_of_two(a) && s % a == 0);
        p = end;
    }

    const ic_signature *sig = ic_signature_parse(text);
    if (sig) {
        CHECK(valid == IC_OK);
        exercise(sig);
    } else {
        check_position(length);
    }
    free(text);
    return 0;
}
