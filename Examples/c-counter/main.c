#include <interception/interception.h>
#include <stdio.h>

static int add(ic_id self, ic_sel _cmd, int x)
{
    (void)self, (void)_cmd; /* every method gets its receiver and selector */
    return x + 1;
}

static void before_add(ic_invocation *call, void *context)
{
    (void)context;
    int x;
    ic_invocation_get_argument(call, 2, &x); /* 0: self, 1: _cmd, 2: x */
    printf("add: %d\n", x);
}

/* A failing call returns a status (or NULL) and leaves a thread-local message. */
static int failed(const char *what)
{
    fprintf(stderr, "%s: %s: %s\n", what, ic_status_name(ic_error_status()), ic_error_message());
    return 1;
}

int main(void)
{
    ic_class *Counter = ic_class_allocate("Counter", NULL, 0); /* subclass of Object */
    ic_sel add_ = ic_sel_register("add:");
    if (!Counter || !add_) return failed("Counter");
    if (ic_class_add_method(Counter, add_, (ic_imp)add, "i@:i") != IC_OK) /* int (id, SEL, int) */
        return failed("add:");
    if (ic_class_register(Counter) != IC_OK) return failed("register");

    ic_id counter = ic_class_create_instance(Counter); /* retain count 1 */
    if (!counter) return failed("instance");
    ic_observer_token token;
    if (ic_intercept_add_observer(counter, add_, IC_OBSERVE_BEFORE, before_add, NULL, NULL,
                                  &token) != IC_OK)
        return failed("observe");

    int r = IC_MSG(IC_FN(int, int), counter, add_, 41); /* prints "add: 41"; 42 */

    /* Returns once no call of the observer can run. */
    if (ic_intercept_remove_observer(token) != IC_OK) return failed("remove");
    ic_release(counter); /* sends dealloc */
    return r == 42 ? 0 : 1;
}
