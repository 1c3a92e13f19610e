/* SPDX-License-Identifier: GPL-2.0 */
/*
 * harness.h - the kselftest harness (Debian's linux-source-6.1) as the
 * unit tests use it.  Its TEST() gives a test 30 s of wall time, which
 * an ASan build of a long test shares with whatever else the machine
 * runs: a loaded machine would make it red, not slow.  The tests
 * assert behaviour, never speed, so each gets 10 minutes; a test that
 * hangs still ends.
 */
#ifndef HN_TEST_HARNESS_H
#define HN_TEST_HARNESS_H

#include "kselftest_harness.h"

#undef TEST_TIMEOUT_DEFAULT
#define TEST_TIMEOUT_DEFAULT 600

#endif /* HN_TEST_HARNESS_H */
