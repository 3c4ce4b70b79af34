// cxx: a C++ program over libdtb, which scripts/c-install-test.sh builds
// with g++ against the installed header and library: dtb.h compiles as
// C++ and its calls link with C linkage. It prints the library's version
// and ABI version, then the rules value and distance of each FEN.
//
//     cxx DIR FEN...
#include <cstdio>

#include "dtb.h"

int main(int argc, char **argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: cxx DIR FEN...\n");
        return 2;
    }
    std::printf("dtb %s abi %d\n", dtb_version(), dtb_abi_version());
    char msg[256];
    dtb_tables *t = dtb_open(argv[1], 0, msg, sizeof msg);
    if (t == nullptr) {
        std::fprintf(stderr, "cxx: %s\n", msg);
        return 1;
    }
    int failed = 0;
    for (int i = 2; i < argc; i++) {
        dtb_result r;
        int status = dtb_probe_fen(t, argv[i], nullptr, 0, &r);
        if (status != DTB_OK) {
            std::fprintf(stderr, "cxx: %s: %s\n", argv[i], dtb_status_string(status));
            failed = 1;
            continue;
        }
        std::printf("%s rules %d distance %d\n", argv[i], r.rules, r.distance);
    }
    dtb_close(t);
    return failed;
}
