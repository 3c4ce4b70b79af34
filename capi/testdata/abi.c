/*
 * abi: prints what TestCABI (capi_test.go) checks of the ABI version of
 * libdtb: the versions of the header and the library, the library's
 * dtb_version, that dtb_open refuses a program of another version and
 * opens for this one, and what the probe flags do to a probe of a quiet
 * position and of a capture.
 *
 *     abi DIR
 */
#include <stdio.h>

#include "dtb.h"

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: abi DIR\n");
        return 2;
    }
    printf("header %d library %d dtb %s\n", DTB_ABI_VERSION, dtb_abi_version(), dtb_version());
    for (int v = DTB_ABI_VERSION - 1; v <= DTB_ABI_VERSION + 1; v++) {
        char msg[256] = "";
        dtb_tables *t = dtb_open_version(v, argv[1], 0, msg, sizeof msg);
        printf("version %d: %s%s%s\n", v, t ? "opened" : "refused", *msg ? ": " : "", msg);
        if (t) dtb_close(t);
    }
    char msg[256] = "";
    dtb_tables *t = dtb_open(argv[1], 0, msg, sizeof msg);
    printf("dtb_open: %s\n", t ? "opened" : msg);
    if (!t) return 1;
    int flags[] = {0, DTB_VALUES_ONLY, DTB_CACHED_ONLY | DTB_VALUES_ONLY, DTB_STORED_ONLY, 8};
    for (int i = 0; i < 5; i++) {
        dtb_result r = {-9, -9, -9, -9, -9, -9};
        int status = dtb_probe_fen(t, "W:W28:B3", NULL, flags[i], &r);
        printf("flags %d: %d rules %d theory %d category %d distance %d dtw %d mtc %d\n", flags[i], status,
               r.rules, r.theory, r.category, r.distance, r.dtw, r.mtc);
    }
    /* White must capture 28x19: not stored. */
    for (int i = 0; i < 4; i += 3) {
        dtb_result r = {-9, -9, -9, -9, -9, -9};
        int status = dtb_probe_fen(t, "W:W28:B23", NULL, flags[i], &r);
        printf("capture, flags %d: %d rules %d category %d\n", flags[i], status, r.rules, r.category);
    }
    dtb_close(t);
    return 0;
}
