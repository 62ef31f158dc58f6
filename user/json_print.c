// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Text/JSON output on json-c; see json_print.h. Not thread safe, one
 * output at a time.
 */
#include <errno.h>
#include <stdarg.h>

#include <json-c/json.h>

#include "json_print.h"

#define MAX_DEPTH	16

static struct {
	FILE *fp;
	bool json;
	bool pretty;
	bool failed;
	int lost;			/* containers that could not be opened */
	int depth;
	json_object *stack[MAX_DEPTH];
} out = { .fp = NULL };

void json_print_init(FILE *fp, bool json, bool pretty)
{
	while (out.depth > 0)		/* drop anything left unfinished */
		if (--out.depth == 0)
			json_object_put(out.stack[0]);
	out.lost = 0;
	out.fp = fp;
	out.json = json;
	out.pretty = pretty;
	out.failed = false;
}

bool is_json_context(void)
{
	return out.json;
}

static void emit(json_object *root)
{
	int flags = JSON_C_TO_STRING_NOSLASHESCAPE;
	const char *s;

	flags |= out.pretty ? JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED
			    : JSON_C_TO_STRING_PLAIN;
	s = json_object_to_json_string_ext(root, flags);
	if (s)
		fprintf(out.fp, "%s\n", s);
	else
		out.failed = true;
	json_object_put(root);
}

/* Attach a new value to the open container; takes ownership of val. */
static int add(const char *key, json_object *val)
{
	json_object *parent;

	if (!val || !out.depth)		/* no memory, or nowhere to put it */
		goto fail;
	parent = out.stack[out.depth - 1];
	if (json_object_is_type(parent, json_type_array)) {
		if (json_object_array_add(parent, val))
			goto fail;
	} else if (json_object_object_add(parent, key ? key : "", val)) {
		goto fail;
	}
	return 0;
fail:
	json_object_put(val);
	out.failed = true;
	return -1;
}

static void open_container(const char *name, json_object *c)
{
	if (!c || out.depth == MAX_DEPTH) {
		json_object_put(c);
		out.failed = true;
		out.lost++;
		return;
	}
	/* The parent, if any, owns c; so does stack[0] at the top. */
	if (out.depth && add(name, c)) {
		out.lost++;
		return;
	}
	out.stack[out.depth++] = c;
}

/* Output is all or nothing: after a failure the document is dropped. */
static void close_container(void)
{
	if (out.lost) {
		out.lost--;
		return;
	}
	if (!out.depth || --out.depth)
		return;
	if (out.failed)
		json_object_put(out.stack[0]);
	else
		emit(out.stack[0]);
}

void open_json_object(const char *name)
{
	if (out.json)
		open_container(name, json_object_new_object());
}

void close_json_object(void)
{
	if (out.json)
		close_container();
}

void open_json_array(const char *name)
{
	if (out.json)
		open_container(name, json_object_new_array());
}

void close_json_array(void)
{
	if (out.json)
		close_container();
}

static bool want_json(enum output_type t)
{
	return out.json && (t & PRINT_JSON);
}

static bool want_fp(enum output_type t, const char *fmt)
{
	return !out.json && (t & PRINT_FP) && fmt;
}

void print_string(enum output_type t, const char *key, const char *fmt,
		  const char *val)
{
	if (want_json(t))
		add(key, json_object_new_string(val ? val : ""));
	else if (want_fp(t, fmt))
		fprintf(out.fp, fmt, val ? val : "");
}

void print_uint(enum output_type t, const char *key, const char *fmt,
		unsigned int val)
{
	if (want_json(t))
		add(key, json_object_new_int64(val));
	else if (want_fp(t, fmt))
		fprintf(out.fp, fmt, val);
}

void print_u64(enum output_type t, const char *key, const char *fmt,
	       uint64_t val)
{
	if (want_json(t))
		add(key, json_object_new_uint64(val));
	else if (want_fp(t, fmt))
		fprintf(out.fp, fmt, val);
}

void print_flag(enum output_type t, const char *key, const char *fmt,
		bool val)
{
	if (want_json(t))
		add(key, json_object_new_boolean(val));
	else if (want_fp(t, fmt) && val)
		fputs(fmt, out.fp);
}

void print_fp(const char *fmt, ...)
{
	va_list ap;

	if (out.json)
		return;
	va_start(ap, fmt);
	vfprintf(out.fp, fmt, ap);
	va_end(ap);
}

void print_nl(void)
{
	if (!out.json)
		fputc('\n', out.fp);
}

int json_print_end(void)
{
	while (out.depth)
		close_container();
	if (out.failed)
		return -ENOMEM;
	if (fflush(out.fp) || ferror(out.fp))
		return -EIO;
	return 0;
}
