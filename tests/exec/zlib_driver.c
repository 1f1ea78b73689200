/* zlib_driver.c: round-trips megabytes through zlib at every level and
 * strategy, through raw, zlib and gzip streams, small and large buffers,
 * and a gzip file; prints a checksum of everything it produced. A build
 * whose allocation is wrong prints something else or fails a check. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "zlib.h"

static unsigned long state = 88172645463325252UL;
static unsigned long next(void) {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return state;
}

/* Inputs of several kinds: text-like (repetitive words), binary noise,
 * runs, and a mix, so that every strategy and block type is exercised. */
static void fill(unsigned char *buf, size_t n, int kind) {
    static const char *words[] = {"the ", "allocator ", "spills ", "a ", "value ",
                                  "register ", "interval ", "splits ", "live ", "\n"};
    size_t i = 0;
    while (i < n) {
        switch (kind) {
        case 0: {
            const char *w = words[next() % 10];
            while (*w && i < n) buf[i++] = (unsigned char)*w++;
            break;
        }
        case 1: buf[i++] = (unsigned char)next(); break;
        case 2: {
            unsigned char c = (unsigned char)(next() % 4);
            size_t run = 1 + next() % 300;
            while (run-- && i < n) buf[i++] = c;
            break;
        }
        default:
            buf[i] = (i / 4096) % 2 ? (unsigned char)next() : (unsigned char)('a' + i % 7);
            i++;
        }
    }
}

static int failures;
static void expect(int ok, const char *what, int level, int strategy, int kind) {
    if (!ok) {
        printf("FAIL %s level %d strategy %d kind %d\n", what, level, strategy, kind);
        failures++;
    }
}

/* One deflate/inflate round trip with the given window bits (raw: -15,
 * zlib: 15, gzip: 31), feeding the input and taking the output in chunks
 * of `chunk` bytes to exercise the streaming state machines. */
static unsigned long round_trip(const unsigned char *in, size_t n, int level, int strategy,
                                int wbits, size_t chunk, int kind, size_t *packed) {
    size_t cap = deflateBound(NULL, n) + 1024;
    unsigned char *z = malloc(cap), *out = malloc(n + 1);
    z_stream s;
    memset(&s, 0, sizeof s);
    expect(deflateInit2(&s, level, Z_DEFLATED, wbits, 8, strategy) == Z_OK, "deflateInit2",
           level, strategy, kind);
    size_t fed = 0;
    s.next_out = z;
    s.avail_out = (uInt)cap;
    int rc;
    do {
        size_t take = n - fed < chunk ? n - fed : chunk;
        s.next_in = (Bytef *)in + fed;
        s.avail_in = (uInt)take;
        fed += take;
        rc = deflate(&s, fed == n ? Z_FINISH : Z_NO_FLUSH);
    } while (rc == Z_OK);
    expect(rc == Z_STREAM_END, "deflate", level, strategy, kind);
    *packed = s.total_out;
    deflateEnd(&s);

    z_stream t;
    memset(&t, 0, sizeof t);
    expect(inflateInit2(&t, wbits) == Z_OK, "inflateInit2", level, strategy, kind);
    t.next_in = z;
    t.avail_in = (uInt)*packed;
    size_t got = 0;
    do {
        t.next_out = out + got;
        t.avail_out = (uInt)((n + 1 - got) < chunk ? (n + 1 - got) : chunk);
        rc = inflate(&t, Z_NO_FLUSH);
        got = t.total_out;
    } while (rc == Z_OK);
    expect(rc == Z_STREAM_END, "inflate", level, strategy, kind);
    expect(got == n && memcmp(in, out, n) == 0, "round trip", level, strategy, kind);
    inflateEnd(&t);
    unsigned long sum = crc32(adler32(1, z, (uInt)*packed), z, (uInt)*packed);
    free(z);
    free(out);
    return sum;
}

int main(void) {
    const size_t n = 1 << 18;
    unsigned char *in = malloc(n);
    static const int strategies[] = {Z_DEFAULT_STRATEGY, Z_FILTERED, Z_HUFFMAN_ONLY, Z_RLE, Z_FIXED};
    static const int wbits[] = {-15, 15, 31};
    unsigned long total = 0;
    size_t total_packed = 0;
    for (int kind = 0; kind < 4; kind++) {
        fill(in, n, kind);
        printf("input %d crc %08lx adler %08lx\n", kind, crc32(0, in, (uInt)n),
               adler32(1, in, (uInt)n));
        for (int level = 0; level <= 9; level++) {
            for (int si = 0; si < 5; si++) {
                size_t packed;
                size_t size = (kind == 0 || level % 3 == 0) ? n : n / 4;
                unsigned long sum = round_trip(in, size, level, strategies[si], wbits[(level + si) % 3],
                                               level % 2 ? 65536 : 1031, kind, &packed);
                total = total * 31 + sum;
                total_packed += packed;
            }
        }
        printf("kind %d packed so far %zu checksum %016lx\n", kind, total_packed, total);
    }

    /* compress/uncompress and a gzip file written and read back. */
    fill(in, n, 0);
    uLongf zlen = compressBound(n);
    unsigned char *z = malloc(zlen), *back = malloc(n);
    expect(compress2(z, &zlen, in, n, 6) == Z_OK, "compress2", 6, 0, 0);
    uLongf blen = n;
    expect(uncompress(back, &blen, z, zlen) == Z_OK && blen == n && !memcmp(in, back, n),
           "uncompress", 6, 0, 0);
    printf("compress2 %lu bytes\n", (unsigned long)zlen);
    const char *path = "zlib_driver.gz";
    gzFile g = gzopen(path, "wb9");
    for (size_t off = 0; off < n; off += 10000)
        gzwrite(g, in + off, (unsigned)(n - off < 10000 ? n - off : 10000));
    gzprintf(g, "trailer %d %s\n", 42, "end");
    gzclose(g);
    g = gzopen(path, "rb");
    size_t read = 0;
    int r;
    while ((r = gzread(g, back + read, (unsigned)(n - read < 777 ? n - read : 777))) > 0 && read < n)
        read += (size_t)r;
    char line[64] = {0};
    gzgets(g, line, sizeof line);
    gzclose(g);
    remove(path);
    expect(read == n && !memcmp(in, back, n), "gzip file", 9, 0, 0);
    printf("gzip file %zu bytes, trailer %s", read, line);
    printf("%s\n", failures ? "FAILED" : "all round trips ok");
    free(in);
    free(z);
    free(back);
    return failures != 0;
}
