#ifndef ECODEX_CVISIONLIBS_H
#define ECODEX_CVISIONLIBS_H

#include <stddef.h>

/// Loads Leptonica, Tesseract and ZBar (dlopen) and resolves every function EcodexVision
/// calls; safe to call from any thread, any number of times (the work happens once).
/// Before Tesseract loads, OMP_THREAD_LIMIT is set to 1 unless the environment already
/// sets it: libgomp reads it only when it loads.
/// Returns 0 when all of them are ready; otherwise non-zero, with a one-line reason
/// (the library or function that is missing) in `reason`.
int ecx_vision_load(char *reason, size_t reason_size);

/// Hands memory freed by a Tesseract engine back to the system (glibc's malloc_trim; no-op
/// elsewhere). Returns 1 when some was returned.
int ecx_return_freed_memory(void);

#endif
