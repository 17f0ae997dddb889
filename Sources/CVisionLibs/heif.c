// HEIC, HEIF and AVIF photos (an iPhone's camera saves HEIC by default), decoded with libheif.
//
// libheif is loaded with dlopen the first time such a photo is read, apart from Leptonica,
// Tesseract and ZBar: a machine without it still reads every other photo, and a HEIC photo
// there gets a capture error that says what to do. The function pointers are typed from
// the installed header (`__typeof__`), so the compiler checks each call.
#define _GNU_SOURCE
#include "CVisionLibs.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <leptonica/allheaders.h>
#include <libheif/heif.h>

#define HEIF_FUNCTIONS(X)                                                                   \
    X(heif_init) X(heif_context_alloc) X(heif_context_free) X(heif_context_read_from_file)  \
    X(heif_context_set_maximum_image_size_limit) X(heif_context_get_primary_image_handle)  \
    X(heif_image_handle_get_width) X(heif_image_handle_get_height) X(heif_image_handle_release) \
    X(heif_decoding_options_alloc) X(heif_decoding_options_free) X(heif_decode_image)       \
    X(heif_image_get_width) X(heif_image_get_height) X(heif_image_get_plane_readonly)       \
    X(heif_image_release) X(heif_image_get_colorspace) X(heif_image_get_chroma_format)          \
    X(heif_image_get_bits_per_pixel_range) X(heif_image_handle_get_nclx_color_profile)         \
    X(heif_nclx_color_profile_free)

#define DECLARE(name) static __typeof__(name) *f_##name;
HEIF_FUNCTIONS(DECLARE)
#undef DECLARE

static pthread_once_t heif_once = PTHREAD_ONCE_INIT;
static int heif_status = -1;
static char heif_reason[256];

static void heif_load(void) {
    void *handle = dlopen("libheif.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        const char *error = dlerror();
        snprintf(heif_reason, sizeof heif_reason, "libheif (Debian package libheif1) is not installed or cannot load (%s)",
                 error ? error : "libheif.so.1");
        return;
    }
#define RESOLVE(name)                                                                                    \
    if (!(f_##name = (__typeof__(name) *)dlsym(handle, #name))) {                                        \
        snprintf(heif_reason, sizeof heif_reason, "libheif has no function %s (version too old?)", #name); \
        return;                                                                                          \
    }
    HEIF_FUNCTIONS(RESOLVE)
#undef RESOLVE
    // Registers the decoder plugins (HEVC through libde265, AV1 through dav1d or aom).
    struct heif_error e = f_heif_init(NULL);
    if (e.code != heif_error_Ok) {
        snprintf(heif_reason, sizeof heif_reason, "libheif did not start: %s", e.message);
        return;
    }
    heif_status = 0;
}

struct ecx_heif {
    struct heif_context *context;
    struct heif_image_handle *image;
};

void ecx_heif_close(ecx_heif *h) {
    if (!h) return;
    if (h->image) f_heif_image_handle_release(h->image);
    if (h->context) f_heif_context_free(h->context);
    free(h);
}

// A codec libheif was built without, or a feature it does not read: the photo is fine,
// this machine cannot decode it.
static int status_of(struct heif_error e) {
    return e.code == heif_error_Unsupported_feature || e.code == heif_error_Unsupported_filetype ? ECX_HEIF_NO_DECODER
                                                                                                  : ECX_HEIF_UNREADABLE;
}

int ecx_heif_open(const char *path, int max_side, ecx_heif **out, int *width, int *height, char *reason,
                  size_t reason_size) {
    *out = NULL;
    pthread_once(&heif_once, heif_load);
    if (heif_status != 0) {
        snprintf(reason, reason_size, "%s", heif_reason);
        return ECX_HEIF_NO_LIBRARY;
    }
    ecx_heif *h = calloc(1, sizeof *h);
    if (!h || !(h->context = f_heif_context_alloc())) {
        free(h);
        snprintf(reason, reason_size, "out of memory");
        return ECX_HEIF_UNREADABLE;
    }
    // libheif refuses a larger image itself, before it allocates its pixels.
    f_heif_context_set_maximum_image_size_limit(h->context, max_side);
    struct heif_error e = f_heif_context_read_from_file(h->context, path, NULL);
    if (e.code == heif_error_Ok) e = f_heif_context_get_primary_image_handle(h->context, &h->image);
    if (e.code != heif_error_Ok) {
        snprintf(reason, reason_size, "%s", e.message);
        ecx_heif_close(h);
        return status_of(e);
    }
    // The size as shown: libheif applies the file's rotation (`irot`) to these too.
    *width = f_heif_image_handle_get_width(h->image);
    *height = f_heif_image_handle_get_height(h->image);
    *out = h;
    return ECX_HEIF_OK;
}

// How Y, Cb and Cr map to RGB: the file's nclx profile when it has one, else what libheif
// assumes without one (BT.601, full range).
struct ycc_matrix { double kr, kb; int full_range; };

static struct ycc_matrix matrix_of(const struct heif_image_handle *image) {
    struct ycc_matrix m = {0.299, 0.114, 1};
    struct heif_color_profile_nclx *nclx = NULL;
    if (f_heif_image_handle_get_nclx_color_profile(image, &nclx).code == heif_error_Ok && nclx) {
        if (nclx->matrix_coefficients == heif_matrix_coefficients_ITU_R_BT_709_5) m.kr = 0.2126, m.kb = 0.0722;
        m.full_range = nclx->full_range_flag != 0;
        f_heif_nclx_color_profile_free(nclx);
    }
    return m;
}

static inline l_uint32 clamp8(double v) { return v <= 0 ? 0 : v >= 255 ? 255 : (l_uint32)(v + 0.5); }

// Each output pixel is the mean of a reduction × reduction box, as a JPEG decoded at 1/2,
// 1/4 or 1/8 of its size is: a 12 MP photo becomes 3 MP of 32-bit pixels, not 12.

// From 8-bit Y, Cb, Cr planes (4:2:0, 4:2:2, 4:4:4, or Y alone): the HEVC decoder's own
// output, so no full-size RGB copy is made (36 MB for a 12 MP photo). Luma is averaged over
// the box; chroma, which carries no letter shapes, is taken at the box's corner.
static PIX *from_ycc(const struct heif_image *image, struct ycc_matrix m, int reduction) {
    int ys = 0, cbs = 0, crs = 0;
    const uint8_t *Y = f_heif_image_get_plane_readonly(image, heif_channel_Y, &ys);
    int w = f_heif_image_get_width(image, heif_channel_Y), h = f_heif_image_get_height(image, heif_channel_Y);
    enum heif_chroma chroma = f_heif_image_get_chroma_format(image);
    const uint8_t *Cb = NULL, *Cr = NULL;
    int sx = 0, sy = 0;   // chroma subsampling shifts
    if (chroma != heif_chroma_monochrome) {
        Cb = f_heif_image_get_plane_readonly(image, heif_channel_Cb, &cbs);
        Cr = f_heif_image_get_plane_readonly(image, heif_channel_Cr, &crs);
        if (!Cb || !Cr) return NULL;
        sx = chroma == heif_chroma_444 ? 0 : 1;
        sy = chroma == heif_chroma_420 ? 1 : 0;
    }
    int ow = w / reduction, oh = h / reduction;
    if (!Y || ow <= 0 || oh <= 0) return NULL;
    PIX *pix = pixCreate(ow, oh, 32);
    if (!pix) return NULL;
    l_uint32 *data = pixGetData(pix);
    int wpl = pixGetWpl(pix), area = reduction * reduction;
    double ys_scale = m.full_range ? 1.0 : 255.0 / 219.0, cs_scale = m.full_range ? 1.0 : 255.0 / 224.0;
    double y0 = m.full_range ? 0 : 16, kg = 1 - m.kr - m.kb;
    for (int y = 0; y < oh; y++) {
        l_uint32 *line = data + (size_t)y * wpl;
        for (int x = 0; x < ow; x++) {
            unsigned sum = 0;
            for (int dy = 0; dy < reduction; dy++) {
                const uint8_t *p = Y + (size_t)(y * reduction + dy) * ys + (size_t)x * reduction;
                for (int dx = 0; dx < reduction; dx++) sum += p[dx];
            }
            double luma = ((double)sum / area - y0) * ys_scale;
            double cb = 0, cr = 0;
            if (Cb) {
                size_t cx = (size_t)(x * reduction) >> sx, cy = (size_t)(y * reduction) >> sy;
                cb = (Cb[cy * cbs + cx] - 128.0) * cs_scale;
                cr = (Cr[cy * crs + cx] - 128.0) * cs_scale;
            }
            double r = luma + 2 * (1 - m.kr) * cr, b = luma + 2 * (1 - m.kb) * cb;
            double g = (luma - m.kr * r - m.kb * b) / kg;
            line[x] = clamp8(r) << L_RED_SHIFT | clamp8(g) << L_GREEN_SHIFT | clamp8(b) << L_BLUE_SHIFT;
        }
    }
    return pix;
}

// From interleaved 8-bit RGB (libheif's conversion: images coded as RGB, or with more than
// 8 bits a sample).
static PIX *from_rgb(const struct heif_image *image, int reduction) {
    int stride = 0;
    const uint8_t *rgb = f_heif_image_get_plane_readonly(image, heif_channel_interleaved, &stride);
    int w = f_heif_image_get_width(image, heif_channel_interleaved), h = f_heif_image_get_height(image, heif_channel_interleaved);
    int ow = w / reduction, oh = h / reduction;
    if (!rgb || ow <= 0 || oh <= 0) return NULL;
    PIX *pix = pixCreate(ow, oh, 32);
    if (!pix) return NULL;
    l_uint32 *data = pixGetData(pix);
    int wpl = pixGetWpl(pix), area = reduction * reduction;
    for (int y = 0; y < oh; y++) {
        l_uint32 *line = data + (size_t)y * wpl;
        for (int x = 0; x < ow; x++) {
            unsigned r = 0, g = 0, b = 0;
            for (int dy = 0; dy < reduction; dy++) {
                const uint8_t *p = rgb + (size_t)(y * reduction + dy) * stride + (size_t)x * reduction * 3;
                for (int dx = 0; dx < reduction; dx++, p += 3) r += p[0], g += p[1], b += p[2];
            }
            line[x] = (r / area) << L_RED_SHIFT | (g / area) << L_GREEN_SHIFT | (b / area) << L_BLUE_SHIFT;
        }
    }
    return pix;
}

int ecx_heif_decode(ecx_heif *h, int reduction, int to_rgb, void **pix_out, char *reason, size_t reason_size) {
    *pix_out = NULL;
    if (reduction < 1) reduction = 1;
    struct heif_decoding_options *options = f_heif_decoding_options_alloc();
    if (options) options->convert_hdr_to_8bit = 1;   // a 10-bit HDR photo as 8-bit
    struct heif_image *image = NULL;
    // The decoder's own Y, Cb, Cr planes (4:2:0, as cameras code them) unless asked for RGB
    // (see from_ycc); left to itself (colorspace undefined) libheif 1.15 converts to RGB.
    struct heif_error e = to_rgb ? f_heif_decode_image(h->image, &image, heif_colorspace_RGB, heif_chroma_interleaved_RGB, options)
                                 : f_heif_decode_image(h->image, &image, heif_colorspace_YCbCr, heif_chroma_420, options);
    if (e.code == heif_error_Ok && !to_rgb &&
        (f_heif_image_get_colorspace(image) != heif_colorspace_YCbCr || f_heif_image_get_bits_per_pixel_range(image, heif_channel_Y) != 8)) {
        // Coded as RGB, or deeper than 8 bits: libheif converts it.
        f_heif_image_release(image);
        image = NULL;
        e = f_heif_decode_image(h->image, &image, heif_colorspace_RGB, heif_chroma_interleaved_RGB, options);
        to_rgb = 1;
    }
    if (options) f_heif_decoding_options_free(options);
    if (e.code != heif_error_Ok) {
        snprintf(reason, reason_size, "%s", e.message);
        return status_of(e);
    }
    PIX *pix = to_rgb ? from_rgb(image, reduction) : from_ycc(image, matrix_of(h->image), reduction);
    f_heif_image_release(image);
    if (!pix) {
        snprintf(reason, reason_size, "no usable pixel planes");
        return ECX_HEIF_UNREADABLE;
    }
    *pix_out = pix;
    return ECX_HEIF_OK;
}
