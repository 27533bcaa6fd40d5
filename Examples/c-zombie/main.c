/*
 * A use after release, caught by zombies: run with IC_ZOMBIES=1 and the send below traps with
 * "-[Counter add:] sent to deallocated instance 0x..." instead of reading freed memory.
 * (scripts/c-example.sh runs it that way and checks the message.)
 */
#include <interception/interception.h>
#include <stdio.h>

static int add(ic_id self, ic_sel _cmd, int x)
{
    (void)self, (void)_cmd;
    return x + 1;
}

int main(void)
{
    ic_class *Counter = ic_class_allocate("Counter", NULL, 0);
    ic_sel add_ = ic_sel_register("add:");
    ic_class_add_method(Counter, add_, (ic_imp)add, "i@:i");
    ic_class_register(Counter);

    ic_id counter = ic_class_create_instance(Counter);
    ic_release(counter); /* deallocated: a zombie if IC_ZOMBIES=1 */
    printf("zombies %s\n", ic_zombies_enabled() ? "on" : "off");
    fflush(stdout);
    return IC_MSG(IC_FN(int, int), counter, add_, 41); /* the bug: traps on a zombie */
}
