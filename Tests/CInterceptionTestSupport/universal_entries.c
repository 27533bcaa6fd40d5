/*
 * universal_entries.c — the universal trampoline's entries by address (ict_universal.h).
 */
#include "ict_universal.h"

/* Hidden in the runtime (IC_PRIVATE): resolved when its objects are linked into this program,
 * NULL (weak) when it links the shared library. */
#define ICT_ENTRY(NAME) extern void NAME(void) __attribute__((weak));
ICT_ENTRY(ic_universal_object_entry)
ICT_ENTRY(ic_universal_object_entry_novec)
ICT_ENTRY(ic_universal_class_entry)
ICT_ENTRY(ic_universal_class_entry_novec)
#if defined(__x86_64__)
ICT_ENTRY(ic_universal_object_entry_sret)
ICT_ENTRY(ic_universal_object_entry_sret_novec)
ICT_ENTRY(ic_universal_class_entry_sret)
ICT_ENTRY(ic_universal_class_entry_sret_novec)
#endif
#undef ICT_ENTRY

/* The kind of `imp` among the four entries of one side (NULL where the CPU has no sret entry). */
static ict_universal_entry kind_of(ic_imp imp, void (*full)(void), void (*novec)(void),
                                   void (*sret_full)(void), void (*sret_novec)(void))
{
    if (!full || !novec) return ICT_UNIVERSAL_UNKNOWN;
    if (imp == (ic_imp)full) return ICT_UNIVERSAL_FULL;
    if (imp == (ic_imp)novec) return ICT_UNIVERSAL_NOVEC;
    if (sret_full && imp == (ic_imp)sret_full) return ICT_UNIVERSAL_SRET_FULL;
    if (sret_novec && imp == (ic_imp)sret_novec) return ICT_UNIVERSAL_SRET_NOVEC;
    return ICT_UNIVERSAL_NOT_ENTRY;
}

/* The entries of one side: [0] full, [1] novec, [2] sret full, [3] sret novec (NULL where the CPU
 * has no sret entry). */
#if defined(__x86_64__)
#define ICT_SIDE(SIDE)                                                                             \
    {                                                                                              \
        ic_universal_##SIDE##_entry, ic_universal_##SIDE##_entry_novec,                            \
            ic_universal_##SIDE##_entry_sret, ic_universal_##SIDE##_entry_sret_novec               \
    }
#else
#define ICT_SIDE(SIDE)                                                                             \
    {                                                                                              \
        ic_universal_##SIDE##_entry, ic_universal_##SIDE##_entry_novec, NULL, NULL                 \
    }
#endif

ict_universal_entry ict_universal_entry_kind(ic_imp imp, bool class_entry)
{
    void (*const object[4])(void) = ICT_SIDE(object);
    void (*const cls[4])(void) = ICT_SIDE(class);
    void (*const *side)(void) = class_entry ? cls : object;
    return kind_of(imp, side[0], side[1], side[2], side[3]);
}
