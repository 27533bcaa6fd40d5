/*
 * universal_entries.c — the universal trampoline's entries by address (ict_universal.h).
 */
#include "ict_universal.h"

/* Hidden in the runtime (IC_PRIVATE): resolved when its objects are linked into this program,
 * NULL (weak) when it links the shared library. */
#define ICT_ENTRY(NAME) extern void NAME(void) __attribute__((weak));
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
#endif
#undef ICT_ENTRY

/* The entries of one side, in the order of ict_universal_entry from ICT_UNIVERSAL_FULL on (NULL
 * where the CPU has no sret or x87 entry). */
#define ICT_KINDS 9
#if defined(__x86_64__)
#define ICT_SIDE(SIDE)                                                                             \
    {                                                                                              \
        ic_universal_##SIDE##_entry, ic_universal_##SIDE##_entry_vec2,                             \
            ic_universal_##SIDE##_entry_novec, ic_universal_##SIDE##_entry_sret,                   \
            ic_universal_##SIDE##_entry_sret_vec2, ic_universal_##SIDE##_entry_sret_novec,         \
            ic_universal_##SIDE##_entry_x87, ic_universal_##SIDE##_entry_x87_vec2,                 \
            ic_universal_##SIDE##_entry_x87_novec                                                  \
    }
#else
#define ICT_SIDE(SIDE)                                                                             \
    {                                                                                              \
        ic_universal_##SIDE##_entry, ic_universal_##SIDE##_entry_vec2,                             \
            ic_universal_##SIDE##_entry_novec, NULL, NULL, NULL, NULL, NULL, NULL                  \
    }
#endif

ict_universal_entry ict_universal_entry_kind(ic_imp imp, bool class_entry)
{
    void (*const object[ICT_KINDS])(void) = ICT_SIDE(object);
    void (*const cls[ICT_KINDS])(void) = ICT_SIDE(class);
    void (*const *side)(void) = class_entry ? cls : object;
    if (!side[0] || !side[1] || !side[2]) return ICT_UNIVERSAL_UNKNOWN;
    for (int i = 0; i < ICT_KINDS; i++)
        if (side[i] && imp == (ic_imp)side[i]) return (ict_universal_entry)(ICT_UNIVERSAL_FULL + i);
    return ICT_UNIVERSAL_NOT_ENTRY;
}
