/* SPDX-License-Identifier: Apache-2.0 */
/* cuda_require.c: NVIDIA_REQUIRE_CUDA in three-valued logic (see cuda_require.h). */
#include "rules/gl2xx/cuda_require.h"

#include <string.h>

#include "knowledge/kb.h"

enum tri { T_FALSE, T_TRUE, T_UNKNOWN, T_INVALID };

enum op { OP_EQ, OP_NE, OP_LT, OP_LE, OP_GT, OP_GE };

static bool is_op_char(char c) { return c == '<' || c == '>' || c == '=' || c == '!'; }

static bool name_is(const char *s, size_t n, const char *name)
{
    return strlen(name) == n && gl_strn_eq_nocase(s, n, name);
}

static enum tri compare(const char *have, enum op op, const char *want)
{
    int r;
    if (!gl_version_compare(have, want, 0, &r))
        return T_INVALID;
    switch (op) {
    case OP_EQ: return r == 0 ? T_TRUE : T_FALSE;
    case OP_NE: return r != 0 ? T_TRUE : T_FALSE;
    case OP_LT: return r < 0 ? T_TRUE : T_FALSE;
    case OP_LE: return r <= 0 ? T_TRUE : T_FALSE;
    case OP_GT: return r > 0 ? T_TRUE : T_FALSE;
    case OP_GE: return r >= 0 ? T_TRUE : T_FALSE;
    }
    return T_INVALID;
}

/* A numeric value as libnvidia-container accepts it: digits and dots only, with digits. */
static bool numeric(const char *v)
{
    return *v && strspn(v, "0123456789.") == strlen(v) && strpbrk(v, "0123456789");
}

static enum tri predicate(const char *p, size_t n, const struct gl_require_target *t)
{
    size_t name_len = 0;
    while (name_len < n && !is_op_char(p[name_len]))
        name_len++;
    size_t op_len = 0;
    while (name_len + op_len < n && is_op_char(p[name_len + op_len]))
        op_len++;
    if (!name_len || !op_len || name_len + op_len == n)
        return T_INVALID;
    static const char *const ops[] = {"=", "!=", "<", "<=", ">", ">="};
    int op = -1;
    for (int i = 0; i < 6 && op < 0; i++)
        if (strlen(ops[i]) == op_len && !memcmp(p + name_len, ops[i], op_len))
            op = i;
    if (op < 0)
        return T_INVALID;
    char value[64];
    size_t vl = n - name_len - op_len;
    if (vl >= sizeof value)
        return T_INVALID;
    memcpy(value, p + name_len + op_len, vl);
    value[vl] = '\0';
    if (name_is(p, name_len, "brand"))
        return op == OP_EQ || op == OP_NE ? T_UNKNOWN : T_INVALID;
    if (!numeric(value))
        return T_INVALID;
    /* dsl_compare_version accepts "12..4" style runs of dots; ours does not: unknown */
    if (!gl_version_valid(value))
        return T_UNKNOWN;
    if (name_is(p, name_len, "arch"))
        return T_UNKNOWN;
    if (name_is(p, name_len, "driver"))
        return t->driver && gl_version_valid(t->driver) ? compare(t->driver, op, value)
                                                        : T_UNKNOWN;
    if (name_is(p, name_len, "cuda")) {
        if (!t->driver_cuda || !gl_version_valid(t->driver_cuda))
            return T_UNKNOWN;
        enum tri r = compare(t->driver_cuda, op, value);
        /* a lower bound proves only >= and > true */
        if (!t->driver_cuda_exact && !(r == T_TRUE && (op == OP_GE || op == OP_GT)))
            return T_UNKNOWN;
        return r;
    }
    return T_INVALID;
}

enum gl_require_result gl_require_cuda_eval(const char *expr,
                                            const struct gl_require_target *target,
                                            struct gl_require_outcome *out)
{
    struct gl_require_outcome o = {GL_REQUIRE_UNMET, 0, 0};
    size_t n = strlen(expr);
    bool evaluated = false;     /* a predicate has been evaluated */
    bool may_be_true = false;   /* some earlier alternative may hold */
    bool first_group = true;
    for (size_t g = 0; g <= n;) {
        size_t ge = g;
        while (ge < n && expr[ge] != ' ')
            ge++;
        if (ge == g) { /* an empty alternative between two spaces */
            if (ge >= n)
                break;
            g = ge + 1;
            continue;
        }
        if (first_group) {
            o.off = g;
            o.len = ge - g;
            first_group = false;
        }
        enum tri group = T_TRUE;
        bool any = false;
        for (size_t p = g; p < ge;) {
            size_t pe = p;
            while (pe < ge && expr[pe] != ',')
                pe++;
            if (pe > p) {
                any = true;
                enum tri v = predicate(expr + p, pe - p, target);
                if (v == T_INVALID) {
                    if (!may_be_true && group == T_TRUE) {
                        o.result = GL_REQUIRE_INVALID;
                        o.off = p;
                        o.len = pe - p;
                        *out = o;
                        return o.result;
                    }
                    group = T_UNKNOWN; /* reached only on some paths */
                    break;
                }
                evaluated = true;
                if (v == T_FALSE) {
                    group = T_FALSE;
                    break;
                }
                if (v == T_UNKNOWN)
                    group = T_UNKNOWN;
            }
            p = pe + 1;
        }
        if (!any)
            group = evaluated ? T_FALSE : T_TRUE;
        if (group == T_TRUE) {
            o.result = GL_REQUIRE_MET;
            *out = o;
            return o.result;
        }
        if (group != T_FALSE)
            may_be_true = true;
        g = ge + 1;
    }
    o.result = may_be_true ? GL_REQUIRE_UNKNOWN : GL_REQUIRE_UNMET;
    if (first_group) /* nothing but spaces: the toolkit accepts it */
        o.result = GL_REQUIRE_MET;
    *out = o;
    return o.result;
}
