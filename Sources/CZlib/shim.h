#include <stdlib.h>
#include <string.h>
#include <zlib.h>

// One-shot zlib calls with a preset dictionary, for the additive store's records.
// The zlib format (not raw deflate) carries the dictionary's checksum and an
// Adler-32 of the data, so a damaged record is found when it is read.

/// A deflate stream with `dict` already set: setting a 32 KiB dictionary hashes all of it,
/// which costs several times more than compressing a record, so it is done once and the
/// primed stream is copied for each record (`ecodex_deflate_primed`). NULL when out of memory.
static inline void *ecodex_deflater_new(const unsigned char *dict, unsigned dict_len) {
    z_stream *s = calloc(1, sizeof *s);
    if (s == NULL) return NULL;
    if (deflateInit2(s, 9, Z_DEFLATED, 15, 9, Z_DEFAULT_STRATEGY) != Z_OK) {
        free(s);
        return NULL;
    }
    if (dict_len > 0 && deflateSetDictionary(s, dict, dict_len) != Z_OK) {
        deflateEnd(s);
        free(s);
        return NULL;
    }
    return s;
}

static inline void ecodex_deflater_free(void *primed) {
    if (primed == NULL) return;
    deflateEnd((z_stream *)primed);
    free(primed);
}

/// Compresses `src` at level 9 against the dictionary of `primed` (from `ecodex_deflater_new`)
/// into `dst`, on a copy of that stream. Z_OK with the size in `*out_len`; Z_BUF_ERROR when
/// `dst` is too small; another zlib error.
static inline int ecodex_deflate_primed(void *primed, const unsigned char *src, unsigned long src_len,
                                        unsigned char *dst, unsigned long dst_cap, unsigned long *out_len) {
    z_stream s;
    int rc = deflateCopy(&s, (z_stream *)primed);
    if (rc != Z_OK) return rc;
    s.next_in = (Bytef *)src;
    s.avail_in = (uInt)src_len;
    s.next_out = dst;
    s.avail_out = (uInt)dst_cap;
    rc = deflate(&s, Z_FINISH);
    *out_len = s.total_out;
    deflateEnd(&s);
    return rc == Z_STREAM_END ? Z_OK : (rc == Z_OK ? Z_BUF_ERROR : rc);
}

/// Decompresses all of `src` (made by `ecodex_deflate_primed` with the same `dict`) into `dst`.
/// Z_OK with the size in `*out_len`; Z_BUF_ERROR when `dst` is too small (try a larger one);
/// Z_DATA_ERROR for damaged or truncated data, trailing bytes, or another dictionary.
static inline int ecodex_inflate(const unsigned char *dict, unsigned dict_len,
                                 const unsigned char *src, unsigned long src_len,
                                 unsigned char *dst, unsigned long dst_cap, unsigned long *out_len) {
    z_stream s;
    memset(&s, 0, sizeof s);
    int rc = inflateInit2(&s, 15);
    if (rc != Z_OK) return rc;
    s.next_in = (Bytef *)src;
    s.avail_in = (uInt)src_len;
    s.next_out = dst;
    s.avail_out = (uInt)dst_cap;
    rc = inflate(&s, Z_FINISH);
    if (rc == Z_NEED_DICT) {
        if (inflateSetDictionary(&s, dict, dict_len) != Z_OK) {
            inflateEnd(&s);
            return Z_DATA_ERROR;
        }
        rc = inflate(&s, Z_FINISH);
    }
    *out_len = s.total_out;
    int input_left = s.avail_in != 0, output_full = s.avail_out == 0;
    inflateEnd(&s);
    if (rc == Z_STREAM_END) return input_left ? Z_DATA_ERROR : Z_OK;
    if (rc == Z_BUF_ERROR && output_full) return Z_BUF_ERROR;
    return rc == Z_MEM_ERROR ? Z_MEM_ERROR : Z_DATA_ERROR;
}
