/*
 * interception.h — the public C API of the Interception runtime (umbrella header).
 *
 * Object runtime: selectors, classes, methods, objects, messaging, type encodings, invocations,
 * closure IMPs, associated objects, weak references, protocols. Interception engine:
 * ic_intercept.h (observers), ic_hook.h (before / instead / after hooks).
 *
 * Include it as <interception/interception.h>. Entry points meant only for language bindings
 * (ic_bindings.h) are not included here.
 */
#ifndef INTERCEPTION_H
#define INTERCEPTION_H

#include "ic_base.h"
#include "ic_selector.h"
#include "ic_class.h"
#include "ic_protocol.h"
#include "ic_property.h"
#include "ic_object.h"
#include "ic_message.h"
#include "ic_signature.h"
#include "ic_invocation.h"
#include "ic_closure.h"
#include "ic_intercept.h"
#include "ic_hook.h"

#endif /* INTERCEPTION_H */
