#ifndef ECODEX_CNETLIBS_H
#define ECODEX_CNETLIBS_H

#include <stddef.h>

/// How one HTTP exchange ended (`ecx_http_send`).
enum ecx_http_outcome {
    ECX_HTTP_DONE = 0,         ///< a complete answer (any status); for a 3xx, `location` is where it points
    ECX_HTTP_TOO_LARGE = 1,    ///< the body passed `max_bytes` (declared or counted while streaming)
    ECX_HTTP_TIMED_OUT = 2,    ///< not finished within `timeout_ms`
    ECX_HTTP_TRANSPORT = 3,    ///< no connection, TLS failure, reset…: `error` says which
    ECX_HTTP_NO_LIBRARY = 4,   ///< libcurl is not installed: `error` says so
};

typedef struct {
    long status;
    /// `Retry-After` in seconds, or -1 when the answer had none (or not in seconds).
    double retry_after;
    /// The absolute address a 3xx answer points to (empty otherwise), as libcurl resolved it.
    char location[4096];
    char error[512];
    /// The body (malloc'ed; free with ecx_http_free), `body_length` bytes.
    unsigned char *body;
    size_t body_length;
} ecx_http_answer;

/// One request with libcurl, loaded on first use (dlopen): never follows redirects (the
/// caller decides), only http and https, no cookies, `timeout_ms` for the whole exchange,
/// the body cut off the moment it passes `max_bytes`. `headers` are `Name: value` lines.
int ecx_http_send(const char *url, const char *method, const void *body, size_t body_length,
                  const char *const *headers, size_t header_count, size_t max_bytes, long timeout_ms,
                  ecx_http_answer *answer);

void ecx_http_free(ecx_http_answer *answer);

#endif
