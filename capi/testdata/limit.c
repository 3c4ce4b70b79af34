/*
 * limit: prints what TestCMaxPieces (capi_test.go) checks of
 * dtb_set_max_pieces: under a limit, a position of more pieces is
 * DTB_NO_TABLE, for a probe, a cached-only probe and dtb_root_moves, and
 * dtb_max_pieces reports the limit; lifting it brings the tables back.
 *
 *     limit DIR
 */
#include <stdio.h>

#include "dtb.h"

static const char *two = "W:WK10:BK5", *three = "W:WK28:BK23,K41";

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: limit DIR\n");
        return 2;
    }
    char msg[256] = "";
    dtb_tables *t = dtb_open(argv[1], 0, msg, sizeof msg);
    if (!t) {
        fprintf(stderr, "%s\n", msg);
        return 1;
    }
    dtb_result r;
    dtb_root_move moves[DTB_MAX_MOVES];
    printf("max pieces %d\n", dtb_max_pieces(t));
    int set = dtb_set_max_pieces(t, 2);
    printf("set 2: %d, max pieces %d\n", set, dtb_max_pieces(t));
    printf("2 pieces: %d\n", dtb_probe_fen(t, two, NULL, 0, &r));
    printf("3 pieces: %d\n", dtb_probe_fen(t, three, NULL, 0, &r));
    dtb_last_error(t, msg, sizeof msg);
    printf("%s\n", msg);
    printf("3 pieces, cached only: %d\n", dtb_probe_fen(t, three, NULL, DTB_CACHED_ONLY, &r));
    printf("3 pieces, root moves: %d\n", dtb_root_moves_fen(t, three, NULL, moves, DTB_MAX_MOVES));
    set = dtb_set_max_pieces(t, 0);
    printf("set 0: %d, max pieces %d\n", set, dtb_max_pieces(t));
    printf("3 pieces: %d\n", dtb_probe_fen(t, three, NULL, 0, &r));
    dtb_close(t);
    printf("closed: %d\n", dtb_set_max_pieces(t, 2));
    return 0;
}
