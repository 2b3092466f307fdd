/* SPDX-License-Identifier: Apache-2.0 */
/*
 * dockerfile_dump.c: BuildKit's Node.Dump() for a parsed file, and Go's strconv.Quote.
 * unicode.IsPrint is approximated for non-ASCII (C1 controls, non-ASCII spaces, format
 * characters and private use are escaped; everything else valid is kept).
 */
#include "parsers/dockerfile/dockerfile_internal.h"

static bool go_is_print(uint32_t r)
{
    if (r < 0x80)
        return r >= 0x20 && r < 0x7F;
    if (r <= 0xA0 || r == 0xAD || r == 0x1680 || r == 0x3000 || r == 0xFEFF)
        return false;
    if ((r >= 0x2000 && r <= 0x200F) || (r >= 0x2028 && r <= 0x202F) ||
        (r >= 0x205F && r <= 0x206F) || (r >= 0xE000 && r <= 0xF8FF) ||
        (r >= 0xFFF9 && r <= 0xFFFB) || r == 0xFFFE || r == 0xFFFF || r >= 0xF0000 ||
        (r >= 0xE0000 && r <= 0xE007F))
        return false;
    return true;
}

void df_go_quote(struct gl_buf *out, const char *s, size_t len)
{
    static const char hex[] = "0123456789abcdef";
    gl_buf_addc(out, '"');
    for (size_t i = 0; i < len;) {
        uint32_t r;
        size_t w = df_utf8_decode(s + i, len - i, &r);
        if (r == DF_RUNE_ERROR && w == 1) {
            unsigned char b = (unsigned char)s[i];
            gl_buf_printf(out, "\\x%c%c", hex[b >> 4], hex[b & 15]);
        } else if (r == '"' || r == '\\') {
            gl_buf_addc(out, '\\');
            gl_buf_addc(out, (char)r);
        } else if (go_is_print(r)) {
            gl_buf_add(out, s + i, w);
        } else {
            switch (r) {
            case '\a': gl_buf_adds(out, "\\a"); break;
            case '\b': gl_buf_adds(out, "\\b"); break;
            case '\f': gl_buf_adds(out, "\\f"); break;
            case '\n': gl_buf_adds(out, "\\n"); break;
            case '\r': gl_buf_adds(out, "\\r"); break;
            case '\t': gl_buf_adds(out, "\\t"); break;
            case '\v': gl_buf_adds(out, "\\v"); break;
            default:
                if (r < ' ' || r == 0x7F)
                    gl_buf_printf(out, "\\x%c%c", hex[r >> 4], hex[r & 15]);
                else if (r < 0x10000)
                    gl_buf_printf(out, "\\u%04x", (unsigned)r);
                else
                    gl_buf_printf(out, "\\U%08x", (unsigned)r);
            }
        }
        i += w;
    }
    gl_buf_addc(out, '"');
}

static void dump_instr(const struct df_instr *in, struct gl_buf *out)
{
    size_t depth = 0;
    for (const struct df_instr *cur = in; cur; cur = cur->child) {
        if (depth)
            gl_buf_adds(out, " (");
        gl_buf_adds(out, cur->keyword);
        if (cur->nflags) {
            gl_buf_adds(out, " [");
            for (size_t i = 0; i < cur->nflags; i++) {
                if (i)
                    gl_buf_addc(out, ' ');
                df_go_quote(out, cur->flags[i].text, cur->flags[i].len);
            }
            gl_buf_addc(out, ']');
        }
        for (size_t i = 0; i < cur->nargs; i++) {
            gl_buf_addc(out, ' ');
            df_go_quote(out, cur->args[i].value, cur->args[i].len);
        }
        depth++;
    }
    while (--depth)
        gl_buf_addc(out, ')');
}

void df_dump(const struct df_file *f, struct gl_buf *out)
{
    for (size_t i = 0; i < f->ninstrs; i++) {
        gl_buf_addc(out, '(');
        dump_instr(&f->instrs[i], out);
        gl_buf_adds(out, ")\n");
    }
}
