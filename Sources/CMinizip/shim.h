#ifndef MONEYFLOW_CMINIZIP_SHIM_H
#define MONEYFLOW_CMINIZIP_SHIM_H

#include <zlib.h>
#include <minizip/ioapi.h>
#include <minizip/unzip.h>

/// `inflateInit2` is a function-like macro and does not import into Swift.
/// Raw deflate streams (ZIP entries) use negative window bits: -MAX_WBITS.
static inline int cminizip_inflateInit2(z_streamp strm, int windowBits) {
    return inflateInit2(strm, windowBits);
}

/// MAX_WBITS as a plain constant for Swift.
static inline int cminizip_max_wbits(void) { return MAX_WBITS; }

#endif
