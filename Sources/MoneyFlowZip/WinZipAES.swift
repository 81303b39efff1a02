import Crypto
import CryptoExtras
import Foundation

/// The WinZip AES extra field (0x9901): vendor version, "AE", strength, real compression method.
struct WinZipAESParameters: Sendable, Hashable {
    let vendorVersion: Int
    let keyBits: Int
    let compressionMethod: Int

    var keyLength: Int { keyBits / 8 }
    var saltLength: Int { keyBits / 16 }

    init?(extraField: [UInt8]) {
        guard let block = extraBlock(extraField, id: 0x9901), block.count >= 7 else { return nil }
        let version = Int(readLE16(block, 0))
        guard version == 1 || version == 2,
            block[block.startIndex + 2] == 0x41, block[block.startIndex + 3] == 0x45
        else { return nil }
        switch block[block.startIndex + 4] {
        case 1: keyBits = 128
        case 2: keyBits = 192
        case 3: keyBits = 256
        default: return nil
        }
        vendorVersion = version
        compressionMethod = Int(readLE16(block, 5))
    }
}

/// WinZip AES (AE-1/AE-2): salt, 2-byte password verifier, AES-CTR ciphertext (little-endian
/// counter from 1), 10-byte HMAC-SHA1 authentication code over the ciphertext.
/// Keys come from PBKDF2-HMAC-SHA1 with 1000 iterations.
enum WinZipAES {
    static let authCodeLength = 10
    static let iterations = 1000

    /// Verifies the password and the HMAC, then decrypts. Returns the (still compressed) plaintext.
    static func decrypt(
        _ raw: [UInt8], parameters: WinZipAESParameters, passwords: [[UInt8]],
        entry: String
    ) throws(ZipError) -> [UInt8] {
        let saltLength = parameters.saltLength
        let keyLength = parameters.keyLength
        guard raw.count >= saltLength + 2 + authCodeLength else { throw .corrupt("encrypted entry too short") }
        let salt = raw[0..<saltLength]
        let verifier = raw[saltLength..<saltLength + 2]
        let cipherRange = (saltLength + 2)..<(raw.count - authCodeLength)
        let storedAuthCode = raw[cipherRange.upperBound...]

        for password in passwords {
            let material: [UInt8]
            do {
                let key = try KDF.Insecure.PBKDF2.deriveKey(
                    from: password, salt: salt, using: .insecureSHA1,
                    outputByteCount: 2 * keyLength + 2, unsafeUncheckedRounds: iterations)
                material = key.withUnsafeBytes { Array($0) }
            } catch {
                throw .unsupportedEncryption(entry: entry, "key derivation failed")
            }
            guard material[(2 * keyLength)...].elementsEqual(verifier) else { continue }

            let aesKey = SymmetricKey(data: material[0..<keyLength])
            let macKey = SymmetricKey(data: material[keyLength..<(2 * keyLength)])
            let mac = HMAC<Insecure.SHA1>.authenticationCode(for: raw[cipherRange], using: macKey)
            let computed = Array(mac.prefix(authCodeLength))
            var difference: UInt8 = 0
            for (a, b) in zip(computed, storedAuthCode) { difference |= a ^ b }
            guard difference == 0 else { throw .authenticationFailed(entry: entry) }

            return try ctrDecrypt(raw[cipherRange], key: aesKey, entry: entry)
        }
        throw .wrongPassword(entry: entry)
    }

    /// AES-CTR with WinZip's 128-bit little-endian counter starting at 1, one `AES.permute`
    /// call per 16-byte block on a reused counter buffer.
    static func ctrDecrypt(_ cipher: ArraySlice<UInt8>, key: SymmetricKey, entry: String) throws(ZipError) -> [UInt8] {
        var output = Array(cipher)
        var counter: UInt64 = 0
        var block = [UInt8](repeating: 0, count: 16)
        var failed = false
        output.withUnsafeMutableBufferPointer { out in
            var offset = 0
            while offset < out.count {
                counter &+= 1
                var value = counter
                for index in 0..<8 {
                    block[index] = UInt8(truncatingIfNeeded: value)
                    value >>= 8
                }
                for index in 8..<16 { block[index] = 0 }
                do {
                    try AES.permute(&block, key: key)
                } catch {
                    failed = true
                    return
                }
                let count = min(16, out.count - offset)
                block.withUnsafeBufferPointer { keystream in
                    for index in 0..<count { out[offset + index] ^= keystream[index] }
                }
                offset += count
            }
        }
        if failed { throw .unsupportedEncryption(entry: entry, "aes failure") }
        return output
    }
}
