import CMinizip
import Foundation

/// The bytes of an archive plus a read position: the `opaque` context of minizip's IO callbacks.
final class MemoryStream {
    let bytes: [UInt8]
    var position: Int = 0
    /// Whether the last read came up short. minizip treats a short one-byte read as EOF (== UNZ_OK)
    /// unless the error callback reports it, so it is reported as an error.
    var lastReadWasShort = false

    init(bytes: [UInt8]) { self.bytes = bytes }
}

/// minizip IO callbacks that read from a ``MemoryStream`` passed as the opaque pointer.
/// The callbacks are non-capturing C function pointers; all state travels through `opaque`.
func makeMemoryFileFunctions(_ stream: MemoryStream) -> (zlib_filefunc64_def, Unmanaged<MemoryStream>) {
    let unmanaged = Unmanaged.passRetained(stream)
    var funcs = zlib_filefunc64_def()
    funcs.opaque = unmanaged.toOpaque()
    funcs.zopen64_file = { opaque, _, _ in
        // The "stream" handed back to every other callback is the context itself.
        guard let opaque else { return nil }
        Unmanaged<MemoryStream>.fromOpaque(opaque).takeUnretainedValue().position = 0
        return opaque
    }
    funcs.zread_file = { _, streamPointer, buffer, size in
        guard let streamPointer, let buffer else { return 0 }
        let stream = Unmanaged<MemoryStream>.fromOpaque(streamPointer).takeUnretainedValue()
        let available = max(0, stream.bytes.count - stream.position)
        let count = Int(min(UInt64(size), UInt64(available)))
        if count > 0 {
            stream.bytes.withUnsafeBytes { source in
                buffer.copyMemory(from: source.baseAddress! + stream.position, byteCount: count)
            }
            stream.position += count
        }
        stream.lastReadWasShort = UInt64(count) < UInt64(size)
        return uLong(count)
    }
    funcs.zwrite_file = { _, _, _, _ in 0 }
    funcs.ztell64_file = { _, streamPointer in
        guard let streamPointer else { return ZPOS64_T.max }
        return ZPOS64_T(Unmanaged<MemoryStream>.fromOpaque(streamPointer).takeUnretainedValue().position)
    }
    funcs.zseek64_file = { _, streamPointer, offset, origin in
        guard let streamPointer else { return -1 }
        let stream = Unmanaged<MemoryStream>.fromOpaque(streamPointer).takeUnretainedValue()
        // minizip passes negative relative offsets as wrapped unsigned values (it moves back over
        // the extra field with SEEK_CUR), so relative offsets are read as signed.
        let base: Int
        switch origin {
        case ZLIB_FILEFUNC_SEEK_SET:
            guard offset <= UInt64(stream.bytes.count) else { return -1 }
            stream.position = Int(offset)
            return 0
        case ZLIB_FILEFUNC_SEEK_CUR: base = stream.position
        case ZLIB_FILEFUNC_SEEK_END: base = stream.bytes.count
        default: return -1
        }
        // Offsets come from untrusted headers: reject anything outside the buffer.
        let (target, overflow) = base.addingReportingOverflow(Int(Int64(bitPattern: offset)))
        guard !overflow, target >= 0, target <= stream.bytes.count else { return -1 }
        stream.position = target
        return 0
    }
    funcs.zclose_file = { _, _ in 0 }
    funcs.zerror_file = { _, streamPointer in
        guard let streamPointer else { return 1 }
        return Unmanaged<MemoryStream>.fromOpaque(streamPointer).takeUnretainedValue().lastReadWasShort ? 1 : 0
    }
    return (funcs, unmanaged)
}
