#ifndef ECODEX_CSTARTUP_H
#define ECODEX_CSTARTUP_H

/// True when `scan` found OMP_THREAD_LIMIT unset and set it to 1 before any library started.
int ecodex_limited_openmp_threads(void);

#endif
