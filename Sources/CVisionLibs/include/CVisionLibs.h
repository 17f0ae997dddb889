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

/// A HEIC, HEIF or AVIF photo opened with libheif (Sources/CVisionLibs/heif.c), which is
/// loaded with dlopen the first time such a photo is read.
typedef struct ecx_heif ecx_heif;

enum {
    ECX_HEIF_OK = 0,
    /// libheif is not installed here or cannot load.
    ECX_HEIF_NO_LIBRARY = 1,
    /// libheif has no decoder for this photo's coding (HEVC, AV1...).
    ECX_HEIF_NO_DECODER = 2,
    /// Damaged, truncated or not a HEIF file after all.
    ECX_HEIF_UNREADABLE = 3,
};

/// Opens the file at `path` and its primary image: on ECX_HEIF_OK `*out` is set and
/// `width`/`height` are the image's size as shown (after its rotation), read from the
/// header without decoding pixels. Images with a side over `max_side` are refused.
/// Otherwise one of the codes above, with a one-line reason.
int ecx_heif_open(const char *path, int max_side, ecx_heif **out, int *width, int *height, char *reason,
                  size_t reason_size);

/// Decodes the opened image into a new 32-bit Leptonica `PIX` (in `*pix_out`), each pixel
/// the mean of a `reduction` × `reduction` box (1, 2, 4 or 8). 8-bit Y, Cb, Cr images are
/// turned into RGB here, from the decoder's planes, unless `to_rgb` asks libheif to convert
/// (tests compare the two). Leptonica must be loaded (`ecx_vision_load`). ECX_HEIF_OK, or a
/// code above with a reason.
int ecx_heif_decode(ecx_heif *h, int reduction, int to_rgb, void **pix_out, char *reason, size_t reason_size);

/// Frees what `ecx_heif_open` made; NULL is allowed.
void ecx_heif_close(ecx_heif *h);

#endif
