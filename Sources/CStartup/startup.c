// Sets OMP_THREAD_LIMIT=1 before libgomp reads its environment, without re-executing `scan`.
//
// Tesseract's OpenMP build starts a thread team for every LSTM step, which makes
// recognition 3-8x slower on small machines unless OMP_THREAD_LIMIT=1. libgomp reads the
// variable once, in its own constructor, which runs before any Swift code. Functions in an
// executable's .preinit_array run before the constructors of every shared library (ELF
// gABI, "Initialization and Termination Functions"), so setting it here is early enough.
// `scan` used to set it and exec itself again, which cost a second process start.
#include <stdlib.h>
#include "CStartup.h"

static int limited = 0;

static void ecodex_limit_openmp(int argc, char **argv, char **envp) {
    (void)argc; (void)argv; (void)envp;
    if (getenv("OMP_THREAD_LIMIT") == NULL) {
        setenv("OMP_THREAD_LIMIT", "1", 0);
        limited = 1;
    }
}

__attribute__((section(".preinit_array"), used))
static void (*const ecodex_preinit)(int, char **, char **) = ecodex_limit_openmp;

int ecodex_limited_openmp_threads(void) { return limited; }
