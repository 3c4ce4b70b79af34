/*
 * dtbprobe: probe dtb tables from C through libdtb, from many threads.
 *
 * Build (from the repository root, the library installed under PREFIX by
 * make -C capi install PREFIX=..., its pkgconfig on PKG_CONFIG_PATH):
 *
 *     cc -O2 -pthread examples/c/dtbprobe.c $(pkg-config --cflags --libs dtb) \
 *         -Wl,-rpath,$(pkg-config --variable=libdir dtb) -o build/dtbprobe
 *
 * Use:
 *
 *     dtbprobe DIR FEN...                 values and distances of positions
 *     dtbprobe DIR --check THREADS        probe the positions of stdin, print the answers
 *     dtbprobe DIR --bench THREADS N      time N cached probes a thread of the positions of stdin
 *
 * A line of stdin is a position and its clocks: the four square sets in
 * hex (white men, white kings, black men, black kings; bit i-1 is square
 * i), the side to move (0 White, 1 Black), the plies played on the class
 * clock (0: full) and, optionally, the plies on the rule-2 count (plies
 * since the last man move or capture; 0 if left out), e.g.
 * "0 0x200 0 0x10 0 0" for W:WK10:BK5.
 */
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "dtb.h"

static const char *value_name(int v) {
    switch (v) {
    case DTB_WIN: return "win";
    case DTB_DRAW: return "draw";
    case DTB_LOSS: return "loss";
    }
    return "unknown";
}

static const char *category_name(int c) {
    switch (c) {
    case DTB_CATEGORY_WIN: return "win";
    case DTB_CATEGORY_CURSED_WIN: return "cursed win";
    case DTB_CATEGORY_DRAW: return "draw";
    case DTB_CATEGORY_BLESSED_LOSS: return "blessed loss";
    case DTB_CATEGORY_LOSS: return "loss";
    }
    return "unknown";
}

/* probe_fens prints what the tables say of each FEN and its root moves. */
static int probe_fens(dtb_tables *t, char **fens, int n) {
    int failed = 0;
    for (int i = 0; i < n; i++) {
        dtb_result r;
        int st = dtb_probe_fen(t, fens[i], NULL, 0, &r);
        if (st != DTB_OK) {
            char msg[512];
            dtb_last_error(t, msg, sizeof msg);
            fprintf(stderr, "dtbprobe: %s: %s (%s)\n", fens[i], dtb_status_string(st), msg);
            failed = 1;
            continue;
        }
        printf("%s  %s  rules %s  theoretical %s  distance %d  dtw %d  mtc %d\n", fens[i],
               category_name(r.category), value_name(r.rules), value_name(r.theory), r.distance, r.dtw,
               r.mtc);
    }
    return failed;
}

/* Positions of stdin, and the answers to them. */
typedef struct {
    dtb_position pos;
    dtb_clocks clocks;
    char out[4096];
} line;

static line *lines;
static int nlines, nthreads;
static long iterations;
static dtb_tables *tables;

static int read_lines(void) {
    char buf[256];
    int cap = 0;
    while (fgets(buf, sizeof buf, stdin)) {
        unsigned long long wm, wk, bm, bk;
        line l = {0};
        int n = sscanf(buf, "%llx %llx %llx %llx %d %d %d", &wm, &wk, &bm, &bk, &l.pos.side,
                       &l.clocks.class_played, &l.clocks.rule2_played);
        if (n != 6 && n != 7) {
            fprintf(stderr, "dtbprobe: bad line %d: %s", nlines + 1, buf);
            return 0;
        }
        l.pos.white_men = wm, l.pos.white_kings = wk, l.pos.black_men = bm, l.pos.black_kings = bk;
        if (nlines == cap) {
            cap = cap ? 2 * cap : 1024;
            lines = realloc(lines, cap * sizeof *lines);
            if (!lines) return 0;
        }
        lines[nlines++] = l;
    }
    return 1;
}

/* check answers lines k, k+nthreads, ...: the probe, the value alone and
 * the root moves. A failed probe's result reads DTB_UNKNOWN. */
static void *check(void *arg) {
    for (int i = (int)(intptr_t)arg; i < nlines; i += nthreads) {
        line *l = &lines[i];
        dtb_result r = {-9, -9, -9, -9, -9, -9};
        dtb_root_move moves[DTB_MAX_MOVES];
        int v = -9;
        int st = dtb_probe(tables, &l->pos, &l->clocks, 0, &r);
        int vst = dtb_probe_value(tables, &l->pos, &l->clocks, 0, &v);
        int n = dtb_root_moves(tables, &l->pos, &l->clocks, moves, DTB_MAX_MOVES);
        int len = snprintf(l->out, sizeof l->out, "%d %d %d %d %d %d %d %d %d %d", st, r.rules,
                           r.theory, r.category, r.distance, r.dtw, r.mtc, vst, v, n);
        for (int j = 0; j < n && len < (int)sizeof l->out; j++) {
            dtb_result *m = &moves[j].result;
            len += snprintf(l->out + len, sizeof l->out - len, " %s:%d:%d:%d:%d:%d:%d",
                            moves[j].notation, m->rules, m->theory, m->category, m->distance,
                            m->dtw, m->mtc);
        }
    }
    return NULL;
}

/* bench probes every line, cached only, iterations times in all from
 * each thread, and counts the failures. */
static long failures[2];
static int bench_value;

static void *bench(void *arg) {
    long bad = 0;
    int i = (int)(intptr_t)arg * (nlines / nthreads);
    for (long k = 0; k < iterations; k++, i = i + 1 == nlines ? 0 : i + 1) {
        if (bench_value) {
            int v;
            bad += dtb_probe_value(tables, &lines[i].pos, &lines[i].clocks, DTB_CACHED_ONLY, &v) !=
                   DTB_OK;
        } else {
            dtb_result r;
            bad += dtb_probe(tables, &lines[i].pos, &lines[i].clocks, DTB_CACHED_ONLY, &r) != DTB_OK;
        }
    }
    __atomic_add_fetch(&failures[bench_value], bad, __ATOMIC_RELAXED);
    return NULL;
}

/* run runs f on nthreads threads and returns the wall time in ns. */
static double run(void *(*f)(void *)) {
    pthread_t th[256];
    struct timespec a, b;
    clock_gettime(CLOCK_MONOTONIC, &a);
    for (int k = 0; k < nthreads; k++) pthread_create(&th[k], NULL, f, (void *)(intptr_t)k);
    for (int k = 0; k < nthreads; k++) pthread_join(th[k], NULL);
    clock_gettime(CLOCK_MONOTONIC, &b);
    return (b.tv_sec - a.tv_sec) * 1e9 + (b.tv_nsec - a.tv_nsec);
}

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: dtbprobe DIR FEN... | DIR --check THREADS | DIR --bench THREADS N\n");
        return 2;
    }
    if (dtb_abi_version() != DTB_ABI_VERSION) {
        fprintf(stderr, "dtbprobe: libdtb has ABI version %d, dtb.h %d: rebuild dtbprobe\n",
                dtb_abi_version(), DTB_ABI_VERSION);
        return 1;
    }
    char msg[512];
    tables = dtb_open(argv[1], 64, msg, sizeof msg);
    if (!tables) {
        fprintf(stderr, "dtbprobe: %s\n", msg);
        return 1;
    }
    int code = 0;
    if (strcmp(argv[2], "--check") && strcmp(argv[2], "--bench")) {
        code = probe_fens(tables, argv + 2, argc - 2);
    } else if (argc < 4 || (nthreads = atoi(argv[3])) < 1 || nthreads > 256 || !read_lines() ||
               nlines == 0) {
        fprintf(stderr, "dtbprobe: need 1 to 256 threads and positions on stdin\n");
        code = 2;
    } else if (!strcmp(argv[2], "--check")) {
        dtb_result r;
        printf("cold %d\n", dtb_probe(tables, &lines[0].pos, NULL, DTB_CACHED_ONLY, &r));
        run(check);
        printf("warm %d\n", dtb_probe(tables, &lines[0].pos, NULL, DTB_CACHED_ONLY, &r));
        printf("pieces %d\n", dtb_max_pieces(tables));
        for (int i = 0; i < nlines; i++) printf("%s\n", lines[i].out);
    } else {
        iterations = argc > 4 ? atol(argv[4]) : 1000000;
        for (int i = 0; i < nlines; i++) { /* warm the cache */
            dtb_result r;
            dtb_probe(tables, &lines[i].pos, &lines[i].clocks, 0, &r);
        }
        for (bench_value = 0; bench_value < 2; bench_value++) {
            double ns = run(bench);
            printf("%s %.1f ns/probe %ld failed\n", bench_value ? "value" : "probe",
                   ns / (iterations * nthreads), failures[bench_value]);
        }
    }
    dtb_close(tables);
    return code;
}
