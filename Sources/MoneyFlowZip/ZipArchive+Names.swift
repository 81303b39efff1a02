import CMinizip
import Foundation

#if canImport(CoreFoundation)
    import CoreFoundation
#endif

// Entry names (UTF-8 flag, Info-ZIP Unicode path, GB18030) and the password byte forms to try.
extension ZipArchive {

    /// CFStringEncoding kCFStringEncodingGB_18030_2000 as a Foundation encoding.
    static let gb18030 = String.Encoding(rawValue: CFStringConvertEncodingToNSStringEncoding(0x0632))

    static func decodeName(_ bytes: [UInt8], flags: UInt16, extra: [UInt8]) -> String {
        if let utf8 = String(validating: bytes, as: UTF8.self) {
            return utf8
        }
        // Info-ZIP Unicode Path extra field (0x7075): version 1, CRC-32 of the raw name, UTF-8 name.
        if let unicodePath = extraBlock(extra, id: 0x7075), unicodePath.count > 5, unicodePath[0] == 1,
            readLE32(unicodePath, 1) == zipCRC32(bytes),
            let utf8 = String(validating: unicodePath[5...], as: UTF8.self)
        {
            return utf8
        }
        if flags & 0x0800 == 0, let gbk = String(data: Data(bytes), encoding: gb18030) {
            return gbk
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Password byte strings to try: UTF-8 first, then GB18030 (Chinese Windows tools) when it differs.
    static func passwordCandidates(_ password: String) -> [[UInt8]] {
        let utf8 = Array(password.utf8)
        if let gbk = password.data(using: gb18030).map(Array.init), gbk != utf8 {
            return [utf8, gbk]
        }
        return [utf8]
    }
}
