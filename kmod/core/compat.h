/* SPDX-License-Identifier: GPL-2.0 */
/*
 * compat.h - the one header the portable engine in kmod/core/ includes.
 *
 * The engine is compiled twice: into hybridnet.ko (__KERNEL__ defined) and
 * into a user-space static library for hnsim and the unit tests.  This file
 * maps the few services the engine needs (fixed-width types, errno values,
 * zeroed allocation and its size, memset, snprintf, 64-bit division, a
 * point to yield the CPU) onto each environment.
 * Nothing else from the kernel or libc may be used under kmod/core/.
 */
#ifndef HN_COMPAT_H
#define HN_COMPAT_H

#ifdef __KERNEL__
#include <linux/types.h>
#include <linux/errno.h>
#include <linux/string.h>
#include <linux/slab.h>
#include <linux/math64.h>
#include <linux/kernel.h>		/* ARRAY_SIZE */
#include <linux/mm.h>			/* PAGE_ALIGN */
#include <linux/sched.h>		/* cond_resched */

/* The engine runs under a mutex (see kmod/main.c), never in atomic context. */
static inline void *hn_zalloc(size_t size)
{
	return kvzalloc(size, GFP_KERNEL);
}

static inline void hn_free(void *p)
{
	kvfree(p);
}

/* What hn_zalloc(@size) takes, as the allocator rounds it (at most). */
static inline size_t hn_alloc_size(size_t size)
{
	return size <= KMALLOC_MAX_SIZE ? kmalloc_size_roundup(size) :
	       PAGE_ALIGN(size);
}

/* In long loops that free or walk everything: let others run. */
static inline void hn_resched(void)
{
	cond_resched();
}

static inline u64 hn_div(u64 a, u64 b)
{
	return div64_u64(a, b);
}

static inline u64 hn_mul_div(u64 a, u64 b, u64 c)
{
	return mul_u64_u64_div_u64(a, b, c);
}

#else /* user space */
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <assert.h>		/* static_assert, as linux/build_bug.h's */

/* the kernel's fixed-width names, from the compiler's own definitions */
typedef __UINT8_TYPE__ u8;
typedef __UINT16_TYPE__ u16;
typedef __UINT32_TYPE__ u32;
typedef __UINT64_TYPE__ u64;
typedef __INT32_TYPE__ s32;
typedef __INT64_TYPE__ s64;

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#endif
/* __always_inline: glibc's sys/cdefs.h has it, as the kernel's headers */

static inline void *hn_zalloc(size_t size)
{
	return calloc(1, size);
}

static inline void hn_free(void *p)
{
	free(p);
}

/* glibc's chunk: the size and an 8-byte header, in 16-byte units */
static inline size_t hn_alloc_size(size_t size)
{
	return (size + 8 + 15) & ~(size_t)15;
}

static inline void hn_resched(void)
{
}

static inline u64 hn_div(u64 a, u64 b)
{
	return a / b;
}

static inline u64 hn_mul_div(u64 a, u64 b, u64 c)
{
	return (u64)((__uint128_t)a * b / c);
}
#endif /* __KERNEL__ */

#define HN_U64_MAX ((u64)~0ULL)

/* Fails to compile unless @cond holds (a compile-time check, both worlds). */
#define HN_STATIC_ASSERT(cond) ((void)sizeof(char[(cond) ? 1 : -1]))

/* index of the lowest set bit; x != 0 */
static inline u32 hn_ctz64(u64 x)
{
#ifdef __KERNEL__
	return __ffs64(x);
#else
	return (u32)__builtin_ctzll(x);
#endif
}

static inline u64 hn_min64(u64 a, u64 b)
{
	return a < b ? a : b;
}

static inline u64 hn_max64(u64 a, u64 b)
{
	return a > b ? a : b;
}

#endif /* HN_COMPAT_H */
