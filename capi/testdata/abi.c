/*
 * abi: prints what TestCABI (capi_test.go) checks of the ABI version of
 * libdtb: the versions of the header and the library, that dtb_open
 * refuses a program of another version and opens for this one.
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
    printf("header %d library %d\n", DTB_ABI_VERSION, dtb_abi_version());
    for (int v = DTB_ABI_VERSION - 1; v <= DTB_ABI_VERSION + 1; v++) {
        char msg[256] = "";
        dtb_tables *t = dtb_open_version(v, argv[1], 0, msg, sizeof msg);
        printf("version %d: %s%s%s\n", v, t ? "opened" : "refused", *msg ? ": " : "", msg);
        if (t) dtb_close(t);
    }
    char msg[256] = "";
    dtb_tables *t = dtb_open(argv[1], 0, msg, sizeof msg);
    printf("dtb_open: %s\n", t ? "opened" : msg);
    if (t) dtb_close(t);
    return 0;
}
