// The functions of dtb.h: each converts its handle and calls the Go
// function of capi.go that does the work. A handle is a number naming an
// open Tables (see handle in capi.go), never a pointer to Go memory.

#include "_cgo_export.h"

static uintptr_t handle(dtb_tables *t) { return (uintptr_t)t; }

int dtb_abi_version(void) { return DTB_ABI_VERSION; }

const char *dtb_version(void) { return dtbgo_version(); }

dtb_tables *dtb_open_version(int abi_version, const char *dir, int cache_mb, char *msg,
                             size_t msg_size) {
    return (dtb_tables *)dtbgo_open(abi_version, (char *)dir, cache_mb, msg, msg_size);
}

void dtb_close(dtb_tables *t) { dtbgo_close(handle(t)); }

int dtb_probe(dtb_tables *t, const dtb_position *pos, const dtb_clocks *clocks, int flags,
              dtb_result *r) {
    return dtbgo_probe(handle(t), (dtb_position *)pos, (dtb_clocks *)clocks, flags, r);
}

int dtb_probe_value(dtb_tables *t, const dtb_position *pos, const dtb_clocks *clocks, int flags,
                    int *value) {
    return dtbgo_probe_value(handle(t), (dtb_position *)pos, (dtb_clocks *)clocks, flags, value);
}

int dtb_probe_fen(dtb_tables *t, const char *fen, const dtb_clocks *clocks, int flags,
                  dtb_result *r) {
    return dtbgo_probe_fen(handle(t), (char *)fen, (dtb_clocks *)clocks, flags, r);
}

int dtb_root_moves(dtb_tables *t, const dtb_position *pos, const dtb_clocks *clocks,
                   dtb_root_move *moves, int max_moves) {
    return dtbgo_root_moves(handle(t), (dtb_position *)pos, (dtb_clocks *)clocks, moves, max_moves);
}

int dtb_root_moves_fen(dtb_tables *t, const char *fen, const dtb_clocks *clocks,
                       dtb_root_move *moves, int max_moves) {
    return dtbgo_root_moves_fen(handle(t), (char *)fen, (dtb_clocks *)clocks, moves, max_moves);
}

int dtb_set_max_pieces(dtb_tables *t, int max_pieces) {
    return dtbgo_set_max_pieces(handle(t), max_pieces);
}

int dtb_max_pieces(dtb_tables *t) { return dtbgo_max_pieces(handle(t)); }

size_t dtb_last_error(dtb_tables *t, char *msg, size_t size) {
    return dtbgo_last_error(handle(t), msg, size);
}

const char *dtb_status_string(int status) {
    switch (status) {
    case DTB_OK: return "ok";
    case DTB_NO_TABLE: return "no table";
    case DTB_DAMAGED: return "damaged table";
    case DTB_ILLEGAL: return "illegal position";
    case DTB_NOT_CACHED: return "not in cache";
    case DTB_BAD_ARGUMENT: return "bad argument";
    case DTB_IO_ERROR: return "i/o error";
    case DTB_NOT_STORED: return "not stored";
    }
    return "unknown status";
}
