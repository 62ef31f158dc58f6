// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Text/JSON output; see json_print.h. Not thread safe, one output at a
 * time.
 *
 * JSON (mcctl -j, and -p) is written as it is printed, through a buffer
 * of S_BUF bytes that is written out when it is full and when the
 * outermost container closes: "mcctl -j list" of 16k groups would
 * otherwise build a tree of some 400,000 objects only to serialize it
 * (and a buffer of the whole document would be megabytes of fresh
 * memory). No JSON library: one would be loaded by every mcctl command,
 * and start-up is most of what a short one costs. The output is what
 * json-c, which mcctl used before, wrote: -p indents by two spaces, an
 * empty container's brackets on two lines.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "json_print.h"

#define MAX_DEPTH	16

static struct {
	FILE *fp;
	bool json;
	bool pretty;
	bool failed;
	int lost;			/* containers that could not be opened */
	int depth;
	bool is_array[MAX_DEPTH];
	bool nonempty[MAX_DEPTH];
	char *buf;
	size_t len, cap;
} out = { .fp = NULL };

/* ---- JSON, streamed ---------------------------------------------------- */

#define S_BUF	65536

/* Write out what the buffer holds. */
static void s_flush(void)
{
	if (out.len && !out.failed)
		fwrite(out.buf, 1, out.len, out.fp);
	out.len = 0;
}

/*
 * Makes room for @n more bytes by writing the buffer out (allocating it
 * the first time). False if @n bytes do not fit even in an empty buffer
 * (s_put() then writes them directly), or if there is no buffer.
 */
static bool s_grow(size_t n)
{
	if (out.failed)
		return false;
	if (!out.buf) {
		out.buf = malloc(S_BUF);
		if (!out.buf) {
			out.failed = true;
			return false;
		}
		out.cap = S_BUF;
	}
	s_flush();
	return n <= out.cap;
}

static inline void s_put(const char *p, size_t n)
{
	if (out.len + n > out.cap && !s_grow(n)) {
		if (!out.failed)
			fwrite(p, 1, n, out.fp);
		return;
	}
	memcpy(out.buf + out.len, p, n);
	out.len += n;
}

/*
 * The escape of each byte in a JSON string, as json-c writes it (without
 * escaping "/"): 0 for none, 'u' for \u00XX, else the letter after '\'.
 */
static const char json_esc[256] = {
	/* 0x00 - 0x1f: \b \t \n \f \r by name, the others as \u00XX */
	'u', 'u', 'u', 'u', 'u', 'u', 'u', 'u',
	'b', 't', 'n', 'u', 'f', 'r', 'u', 'u',
	'u', 'u', 'u', 'u', 'u', 'u', 'u', 'u',
	'u', 'u', 'u', 'u', 'u', 'u', 'u', 'u',
	['"'] = '"', ['\\'] = '\\',
};

/* A JSON string, escaped as json-c does. */
static void s_string(const char *v)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *c = (const unsigned char *)v, *run = c;
	char esc[6] = { '\\', 'u', '0', '0' };

	s_put("\"", 1);
	for (;; c++) {
		char e = json_esc[*c];

		if (!e && *c)
			continue;
		s_put((const char *)run, c - run);
		if (!*c)
			break;
		run = c + 1;
		if (e == 'u') {
			esc[4] = hex[*c >> 4];
			esc[5] = hex[*c & 15];
			s_put(esc, 6);
		} else {
			esc[1] = e;
			s_put(esc, 2);
			esc[1] = 'u';
		}
	}
	s_put("\"", 1);
}

/* A member's name and its colon; one copy when it needs no escape. */
static void s_name(const char *key)
{
	const unsigned char *c = (const unsigned char *)key;
	size_t n;

	while (!json_esc[*c])
		c++;
	if (*c) {
		s_string(key);
		s_put(":", 1);
		return;
	}
	n = c - (const unsigned char *)key;
	if (out.len + n + 3 > out.cap && !s_grow(n + 3)) {
		s_put("\"", 1);
		s_put(key, n);
		s_put("\":", 2);
		return;
	}
	out.buf[out.len] = '"';
	memcpy(out.buf + out.len + 1, key, n);
	memcpy(out.buf + out.len + 1 + n, "\":", 2);
	out.len += n + 3;
}

/* Pretty: a new line, indented to @depth containers. */
static void s_indent(int depth)
{
	s_put("\n", 1);
	while (depth-- > 0)
		s_put("  ", 2);
}

/* Start a value in the open container: a comma, and the key in objects. */
static bool s_key(const char *key)
{
	int d = out.depth - 1;

	if (d < 0) {			/* nowhere to put it */
		out.failed = true;
		return false;
	}
	if (out.nonempty[d])
		s_put(",", 1);
	out.nonempty[d] = true;
	if (out.pretty)
		s_indent(out.depth);
	if (!out.is_array[d]) {
		s_name(key ? key : "");
		if (out.pretty)
			s_put(" ", 1);
	}
	return true;
}

static void s_open(const char *name, bool array)
{
	if (out.depth == MAX_DEPTH) {
		out.failed = true;
		out.lost++;
		return;
	}
	if (!out.depth)
		out.len = 0;
	else if (!s_key(name))
		return;
	out.is_array[out.depth] = array;
	out.nonempty[out.depth] = false;
	out.depth++;
	s_put(array ? "[" : "{", 1);
}

static void s_close(void)
{
	if (out.lost) {
		out.lost--;
		return;
	}
	if (!out.depth)
		return;
	out.depth--;
	if (out.pretty)
		s_indent(out.depth);
	s_put(out.is_array[out.depth] ? "]" : "}", 1);
	if (out.depth)
		return;
	s_put("\n", 1);
	s_flush();
}

/* @v in decimal, written backwards to end just before @end: its start. */
static char *put_decimal(char *end, uint64_t v)
{
	do {
		*--end = '0' + v % 10;
		v /= 10;
	} while (v);
	return end;
}

static void s_number(const char *key, uint64_t v)
{
	char num[20], *p;

	if (!s_key(key))
		return;
	p = put_decimal(num + sizeof(num), v);
	s_put(p, num + sizeof(num) - p);
}

void json_print_init(FILE *fp, bool json, bool pretty)
{
	out.depth = 0;			/* drop anything left unfinished */
	out.lost = 0;
	out.fp = fp;
	out.json = json;
	out.pretty = json && pretty;
	out.failed = false;
	out.len = 0;
}

bool is_json_context(void)
{
	return out.json;
}

void open_json_object(const char *name)
{
	if (out.json)
		s_open(name, false);
}

void close_json_object(void)
{
	if (out.json)
		s_close();
}

void open_json_array(const char *name)
{
	if (out.json)
		s_open(name, true);
}

void close_json_array(void)
{
	if (out.json)
		s_close();
}

/*
 * Text: a format whose one conversion is a plain "%s" (or "%u") is written
 * as its three pieces, not through fprintf(), whose set-up per call was
 * most of the time of "mcctl list" with 16k groups. Any other format goes
 * to fprintf().
 */
/*
 * Down to print_u64(): the format printed is the caller's of
 * print_string(), print_uint() and print_u64(), a string literal there
 * (iproute2's json_print works the same way), not one of this file.
 */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"

static const char *fp_plain(const char *fmt, char conv)
{
	const char *pct = strchr(fmt, '%');

	if (!pct || pct[1] != conv || strchr(pct + 2, '%'))
		return NULL;
	return pct;
}

static void fp_pieces(const char *fmt, const char *pct, const char *val)
{
	fwrite_unlocked(fmt, 1, pct - fmt, out.fp);
	fputs_unlocked(val, out.fp);
	fputs_unlocked(pct + 2, out.fp);
}

static void fp_string(const char *fmt, const char *val)
{
	const char *pct = fp_plain(fmt, 's');

	if (pct)
		fp_pieces(fmt, pct, val);
	else
		fprintf(out.fp, fmt, val);
}

static void fp_uint(const char *fmt, unsigned int val)
{
	const char *pct = fp_plain(fmt, 'u');
	char num[12] = "";

	if (!pct) {
		fprintf(out.fp, fmt, val);
		return;
	}
	fp_pieces(fmt, pct, put_decimal(num + sizeof(num) - 1, val));
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
	if (want_json(t)) {
		if (s_key(key))
			s_string(val ? val : "");
	} else if (want_fp(t, fmt))
		fp_string(fmt, val ? val : "");
}

void print_uint(enum output_type t, const char *key, const char *fmt,
		unsigned int val)
{
	if (want_json(t))
		s_number(key, val);
	else if (want_fp(t, fmt))
		fp_uint(fmt, val);
}

void print_u64(enum output_type t, const char *key, const char *fmt,
	       uint64_t val)
{
	if (want_json(t))
		s_number(key, val);
	else if (want_fp(t, fmt))
		fprintf(out.fp, fmt, val);
}

#pragma GCC diagnostic pop

void print_flag(enum output_type t, const char *key, const char *fmt,
		bool val)
{
	if (want_json(t)) {
		if (s_key(key))
			s_put(val ? "true" : "false", val ? 4 : 5);
	} else if (want_fp(t, fmt) && val)
		fputs_unlocked(fmt, out.fp);
}

void print_fp(const char *fmt, ...)
{
	va_list ap;

	if (out.json)
		return;
	if (!strchr(fmt, '%')) {
		fputs_unlocked(fmt, out.fp);
		return;
	}
	va_start(ap, fmt);
	vfprintf(out.fp, fmt, ap);
	va_end(ap);
}

void print_nl(void)
{
	if (!out.json)
		fputc_unlocked('\n', out.fp);
}

int json_print_end(void)
{
	while (out.depth)
		s_close();
	if (out.failed)
		return -ENOMEM;
	if (fflush(out.fp) || ferror(out.fp))
		return -EIO;
	return 0;
}
