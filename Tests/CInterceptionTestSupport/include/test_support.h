#ifndef IC_TEST_SUPPORT_H
#define IC_TEST_SUPPORT_H
int ic_test_support_ready(void);
#endif
