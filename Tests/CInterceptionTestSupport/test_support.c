#include "test_support.h"
int ic_test_support_ready(void) { return 1; }
