// The one HTTP transport, on libcurl loaded when the first request is made.
//
// FoundationNetworking (URLSession) made every `scan` process load it and libcurl's ~30
// libraries (GnuTLS, Kerberos, LDAP…) before main, about a fifth of `scan text`'s time,
// although almost no run goes online. The rules a download follows (https only, redirect
// policy, size, time) stay in Swift (EcodexOnline's HTTPGet); this file only moves bytes.
// libcurl's option numbers are part of its stable ABI (curl.h); they are written out here
// so that no curl development package is needed to build.
#define _GNU_SOURCE
#include "CNetLibs.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

typedef void CURL;
struct curl_slist;
enum {
    OPT_WRITEDATA = 10001, OPT_URL = 10002, OPT_ERRORBUFFER = 10010, OPT_POSTFIELDS = 10015, OPT_USERAGENT = 10018,
    OPT_HTTPHEADER = 10023, OPT_HEADERDATA = 10029, OPT_CUSTOMREQUEST = 10036, OPT_ACCEPT_ENCODING = 10102,
    OPT_PROTOCOLS_STR = 10318, OPT_WRITEFUNCTION = 20011, OPT_HEADERFUNCTION = 20079, OPT_NOPROGRESS = 43,
    OPT_POST = 47, OPT_FOLLOWLOCATION = 52, OPT_NOSIGNAL = 99, OPT_TIMEOUT_MS = 155, OPT_HTTPGET = 80,
    OPT_MAXFILESIZE_LARGE = 30117, OPT_POSTFIELDSIZE_LARGE = 30120, OPT_SSLVERSION = 32, SSLVERSION_TLSv1_2 = 6,
    INFO_RESPONSE_CODE = 0x200000 + 2, INFO_REDIRECT_URL = 0x100000 + 31,
    E_OK = 0, E_WRITE_ERROR = 23, E_OPERATION_TIMEDOUT = 28, E_FILESIZE_EXCEEDED = 63,
    GLOBAL_DEFAULT = 3,
};

static struct {
    int (*global_init)(long);
    CURL *(*easy_init)(void);
    int (*easy_setopt)(CURL *, int, ...);
    int (*easy_perform)(CURL *);
    int (*easy_getinfo)(CURL *, int, ...);
    void (*easy_cleanup)(CURL *);
    const char *(*easy_strerror)(int);
    struct curl_slist *(*slist_append)(struct curl_slist *, const char *);
    void (*slist_free_all)(struct curl_slist *);
} curl;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int loaded = 0;
static char load_error[256];

static void load(void) {
    void *h = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
    if (!h) h = dlopen("libcurl-gnutls.so.4", RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        snprintf(load_error, sizeof load_error, "libcurl is not installed (Debian package libcurl4): %s", dlerror());
        return;
    }
#define SYM(field, name)                                                                       \
    if (!(*(void **)&curl.field = dlsym(h, name))) {                                           \
        snprintf(load_error, sizeof load_error, "libcurl has no function %s (too old?)", name); \
        return;                                                                                \
    }
    SYM(global_init, "curl_global_init") SYM(easy_init, "curl_easy_init") SYM(easy_setopt, "curl_easy_setopt")
    SYM(easy_perform, "curl_easy_perform") SYM(easy_getinfo, "curl_easy_getinfo")
    SYM(easy_cleanup, "curl_easy_cleanup") SYM(easy_strerror, "curl_easy_strerror")
    SYM(slist_append, "curl_slist_append") SYM(slist_free_all, "curl_slist_free_all")
#undef SYM
    if (curl.global_init(GLOBAL_DEFAULT) != E_OK) {
        snprintf(load_error, sizeof load_error, "libcurl could not start");
        return;
    }
    loaded = 1;
}

struct sink {
    ecx_http_answer *answer;
    size_t capacity, max_bytes;
    int too_large;
};

static size_t on_body(char *data, size_t size, size_t count, void *user) {
    struct sink *s = user;
    size_t n = size * count;
    ecx_http_answer *a = s->answer;
    if (a->body_length + n > s->max_bytes) {
        s->too_large = 1;
        return 0;  // ends the transfer now (CURLE_WRITE_ERROR)
    }
    if (a->body_length + n > s->capacity) {
        size_t wanted = s->capacity ? s->capacity * 2 : 16384;
        while (wanted < a->body_length + n) wanted *= 2;
        if (wanted > s->max_bytes) wanted = s->max_bytes;
        unsigned char *grown = realloc(a->body, wanted);
        if (!grown) return 0;
        a->body = grown;
        s->capacity = wanted;
    }
    memcpy(a->body + a->body_length, data, n);
    a->body_length += n;
    return n;
}

static size_t on_header(char *line, size_t size, size_t count, void *user) {
    ecx_http_answer *a = ((struct sink *)user)->answer;
    size_t n = size * count;
    // A new status line starts a new answer (a 100 Continue before the real one).
    if (n >= 5 && strncmp(line, "HTTP/", 5) == 0) a->retry_after = -1;
    const char *name = "retry-after:";
    size_t name_length = strlen(name);
    if (n > name_length && strncasecmp(line, name, name_length) == 0) {
        char value[64];
        size_t v = n - name_length;
        if (v >= sizeof value) v = sizeof value - 1;
        memcpy(value, line + name_length, v);
        value[v] = 0;
        char *end = NULL;
        double seconds = strtod(value, &end);
        while (end && (*end == ' ' || *end == '\t' || *end == '\r' || *end == '\n')) end++;
        if (end && *end == 0 && end != value && seconds >= 0) a->retry_after = seconds;
    }
    return n;
}

int ecx_http_send(const char *url, const char *method, const void *body, size_t body_length,
                  const char *const *headers, size_t header_count, size_t max_bytes, long timeout_ms,
                  ecx_http_answer *answer) {
    memset(answer, 0, sizeof *answer);
    answer->retry_after = -1;
    pthread_once(&once, load);
    if (!loaded) {
        snprintf(answer->error, sizeof answer->error, "%s", load_error);
        return ECX_HTTP_NO_LIBRARY;
    }
    CURL *h = curl.easy_init();
    if (!h) {
        snprintf(answer->error, sizeof answer->error, "libcurl could not start a transfer");
        return ECX_HTTP_TRANSPORT;
    }
    struct sink sink = {answer, 0, max_bytes, 0};
    char error[256] = {0};
    struct curl_slist *list = NULL;
    for (size_t i = 0; i < header_count; i++) list = curl.slist_append(list, headers[i]);
    curl.easy_setopt(h, OPT_URL, url);
    curl.easy_setopt(h, OPT_PROTOCOLS_STR, "http,https");
    // TLS 1.2 or newer, whatever the system's OpenSSL would still allow.
    curl.easy_setopt(h, OPT_SSLVERSION, (long)SSLVERSION_TLSv1_2);
    curl.easy_setopt(h, OPT_FOLLOWLOCATION, 0L);
    curl.easy_setopt(h, OPT_NOSIGNAL, 1L);
    curl.easy_setopt(h, OPT_NOPROGRESS, 1L);
    curl.easy_setopt(h, OPT_TIMEOUT_MS, timeout_ms < 1 ? 1L : timeout_ms);
    curl.easy_setopt(h, OPT_MAXFILESIZE_LARGE, (int64_t)max_bytes);
    curl.easy_setopt(h, OPT_ACCEPT_ENCODING, "");
    curl.easy_setopt(h, OPT_ERRORBUFFER, error);
    curl.easy_setopt(h, OPT_WRITEFUNCTION, on_body);
    curl.easy_setopt(h, OPT_WRITEDATA, &sink);
    curl.easy_setopt(h, OPT_HEADERFUNCTION, on_header);
    curl.easy_setopt(h, OPT_HEADERDATA, &sink);
    if (list) curl.easy_setopt(h, OPT_HTTPHEADER, list);
    if (method && strcmp(method, "POST") == 0) {
        curl.easy_setopt(h, OPT_POST, 1L);
        curl.easy_setopt(h, OPT_POSTFIELDSIZE_LARGE, (int64_t)body_length);
        curl.easy_setopt(h, OPT_POSTFIELDS, body ? body : "");
    } else {
        curl.easy_setopt(h, OPT_HTTPGET, 1L);
    }
    int rc = curl.easy_perform(h);
    long status = 0;
    curl.easy_getinfo(h, INFO_RESPONSE_CODE, &status);
    answer->status = status;
    char *location = NULL;
    if (curl.easy_getinfo(h, INFO_REDIRECT_URL, &location) == E_OK && location)
        snprintf(answer->location, sizeof answer->location, "%s", location);
    int outcome = ECX_HTTP_DONE;
    if (sink.too_large || rc == E_FILESIZE_EXCEEDED) {
        outcome = ECX_HTTP_TOO_LARGE;
    } else if (rc == E_OPERATION_TIMEDOUT) {
        outcome = ECX_HTTP_TIMED_OUT;
    } else if (rc != E_OK) {
        outcome = ECX_HTTP_TRANSPORT;
        snprintf(answer->error, sizeof answer->error, "%s", error[0] ? error : curl.easy_strerror(rc));
    }
    if (outcome != ECX_HTTP_DONE) {
        free(answer->body);
        answer->body = NULL;
        answer->body_length = 0;
    }
    curl.easy_cleanup(h);
    if (list) curl.slist_free_all(list);
    return outcome;
}

void ecx_http_free(ecx_http_answer *answer) {
    free(answer->body);
    answer->body = NULL;
    answer->body_length = 0;
}
