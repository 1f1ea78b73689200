/* kernels.c: a small C program for `regalloc cc`, with the code shapes that
 * stress a register allocator: many values live at once in a loop, values
 * live across calls, a switch compiled to a jump table, recursion, floating
 * point, and a callback. It prints checksums; a build through our allocator
 * must print exactly what the plain clang-19 build prints.
 *
 *   regalloc cc --target x86 examples/c/kernels.c -o kernels.o
 *   clang-19 kernels.o -o kernels && ./kernels
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Sixteen accumulators live through one loop: more than x86-64 has
 * registers once the loop's own values are counted. */
__attribute__((noinline)) static uint64_t mix16(const uint32_t *p, int n) {
    uint64_t a0 = 1, a1 = 2, a2 = 3, a3 = 4, a4 = 5, a5 = 6, a6 = 7, a7 = 8;
    uint64_t a8 = 9, a9 = 10, a10 = 11, a11 = 12, a12 = 13, a13 = 14, a14 = 15, a15 = 16;
    for (int i = 0; i < n; i++) {
        uint64_t x = p[i];
        a0 = a0 * 31 + (x ^ a15);
        a1 = (a1 ^ x) + (a0 >> 3);
        a2 = a2 * 7 + (a1 ^ (x << 1));
        a3 = (a3 + a2) ^ (x * 13);
        a4 = a4 * 17 + (a3 >> 5);
        a5 = (a5 ^ a4) + x;
        a6 = a6 * 3 + (a5 ^ (a0 << 2));
        a7 = (a7 + a6) ^ (a1 >> 7);
        a8 = a8 * 5 + (a7 ^ a2);
        a9 = (a9 ^ a8) + (a3 << 4);
        a10 = a10 * 11 + (a9 >> 1);
        a11 = (a11 + a10) ^ (a4 * 3);
        a12 = a12 * 19 + (a11 ^ a5);
        a13 = (a13 ^ a12) + (a6 >> 2);
        a14 = a14 * 23 + (a13 ^ a7);
        a15 = (a15 + a14) ^ (a8 << 3);
    }
    return a0 ^ a1 ^ a2 ^ a3 ^ a4 ^ a5 ^ a6 ^ a7 ^ a8 ^ a9 ^ a10 ^ a11 ^ a12 ^ a13 ^ a14 ^ a15;
}

/* A switch dense enough for a jump table, in a loop (a tiny bytecode). */
__attribute__((noinline)) static int64_t run(const unsigned char *code, int n, int64_t x) {
    int64_t acc = x, t = 0;
    for (int pc = 0; pc < n; pc++) {
        switch (code[pc] % 9) {
        case 0: acc += 7; break;
        case 1: acc *= 3; break;
        case 2: acc ^= acc >> 5; break;
        case 3: t = acc; break;
        case 4: acc -= t; break;
        case 5: acc = (acc << 2) | (acc >> 61 & 3); break;
        case 6: acc += code[pc]; break;
        case 7: if (acc & 1) acc /= 3; else acc += 11; break;
        default: acc = ~acc; break;
        }
    }
    return acc;
}

/* Values live across calls: each call clobbers the caller-saved registers. */
__attribute__((noinline)) static uint32_t step(uint32_t x) { return x * 2654435761u + 1; }

__attribute__((noinline)) static uint32_t across_calls(uint32_t seed) {
    uint32_t a = step(seed), b = step(a), c = step(b), d = step(c), e = step(d);
    uint32_t f = step(a ^ e), g = step(b ^ f), h = step(c ^ g);
    return a + 2 * b + 3 * c + 5 * d + 7 * e + 11 * f + 13 * g + 17 * h;
}

static int compare(const void *x, const void *y) {
    int64_t a = *(const int64_t *)x, b = *(const int64_t *)y;
    return (a > b) - (a < b);
}

static uint64_t fib(int n) { return n < 2 ? (uint64_t)n : fib(n - 1) + fib(n - 2); }

/* Floating point: several doubles live at once. */
__attribute__((noinline)) static double moments(const double *v, int n) {
    double s = 0, s2 = 0, s3 = 0, mn = v[0], mx = v[0];
    for (int i = 0; i < n; i++) {
        double x = v[i];
        s += x;
        s2 += x * x;
        s3 += x * x * x;
        if (x < mn) mn = x;
        if (x > mx) mx = x;
    }
    double mean = s / n, var = s2 / n - mean * mean;
    return mean + var * 0.5 + s3 / (n * 1000.0) + (mx - mn);
}

int main(void) {
    enum { N = 4096 };
    static uint32_t words[N];
    static unsigned char code[N];
    static int64_t values[N];
    static double reals[N];
    uint32_t r = 12345;
    for (int i = 0; i < N; i++) {
        r = r * 1103515245u + 12345u;
        words[i] = r;
        code[i] = (unsigned char)(r >> 24);
        values[i] = (int64_t)r - (1 << 30);
        reals[i] = (double)(r % 10007) / 97.0;
    }
    printf("mix16 %llu\n", (unsigned long long)mix16(words, N));
    printf("run %lld\n", (long long)run(code, N, 42));
    printf("calls %u\n", across_calls(7));
    qsort(values, N, sizeof values[0], compare);
    printf("sorted %lld %lld %lld\n", (long long)values[0], (long long)values[N / 2],
           (long long)values[N - 1]);
    printf("fib %llu\n", (unsigned long long)fib(24));
    printf("moments %.6f\n", moments(reals, N));
    char buf[64];
    snprintf(buf, sizeof buf, "%x-%s", words[7], "done");
    printf("%s %zu\n", buf, strlen(buf));
    return 0;
}
