/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * One set of print calls for text and JSON output, after iproute2's
 * json_print.h: print_uint(PRINT_ANY, "mlid", "mlid %u ", v) writes
 * "mlid 5 " in text mode and "mlid": 5 in JSON mode. JSON is written by
 * our own writer, streamed (json_print.c).
 */
#ifndef MCCTL_JSON_PRINT_H
#define MCCTL_JSON_PRINT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

enum output_type {
	PRINT_FP	= 1,	/* text only */
	PRINT_JSON	= 2,	/* JSON only */
	PRINT_ANY	= 3,
};

void json_print_init(FILE *fp, bool json, bool pretty);
/* Close what is still open, write it; -ENOMEM or -EIO on failure. */
int json_print_end(void);
bool is_json_context(void);

/* JSON only; name is ignored inside arrays and at the top level. */
void open_json_object(const char *name);
void close_json_object(void);
void open_json_array(const char *name);
void close_json_array(void);

/* fmt is a printf format taking exactly the one value (text mode). */
void print_string(enum output_type t, const char *key, const char *fmt,
		  const char *val);
void print_uint(enum output_type t, const char *key, const char *fmt,
		unsigned int val);
void print_u64(enum output_type t, const char *key, const char *fmt,
	       uint64_t val);
/* JSON: a boolean. Text: fmt (no conversion) is printed only if val. */
void print_flag(enum output_type t, const char *key, const char *fmt,
		bool val);
/* Text only. */
void print_fp(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void print_nl(void);

#endif /* MCCTL_JSON_PRINT_H */
