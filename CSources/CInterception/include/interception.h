/* Interception: the public C API (umbrella header). */
#ifndef INTERCEPTION_H
#define INTERCEPTION_H
#include "ic_base.h"
#endif
