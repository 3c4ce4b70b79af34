/*
 * dtb.h: probe dtb endgame tables of international draughts from C or C++.
 *
 * Build the library from the repository root, then compile against it:
 *
 *     go build -buildmode=c-shared -o libdtb.so ./capi      (or c-archive, libdtb.a)
 *     cc -O2 -pthread -Icapi engine.c -L. -ldtb -o engine
 *
 * Use:
 *
 *     char msg[256];
 *     dtb_tables *t = dtb_open("tables", 64, msg, sizeof msg);
 *     if (!t) { fprintf(stderr, "%s\n", msg); exit(1); }
 *     dtb_position pos = {0};
 *     pos.white_kings = 1ULL << (10 - 1);       bit i-1 is square i (1..50)
 *     pos.black_kings = 1ULL << (5 - 1);
 *     pos.side = DTB_WHITE;
 *     dtb_result r;
 *     if (dtb_probe(t, &pos, NULL, 0, &r) == DTB_OK)
 *         printf("%d %d\n", r.rules, r.distance);   DTB_WIN 3
 *     dtb_close(t);
 *
 * Every function is safe to call from many threads at once on one handle,
 * except dtb_close, which must not run concurrently with other calls on
 * its handle. A probe whose table block is in the cache takes no lock.
 * The values, distances and clocks are those of docs/rules.md; captures
 * are resolved inside the library (the caller need not search them).
 *
 * A game that reaches a table position passes its running clocks with
 * each probe (dtb_clocks, below): the plies since the last man move or
 * capture (rule 2) and, in class A or B, the plies left on the class
 * clock; dtb_root_moves carries them over each move.
 *
 * This header is stable: fields and functions are only ever added, and
 * the reserved fields keep their place.
 */
#ifndef DTB_H
#define DTB_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* An open table directory. */
typedef struct dtb_tables dtb_tables;

/* Sides. */
enum { DTB_WHITE = 0, DTB_BLACK = 1 };

/* Values, for the side to move (the mover, for root moves). */
enum { DTB_LOSS = 0, DTB_DRAW = 1, DTB_WIN = 2 };

/* Statuses. A probe of the value alone returns a value (>= 0) or one of the
 * negative statuses. dtb_last_error gives the message of a failure. */
enum {
    DTB_OK = 0,
    DTB_NO_TABLE = -1,     /* a table needed is not in the directory */
    DTB_DAMAGED = -2,      /* a table needed is damaged (bad checksum, bad bytes) */
    DTB_ILLEGAL = -3,      /* not a legal position, or its game is over, or a bad FEN */
    DTB_NOT_CACHED = -4,   /* DTB_CACHED_ONLY, and a table block needed is not in the cache */
    DTB_BAD_ARGUMENT = -5, /* a NULL or closed handle, a NULL pointer, an unknown flag */
    DTB_IO_ERROR = -6      /* a table file could not be read */
};

/* Flags of the probe functions. */
enum {
    /* Never read the disk: answer DTB_NOT_CACHED where a block would have
     * to be read. For probes at every node of a search. */
    DTB_CACHED_ONLY = 1
};

/* A position: four square sets, bit i-1 for square i of the standard
 * numbering 1..50, and the side to move. */
typedef struct dtb_position {
    uint64_t white_men, white_kings, black_men, black_kings;
    int side; /* DTB_WHITE or DTB_BLACK */
} dtb_position;

/* DTB_FULL_CLOCK: a clock that is full, as on the ply that produced the
 * position's material. */
#define DTB_FULL_CLOCK (-1)

/* The rule clocks of the game as they stand, which the tables cannot know:
 * the engine keeps them from its game history. NULL clocks are a full
 * class clock and a fresh rule-2 count, as on the ply of a capture or a
 * man move.
 *
 * The two never run at once: a class A or B material arises only by a
 * capture or a man move, which restarts the rule-2 count, and in class A
 * or B only the class clock counts. Each field is ignored for a position
 * it does not apply to, so an engine may pass both as it keeps them:
 *
 *     after a capture or a man move (a crowning is one):  rule2_plies = 0
 *     after any other move (a king move, no capture):     rule2_plies += 1
 *     class_plies: as below, from the ply the class material arose
 *
 * Note the two count differently: class_plies is what is LEFT, rule2_plies
 * what is already PLAYED. */
typedef struct dtb_clocks {
    /* Plies left on the class clock (rules 3 and 4) of a class A or B
     * position: 32 or 10 on the ply that produced the material, one less
     * after every ply in the class, min(left - 1, 10) after a capture from
     * class A into class B. DTB_FULL_CLOCK (any negative number) is full.
     * Ignored for other positions. */
    int class_plies;
    /* Plies on the count of the 25-move king rule (rule 2): the plies
     * played since the last man move or capture, 0 on the ply of one.
     * Negative numbers (DTB_FULL_CLOCK, which older callers passed here)
     * mean 0; 50 or more is a complete count, under which the position is
     * drawn unless its side to move has no move (then it loses, rule 5).
     * It counts where both sides have a king and the position is of
     * neither class A nor B; it is ignored elsewhere, and by tables built
     * before rule 2 was tracked (their rules values ignore rule 2). */
    int rule2_plies;
} dtb_clocks;

/* What the tables say of a position, for its side to move. */
typedef struct dtb_result {
    int rules;    /* DTB_WIN/DRAW/LOSS under the rules, with the clocks passed */
    int theory;   /* the theoretical value: repetition the only draw */
    int distance; /* distance in plies on the position's clock: the class clock of class A
                   * and B, the rule-2 count where both sides have a king (the least budget
                   * under which it is won or lost), -1 none */
    int dtw;      /* plies until the loser has no move, -1 none (draw, or no dtw column) */
} dtb_result;

/* Enough room for every move of a position. */
#define DTB_MAX_MOVES 128

/* A legal move and what it leads to. */
typedef struct dtb_root_move {
    int from, to;      /* squares 1..50 */
    uint64_t captured; /* square set of the pieces it takes */
    /* For the side that plays the move: rules is its value under the
     * rules with the clocks passed; theory, distance and dtw are those of
     * the position after the move, negated and one ply longer (counted
     * from before the move). A move that ends the game has dtw 1. */
    dtb_result result;
    char notation[64]; /* e.g. "32-28", "28x19", "28x37x46x19" */
} dtb_root_move;

/* dtb_open opens the table directory dir (its MANIFEST.json) with a cache
 * of cache_mb megabytes of decoded blocks (64 if cache_mb <= 0). It
 * returns NULL on failure, with a one-line message in msg (msg_size bytes,
 * NUL-terminated; msg may be NULL). */
dtb_tables *dtb_open(const char *dir, int cache_mb, char *msg, size_t msg_size);

/* dtb_close closes t. */
void dtb_close(dtb_tables *t);

/* dtb_probe fills r with what the tables say of pos, under the clocks
 * (NULL: full), and returns DTB_OK or a negative status. flags: 0 or
 * DTB_CACHED_ONLY. */
int dtb_probe(dtb_tables *t, const dtb_position *pos, const dtb_clocks *clocks, int flags,
              dtb_result *r);

/* dtb_probe_value returns the value of pos under the rules with the
 * clocks (DTB_WIN, DTB_DRAW or DTB_LOSS), or a negative status: the
 * quickest probe, for a search. */
int dtb_probe_value(dtb_tables *t, const dtb_position *pos, const dtb_clocks *clocks, int flags);

/* dtb_probe_fen is dtb_probe of a position in PDN FEN, e.g. "W:WK10:BK5". */
int dtb_probe_fen(dtb_tables *t, const char *fen, const dtb_clocks *clocks, int flags,
                  dtb_result *r);

/* dtb_root_moves writes up to max_moves legal moves of pos, best first
 * (wins before draws before losses under the rules with the clocks, the
 * shortest win and the longest loss first), and returns how many moves pos
 * has, or a negative status. Each move's value is under the clocks after
 * it: a king move that captures nothing adds a ply to rule2_plies and
 * takes one off class_plies, a capture or man move sets rule2_plies to 0.
 * It reads the disk as needed. */
int dtb_root_moves(dtb_tables *t, const dtb_position *pos, const dtb_clocks *clocks,
                   dtb_root_move *moves, int max_moves);

/* dtb_max_pieces returns the most pieces of a table in t (0: none), or a
 * negative status. */
int dtb_max_pieces(dtb_tables *t);

/* dtb_last_error copies into msg (size bytes, NUL-terminated) the message
 * of the latest failure on t, from any thread (DTB_NOT_CACHED is not
 * recorded), and returns its length; "" if none. */
size_t dtb_last_error(dtb_tables *t, char *msg, size_t size);

/* dtb_status_string names a status: "ok", "no table", ... */
const char *dtb_status_string(int status);

#ifdef __cplusplus
}
#endif

#endif /* DTB_H */
