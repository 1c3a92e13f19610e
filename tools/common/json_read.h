/* SPDX-License-Identifier: GPL-2.0 */
/*
 * json_read.h - the members of one flat JSON object, as hnctl -j show
 * prints the configuration: hnsim -c and hnctl -c read it (json_read.c).
 */
#ifndef HN_JSON_READ_H
#define HN_JSON_READ_H

/* A whole file ("-": stdin), NUL-ended, to free(); NULL with errno set. */
char *read_file(const char *path);

/*
 * Call @fn(key, value, @arg) for each member of the object @text whose
 * value is a string or a number, in order; true and false come as "1"
 * and "0"; null, arrays and objects are skipped.  @fn returns 0 to go
 * on, or a positive number to stop there, which is returned.  -1 when
 * @text is not such an object: *@why says why, at byte *@at.
 */
int json_members(const char *text,
		 int (*fn)(const char *key, const char *val, void *arg),
		 void *arg, const char **why, long *at);

#endif /* HN_JSON_READ_H */
