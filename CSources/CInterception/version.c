#include "ic_base.h"
const char *ic_runtime_version(void) { return "0.1.0"; }
