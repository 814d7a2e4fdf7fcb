// SPDX-License-Identifier: GPL-2.0
/*
 * abi-probe - write a probe of the ABI a set of uapi headers define, and
 * read the probe's answers back, the way the kernel's asm-offsets works:
 * the probe is compiled to assembly only (never linked, never run) and
 * every value is an "i" operand of an asm statement that prints
 * "->KEY VALUE" into the .s file.
 *
 *   abi-probe gen [-a] -I INCDIR [-o PROBE.c] PREPROCESSED HEADER...
 *	PREPROCESSED is `cc -E -dD` of a file that includes the HEADERs
 *	with -I INCDIR.  The probe records, for every definition that comes
 *	from one of the HEADERs (or from its asm/ <-> asm-generic/ partner of
 *	the same name; -a: from any file under INCDIR):
 *	  struct.T.sizeof struct.T.alignof struct.T.M.offsetof struct.T.M.sizeof
 *	  union.T.* typedef.T.* (members of untagged typedef'd bodies too)
 *	  macro.NAME (object-like macros) enum.NAME (enumerators)
 *	Members of anonymous structs/unions are members of the outer type;
 *	members of named inline bodies are M.N (M[0].N for arrays).
 *	Bitfields are skipped.  One probe line per value, so that a caller can
 *	drop the lines the compiler rejects (macros that are no constants).
 *
 *   abi-probe extract [PROBE.s]
 *	Print the "KEY VALUE" lines of a compiled probe (unsorted).
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static const char *prog = "abi-probe";

static void die(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: error: ", prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(2);
}

static void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n);
	if (!p)
		die("out of memory");
	return p;
}

static char *xstrndup(const char *s, size_t n)
{
	char *d = xrealloc(NULL, n + 1);

	memcpy(d, s, n);
	d[n] = '\0';
	return d;
}

static char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *s;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	s = xrealloc(NULL, n + 1);
	va_start(ap, fmt);
	vsnprintf(s, n + 1, fmt, ap);
	va_end(ap);
	return s;
}

/* ---- the files whose definitions are recorded ---- */

static const char *incdir;
static size_t incdir_len;
static int record_all;
static char **wanted;
static int nr_wanted;

static void want(const char *name)
{
	wanted = xrealloc(wanted, (nr_wanted + 1) * sizeof(*wanted));
	wanted[nr_wanted++] = xasprintf("%s", name);
}

/* asm/X.h and asm-generic/X.h stand for each other: a patch moves a
 * definition from one to the other and the ABI must stay. */
static void want_with_partner(const char *name)
{
	want(name);
	if (!strncmp(name, "asm/", 4))
		want(xasprintf("asm-generic/%s", name + 4));
	else if (!strncmp(name, "asm-generic/", 12))
		want(xasprintf("asm/%s", name + 12));
}

/* Is the file of a line marker one whose definitions we record? */
static int is_wanted(const char *path)
{
	int i;

	while (!strncmp(path, "./", 2))
		path += 2;
	if (strncmp(path, incdir, incdir_len) || path[incdir_len] != '/')
		return 0;
	path += incdir_len + 1;
	if (record_all)
		return 1;
	for (i = 0; i < nr_wanted; i++)
		if (!strcmp(path, wanted[i]))
			return 1;
	return 0;
}

/* ---- tokens of the preprocessed text ---- */

struct tok {
	char *s;
	int own;		/* from a wanted file */
};

static struct tok *toks;
static int nr_toks;

static void add_tok(const char *s, size_t n, int own)
{
	if (!(nr_toks & 1023))
		toks = xrealloc(toks, (nr_toks + 1024) * sizeof(*toks));
	toks[nr_toks].s = xstrndup(s, n);
	toks[nr_toks].own = own;
	nr_toks++;
}

static int is_ident_start(int c)
{
	return isalpha(c) || c == '_' || c == '$';
}

static int is_ident(const char *s)
{
	return is_ident_start((unsigned char)*s);
}

static int tok_is(int i, const char *s)
{
	return !strcmp(toks[i].s, s);
}

static void tokenize(const char *p, int own)
{
	const char *q;

	while (*p) {
		if (isspace((unsigned char)*p)) {
			p++;
		} else if (is_ident_start((unsigned char)*p)) {
			for (q = p; is_ident_start((unsigned char)*q) ||
			     isdigit((unsigned char)*q); q++)
				;
			add_tok(p, q - p, own);
			p = q;
		} else if (isdigit((unsigned char)*p) ||
			   (*p == '.' && isdigit((unsigned char)p[1]))) {
			/* a pp-number */
			for (q = p; isalnum((unsigned char)*q) || *q == '.' ||
			     *q == '_' || ((*q == '+' || *q == '-') &&
			     strchr("eEpP", q[-1])); q++)
				;
			add_tok(p, q - p, own);
			p = q;
		} else if (*p == '"' || *p == '\'') {
			for (q = p + 1; *q && *q != *p; q++)
				if (*q == '\\' && q[1])
					q++;
			if (*q)
				q++;
			add_tok(p, q - p, own);
			p = q;
		} else if (p[0] == '-' && p[1] == '>') {
			add_tok(p, 2, own);
			p += 2;
		} else {
			add_tok(p, 1, own);
			p++;
		}
	}
}

/* ---- macros ---- */

static char **macros;
static int nr_macros;

static int find_macro(const char *name)
{
	int i;

	for (i = 0; i < nr_macros; i++)
		if (macros[i] && !strcmp(macros[i], name))
			return i;
	return -1;
}

/* "#define NAME BODY" or "#undef NAME", as -dD prints them */
static void directive(const char *p, int own)
{
	const char *name, *q;
	char *n;
	int undef, i;

	p++;
	while (*p == ' ' || *p == '\t')
		p++;
	if (!strncmp(p, "define", 6))
		undef = 0;
	else if (!strncmp(p, "undef", 5))
		undef = 1;
	else
		return;
	p += undef ? 5 : 6;
	while (*p == ' ' || *p == '\t')
		p++;
	name = p;
	while (is_ident_start((unsigned char)*p) || isdigit((unsigned char)*p))
		p++;
	if (p == name)
		return;
	n = xstrndup(name, p - name);
	i = find_macro(n);
	if (undef) {
		if (i >= 0)
			macros[i] = NULL;
		free(n);
		return;
	}
	/* function-like, or no value (include guards) */
	for (q = p; *q == ' ' || *q == '\t' || *q == '\n'; q++)
		;
	if (*p == '(' || !*q || !own) {
		if (i >= 0)
			macros[i] = NULL;	/* redefined elsewhere */
		free(n);
		return;
	}
	if (i >= 0) {
		free(n);
		return;
	}
	macros = xrealloc(macros, (nr_macros + 1) * sizeof(*macros));
	macros[nr_macros++] = n;
}

static void read_preprocessed(FILE *f)
{
	char *line = NULL;
	size_t cap = 0;
	int own = 0;

	while (getline(&line, &cap, f) > 0) {
		char *p = line, *q;

		while (*p == ' ' || *p == '\t')
			p++;
		if (*p != '#') {
			tokenize(p, own);
			continue;
		}
		/* line marker: # 12 "path" flags */
		q = p + 1;
		while (*q == ' ')
			q++;
		if (isdigit((unsigned char)*q)) {
			q = strchr(q, '"');
			if (q) {
				char *e = strchr(q + 1, '"');

				if (e) {
					*e = '\0';
					own = is_wanted(q + 1);
				}
			}
			continue;
		}
		directive(p, own);
	}
	free(line);
}

/* ---- the probe entries ---- */

struct entry {
	char kind;		/* 'V' a value, 'C' a constant of up to 64 bits */
	char *key;
	char *expr;
};

static struct entry *entries;
static int nr_entries;

#define HASH_SIZE 65536
static int key_hash[HASH_SIZE];	/* index + 1 into entries, open addressing */

static unsigned int hash(const char *s)
{
	unsigned int h = 5381;

	while (*s)
		h = h * 33 + (unsigned char)*s++;
	return h;
}

static void add_entry(char kind, char *key, char *expr)
{
	unsigned int h = hash(key);
	int n = 0;

	while (key_hash[h % HASH_SIZE]) {
		if (!strcmp(entries[key_hash[h % HASH_SIZE] - 1].key, key)) {
			free(key);
			free(expr);
			return;
		}
		h++;
		if (++n == HASH_SIZE)
			die("more than %d probe values", HASH_SIZE);
	}
	entries = xrealloc(entries, (nr_entries + 1) * sizeof(*entries));
	entries[nr_entries].kind = kind;
	entries[nr_entries].key = key;
	entries[nr_entries].expr = expr;
	key_hash[h % HASH_SIZE] = ++nr_entries;
}

/* ---- declarations ---- */

/* the index after the bracket group that opens at i */
static int skip_group(int i, int end)
{
	int depth = 0;

	for (; i < end; i++) {
		const char *s = toks[i].s;

		if (s[1])
			continue;
		if (*s == '(' || *s == '[' || *s == '{')
			depth++;
		else if (*s == ')' || *s == ']' || *s == '}')
			if (--depth == 0)
				return i + 1;
	}
	return end;
}

static int is_attribute(int i)
{
	static const char * const attrs[] = {
		"__attribute__", "__attribute", "__asm__", "__asm", "asm",
		"_Alignas", "__declspec",
	};
	unsigned int k;

	for (k = 0; k < ARRAY_SIZE(attrs); k++)
		if (tok_is(i, attrs[k]))
			return 1;
	return 0;
}

/* skip "__attribute__ ((...))" and friends at i */
static int skip_attributes(int i, int end)
{
	while (i < end && is_attribute(i)) {
		i++;
		if (i < end && tok_is(i, "("))
			i = skip_group(i, end);
	}
	return i;
}

static int is_qualifier(const char *s)
{
	static const char * const quals[] = {
		"const", "volatile", "restrict", "__restrict", "__restrict__",
		"__const", "__const__", "__volatile", "__volatile__", "auto",
		"register", "static", "extern", "inline", "__inline",
		"__inline__", "_Noreturn", "typedef", "__extension__", "_Atomic",
		"_Thread_local", "__thread",
	};
	unsigned int k;

	for (k = 0; k < ARRAY_SIZE(quals); k++)
		if (!strcmp(s, quals[k]))
			return 1;
	return 0;
}

static int is_base_type(const char *s)
{
	static const char * const types[] = {
		"void", "char", "short", "int", "long", "float", "double",
		"signed", "unsigned", "_Bool", "__signed", "__signed__",
		"__int128", "_Complex", "__complex__", "__unsigned__",
		"_Float16", "_Float32", "_Float64", "_Float128", "__float128",
	};
	unsigned int k;

	for (k = 0; k < ARRAY_SIZE(types); k++)
		if (!strcmp(s, types[k]))
			return 1;
	return 0;
}

/* What the specifiers of a declaration define inline. */
struct specs {
	int is_typedef;
	int agg;		/* 's' struct, 'u' union, 'e' enum, 0 none */
	const char *tag;
	int body, body_end;	/* the tokens inside { }, if any */
};

static void record_aggregate(int kw, struct specs *sp);

/* Parse the declaration specifiers at i; return the first declarator token. */
static int parse_specs(int i, int end, struct specs *sp)
{
	int seen_type = 0;

	memset(sp, 0, sizeof(*sp));
	sp->body = -1;
	while (i < end) {
		const char *s = toks[i].s;

		if (is_attribute(i)) {
			i = skip_attributes(i, end);
		} else if (!strcmp(s, "typedef")) {
			sp->is_typedef = 1;
			i++;
		} else if (is_qualifier(s)) {
			i++;
		} else if (!strcmp(s, "struct") || !strcmp(s, "union") ||
			   !strcmp(s, "enum")) {
			int kw = i;

			sp->agg = *s == 's' ? 's' : *s == 'u' ? 'u' : 'e';
			i = skip_attributes(i + 1, end);
			if (i < end && is_ident(toks[i].s) && !tok_is(i, "{"))
				sp->tag = toks[i++].s;
			i = skip_attributes(i, end);
			if (i < end && tok_is(i, "{")) {
				int close = skip_group(i, end);

				sp->body = i + 1;
				sp->body_end = close - 1;
				i = close;
				record_aggregate(kw, sp);
			}
			seen_type = 1;
		} else if (!strcmp(s, "__typeof__") || !strcmp(s, "typeof") ||
			   !strcmp(s, "__typeof")) {
			i++;
			if (i < end && tok_is(i, "("))
				i = skip_group(i, end);
			seen_type = 1;
		} else if (is_base_type(s)) {
			seen_type = 1;
			i++;
		} else if (is_ident(s) && !seen_type) {
			seen_type = 1;	/* a typedef name */
			i++;
		} else {
			break;
		}
	}
	return i;
}

/* The name a declarator [i, end) declares, or NULL; *plain is set when it
 * declares neither a pointer nor a function, *dims to its array rank and
 * *bitfield when it has a width. */
static const char *declarator_name(int i, int end, int *plain, int *dims,
				   int *bitfield)
{
	const char *name = NULL;
	int depth = 0;

	*plain = 1;
	*dims = 0;
	*bitfield = 0;
	while (i < end) {
		const char *s = toks[i].s;

		if (is_attribute(i)) {
			i = skip_attributes(i, end);
			continue;
		}
		if (!strcmp(s, "[")) {
			if (depth == 0)
				(*dims)++;
			i = skip_group(i, end);
			continue;
		}
		if (depth == 0 && (!strcmp(s, "=") || !strcmp(s, ":"))) {
			if (*s == ':')
				*bitfield = 1;
			break;
		}
		if (!strcmp(s, "*")) {
			*plain = 0;
		} else if (!strcmp(s, "(")) {
			if (name) {
				*plain = 0;	/* a function */
				break;
			}
			depth++;
		} else if (!strcmp(s, ")")) {
			depth--;
		} else if (!name && is_ident(s) && !is_qualifier(s)) {
			name = s;
		}
		i++;
	}
	return name;
}

/* the end of the declaration or member that starts at i: its ';' or end */
static int decl_end(int i, int end)
{
	while (i < end && !tok_is(i, ";")) {
		if (tok_is(i, "(") || tok_is(i, "[") || tok_is(i, "{"))
			i = skip_group(i, end);
		else
			i++;
	}
	return i;
}

/* the end of the declarator at i: the next ',' at depth 0, or end */
static int declarator_end(int i, int end)
{
	while (i < end && !tok_is(i, ",")) {
		if (tok_is(i, "(") || tok_is(i, "[") || tok_is(i, "{"))
			i = skip_group(i, end);
		else
			i++;
	}
	return i;
}

/* Record the members of the body [b, e) of TYPE, KEY being the key prefix
 * and PATH the designator of the body in TYPE (NULL at the top). */
static void members(int b, int e, const char *type, const char *key,
		    const char *path, int emit)
{
	while (b < e) {
		int end = decl_end(b, e), i, d;
		struct specs sp;

		i = parse_specs(b, end, &sp);
		if (i == end && sp.body >= 0 && !sp.tag && sp.agg != 'e') {
			/* an anonymous struct or union */
			members(sp.body, sp.body_end, type, key, path, emit);
		}
		for (; i < end; i = d + 1) {
			int plain, dims, bitfield;
			const char *name;
			char *p;

			d = declarator_end(i, end);
			name = declarator_name(i, d, &plain, &dims, &bitfield);
			if (!name || bitfield)
				continue;
			p = path ? xasprintf("%s.%s", path, name) :
				   xasprintf("%s", name);
			if (emit) {
				add_entry('V', xasprintf("%s.%s.offsetof", key, p),
					  xasprintf("__builtin_offsetof(%s, %s)",
						    type, p));
				add_entry('V', xasprintf("%s.%s.sizeof", key, p),
					  xasprintf("sizeof(((%s *)0)->%s)",
						    type, p));
			}
			if (plain && sp.body >= 0 && sp.agg != 'e') {
				char *q = p;

				while (dims--)
					q = xasprintf("%s[0]", q);
				members(sp.body, sp.body_end, type, key, q, emit);
			}
		}
		b = end + 1;
	}
}

static void enumerators(int b, int e, int emit)
{
	while (b < e) {
		int d = declarator_end(b, e);

		if (emit && is_ident(toks[b].s))
			add_entry('C', xasprintf("enum.%s", toks[b].s),
				  xasprintf("%s", toks[b].s));
		b = d + 1;
	}
}

/* A struct/union/enum with a body: record a tagged one of a wanted file. */
static void record_aggregate(int kw, struct specs *sp)
{
	const char *k = sp->agg == 's' ? "struct" : "union";
	int emit = toks[kw].own;
	char *type, *key;

	if (sp->agg == 'e') {
		enumerators(sp->body, sp->body_end, emit);
		return;
	}
	if (!sp->tag) {
		/* still look for tagged bodies inside */
		members(sp->body, sp->body_end, "", "", NULL, 0);
		return;
	}
	type = xasprintf("%s %s", k, sp->tag);
	key = xasprintf("%s.%s", k, sp->tag);
	if (emit) {
		add_entry('V', xasprintf("%s.sizeof", key),
			  xasprintf("sizeof(%s)", type));
		add_entry('V', xasprintf("%s.alignof", key),
			  xasprintf("_Alignof(%s)", type));
	}
	members(sp->body, sp->body_end, type, key, NULL, emit);
}

/* Is the '{' at i the body of a function rather than of an aggregate or an
 * initializer?  Past the attributes before it, a function body follows the
 * ')' of a parameter list. */
static int is_function_body(int start, int i)
{
	int j = i - 1;

	while (j >= start && tok_is(j, ")")) {
		int depth = 0;

		for (; j >= start; j--) {
			if (tok_is(j, ")"))
				depth++;
			else if (tok_is(j, "(") && --depth == 0)
				break;
		}
		/* j is the '(' that matches */
		if (j - 1 < start || !is_attribute(j - 1))
			return 1;
		j -= 2;
	}
	return 0;
}

static void top_level(void)
{
	int i = 0;

	while (i < nr_toks) {
		int start = i, end, fn = 0;
		struct specs sp;

		/* find the end: ';' at depth 0, or a function body */
		while (i < nr_toks && !tok_is(i, ";")) {
			if (tok_is(i, "{") && is_function_body(start, i)) {
				fn = 1;
				i = skip_group(i, nr_toks);
				break;
			}
			if (tok_is(i, "(") || tok_is(i, "[") || tok_is(i, "{"))
				i = skip_group(i, nr_toks);
			else
				i++;
		}
		end = i;
		if (!fn)
			i++;
		if (fn)
			continue;
		i = parse_specs(start, end, &sp);
		if (sp.is_typedef) {
			int d;

			for (; i < end; i = d + 1) {
				int plain, dims, bitfield;
				const char *name;
				char *key;

				d = declarator_end(i, end);
				name = declarator_name(i, d, &plain, &dims,
						       &bitfield);
				if (!name || !toks[start].own)
					continue;
				key = xasprintf("typedef.%s", name);
				add_entry('V', xasprintf("%s.sizeof", key),
					  xasprintf("sizeof(%s)", name));
				add_entry('V', xasprintf("%s.alignof", key),
					  xasprintf("_Alignof(%s)", name));
				if (plain && !dims && sp.body >= 0 && !sp.tag &&
				    sp.agg != 'e')
					members(sp.body, sp.body_end, name, key,
						NULL, 1);
			}
		}
		i = end + 1;
	}
}

/* ---- gen ---- */

static void write_probe(FILE *f, char **headers, int nr_headers)
{
	int i;

	fprintf(f, "/* generated by tools/abi-probe: do not edit */\n");
	for (i = 0; i < nr_headers; i++)
		fprintf(f, "#include <%s>\n", headers[i]);
	fprintf(f,
		"\n#define ABI_V(k, e) asm volatile(\"\\n.ascii \\\"->\" k \" %%0\\\"\" : : \"i\" ((long)(e)))\n"
		"#define ABI_C(k, e) asm volatile(\"\\n.ascii \\\"->\" k \" %%0 %%1\\\"\" : : "
		"\"i\" ((long)((unsigned long long)(e) & 0xffffffffULL)), "
		"\"i\" ((long)((unsigned long long)(e) >> 32)))\n"
		"\nvoid abi_probe(void);\nvoid abi_probe(void)\n{\n");
	for (i = 0; i < nr_entries; i++)
		fprintf(f, "\tABI_%c(\"%s\", %s);\n", entries[i].kind,
			entries[i].key, entries[i].expr);
	fprintf(f, "}\n");
}

static int gen(int argc, char **argv)
{
	const char *out = NULL;
	FILE *f;
	int c, i;

	while ((c = getopt(argc, argv, "aI:o:")) != -1) {
		switch (c) {
		case 'a':
			record_all = 1;
			break;
		case 'I':
			incdir = optarg;
			break;
		case 'o':
			out = optarg;
			break;
		default:
			return 2;
		}
	}
	if (!incdir || argc - optind < 2)
		die("usage: abi-probe gen [-a] -I INCDIR [-o PROBE.c] PREPROCESSED HEADER...");
	incdir_len = strlen(incdir);
	while (incdir_len > 1 && incdir[incdir_len - 1] == '/')
		incdir_len--;
	for (i = optind + 1; i < argc; i++)
		want_with_partner(argv[i]);

	f = strcmp(argv[optind], "-") ? fopen(argv[optind], "r") : stdin;
	if (!f)
		die("cannot read %s", argv[optind]);
	read_preprocessed(f);
	if (f != stdin)
		fclose(f);

	top_level();
	for (i = 0; i < nr_macros; i++)
		if (macros[i])
			add_entry('C', xasprintf("macro.%s", macros[i]),
				  xasprintf("%s", macros[i]));

	f = out ? fopen(out, "w") : stdout;
	if (!f)
		die("cannot write %s", out);
	write_probe(f, argv + optind + 1, argc - optind - 1);
	if (f != stdout && fclose(f))
		die("cannot write %s", out);
	return 0;
}

/* ---- extract ---- */

/* an immediate as the target's assembler syntax prints it: $12, #12, 12 */
static int parse_imm(const char **p, long long *v)
{
	const char *s = *p;
	char *e;

	while (*s == ' ')
		s++;
	while (*s == '$' || *s == '#')
		s++;
	if (!isdigit((unsigned char)*s) && *s != '-')
		return 0;
	*v = strtoll(s, &e, 0);
	if (e == s)
		return 0;
	*p = e;
	return 1;
}

static int extract(int argc, char **argv)
{
	FILE *f = stdin;
	char *line = NULL;
	size_t cap = 0;
	int bad = 0;

	if (argc > 1 && strcmp(argv[1], "-")) {
		f = fopen(argv[1], "r");
		if (!f)
			die("cannot read %s", argv[1]);
	}
	while (getline(&line, &cap, f) > 0) {
		char *k = strstr(line, "->"), *ke;
		const char *p;
		long long lo, hi;

		if (!k || !strstr(line, ".ascii"))
			continue;
		k += 2;
		ke = strchr(k, ' ');
		if (!ke)
			continue;
		*ke = '\0';
		p = ke + 1;
		if (!parse_imm(&p, &lo)) {
			/* an address, not a number: no constant */
			fprintf(stderr, "%s: %s: not a number, skipped\n",
				prog, k);
			bad++;
			continue;
		}
		if (parse_imm(&p, &hi))
			lo = (long long)(((unsigned long long)hi << 32) |
					 ((unsigned long long)lo & 0xffffffffULL));
		printf("%s %lld\n", k, lo);
	}
	free(line);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc >= 2 && !strcmp(argv[1], "gen"))
		return gen(argc - 1, argv + 1);
	if (argc >= 2 && !strcmp(argv[1], "extract"))
		return extract(argc - 1, argv + 1);
	fprintf(stderr,
		"usage: abi-probe gen [-a] -I INCDIR [-o PROBE.c] PREPROCESSED HEADER...\n"
		"       abi-probe extract [PROBE.s]\n");
	return 2;
}
