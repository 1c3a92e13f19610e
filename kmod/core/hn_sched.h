/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hn_sched.h - circuit schedulers: crossbar matching (Ding's Ch. 6) and fat
 * trees with level-wise, local and optimal scheduling (Ch. 7 and the SC2006
 * paper), cited by section ("paper Sec. n" for the paper).
 *
 * Like the engine, these functions are single-threaded (the caller
 * serialises), use integer arithmetic only and allocate only in the
 * create functions.  Every function that takes input from a user checks it
 * and says what is wrong through struct hn_err.
 *
 * hn_sched_run() is the one entry point for a control plane: it runs a named
 * scheduler on a request set and returns one struct hn_route per request.
 */
#ifndef HN_SCHED_H
#define HN_SCHED_H

#include "hn_core.h"

#define HN_XBAR_MAX_NODES	4096	/* N x N bits = 2 MiB per matrix */
#define HN_FT_MAX_NODES		65536	/* w^l */
#define HN_FT_MAX_W		64	/* one u64 link vector per switch */
#define HN_FT_MAX_LEVELS	16	/* w >= 2 and w^l <= 65536 */
#define HN_FT_NOFAIL		0xff
#define HN_CUBE_MAX_DIMS	12	/* k >= 2 and k^n <= 4096 */

/*
 * The nodes of a fabric of @n stages or dimensions of @k (k^n: a fat
 * tree's w^l, a cube's or a GH's k^n), or a number past HN_MAX_NODES as
 * soon as it is one.
 */
static inline u64 hn_shape_nodes(u32 k, u32 n)
{
	u64 v = 1;
	u32 i;

	for (i = 0; i < n && v <= HN_MAX_NODES; i++)
		v *= k;
	return v;
}

/* the fabric's kind: the schedulers' and the engine's (topo.h) */
enum hn_topology {
	HN_TOPO_CROSSBAR = 0,	/* one N-port switch (topo_xbar.c) */
	HN_TOPO_FATTREE = 1,	/* FT(l, w), Ch. 7 (topo_ft.c) */
	HN_TOPO_MESH = 2,	/* k-ary n-cube without wrap (topo_cube.c) */
	HN_TOPO_TORUS = 3,	/* k-ary n-cube (topo_cube.c) */
	HN_TOPO_GH = 4,		/* generalized hypercube GH(n, k) (topo_gh.c) */
};

enum hn_sched_algo {
	HN_SCHED_GREEDY = 0,		/* crossbar: row-major first fit */
	HN_SCHED_KSTEP,			/* crossbar: greedy + paths <= K */
	HN_SCHED_HOPCROFT_KARP,		/* crossbar: maximum matching */
	HN_SCHED_LEVELWISE,		/* fat tree: Ch. 7 */
	HN_SCHED_LOCAL_GREEDY,		/* fat tree: lowest free up-port */
	HN_SCHED_LOCAL_RANDOM,		/* fat tree: random free up-port */
	HN_SCHED_OPTIMAL,		/* fat tree: routes any permutation */
	HN_SCHED_NALGOS
};

/* Fat-tree scheduler options (DESIGN: level-major, release on failure). */
enum hn_sched_flags {
	HN_SCHED_REQUEST_MAJOR	= 1 << 0, /* level-wise: one request at a time */
	HN_SCHED_KEEP_ON_FAIL	= 1 << 1, /* a failed request keeps its links */
	HN_SCHED_ALL_FLAGS	= (1 << 2) - 1,
};

/*
 * The outcome for one request.  For a fat tree, level is the common
 * ancestor level H (0: source and destination share a leaf switch) and
 * port[0..H-1] are the up-ports P_0..P_{H-1} of a granted route: the route
 * goes up through Ulink(h, sigma_h, P_h) and down through
 * Dlink(h, delta_h, P_h) (Theorem 4, Sec. 7.3).  For a crossbar, level is 0.
 */
struct hn_route {
	u32 src;
	u32 dst;
	u8 granted;
	u8 level;		/* H */
	u8 fail;		/* level where it failed, HN_FT_NOFAIL */
	u8 nports;		/* port[] entries set */
	u8 port[HN_FT_MAX_LEVELS];
};

struct hn_sched_result {
	u32 requests;
	u32 granted;
	u32 local;		/* granted inside one leaf switch (H = 0) */
	u32 rounds;		/* K-step: augmenting paths applied */
	u64 steps;		/* K-step: unfolded stages; HK: phases */
};

struct hn_sched_params {
	u32 topology;		/* enum hn_topology */
	u32 nodes;		/* crossbar: N, 2..HN_XBAR_MAX_NODES */
	u32 levels;		/* fat tree: l >= 1 */
	u32 width;		/* fat tree: w, 2..64, w^l <= 65536 */
	u32 algo;		/* enum hn_sched_algo */
	u32 k;			/* K-step: longest augmenting path, >= 1 */
	u32 max_rounds;		/* K-step: 0 = until no path <= K */
	u32 flags;		/* enum hn_sched_flags */
	u64 seed;		/* local-random */
};

/* ---------------------------------------------------------------------- */
/* Crossbar matching (Ch. 6).  R is the request matrix, M the matching. */

struct hn_xbar;

int hn_xbar_create(u32 n, struct hn_xbar **xp, struct hn_err *err);
void hn_xbar_destroy(struct hn_xbar *x);
u64 hn_xbar_mem_bytes(const struct hn_xbar *x);

/* R := req (distinct pairs, any src and dst < N); M := empty. */
int hn_xbar_set_requests(struct hn_xbar *x, const struct hn_pair *req,
			 u32 nreq, struct hn_err *err);
/* M := pairs, a matching inside R. */
int hn_xbar_set_match(struct hn_xbar *x, const struct hn_pair *pairs,
		      u32 npairs, struct hn_err *err);
void hn_xbar_clear_match(struct hn_xbar *x);
u32 hn_xbar_size(const struct hn_xbar *x);		/* |M| */
u32 hn_xbar_mate(const struct hn_xbar *x, u32 src);	/* or HN_NONE */

/* Complete M first fit, row-major (Ch. 5, Sec. 5.3.2).  Returns |M|. */
u32 hn_xbar_greedy(struct hn_xbar *x);

/*
 * One optimisation round of Figs. 6.6-6.7 with the errata fixed: find a
 * shortest augmenting path of length at most k (edges), isolate the lowest
 * one and apply M := M XOR P.  Returns 1 when |M| grew by exactly one, 0
 * when no augmenting path of length <= k exists, -EINVAL when k is 0.
 * path (2N entries, may be NULL) receives x_0, y_0, x_1, y_1, ..., the
 * path from its free X end to its free Y end; *len its length in edges.
 * *steps (may be NULL) is increased by the unfolded stages traversed.
 */
int hn_xbar_augment(struct hn_xbar *x, u32 k, u32 *path, u32 *len,
		    u64 *steps);

/*
 * Rounds until no augmenting path of length <= k remains (or max_rounds,
 * when not 0).  lens (N entries, may be NULL) receives each round's path
 * length.  res->rounds and res->steps are added to.  Returns |M|.
 */
u32 hn_xbar_kstep(struct hn_xbar *x, u32 k, u32 max_rounds, u32 *lens,
		  struct hn_sched_result *res);

/* Augment M to a maximum matching (Hopcroft-Karp).  Returns |M|. */
u32 hn_xbar_hopcroft_karp(struct hn_xbar *x, u64 *phases);

/* M is a matching inside R and the internal state agrees with it. */
int hn_xbar_check(const struct hn_xbar *x, struct hn_err *err);

/* ---------------------------------------------------------------------- */
/*
 * Fat trees FT(l, w) (Ch. 7): w^l nodes, l levels of w^(l-1) switches.
 * hn_ft_create(), _destroy(), _clear(), _schedule() and _check() are in
 * the module; the other hn_ft_*() (fattree_query.c) are for the tests and
 * tools, in the user-space library only.
 */

struct hn_ft;

enum hn_ft_dir {
	HN_FT_UP = 0,		/* Ulink(h, tau, i) */
	HN_FT_DOWN = 1,		/* Dlink(h, tau, i) */
};

int hn_ft_create(u32 levels, u32 width, struct hn_ft **ftp,
		 struct hn_err *err);
void hn_ft_destroy(struct hn_ft *ft);
u32 hn_ft_levels(const struct hn_ft *ft);
u32 hn_ft_width(const struct hn_ft *ft);
u32 hn_ft_nodes(const struct hn_ft *ft);
u32 hn_ft_switches(const struct hn_ft *ft);		/* per level */

/* Naming: SW(h, tau), tau = t_{l-2}..t_0 in base w (Sec. 7.2). */
u32 hn_ft_leaf(const struct hn_ft *ft, u32 node);	/* node div w */
u32 hn_ft_digit(const struct hn_ft *ft, u32 tau, u32 i);
int hn_ft_name(const struct hn_ft *ft, u32 h, u32 tau, char *buf, u32 len);

/* Theorem 3 (Sec. 7.3): the switch above (h, tau) through up-port p. */
u32 hn_ft_parent(const struct hn_ft *ft, u32 h, u32 tau, u32 p);
/* The switch below (h, tau), h >= 1, through down-port d. */
u32 hn_ft_child(const struct hn_ft *ft, u32 h, u32 tau, u32 d);
/* Common-ancestor level H of two leaf switches. */
u32 hn_ft_common_level(const struct hn_ft *ft, u32 sigma, u32 delta);

/* Link state: bit i of a vector is 1 when port i's link is free (Sec. 7.3). */
void hn_ft_clear(struct hn_ft *ft);
u64 hn_ft_links(const struct hn_ft *ft, u32 dir, u32 h, u32 tau);
int hn_ft_set_link(struct hn_ft *ft, u32 dir, u32 h, u32 tau, u32 port,
		   bool free, struct hn_err *err);

/*
 * Route req[0..nreq-1], a partial permutation (every node at most once a
 * source and once a destination), on the current link state; out[i] is
 * req[i]'s outcome.  algo is HN_SCHED_LEVELWISE, _LOCAL_GREEDY,
 * _LOCAL_RANDOM (uses *seed) or _OPTIMAL (needs every link free).
 */
int hn_ft_schedule(struct hn_ft *ft, u32 algo, u32 flags, u64 *seed,
		   const struct hn_pair *req, u32 nreq, struct hn_route *out,
		   struct hn_sched_result *res, struct hn_err *err);

/*
 * The granted routes are legal: each connects its source and destination,
 * no link or node port carries two of them, and the link state marks them
 * busy.  With exact, no other link is busy either.
 */
int hn_ft_check(struct hn_ft *ft, const struct hn_route *r, u32 n, bool exact,
		struct hn_err *err);

/* ---------------------------------------------------------------------- */
/* One entry point: run a named scheduler on a request set. */

const char *hn_sched_algo_name(u32 algo);		/* NULL if none */
int hn_sched_algo_parse(const char *name);		/* or -EINVAL */
int hn_sched_check_params(const struct hn_sched_params *p,
			  struct hn_err *err);
int hn_sched_run(const struct hn_sched_params *p, const struct hn_pair *req,
		 u32 nreq, struct hn_route *out, struct hn_sched_result *res,
		 struct hn_err *err);

#endif /* HN_SCHED_H */
