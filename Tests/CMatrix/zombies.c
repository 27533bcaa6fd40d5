/*
 * zombies.c — the zombie trap (SPEC: IC_ZOMBIES): with zombies on, a message to a deallocated
 * object, a retain and a release of it must each end the process with the message naming the
 * class and selector, "-[Class selector] sent to deallocated instance 0x…", on stderr.
 *
 * Each trap runs in a child process whose stderr goes to a pipe; the parent checks that the child
 * died of SIGABRT and what it wrote. A control child that does not touch the zombie must exit 0,
 * so a child that dies for another reason cannot pass.
 *
 * The children are forked, not exec'ed: under qemu-user an exec of the program would need
 * binfmt_misc.
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cm.h"

typedef enum { TOUCH_NOTHING, TOUCH_SEND, TOUCH_RETAIN, TOUCH_RELEASE } touch;

static int add_one(ic_id self, ic_sel cmd, int x)
{
    (void)self, (void)cmd;
    return x + 1;
}

/* In the child: makes a zombie of class `name` and touches it as `how`. */
__attribute__((noreturn)) static void child(const char *name, touch how)
{
    ic_zombies_set_enabled(true);
    ic_class *cls = ic_class_allocate(name, NULL, 0);
    ic_class_add_method(cls, cm_sel("add:"), (ic_imp)add_one, "i@:i");
    ic_class_register(cls);
    ic_id obj = ic_class_create_instance(cls);
    if (IC_MSG(IC_FN(int, int), obj, cm_sel("add:"), 41) != 42) _exit(3);
    ic_release(obj); /* a zombie from here on */
    switch (how) {
    case TOUCH_NOTHING:
        break;
    case TOUCH_SEND:
        IC_MSG(IC_FN(int, int), obj, cm_sel("add:"), 41);
        break;
    case TOUCH_RETAIN:
        ic_retain(obj);
        break;
    case TOUCH_RELEASE:
        ic_release(obj);
        break;
    }
    _exit(0);
}

/* Runs `how` in a child; checks its death (or clean exit) and that its stderr has `expected`. */
static void run(cm_area *area, const char *label, const char *name, touch how, const char *expected)
{
    cm_label("%s", label);
    cm_case(area);
    int fds[2];
    if (!cm_check(area, pipe(fds) == 0, "pipe")) return;
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (!cm_check(area, pid >= 0, "fork")) return;
    if (pid == 0) {
        close(fds[0]);
        dup2(fds[1], STDERR_FILENO);
        child(name, how);
    }
    close(fds[1]);
    char text[4096];
    size_t length = 0;
    ssize_t n;
    while ((n = read(fds[0], text + length, sizeof text - 1 - length)) > 0)
        length += (size_t)n;
    text[length] = '\0';
    close(fds[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    if (!expected) {
        cm_check(area, WIFEXITED(status) && WEXITSTATUS(status) == 0,
                 "the control child did not exit 0 (status 0x%x): %s", (unsigned)status, text);
        return;
    }
    cm_check(area, WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT,
             "the child was not stopped by SIGABRT (status 0x%x)", (unsigned)status);
    cm_check(area, strstr(text, expected) && strstr(text, "sent to deallocated instance 0x"),
             "stderr lacks \"%s ... sent to deallocated instance 0x\": %s", expected, text);
}

void cm_run_zombies(void)
{
    cm_area *area = cm_area_named("zombie trap");
    run(area, "a zombie left alone", "CMZombieControl", TOUCH_NOTHING, NULL);
    run(area, "a message to a zombie", "CMZombieSend", TOUCH_SEND, "-[CMZombieSend add:]");
    run(area, "ic_retain of a zombie", "CMZombieRetain", TOUCH_RETAIN, "-[CMZombieRetain retain]");
    run(area, "ic_release of a zombie", "CMZombieRelease", TOUCH_RELEASE,
        "-[CMZombieRelease release]");
}
