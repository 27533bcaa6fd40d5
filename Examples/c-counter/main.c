#include <interception/interception.h>
#include <stdio.h>

static int add(ic_id self, ic_sel _cmd, int x)
{
    return x + 1;
}

static void before_add(ic_invocation *call, void *context)
{
    int x;
    ic_invocation_get_argument(call, 2, &x); /* 0: self, 1: _cmd, 2: x */
    printf("add: %d\n", x);
}

int main(void)
{
    ic_class *Counter = ic_class_allocate("Counter", NULL, 0); /* subclass of Object */
    ic_sel add_ = ic_sel_register("add:");
    ic_class_add_method(Counter, add_, (ic_imp)add, "i@:i"); /* int (id, SEL, int) */
    ic_class_register(Counter);

    ic_id counter = ic_class_create_instance(Counter); /* retain count 1 */
    ic_observer_token token;
    ic_intercept_add_observer(counter, add_, IC_OBSERVE_BEFORE, before_add, NULL, NULL, &token);

    int r = IC_MSG(IC_FN(int, int), counter, add_, 41); /* prints "add: 41"; 42 */

    ic_intercept_remove_observer(token); /* returns once no call of the observer can run */
    ic_release(counter);                 /* sends dealloc */
    return r == 42 ? 0 : 1;
}
