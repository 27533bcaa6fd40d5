#ifndef IC_BASE_H
#define IC_BASE_H
/* The version of the runtime, as "MAJOR.MINOR.PATCH". Immortal string; thread-safe. */
const char *ic_runtime_version(void);
#endif
