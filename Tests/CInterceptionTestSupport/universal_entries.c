/*
 * universal_entries.c — the universal trampoline's entries by address (ict_universal.h).
 */
#include "ict_universal.h"

/* Hidden in the runtime (IC_PRIVATE): resolved when its objects are linked into this program,
 * NULL (weak) when it links the shared library. On x86-64 each entry has two more variants that
 * save only the first four (_g4) or three (_g3) integer argument registers: the same kind here;
 * and each _vec2 entry a _vec1 twin that saves only the first vector register: a _vec2 kind here
 * (two at most). */
#if defined(__x86_64__)
#define ICT_ENTRY(NAME)                                                                            \
    extern void NAME(void) __attribute__((weak));                                                  \
    extern void NAME##_g4(void) __attribute__((weak));                                             \
    extern void NAME##_g3(void) __attribute__((weak));
#else
#define ICT_ENTRY(NAME) extern void NAME(void) __attribute__((weak));
#endif
ICT_ENTRY(ic_universal_object_entry)
ICT_ENTRY(ic_universal_object_entry_vec2)
ICT_ENTRY(ic_universal_object_entry_novec)
ICT_ENTRY(ic_universal_class_entry)
ICT_ENTRY(ic_universal_class_entry_vec2)
ICT_ENTRY(ic_universal_class_entry_novec)
#if defined(__x86_64__)
ICT_ENTRY(ic_universal_object_entry_sret)
ICT_ENTRY(ic_universal_object_entry_sret_vec2)
ICT_ENTRY(ic_universal_object_entry_sret_novec)
ICT_ENTRY(ic_universal_class_entry_sret)
ICT_ENTRY(ic_universal_class_entry_sret_vec2)
ICT_ENTRY(ic_universal_class_entry_sret_novec)
ICT_ENTRY(ic_universal_object_entry_x87)
ICT_ENTRY(ic_universal_object_entry_x87_vec2)
ICT_ENTRY(ic_universal_object_entry_x87_novec)
ICT_ENTRY(ic_universal_class_entry_x87)
ICT_ENTRY(ic_universal_class_entry_x87_vec2)
ICT_ENTRY(ic_universal_class_entry_x87_novec)
ICT_ENTRY(ic_universal_object_entry_vec1)
ICT_ENTRY(ic_universal_object_entry_sret_vec1)
ICT_ENTRY(ic_universal_object_entry_x87_vec1)
ICT_ENTRY(ic_universal_class_entry_vec1)
ICT_ENTRY(ic_universal_class_entry_sret_vec1)
ICT_ENTRY(ic_universal_class_entry_x87_vec1)
#endif
#undef ICT_ENTRY

/* The entries of one side, in the order of ict_universal_entry from ICT_UNIVERSAL_FULL on (NULL
 * where the CPU has no sret or x87 entry), for one count of integer registers saved (x86-64:
 * SUFFIX empty, _g4 or _g3). */
#define ICT_KINDS 9
#if defined(__x86_64__)
#define ICT_SIDE(SIDE, SUFFIX)                                                                     \
    {                                                                                              \
        ic_universal_##SIDE##_entry##SUFFIX, ic_universal_##SIDE##_entry_vec2##SUFFIX,             \
            ic_universal_##SIDE##_entry_novec##SUFFIX, ic_universal_##SIDE##_entry_sret##SUFFIX,   \
            ic_universal_##SIDE##_entry_sret_vec2##SUFFIX,                                         \
            ic_universal_##SIDE##_entry_sret_novec##SUFFIX,                                        \
            ic_universal_##SIDE##_entry_x87##SUFFIX, ic_universal_##SIDE##_entry_x87_vec2##SUFFIX, \
            ic_universal_##SIDE##_entry_x87_novec##SUFFIX                                          \
    }
/* The _vec1 entries, in the places of the _vec2 kinds. */
#define ICT_VEC1_SIDE(SIDE, SUFFIX)                                                                \
    {                                                                                              \
        NULL, ic_universal_##SIDE##_entry_vec1##SUFFIX, NULL, NULL,                                \
            ic_universal_##SIDE##_entry_sret_vec1##SUFFIX, NULL, NULL,                             \
            ic_universal_##SIDE##_entry_x87_vec1##SUFFIX, NULL                                     \
    }
#define ICT_GPR_VARIANTS 6
#define ICT_SIDES(SIDE)                                                                            \
    {                                                                                              \
        ICT_SIDE(SIDE, ), ICT_SIDE(SIDE, _g4), ICT_SIDE(SIDE, _g3), ICT_VEC1_SIDE(SIDE, ),         \
            ICT_VEC1_SIDE(SIDE, _g4), ICT_VEC1_SIDE(SIDE, _g3)                                     \
    }
#else
#define ICT_SIDE(SIDE)                                                                             \
    {                                                                                              \
        ic_universal_##SIDE##_entry, ic_universal_##SIDE##_entry_vec2,                             \
            ic_universal_##SIDE##_entry_novec, NULL, NULL, NULL, NULL, NULL, NULL                  \
    }
#define ICT_GPR_VARIANTS 1
#define ICT_SIDES(SIDE)                                                                            \
    {                                                                                              \
        ICT_SIDE(SIDE)                                                                             \
    }
#endif

ict_universal_entry ict_universal_entry_kind(ic_imp imp, bool class_entry)
{
    void (*const object[ICT_GPR_VARIANTS][ICT_KINDS])(void) = ICT_SIDES(object);
    void (*const cls[ICT_GPR_VARIANTS][ICT_KINDS])(void) = ICT_SIDES(class);
    void (*const(*sides)[ICT_KINDS])(void) = class_entry ? cls : object;
    if (!sides[0][0] || !sides[0][1] || !sides[0][2]) return ICT_UNIVERSAL_UNKNOWN;
    for (int g = 0; g < ICT_GPR_VARIANTS; g++)
        for (int i = 0; i < ICT_KINDS; i++)
            if (sides[g][i] && imp == (ic_imp)sides[g][i])
                return (ict_universal_entry)(ICT_UNIVERSAL_FULL + i);
    return ICT_UNIVERSAL_NOT_ENTRY;
}
