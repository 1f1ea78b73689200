/* lz4_driver.c: lz4's block API (fast at several accelerations, HC at every
 * level, with and without dictionaries), its streaming API with a ring
 * buffer, and its frame format, each round-tripped; prints sizes and
 * checksums of everything produced. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lz4.h"
#include "lz4frame.h"
#include "lz4hc.h"
#include "xxhash.h"

static unsigned long long state = 0x9E3779B97F4A7C15ULL;
static unsigned next(void) {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return (unsigned)(state >> 11);
}

static void fill(char *buf, int n, int kind) {
    static const char *words[] = {"lz4 ", "frame ", "block ", "stream ", "match ", "literal ",
                                  "offset ", "dictionary ", "\n", "hc "};
    int i = 0;
    while (i < n) {
        if (kind == 0) {
            const char *w = words[next() % 10];
            while (*w && i < n) buf[i++] = *w++;
        } else if (kind == 1) {
            buf[i++] = (char)next();
        } else {
            char c = (char)(next() % 3);
            int run = 1 + (int)(next() % 200);
            while (run-- && i < n) buf[i++] = c;
        }
    }
}

static int failures;
static void expect(int ok, const char *what, int a, int b) {
    if (!ok) {
        printf("FAIL %s %d %d\n", what, a, b);
        failures++;
    }
}

static unsigned long long block_api(const char *in, int n, int kind) {
    int cap = LZ4_compressBound(n);
    char *z = malloc((size_t)cap), *out = malloc((size_t)n);
    unsigned long long sum = 0;
    for (int accel = 1; accel <= 17; accel += 4) {
        int zn = LZ4_compress_fast(in, z, n, cap, accel);
        expect(zn > 0, "compress_fast", accel, kind);
        int back = LZ4_decompress_safe(z, out, zn, n);
        expect(back == n && !memcmp(in, out, (size_t)n), "decompress_safe", accel, kind);
        sum = sum * 1000003 + XXH64(z, (size_t)zn, 0);
        printf("fast accel %d kind %d: %d -> %d\n", accel, kind, n, zn);
    }
    for (int level = 1; level <= LZ4HC_CLEVEL_MAX; level += 2) {
        int zn = LZ4_compress_HC(in, z, n, cap, level);
        expect(zn > 0, "compress_HC", level, kind);
        int back = LZ4_decompress_safe_partial(z, out, zn, n / 2, n);
        expect(back >= n / 2 && !memcmp(in, out, (size_t)n / 2), "decompress_partial", level, kind);
        sum = sum * 1000003 + XXH64(z, (size_t)zn, 1);
        printf("hc level %d kind %d: %d -> %d\n", level, kind, n, zn);
    }
    /* A dictionary: the first 64 KB prime the stream for the rest. */
    LZ4_stream_t *ls = LZ4_createStream();
    int dict = n / 4;
    LZ4_loadDict(ls, in, dict);
    int zn = LZ4_compress_fast_continue(ls, in + dict, z, n - dict, cap, 1);
    int back = LZ4_decompress_safe_usingDict(z, out, zn, n - dict, in, dict);
    expect(back == n - dict && !memcmp(in + dict, out, (size_t)(n - dict)), "dict", dict, kind);
    printf("dictionary kind %d: %d -> %d\n", kind, n - dict, zn);
    LZ4_freeStream(ls);
    free(z);
    free(out);
    return sum;
}

/* Streaming with a ring buffer, as lz4's own examples do it: each block
 * may refer to the previous ones still in the ring. */
static unsigned long long streaming(const char *in, int n) {
    enum { RING = 64 * 1024 + 4096, BLOCK = 4096 };
    static char ring[RING], dring[RING];
    char z[LZ4_COMPRESSBOUND(BLOCK)];
    LZ4_stream_t *cs = LZ4_createStream();
    LZ4_streamDecode_t *ds = LZ4_createStreamDecode();
    int roff = 0, doff = 0, pos = 0;
    unsigned long long sum = 0;
    size_t total = 0;
    while (pos < n) {
        int len = n - pos < BLOCK ? n - pos : BLOCK;
        memcpy(ring + roff, in + pos, (size_t)len);
        int zn = LZ4_compress_fast_continue(cs, ring + roff, z, len, (int)sizeof z, 2);
        int back = LZ4_decompress_safe_continue(ds, z, dring + doff, zn, BLOCK);
        expect(back == len && !memcmp(dring + doff, in + pos, (size_t)len), "stream", pos, len);
        sum = sum * 31 + XXH32(z, (size_t)zn, 7);
        total += (size_t)zn;
        pos += len;
        roff += len;
        doff += len;
        if (roff >= RING - BLOCK) roff = 0;
        if (doff >= RING - BLOCK) doff = 0;
    }
    printf("streaming %d -> %zu\n", n, total);
    LZ4_freeStream(cs);
    LZ4_freeStreamDecode(ds);
    return sum;
}

static unsigned long long frame(const char *in, int n, int level, int block_size_id) {
    LZ4F_preferences_t prefs;
    memset(&prefs, 0, sizeof prefs);
    prefs.compressionLevel = level;
    prefs.frameInfo.blockSizeID = (LZ4F_blockSizeID_t)block_size_id;
    prefs.frameInfo.contentChecksumFlag = LZ4F_contentChecksumEnabled;
    prefs.frameInfo.blockChecksumFlag = LZ4F_blockChecksumEnabled;
    size_t cap = LZ4F_compressFrameBound((size_t)n, &prefs);
    char *z = malloc(cap), *out = malloc((size_t)n);
    size_t zn = LZ4F_compressFrame(z, cap, in, (size_t)n, &prefs);
    expect(!LZ4F_isError(zn), "compressFrame", level, block_size_id);
    LZ4F_dctx *d;
    LZ4F_createDecompressionContext(&d, LZ4F_VERSION);
    size_t got = 0, used = 0;
    while (used < zn) {
        size_t dst = (size_t)n - got, src = zn - used < 1000 ? zn - used : 1000;
        size_t r = LZ4F_decompress(d, out + got, &dst, z + used, &src, NULL);
        expect(!LZ4F_isError(r), "decompress", level, block_size_id);
        if (LZ4F_isError(r)) break;
        got += dst;
        used += src;
    }
    LZ4F_freeDecompressionContext(d);
    expect(got == (size_t)n && !memcmp(in, out, (size_t)n), "frame round trip", level,
           block_size_id);
    printf("frame level %d block %d: %d -> %zu\n", level, block_size_id, n, zn);
    unsigned long long sum = XXH64(z, zn, 3);
    free(z);
    free(out);
    return sum;
}

int main(void) {
    const int n = 1 << 19;
    char *in = malloc((size_t)n);
    unsigned long long total = 0;
    for (int kind = 0; kind < 3; kind++) {
        fill(in, n, kind);
        printf("input %d xxh64 %016llx\n", kind, (unsigned long long)XXH64(in, (size_t)n, 0));
        total = total * 7 + block_api(in, n, kind);
        total = total * 7 + streaming(in, n);
        for (int level = 0; level <= 12; level += 4)
            total = total * 7 + frame(in, n, level, 4 + (level / 4) % 4);
    }
    printf("checksum %016llx\n", total);
    printf("%s\n", failures ? "FAILED" : "all round trips ok");
    free(in);
    return failures != 0;
}
