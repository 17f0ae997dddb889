// Leptonica, Tesseract and ZBar, loaded when first needed instead of linked.
//
// Linking them made every `scan` process map and relocate about 65 shared libraries
// (their image codecs, curl, archive, X11, GnuTLS, Kerberos...) before main: about half of
// `scan code`'s time. Here each function EcodexVision calls is defined once, as a hidden
// trampoline that jumps through a pointer filled in by ecx_vision_load(); Swift keeps
// calling `pixCreate` and friends by their own names. The list is functions.h, generated
// from the installed headers by scripts/gen_vision_trampolines.py (the compiler checks every
// definition against the header's prototype).
#define _GNU_SOURCE
#include "CVisionLibs.h"

#include <dlfcn.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <leptonica/allheaders.h>
#include <tesseract/capi.h>
#include <zbar.h>

enum { LEPT, TESS, ZBAR, LIB_COUNT };

// Sonames to try, the one the headers came from first (Debian 12), then newer ones.
static const char *const lib_names[LIB_COUNT][3] = {
    [LEPT] = {"liblept.so.5", "libleptonica.so.6", NULL},
    [TESS] = {"libtesseract.so.5", NULL, NULL},
    [ZBAR] = {"libzbar.so.0", NULL, NULL},
};
static const char *const lib_labels[LIB_COUNT] = {
    [LEPT] = "Leptonica (libleptonica)", [TESS] = "Tesseract (libtesseract5)", [ZBAR] = "ZBar (libzbar0)",
};

#define HIDDEN __attribute__((visibility("hidden")))
#define ECX_FN(lib, ret, name, params, args) \
    static ret(*p_##name) params;              \
    HIDDEN ret name params {                  \
        if (__builtin_expect(p_##name == NULL, 0)) ecx_not_loaded(#name); \
        return p_##name args;                 \
    }
#define ECX_VOID(lib, ret, name, params, args) \
    static void(*p_##name) params;               \
    HIDDEN void name params {                   \
        if (__builtin_expect(p_##name == NULL, 0)) ecx_not_loaded(#name); \
        p_##name args;                          \
    }

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int load_status = -1;
static char load_reason[512];

static void load_all(void);

// A call before a successful load: load now; a library that cannot load here is a
// programming error (every entry point in EcodexVision asks ecx_vision_load first).
static __attribute__((noinline)) void ecx_not_loaded(const char *name) {
    pthread_once(&once, load_all);
    if (load_status != 0) {
        fprintf(stderr, "ecodex: %s called but the vision libraries are not loaded: %s\n", name, load_reason);
        abort();
    }
}

#include "functions.h"
#undef ECX_FN
#undef ECX_VOID

struct entry { int lib; const char *name; void **slot; };
#define ECX_FN(lib, ret, name, params, args) {lib, #name, (void **)&p_##name},
#define ECX_VOID ECX_FN
static const struct entry entries[] = {
#include "functions.h"
};
#undef ECX_FN
#undef ECX_VOID

static void load_all(void) {
    void *handles[LIB_COUNT] = {NULL};
    // libgomp (a dependency of libtesseract) reads OMP_THREAD_LIMIT once, when it loads.
    // One thread per engine: Tesseract's OpenMP teams make recognition 3-8x slower here.
    setenv("OMP_THREAD_LIMIT", "1", 0);
    for (int lib = 0; lib < LIB_COUNT; lib++) {
        const char *error = NULL;
        for (int i = 0; i < 3 && lib_names[lib][i] && !handles[lib]; i++) {
            handles[lib] = dlopen(lib_names[lib][i], RTLD_NOW | RTLD_LOCAL);
            if (!handles[lib]) error = dlerror();
        }
        if (!handles[lib]) {
            snprintf(load_reason, sizeof load_reason, "%s is not installed or cannot load (%s)",
                     lib_labels[lib], error ? error : lib_names[lib][0]);
            return;
        }
    }
    void *found[sizeof entries / sizeof entries[0]];
    for (size_t i = 0; i < sizeof entries / sizeof entries[0]; i++) {
        found[i] = dlsym(handles[entries[i].lib], entries[i].name);
        if (!found[i]) {
            snprintf(load_reason, sizeof load_reason, "%s has no function %s (version too old?)",
                     lib_labels[entries[i].lib], entries[i].name);
            return;
        }
    }
    // All or nothing: no pointer is set unless every one resolved.
    for (size_t i = 0; i < sizeof entries / sizeof entries[0]; i++) *entries[i].slot = found[i];
    load_status = 0;
}

int ecx_vision_load(char *reason, size_t reason_size) {
    pthread_once(&once, load_all);
    if (load_status != 0 && reason && reason_size) snprintf(reason, reason_size, "%s", load_reason);
    return load_status;
}

int ecx_return_freed_memory(void) {
#if defined(__GLIBC__)
    return malloc_trim(0);
#else
    return 0;
#endif
}
