/* The system libffi, found through pkg-config (see Package.swift). Only the C runtime's
 * implementation files include <ffi.h>; no public header of CInterception does. */
#include <ffi.h>
