/*
 * handles: prints what TestCHandles (capi_test.go) checks of stale and
 * foreign handles: after dtb_close, and after another dtb_open takes the
 * closed handle's slot, a probe through the old handle, or through a
 * handle with other bits set, is DTB_BAD_ARGUMENT, its result
 * DTB_UNKNOWN; so are NULL pointers.
 *
 *     handles DIR1 DIR2
 */
#include <stdint.h>
#include <stdio.h>

#include "dtb.h"

static dtb_position kvk = {0, 1ULL << 9, 0, 1ULL << 4, DTB_WHITE}; /* W:WK10:BK5 */

/* probe returns the status of a probe of kvk through t, or 99 for a
 * failure whose result does not read DTB_UNKNOWN. */
static int probe(dtb_tables *t) {
    dtb_result r = {-9, -9, -9, -9, -9, -9};
    int st = dtb_probe(t, &kvk, NULL, 0, &r);
    if (st != DTB_OK && (r.rules != DTB_UNKNOWN || r.theory != DTB_UNKNOWN || r.category != DTB_UNKNOWN ||
                         r.distance != -1 || r.dtw != -1 || r.mtc != -1))
        return 99;
    return st;
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: handles DIR1 DIR2\n");
        return 2;
    }
    char msg[256] = "";
    dtb_tables *a = dtb_open(argv[1], 0, msg, sizeof msg);
    if (!a) {
        fprintf(stderr, "%s\n", msg);
        return 1;
    }
    printf("open: %d\n", probe(a));
    dtb_close(a);
    printf("closed: %d\n", probe(a));
    dtb_tables *b = dtb_open(argv[2], 0, msg, sizeof msg);
    if (!b) {
        fprintf(stderr, "%s\n", msg);
        return 1;
    }
    printf("reopened: same handle %d, old %d, new %d\n", a == b, probe(a), probe(b));
    uintptr_t top = (uintptr_t)1 << (sizeof(uintptr_t) * 8 - 1);
    printf("top bit: %d\n", probe((dtb_tables *)((uintptr_t)b | top)));
    if (sizeof(uintptr_t) > 4)
        printf("bit 32: %d\n", probe((dtb_tables *)((uintptr_t)b ^ ((uintptr_t)1 << 16 << 16))));
    else
        printf("bit 32: %d\n", DTB_BAD_ARGUMENT);
    int v = -9, st = dtb_probe_value(b, NULL, NULL, 0, &v);
    printf("NULL handle: %d, NULL result: %d, NULL position: %d (value %d), NULL value: %d\n", probe(NULL),
           dtb_probe(b, &kvk, NULL, 0, NULL), st, v, dtb_probe_value(b, &kvk, NULL, 0, NULL));
    printf("old handle: max pieces %d, last error %zu\n", dtb_max_pieces(a),
           dtb_last_error(a, msg, sizeof msg));
    dtb_close(a); /* a closed handle: no effect */
    printf("new after closing the old again: %d\n", probe(b));
    dtb_close(b);
    printf("new closed: %d\n", probe(b));
    return 0;
}
