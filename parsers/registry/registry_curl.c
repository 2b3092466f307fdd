/* SPDX-License-Identifier: Apache-2.0 */
/* registry_curl.c: libcurl through dlopen (see registry_curl.h). */
#include "parsers/registry/registry_curl.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdbool.h>

static struct gl_curl lib;
static bool loaded;
static pthread_once_t once = PTHREAD_ONCE_INIT;

/* Cast a symbol to the function pointer it is (POSIX: dlsym's void * converts). */
#define SYM(field, name) (*(void **)&lib.field = dlsym(h, name), lib.field != NULL)

static void load(void)
{
    const char *names[] = {"libcurl.so.4", "libcurl-gnutls.so.4"};
    void *h = NULL;
    for (size_t i = 0; i < 2 && !h; i++)
        h = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
    if (!h)
        return;
    bool ok = SYM(global_init, "curl_global_init") && SYM(easy_init, "curl_easy_init") &&
              SYM(easy_cleanup, "curl_easy_cleanup") && SYM(easy_reset, "curl_easy_reset") &&
              SYM(easy_setopt, "curl_easy_setopt") && SYM(easy_perform, "curl_easy_perform") &&
              SYM(easy_getinfo, "curl_easy_getinfo") &&
              SYM(easy_strerror, "curl_easy_strerror") && SYM(easy_escape, "curl_easy_escape") &&
              SYM(free, "curl_free") && SYM(slist_append, "curl_slist_append") &&
              SYM(slist_free_all, "curl_slist_free_all");
    loaded = ok && lib.global_init(CURL_GLOBAL_DEFAULT) == CURLE_OK;
}

const struct gl_curl *gl_curl(void)
{
    pthread_once(&once, load);
    return loaded ? &lib : NULL;
}
