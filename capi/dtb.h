/*
 * dtb.h: probe dtb endgame tables of international draughts from C or C++.
 *
 * Install the library from the repository root (Linux; PREFIX defaults to
 * /usr/local), then compile against it with pkg-config:
 *
 *     make -C capi install PREFIX=$HOME/.local
 *     export PKG_CONFIG_PATH=$HOME/.local/lib/pkgconfig
 *     cc -O2 -pthread engine.c $(pkg-config --cflags --libs dtb) -o engine
 *
 * which installs lib/libdtb.so.N (N: DTB_ABI_VERSION), lib/libdtb.so,
 * lib/libdtb.a, include/dtb.h and lib/pkgconfig/dtb.pc under PREFIX.
 * The header compiles as C99 and as C++.
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
 *         printf("%d %d %d\n", r.rules, r.category, r.distance);   DTB_WIN (1), DTB_CATEGORY_WIN (2), 3
 *     dtb_close(t);
 *
 * A program checks at start that the library it runs with is the one it
 * was compiled for:
 *
 *     if (dtb_abi_version() != DTB_ABI_VERSION) { ... rebuild ... }
 *
 * Every function is safe to call from many threads at once on one handle,
 * except dtb_close, which must not run concurrently with other calls on
 * its handle. A probe whose table block is in the cache takes no lock.
 * The values, distances and clocks are those of docs/rules.md; captures
 * are resolved inside the library (the caller need not search them).
 *
 * A game that reaches a table position passes its running clocks with
 * each probe (dtb_clocks, below), both as plies already played: the plies
 * since the last man move or capture (rule 2) and, in class A or B, the
 * plies played on the class clock; dtb_root_moves carries them over each
 * move.
 *
 * Within an ABI version (DTB_ABI_VERSION) this header is stable: fields
 * and functions are only ever added. A new version changes the layout or
 * the meaning of something: a program compiled against an older version
 * must be rebuilt, and cannot run with the new library (see dtb_open).
 *
 * Version 4:
 *   - The values are numbered as python-chess numbers them, and as the
 *     Go and Python packages do (docs/engines.md): DTB_LOSS -1, DTB_DRAW
 *     0, DTB_WIN 1 (version 3: 0, 1, 2). A theoretical value is the
 *     sign of its category.
 *   - dtb_result gains category, after theory: the value under the rules
 *     beside the theoretical one, DTB_CATEGORY_LOSS -2, _BLESSED_LOSS -1,
 *     _DRAW 0, _CURSED_WIN 1, _WIN 2 (python-chess's WDL). dtb_result and
 *     dtb_root_move are larger.
 *   - A failed probe fills its result with DTB_UNKNOWN (3) in rules,
 *     theory and category and -1 in the distances. Version 3 left it as
 *     it was: a zero result read as a loss.
 *   - dtb_probe_value returns a status and writes the value to a new
 *     argument, DTB_UNKNOWN on failure: DTB_LOSS (-1) would read as
 *     DTB_NO_TABLE.
 *
 * Version 2 (version 1 had no number):
 *   - dtb_clocks.class_plies, the plies LEFT on the class clock
 *     (DTB_FULL_CLOCK, -1, for a full one), is replaced by class_played,
 *     the plies already PLAYED on it (0 for a full one), as rule2_played
 *     counts; DTB_FULL_CLOCK is gone. The zero dtb_clocks are fresh.
 *   - dtb_result gains mtc, after dtw: dtb_result and dtb_root_move are
 *     larger, so a version-1 program would pass buffers too small.
 *   - dtb_open is a macro over dtb_open_version, which the library
 *     exports instead: a version-1 program stops on the undefined symbol
 *     dtb_open (when it loads, or at its first dtb_open) rather than
 *     misread the clocks or overrun its results.
 *   - dtb_abi_version and DTB_ABI_VERSION are new.
 *
 * Version 3:
 *   - dtb_root_moves ranks the wins by the distance the position has
 *     through each move, on its own clock, so that the first move makes
 *     progress under rule 2 (a capture or man move before a king move
 *     that lets the count run on). A root move's distance is that
 *     distance: 1 for a move that restarts or leaves the clock, one ply
 *     more than the position after it for a move that keeps it running,
 *     -1 where the position has no clock. Version 2 gave the distance of
 *     the position after the move, one ply longer, on that position's
 *     clock.
 *   - Added since: dtb_set_max_pieces, dtb_version. A program that calls
 *     them needs a library that has them.
 */
#ifndef DTB_H
#define DTB_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The version of the ABI this header describes (see above). */
#define DTB_ABI_VERSION 4

/* An open table directory. */
typedef struct dtb_tables dtb_tables;

/* Sides. */
enum { DTB_WHITE = 0, DTB_BLACK = 1 };

/* Values, for the side to move (the mover, for root moves), numbered as
 * in Go (rules.Value) and Python (dtb.Value). */
enum { DTB_LOSS = -1, DTB_DRAW = 0, DTB_WIN = 1 };

/* Categories: the value under the rules beside the theoretical one, for
 * the side to move (the mover, for root moves), numbered as python-chess's
 * WDL, Go's probe.Category and Python's dtb.Category. A cursed win is won
 * in theory and drawn by a move limit or rule 2, a blessed loss the other
 * way round. The sign is the theoretical value; DTB_CATEGORY_LOSS and
 * DTB_CATEGORY_WIN are the values under the rules, the others draws
 * under the rules. */
enum {
    DTB_CATEGORY_LOSS = -2,
    DTB_CATEGORY_BLESSED_LOSS = -1,
    DTB_CATEGORY_DRAW = 0,
    DTB_CATEGORY_CURSED_WIN = 1,
    DTB_CATEGORY_WIN = 2
};

/* No value and no category: those of a failed probe. A zero dtb_result is
 * a draw, so a probe that fails fills its result with DTB_UNKNOWN instead
 * (and -1 distances). It is no value, nor category, above. */
enum { DTB_UNKNOWN = 3 };

/* Statuses. dtb_last_error gives the message of a failure. */
enum {
    DTB_OK = 0,
    DTB_NO_TABLE = -1,     /* a table needed is not in the directory, or over dtb_set_max_pieces */
    DTB_DAMAGED = -2,      /* a table needed is damaged (bad checksum, bad bytes) */
    DTB_ILLEGAL = -3,      /* not a legal position, or its game is over, or a bad FEN */
    DTB_NOT_CACHED = -4,   /* DTB_CACHED_ONLY, and a table block needed is not in the cache */
    DTB_BAD_ARGUMENT = -5, /* a NULL, closed or foreign handle, a NULL pointer, an unknown flag */
    DTB_IO_ERROR = -6,     /* a table file could not be read */
    DTB_NOT_STORED = -7    /* DTB_STORED_ONLY, and the position must capture, is a forced threat a slim directory leaves out or its table is answered by a search */
};

/* Flags of the probe functions. */
enum {
    /* Never read the disk: answer DTB_NOT_CACHED where a block would have
     * to be read. For probes at every node of a search. */
    DTB_CACHED_ONLY = 1,
    /* With fresh clocks, read the value files alone (and the distance
     * files of class A and B): the result's distance (outside class A and
     * B), dtw and mtc are -1 where no capture search gives them. Running
     * clocks read the distances they need. For probes in a search: the
     * cache then holds value blocks alone, and a directory may hold the
     * value files (*.dtb) without the distance files (*.dtbd). */
    DTB_VALUES_ONLY = 2,
    /* Answer only positions a file stores: DTB_NOT_STORED for a position
     * that must capture, a forced threat (every move leaves the other
     * side a capture) that a slim directory's table leaves out, or a
     * position of a table a slim directory (dtb slim) answers by a
     * search, for an engine that searches those itself. */
    DTB_STORED_ONLY = 4
};

/* A position: four square sets, bit i-1 for square i of the standard
 * numbering 1..50, and the side to move. */
typedef struct dtb_position {
    uint64_t white_men, white_kings, black_men, black_kings;
    int side; /* DTB_WHITE or DTB_BLACK */
} dtb_position;

/* The rule clocks of the game as they stand, which the tables cannot know:
 * the engine keeps them from its game history. Both count the plies
 * already PLAYED, so the zero clocks (and NULL clocks) are a full class
 * clock and a fresh rule-2 count, as on the ply of a capture or a man
 * move. A negative count is 0; a count of the clock's budget (32 or 10
 * plies of a class clock, 50 of the rule-2 count) or more is a clock run
 * out, under which the position is drawn unless its side to move has no
 * move (then it loses, rule 5).
 *
 * The two never run at once: a class A or B material arises only by a
 * capture or a man move, which restarts the rule-2 count, and in class A
 * or B only the class clock counts. Each field is ignored for a position
 * it does not apply to, so an engine may pass both as it keeps them:
 *
 *     after a capture or a man move (a crowning is one):  rule2_played = 0
 *     after any other move (a king move, no capture):     rule2_played += 1
 *     after a move that produces class A or B material
 *       from material of no class:                        class_played = 0
 *     after a move that stays in class A or in class B:   class_played += 1
 *     after a capture from class A into class B:
 *       class_played = max(class_played + 1 - 22, 0)
 *
 * (The class A clock of 32 plies runs on beside the new class B clock of
 * 10; class_played is then 10 less the plies left on whichever runs out
 * first.) */
typedef struct dtb_clocks {
    /* Plies played on the class clock (rules 3 and 4) of a class A or B
     * position since the ply that produced the material: 0 on that ply,
     * 32 (class A) or 10 (class B) and more when the clock has run out; a
     * negative count reads as 0. Ignored for other positions. */
    int class_played;
    /* Plies on the count of the 25-move king rule (rule 2): the plies
     * played since the last man move or capture, 0 on the ply of one; 50
     * or more is a complete count. It counts where both sides have a king
     * and the position is of neither class A nor B; it is ignored
     * elsewhere, and by tables built before rule 2 was tracked (their
     * rules values ignore rule 2). */
    int rule2_played;
} dtb_clocks;

/* What the tables say of a position, for its side to move. A probe that
 * fails fills it with DTB_UNKNOWN and -1 distances. */
typedef struct dtb_result {
    int rules;    /* DTB_WIN/DRAW/LOSS under the rules, with the clocks passed */
    int theory;   /* the theoretical value: repetition the only draw */
    int category; /* DTB_CATEGORY_*: rules beside theory (a cursed win: theory a win, rules a
                   * draw) */
    int distance; /* distance in plies on the position's clock: the class clock of class A
                   * and B, the rule-2 count where both sides have a king (the least budget
                   * under which it is won or lost), -1 none */
    int dtw;      /* plies until the loser has no move, -1 none (draw, or no dtw column) */
    int mtc;      /* plies until the next man move or capture in a win or loss, -1 none
                   * (draw, or no mtc column) */
} dtb_result;

/* Enough room for every move of a position. */
#define DTB_MAX_MOVES 128

/* A legal move and what it leads to. */
typedef struct dtb_root_move {
    int from, to;      /* squares 1..50 */
    uint64_t captured; /* square set of the pieces it takes */
    /* For the side that plays the move: rules is its value under the
     * rules with the clocks passed, carried over the move; theory is
     * that of the position after the move, negated; category is the two
     * together; distance is the
     * distance the position has through the move, on the position's own
     * clock (the least plies left on it under which the move wins or
     * loses: 1 for a move that restarts or leaves the clock, one more
     * than after the move for one that keeps it running; -1 where the
     * position has no clock), so that the best move's distance is the
     * position's; dtw and mtc are those after the move, one ply longer.
     * A move that ends the game has dtw 1; a capture or man move in a
     * won or lost line has mtc 1 where the tables have an mtc column. */
    dtb_result result;
    char notation[64]; /* e.g. "32-28", "28x19", "28x37x46x19" */
} dtb_root_move;

/* dtb_abi_version returns the ABI version of the library: DTB_ABI_VERSION
 * of the header it was built with. */
int dtb_abi_version(void);

/* dtb_version returns the version of dtb the library was built from, as
 * dtb version prints it (e.g. "v0.5.0"). Added within version 3. */
const char *dtb_version(void);

/* dtb_open opens the table directory dir (its MANIFEST.json) with a cache
 * of cache_mb megabytes of blocks (64 if cache_mb <= 0). dir may be a
 * list of directories joined by the system's list separator (':' on
 * Unix, ';' on Windows), as SyzygyPath: empty elements are ignored, and
 * a material listed twice is read from the first directory. It
 * returns NULL on failure, with a one-line message in msg (msg_size bytes,
 * NUL-terminated; msg may be NULL). It is dtb_open_version with the
 * caller's DTB_ABI_VERSION, which fails unless it is the library's. */
#define dtb_open(dir, cache_mb, msg, msg_size) \
    dtb_open_version(DTB_ABI_VERSION, dir, cache_mb, msg, msg_size)
dtb_tables *dtb_open_version(int abi_version, const char *dir, int cache_mb, char *msg,
                             size_t msg_size);

/* dtb_close closes t. */
void dtb_close(dtb_tables *t);

/* dtb_probe fills r with what the tables say of pos, under the clocks
 * (NULL: fresh), and returns DTB_OK or a negative status, r then
 * DTB_UNKNOWN. flags: 0 or any of DTB_CACHED_ONLY, DTB_VALUES_ONLY and
 * DTB_STORED_ONLY. */
int dtb_probe(dtb_tables *t, const dtb_position *pos, const dtb_clocks *clocks, int flags,
              dtb_result *r);

/* dtb_probe_value writes to *value the value of pos under the rules with
 * the clocks (DTB_WIN, DTB_DRAW or DTB_LOSS) and returns DTB_OK, or
 * writes DTB_UNKNOWN and returns a negative status: the quickest probe,
 * for a search. Changed in version 4, which added value. */
int dtb_probe_value(dtb_tables *t, const dtb_position *pos, const dtb_clocks *clocks, int flags,
                    int *value);

/* dtb_probe_fen is dtb_probe of a position in PDN FEN, e.g. "W:WK10:BK5",
 * or in Hub notation (51 characters: W or B, then w, b, W, B or e for
 * squares 1 to 50). */
int dtb_probe_fen(dtb_tables *t, const char *fen, const dtb_clocks *clocks, int flags,
                  dtb_result *r);

/* dtb_root_moves writes up to max_moves legal moves of pos, best first
 * (wins before draws before losses under the rules with the clocks; the
 * win of least distance and the loss of greatest distance first, then by
 * the dtw and the mtc: the first move of a won position makes progress
 * under every clock, docs/rules.md), and returns how many moves pos has,
 * or a negative status. Each move's value is under the clocks after
 * it, carried as dtb_clocks says: a move inside class A or B adds a ply
 * to class_played; a king move that captures nothing adds a ply to
 * rule2_played, a capture or man move sets it to 0.
 * It reads the disk as needed. */
int dtb_root_moves(dtb_tables *t, const dtb_position *pos, const dtb_clocks *clocks,
                   dtb_root_move *moves, int max_moves);

/* dtb_root_moves_fen is dtb_root_moves of a position in PDN FEN. */
int dtb_root_moves_fen(dtb_tables *t, const char *fen, const dtb_clocks *clocks,
                       dtb_root_move *moves, int max_moves);

/* dtb_set_max_pieces limits t to positions of at most max_pieces pieces,
 * as Stockfish's SyzygyProbeLimit (max_pieces <= 0: no limit, as after
 * dtb_open). A probe or dtb_root_moves of a position with more returns
 * DTB_NO_TABLE, as for a table the directory lacks, and opens no file.
 * It returns DTB_OK or a negative status. It may run while probes do; a
 * probe under way may see either limit. Added within version 3. */
int dtb_set_max_pieces(dtb_tables *t, int max_pieces);

/* dtb_max_pieces returns the most pieces of a table in t within the limit
 * of dtb_set_max_pieces (0: none), or a negative status. */
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
