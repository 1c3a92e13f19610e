/* SPDX-License-Identifier: GPL-2.0 */
/*
 * json.h - hnctl's JSON writer: compact, to stdout, one document at a time.
 * @key is the member name inside an object and NULL inside an array.
 */
#ifndef HNCTL_JSON_H
#define HNCTL_JSON_H

#include <stddef.h>
#include <stdint.h>

struct hn_ctl_pair;
struct hn_ctl_path;

/* Pretty (1) or compact (0, the default) from now on. */
void j_pretty(int on);
void j_obj(const char *key);
void j_obj_end(void);
void j_arr(const char *key);
void j_arr_end(void);
void j_u64(const char *key, uint64_t v);
void j_str(const char *key, const char *s);
void j_bool(const char *key, int v);
/* An array of @n {"src", "dst"} objects. */
void j_pairs(const char *key, const struct hn_ctl_pair *p, size_t n);
/* a path through a fat tree (Ch. 7), an array of up-ports; @n of them */
void j_path(const char *key, const struct hn_ctl_path *p);
void j_paths(const char *key, const struct hn_ctl_path *p, size_t n);
/* Ends the document: a newline, and stdout is flushed. */
void j_end(void);

#endif /* HNCTL_JSON_H */
