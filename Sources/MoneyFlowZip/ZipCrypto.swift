import CMinizip

/// Traditional PKWARE encryption ("ZipCrypto"): three 32-bit keys updated with CRC-32,
/// a 12-byte encryption header whose last byte is a password check.
enum ZipCrypto {
    /// zlib's CRC-32 table (256 entries).
    private static func crcTable() -> UnsafePointer<z_crc_t> { get_crc_table() }

    private struct Keys {
        var k0: UInt32 = 0x1234_5678
        var k1: UInt32 = 0x2345_6789
        var k2: UInt32 = 0x3456_7890
        let table: UnsafePointer<z_crc_t>

        init(password: [UInt8], table: UnsafePointer<z_crc_t>) {
            self.table = table
            for byte in password { update(byte) }
        }

        @inline(__always)
        mutating func update(_ byte: UInt8) {
            k0 = crc(k0, byte)
            k1 = (k1 &+ (k0 & 0xFF)) &* 134_775_813 &+ 1
            k2 = crc(k2, UInt8(truncatingIfNeeded: k1 >> 24))
        }

        @inline(__always)
        func crc(_ value: UInt32, _ byte: UInt8) -> UInt32 {
            UInt32(truncatingIfNeeded: table[Int((value ^ UInt32(byte)) & 0xFF)]) ^ (value >> 8)
        }

        @inline(__always)
        mutating func decrypt(_ cipher: UInt8) -> UInt8 {
            let temp = (k2 | 2) & 0xFFFF
            let plain = cipher ^ UInt8(truncatingIfNeeded: (temp &* (temp ^ 1)) >> 8)
            update(plain)
            return plain
        }
    }

    /// Decrypts `raw` (12-byte header + data). Returns nil when no candidate password passes the
    /// check byte (the last header byte must equal one of `checkBytes`).
    static func decrypt(_ raw: [UInt8], passwords: [[UInt8]], checkBytes: [UInt8]) -> [UInt8]? {
        guard raw.count >= 12 else { return nil }
        let table = crcTable()
        for password in passwords {
            var keys = Keys(password: password, table: table)
            var header: UInt8 = 0
            for index in 0..<12 { header = keys.decrypt(raw[index]) }
            guard checkBytes.contains(header) else { continue }
            var plain = [UInt8](repeating: 0, count: raw.count - 12)
            raw.withUnsafeBufferPointer { source in
                plain.withUnsafeMutableBufferPointer { target in
                    for index in 0..<target.count { target[index] = keys.decrypt(source[index + 12]) }
                }
            }
            return plain
        }
        return nil
    }
}
