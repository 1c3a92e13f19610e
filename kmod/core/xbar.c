// SPDX-License-Identifier: GPL-2.0
/*
 * xbar.c - crossbar matching: the greedy scheduler of Ch. 5, the K-step
 * optimiser of Ch. 6 and Hopcroft-Karp as the exact reference
 * (Secs. 5.3.1, 5.4 and Ch. 6, Sec. 6.7).
 *
 * The crossbar is a bipartite graph: sender x_i, receiver y_j, a request is
 * an edge (Sec. 6.3).  The state is held in bitmaps of N-bit rows: R (requests)
 * and U = R AND NOT M (UnsaturatedX, Sec. 6.4.1), with M itself kept as two mate
 * arrays (SaturatedY is the transpose of M, so a row of it is one mate).
 * The forward pass keeps only the active vertex set of each stage, not the
 * F[k] matrices: backtracking recomputes a stage's column from R's columns
 * and the stored set (note section 8).  Memory: R, R's columns, U and at
 * most N stage sets of N bits, i.e. 4 N^2 / 64 words, whatever K is, and
 * R's rows as lists of max(N/64, 8) u16.
 *
 * One core cannot OR a stage's rows at once as the hardware does, so it
 * visits each x once per search (detect()), and hn_xbar_kstep() searches
 * once per path length rather than once per round (prune()): the paths
 * chosen, and the stages counted, are the thesis' round by round
 * (test_match.c holds them to a literal transcription).
 */
#include "sched_int.h"

struct hn_xbar {
	u32 n;
	u32 words;		/* u64 per row */
	u32 cap;		/* entries of a row's list */
	u64 *req;		/* R, n rows */
	u64 *col;		/* R's columns: row y holds the xs requesting y */
	u16 *adj;		/* R's row u as a list, if at most cap ys */
	u16 *deg;		/* ys in R's row u */
	u16 *ys;		/* scratch: the ys of a longer row */
	u16 *batch;		/* scratch: the short rows of a stage */
	u64 *uns;		/* U = R & ~M, n rows */
	u64 *has_req;		/* x with a request */
	u64 *free_x;		/* x not in M */
	u64 *free_y;		/* y not in M */
	u32 *mate_x;		/* x -> y, HN_NONE */
	u32 *mate_y;		/* y -> x, HN_NONE */
	u64 *stage;		/* A[1], A[3], ..., A[2j+1]: n sets */
	u64 *ymask;
	u64 *seen;		/* K-step: the ys of the Ymasks so far */
	u32 *dist;		/* Hopcroft-Karp; K-step: the stage of each x */
	u32 *ydist;		/* K-step: the stage that first reached y */
	u32 *npred;		/* K-step: live xs of that stage requesting y */
	u32 *queue;
	u32 *stack;
	u32 *iter;
	u32 *via;
	u32 size;		/* |M| */
};

/*
 * A row of R with at most max(N/64, HN_XBAR_LIST) ys is also kept as a
 * list: walking it costs no more than walking the row's words.
 */
#define HN_XBAR_LIST	8

#define XROW(x, m, u)	((m) + (size_t)(u) * (x)->words)

/*
 * The ys of R's row @u, in *@l: its list when short, as a row of the
 * hardware's array holds few requests, else read from the row into x->ys.
 */
static u32 row_ys(struct hn_xbar *x, u32 u, const u16 **l)
{
	const u64 *row = XROW(x, x->req, u);
	u32 d = x->deg[u], i, k = 0;
	u64 m;

	if (d <= x->cap) {
		*l = x->adj + (size_t)u * x->cap;
		return d;
	}
	for (i = 0; i < x->words; i++)
		for (m = row[i]; m; m &= m - 1)
			x->ys[k++] = i * 64 + hn_ctz64(m);
	*l = x->ys;
	return k;
}

void hn_xbar_destroy(struct hn_xbar *x)
{
	if (!x)
		return;
	hn_free(x->req);
	hn_free(x->col);
	hn_free(x->adj);
	hn_free(x->deg);
	hn_free(x->ys);
	hn_free(x->batch);
	hn_free(x->uns);
	hn_free(x->has_req);
	hn_free(x->free_x);
	hn_free(x->free_y);
	hn_free(x->mate_x);
	hn_free(x->mate_y);
	hn_free(x->stage);
	hn_free(x->ymask);
	hn_free(x->seen);
	hn_free(x->dist);
	hn_free(x->ydist);
	hn_free(x->npred);
	hn_free(x->queue);
	hn_free(x->stack);
	hn_free(x->iter);
	hn_free(x->via);
	hn_free(x);
}

int hn_xbar_create(u32 n, struct hn_xbar **xp, struct hn_err *err)
{
	struct hn_xbar *x;
	size_t mat, vec, idx;

	if (!xp)
		return hn_sched_err(err, -EINVAL, "no result pointer", HN_NONE,
				    HN_NONE);
	*xp = NULL;
	if (n < 2 || n > HN_XBAR_MAX_NODES)
		return hn_sched_err(err, -EINVAL,
				    "crossbar size must be 2..4096", n,
				    HN_NONE);
	x = hn_zalloc(sizeof(*x));
	if (!x)
		return hn_sched_err(err, -ENOMEM, "out of memory", n, HN_NONE);
	x->n = n;
	x->words = HN_WORDS(n);
	mat = (size_t)n * x->words * sizeof(u64);
	vec = (size_t)x->words * sizeof(u64);
	idx = (size_t)n * sizeof(u32);
	x->req = hn_zalloc(mat);
	x->col = hn_zalloc(mat);
	x->cap = x->words > HN_XBAR_LIST ? x->words : HN_XBAR_LIST;
	x->adj = hn_zalloc((size_t)n * x->cap * sizeof(u16));
	x->deg = hn_zalloc((size_t)n * sizeof(u16));
	x->ys = hn_zalloc((size_t)n * sizeof(u16));
	x->batch = hn_zalloc(((size_t)n + HN_XBAR_LIST) * sizeof(u16));
	x->uns = hn_zalloc(mat);
	x->stage = hn_zalloc(mat);
	x->has_req = hn_zalloc(vec);
	x->free_x = hn_zalloc(vec);
	x->free_y = hn_zalloc(vec);
	x->ymask = hn_zalloc(vec);
	x->seen = hn_zalloc(vec);
	x->mate_x = hn_zalloc(idx);
	x->mate_y = hn_zalloc(idx);
	x->dist = hn_zalloc(idx);
	x->ydist = hn_zalloc(idx);
	x->npred = hn_zalloc(idx);
	x->queue = hn_zalloc(2 * idx);	/* also the path, 2N */
	x->stack = hn_zalloc(idx);
	x->iter = hn_zalloc(idx);
	x->via = hn_zalloc(idx);
	if (!x->req || !x->col || !x->adj || !x->deg || !x->ys ||
	    !x->batch || !x->uns || !x->stage || !x->has_req || !x->free_x ||
	    !x->free_y ||
	    !x->ymask || !x->seen || !x->mate_x || !x->mate_y || !x->dist ||
	    !x->ydist || !x->npred || !x->queue || !x->stack || !x->iter ||
	    !x->via) {
		hn_xbar_destroy(x);
		return hn_sched_err(err, -ENOMEM, "out of memory", n, HN_NONE);
	}
	hn_xbar_clear_match(x);
	*xp = x;
	return 0;
}

u64 hn_xbar_mem_bytes(const struct hn_xbar *x)
{
	return sizeof(*x) + 4ULL * x->n * x->words * 8 +
	       5ULL * x->words * 8 + 10ULL * x->n * 4 +
	       (x->cap + 3ULL) * x->n * 2 + HN_XBAR_LIST * 2;
}

void hn_xbar_clear_match(struct hn_xbar *x)
{
	u32 u, i;

	for (u = 0; u < x->n; u++) {
		x->mate_x[u] = HN_NONE;
		x->mate_y[u] = HN_NONE;
	}
	/* U = R; a row without requests is empty in both */
	for (u = hn_next_bit(x->has_req, x->words, 0); u != HN_NONE;
	     u = hn_next_bit(x->has_req, x->words, u + 1))
		memcpy(XROW(x, x->uns, u), XROW(x, x->req, u),
		       x->words * sizeof(u64));
	for (i = 0; i < x->words; i++) {
		x->free_x[i] = ~0ULL;
		x->free_y[i] = ~0ULL;
	}
	if (x->n % 64) {
		x->free_x[x->words - 1] = (1ULL << (x->n % 64)) - 1;
		x->free_y[x->words - 1] = (1ULL << (x->n % 64)) - 1;
	}
	x->size = 0;
}

/*
 * Empty R, its columns and U, visiting only the rows with requests: R and
 * U are empty elsewhere, and a slot's request set is far smaller than N^2.
 */
static void clear_requests(struct hn_xbar *x)
{
	size_t bytes = x->words * sizeof(u64);
	const u16 *l;
	u32 u, i, d;

	for (u = hn_next_bit(x->has_req, x->words, 0); u != HN_NONE;
	     u = hn_next_bit(x->has_req, x->words, u + 1)) {
		d = row_ys(x, u, &l);
		for (i = 0; i < d; i++)
			hn_clear_bit(XROW(x, x->col, l[i]), u);
		memset(XROW(x, x->req, u), 0, bytes);
		memset(XROW(x, x->uns, u), 0, bytes);
		x->deg[u] = 0;
	}
	memset(x->has_req, 0, bytes);
}

int hn_xbar_set_requests(struct hn_xbar *x, const struct hn_pair *req,
			 u32 nreq, struct hn_err *err)
{
	u32 i;
	int rc;

	if (nreq && !req)
		return hn_sched_err(err, -EINVAL, "no request array", HN_NONE,
				    HN_NONE);
	if (nreq > x->n * x->n)
		return hn_sched_err(err, -EINVAL,
				    "more requests than pairs of nodes",
				    HN_NONE, nreq);
	clear_requests(x);
	for (i = 0; i < nreq; i++) {
		u32 u = req[i].src, v = req[i].dst;
		u64 *row;

		if (u >= x->n || v >= x->n) {
			rc = hn_sched_err(err, -EINVAL,
					  "request names a node past the crossbar",
					  u >= x->n ? u : v, i);
			goto bad;
		}
		row = XROW(x, x->req, u);
		if (hn_test_bit(row, v)) {
			rc = hn_sched_err(err, -EINVAL, "request given twice",
					  u, i);
			goto bad;
		}
		hn_set_bit(row, v);
		hn_set_bit(XROW(x, x->col, v), u);
		hn_set_bit(x->has_req, u);
		if (x->deg[u] < x->cap)
			x->adj[(size_t)u * x->cap + x->deg[u]] = v;
		x->deg[u]++;
	}
	hn_xbar_clear_match(x);
	return 0;
bad:
	if (err) {
		err->a = req[i];
		err->b = req[i];
	}
	clear_requests(x);
	hn_xbar_clear_match(x);
	return rc;
}

static void xmatch(struct hn_xbar *x, u32 u, u32 v)
{
	u32 old = x->mate_x[u];

	if (old != HN_NONE)
		hn_set_bit(XROW(x, x->uns, u), old);
	else
		hn_clear_bit(x->free_x, u);
	hn_clear_bit(XROW(x, x->uns, u), v);
	x->mate_x[u] = v;
	x->mate_y[v] = u;
}

int hn_xbar_set_match(struct hn_xbar *x, const struct hn_pair *pairs,
		      u32 npairs, struct hn_err *err)
{
	u32 i;

	if (npairs && !pairs)
		return hn_sched_err(err, -EINVAL, "no pair array", HN_NONE,
				    HN_NONE);
	for (i = 0; i < npairs; i++) {
		u32 u = pairs[i].src, v = pairs[i].dst, j;

		if (u >= x->n || v >= x->n)
			return hn_sched_err(err, -EINVAL,
					    "pair names a node past the crossbar",
					    u >= x->n ? u : v, i);
		if (!hn_test_bit(XROW(x, x->req, u), v))
			return hn_sched_err(err, -EINVAL,
					    "a matched pair must be a request",
					    u, i);
		for (j = 0; j < i; j++)
			if (pairs[j].src == u || pairs[j].dst == v)
				return hn_sched_err(err, -EINVAL,
						    "not a matching: a node is in two pairs",
						    pairs[j].src == u ? u : v,
						    i);
	}
	hn_xbar_clear_match(x);
	for (i = 0; i < npairs; i++) {
		xmatch(x, pairs[i].src, pairs[i].dst);
		hn_clear_bit(x->free_y, pairs[i].dst);
	}
	x->size = npairs;
	return 0;
}

u32 hn_xbar_size(const struct hn_xbar *x)
{
	return x->size;
}

u32 hn_xbar_mate(const struct hn_xbar *x, u32 src)
{
	return src < x->n ? x->mate_x[src] : HN_NONE;
}

/*
 * Ch. 5's scheduling array gives "the unused network ports available to a
 * request R_{u,v} before ... R_{a,b} if u < a or v < b" (Sec. 5.3.2): each free
 * sender in turn takes its lowest-numbered free requested receiver.
 */
u32 hn_xbar_greedy(struct hn_xbar *x)
{
	u32 u, i;

	for (u = 0; u < x->n; u++) {
		const u64 *row = XROW(x, x->uns, u);

		if (x->mate_x[u] != HN_NONE || !hn_test_bit(x->has_req, u))
			continue;
		for (i = 0; i < x->words; i++) {
			u64 m = row[i] & x->free_y[i];

			if (m) {
				u32 v = i * 64 + hn_ctz64(m);

				xmatch(x, u, v);
				hn_clear_bit(x->free_y, v);
				x->size++;
				break;
			}
		}
	}
	return x->size;
}

/*
 * Stage t's ys from @d ys of rows of D[t]: those in no earlier Ymask join
 * @y, and each counts the xs of D[t] requesting it.  Without branches:
 * which y is which does not follow a pattern.
 */
static void reach(struct hn_xbar *x, const u16 *l, u32 d, u32 t, u64 *y)
{
	u32 i, v, now, first;

	for (i = 0; i < d; i++) {
		v = l[i];
		now = !hn_test_bit(x->seen, v);
		first = now & (hn_test_bit(y, v) ^ 1);
		y[v / 64] |= (u64)now << (v % 64);
		x->npred[v] = (x->npred[v] & (first - 1)) + now;
		x->ydist[v] = (x->ydist[v] & (first - 1)) | (t & -first);
	}
}

/*
 * Stage t: reach() from the rows of D[t] (@a).  Rows of at most
 * HN_XBAR_LIST ys are copied HN_XBAR_LIST entries at a time into one
 * batch, each advancing it by its length, so that a row's length is not a
 * loop's end to predict.
 */
static void reach_stage(struct hn_xbar *x, const u64 *a, u32 t, u64 *y)
{
	u32 i, u, d, k = 0;
	const u16 *l;
	u64 m;

	for (i = 0; i < x->words; i++)
		for (m = a[i]; m; m &= m - 1) {
			u = i * 64 + hn_ctz64(m);
			x->dist[u] = t;
			d = x->deg[u];
			if (d > HN_XBAR_LIST) {
				d = row_ys(x, u, &l);
				reach(x, l, d, t, y);
				continue;
			}
			memcpy(x->batch + k, x->adj + (size_t)u * x->cap,
			       HN_XBAR_LIST * sizeof(u16));
			k += d;
			if (k >= x->n) {
				reach(x, x->batch, k, t, y);
				k = 0;
			}
		}
	reach(x, x->batch, k, t, y);
}

/*
 * Detection (Fig. 6.6, Sec. 6.4.1), with the loop bound "i <= K" (note A2).
 * Odd stage s: F[s] = diag(A[s]) U, Ymask = ColumnwiseReduceOR(F[s]).  Even
 * stage s+1: F[s+1] = diag(Ymask) SaturatedY, A[s+2] = its column OR, i.e.
 * the mates of Ymask.  Stop at the first odd stage that reaches a free y
 * (PathFound, line 9), so the walk found is a shortest augmenting path and
 * therefore a simple path (Sec. 6.4.1: "a vertex can only be included once").
 *
 * The hardware ORs every row of A[s]; one core keeps, of each A[s], only the
 * x in no earlier set, D[s], and visits only their rows: a breadth-first
 * search, each x visited once.  No result changes.  An x of A[s] is at
 * distance at most s from a free x, so the unions of the A and of the D are
 * the same, and D[s] is empty exactly when A[s] adds nothing to the union
 * (the early exit below).  No D reaches a free y before the stage j that
 * finds one, as D[s] is in A[s]; at stage j, an x of A[j] next to a free y
 * is on a walk of 2j+1 edges to it, and a shorter walk to it from a free x
 * would reach that y before stage j, so that x is in D[j].  So Ymask's free
 * ys and, at every stage of the walk back of isolate(), the candidates
 * next to its y are the same from D as from A.  A y in no earlier Ymask has
 * its mate in no earlier D (every matched x of a D came in as a mate), so
 * D[s+2] is the mates of the ys new at stage s; Ymask keeps only those.
 * Returns the index j of the last stage set, or HN_NONE.
 */
static u32 detect(struct hn_xbar *x, u32 k, u64 *steps)
{
	u32 words = x->words, j = 0, s = 1, i;
	u64 *a = x->stage, *y = x->ymask;
	u64 hit, any, m;

	/* XMask[1] = the unsaturated X vertices (with a request; A14) */
	for (i = 0, any = 0; i < words; i++) {
		a[i] = x->free_x[i] & x->has_req[i];
		x->seen[i] = 0;
		any |= a[i];
	}
	if (!any)
		return HN_NONE;
	for (;;) {
		/* unsaturated stage s: the ys new to it */
		memset(y, 0, words * sizeof(u64));
		reach_stage(x, a, j, y);
		(*steps)++;
		for (i = 0, hit = 0, any = 0; i < words; i++) {
			x->seen[i] |= y[i];
			hit |= y[i] & x->free_y[i];
			any |= y[i];
		}
		if (hit)
			return j;
		if (s + 2 > k)
			return HN_NONE;
		/* saturated stage s + 1: every y reached is matched */
		(*steps)++;
		/*
		 * Not in the thesis, and it changes no result: when the new set
		 * adds nothing to the union of the earlier ones, every later set
		 * stays inside that union, whose neighbours held no free y, so
		 * no augmenting path of any length exists.  (The D are disjoint
		 * and not empty, so they fit in the N stage sets whatever k is.)
		 */
		if (!any)
			return HN_NONE;
		a += words;
		memset(a, 0, words * sizeof(u64));
		for (i = 0; i < words; i++)
			for (m = y[i]; m; m &= m - 1)
				hn_set_bit(a, x->mate_y[i * 64 + hn_ctz64(m)]);
		j++;
		s += 2;
	}
}

/*
 * Isolation (Fig. 6.7, Sec. 6.4.1) with the errata fixed (note A14):
 * YMask[S] = SelectOne(XMask[S] AND the unsaturated Y), and the walk back
 * covers every stage down to B[1].  SelectOne is the priority encoder: "we
 * pick the lowest possible bit" (Sec. 6.4.1).  A column of F[t] is (A[t]
 * AND column y of U); a row of B[t+1] is one mate.  The path is left in
 * x->queue as y_j, x_j, ..., y_0, x_0.
 *
 * Column y of U is column y of R here: y is first reached at stage t, and
 * an x of D[t] has no mate or one first reached at stage t - 1.
 */
static void isolate(struct hn_xbar *x, u32 j)
{
	u32 words = x->words, t, u = 0, v, i, nv = 0;
	u32 *rev = x->queue;
	u64 m;

	for (i = 0; i < words; i++)
		if (x->ymask[i] & x->free_y[i])
			break;
	v = i * 64 + hn_ctz64(x->ymask[i] & x->free_y[i]);
	for (t = j + 1; t-- > 0;) {
		const u64 *a = x->stage + (size_t)t * words;
		const u64 *c = XROW(x, x->col, v);

		for (i = 0; i < words; i++) {
			m = a[i] & c[i];
			if (m) {
				u = i * 64 + hn_ctz64(m);
				break;
			}
		}
		rev[nv++] = v;
		rev[nv++] = u;
		if (t)
			v = x->mate_x[u];
	}
	/*
	 * Update (Sec. 6.4.1): M' = M XOR P, where P is the union (not the AND,
	 * note A14) of the path's edges: every x on the path takes the y after
	 * it; the y it leaves goes to the x before it.
	 */
	for (i = 0; i < nv; i += 2)
		xmatch(x, rev[i + 1], rev[i]);
	hn_clear_bit(x->free_y, rev[0]);
	x->size++;
}

int hn_xbar_augment(struct hn_xbar *x, u32 k, u32 *path, u32 *len,
		    u64 *steps)
{
	u64 dummy = 0;
	u32 j, i;

	if (!k)
		return -EINVAL;
	j = detect(x, k, steps ? steps : &dummy);
	if (j == HN_NONE)
		return 0;
	isolate(x, j);
	if (path)
		for (i = 0; i < 2 * j + 2; i++)
			path[i] = x->queue[2 * j + 1 - i];
	if (len)
		*len = 2 * j + 1;
	return 1;
}

/* x @u leaves D (it is on the path, or what reached it is gone), cascading */
static void drop(struct hn_xbar *x, u32 u, u32 j)
{
	u32 words = x->words, sp = 0, t, v, w, i, d;
	const u16 *l;

	t = x->dist[u];
	if (!hn_test_bit(x->stage + (size_t)t * words, u))
		return;
	hn_clear_bit(x->stage + (size_t)t * words, u);
	x->stack[sp++] = u;
	while (sp) {
		u = x->stack[--sp];
		t = x->dist[u];
		d = row_ys(x, u, &l);
		for (i = 0; i < d; i++) {
			v = l[i];
			if (!hn_test_bit(x->seen, v) || x->ydist[v] != t ||
			    !x->npred[v] || --x->npred[v])
				continue;
			if (t == j) {
				hn_clear_bit(x->ymask, v);
				continue;
			}
			/* its mate is in D[t + 1], and only v reached it */
			w = x->mate_y[v];
			if (!hn_test_bit(x->stage + (size_t)(t + 1) * words, w))
				continue;
			hn_clear_bit(x->stage + (size_t)(t + 1) * words, w);
			x->stack[sp++] = w;
		}
	}
}

/*
 * After the round that took the path in x->queue, keep in D[0..j] only the
 * xs still reached from a free x by what no path took, and in Ymask only
 * the free ys still reached from D[j].  Augmenting paths of one length are
 * vertex-disjoint (Hopcroft and Karp): once M has shortest augmenting
 * paths of 2j+1 edges, and P_1, ..., P_r of them are taken, an augmenting
 * path of M XOR P_1 ... XOR P_r with 2j+1 edges touches no P_i, so it is
 * one of M's of 2j+1 edges whose vertices are on no P_i, each x at the
 * stage of its D, and conversely.  So while Ymask holds a free y, the next
 * round's detection would stop at stage j, its free ys in Ymask would be
 * these, and at every stage of the walk back the xs of its A next to the
 * walk's y would be those left in D next to it: the same path, found
 * without a search.  When none is left the next round searches again.
 */
static void prune(struct hn_xbar *x, u32 j)
{
	u32 i, n = 2 * j + 2;

	/* the path's ys leave: the last is matched, the others' mates left */
	for (i = 0; i < n; i += 2)
		x->npred[x->queue[i]] = 0;
	for (i = 1; i < n; i += 2)
		drop(x, x->queue[i], j);
}

/* Does Ymask hold a free y? */
static bool goal_left(const struct hn_xbar *x)
{
	u32 i;

	for (i = 0; i < x->words; i++)
		if (x->ymask[i] & x->free_y[i])
			return true;
	return false;
}

u32 hn_xbar_kstep(struct hn_xbar *x, u32 k, u32 max_rounds, u32 *lens,
		  struct hn_sched_result *res)
{
	u32 rounds = 0, j = 0;
	bool left = false;
	u64 steps = 0;

	while (k && (!max_rounds || rounds < max_rounds)) {
		if (left) {
			steps += 2 * j + 1;	/* the search would stop there */
		} else {
			j = detect(x, k, &steps);
			if (j == HN_NONE)
				break;
		}
		isolate(x, j);
		/* with no other free y reached, the next round searches */
		left = goal_left(x);
		if (left) {
			prune(x, j);
			left = goal_left(x);
		}
		if (lens)
			lens[rounds] = 2 * j + 1;
		rounds++;
	}
	if (res) {
		res->rounds += rounds;
		res->steps += steps;
	}
	return x->size;
}

/*
 * Hopcroft-Karp: breadth-first layers from the free senders, then
 * vertex-disjoint shortest augmenting paths by an explicit-stack depth-first
 * search (no recursion), until a phase finds none.
 */
static u32 hk_bfs(struct hn_xbar *x)
{
	u32 head = 0, tail = 0, found = HN_NONE, u, v, w;

	for (u = 0; u < x->n; u++) {
		x->iter[u] = 0;
		if (x->mate_x[u] == HN_NONE && hn_test_bit(x->has_req, u)) {
			x->dist[u] = 0;
			x->queue[tail++] = u;
		} else {
			x->dist[u] = HN_NONE;
		}
	}
	while (head < tail) {
		u = x->queue[head++];
		if (found != HN_NONE && x->dist[u] + 1 >= found)
			continue;
		for (v = hn_next_bit(XROW(x, x->uns, u), x->words, 0);
		     v != HN_NONE;
		     v = hn_next_bit(XROW(x, x->uns, u), x->words, v + 1)) {
			w = x->mate_y[v];
			if (w == HN_NONE) {
				if (found == HN_NONE)
					found = x->dist[u] + 1;
			} else if (x->dist[w] == HN_NONE) {
				x->dist[w] = x->dist[u] + 1;
				x->queue[tail++] = w;
			}
		}
	}
	return found;
}

static bool hk_dfs(struct hn_xbar *x, u32 root, u32 found)
{
	u32 sp = 0, u, v, w, i, y;

	x->stack[sp++] = root;
	while (sp) {
		u = x->stack[sp - 1];
		/* R's row, fixed during the phase; the mate edge never fits */
		v = hn_next_bit(XROW(x, x->req, u), x->words, x->iter[u]);
		if (v == HN_NONE) {
			x->dist[u] = HN_NONE;	/* dead end for this phase */
			sp--;
			continue;
		}
		x->iter[u] = v + 1;
		w = x->mate_y[v];
		if (w == HN_NONE) {
			if (x->dist[u] + 1 != found)
				continue;
			for (i = sp; i-- > 0;) {
				u = x->stack[i];
				y = i == sp - 1 ? v : x->via[u];
				xmatch(x, u, y);
			}
			hn_clear_bit(x->free_y, v);
			x->size++;
			return true;
		}
		if (w != u && x->dist[w] != HN_NONE &&
		    x->dist[w] == x->dist[u] + 1) {
			x->via[u] = v;
			x->stack[sp++] = w;
		}
	}
	return false;
}

u32 hn_xbar_hopcroft_karp(struct hn_xbar *x, u64 *phases)
{
	u32 found, u;

	for (;;) {
		found = hk_bfs(x);
		if (found == HN_NONE)
			break;
		if (phases)
			(*phases)++;
		for (u = 0; u < x->n; u++)
			if (x->dist[u] == 0 && x->mate_x[u] == HN_NONE)
				hk_dfs(x, u, found);
	}
	return x->size;
}

int hn_xbar_check(const struct hn_xbar *x, struct hn_err *err)
{
	u32 u, v, i, size = 0;
	bool unmatched;

	for (u = 0; u < x->n; u++) {
		const u64 *r = XROW(x, x->req, u), *un = XROW(x, x->uns, u);

		v = x->mate_x[u];
		if (v != HN_NONE) {
			size++;
			if (v >= x->n || x->mate_y[v] != u)
				return hn_sched_err(err, -EIO,
						    "mate arrays disagree", u,
						    HN_NONE);
			if (!hn_test_bit(r, v))
				return hn_sched_err(err, -EIO,
						    "matched pair is not a request",
						    u, HN_NONE);
		}
		unmatched = v == HN_NONE;
		if (hn_test_bit(x->free_x, u) != unmatched)
			return hn_sched_err(err, -EIO, "free sender set wrong",
					    u, HN_NONE);
		unmatched = x->mate_y[u] == HN_NONE;
		if (hn_test_bit(x->free_y, u) != unmatched)
			return hn_sched_err(err, -EIO,
					    "free receiver set wrong", u,
					    HN_NONE);
		if (x->mate_y[u] != HN_NONE &&
		    (x->mate_y[u] >= x->n || x->mate_x[x->mate_y[u]] != u))
			return hn_sched_err(err, -EIO, "mate arrays disagree",
					    u, HN_NONE);
		for (i = 0; i < x->words; i++) {
			u64 want = r[i];

			if (v != HN_NONE && v / 64 == i)
				want &= ~(1ULL << (v % 64));
			if (un[i] != want)
				return hn_sched_err(err, -EIO,
						    "unsaturated matrix is not R AND NOT M",
						    u, HN_NONE);
		}
	}
	if (size != x->size)
		return hn_sched_err(err, -EIO, "matching size miscounted",
				    HN_NONE, HN_NONE);
	return 0;
}
