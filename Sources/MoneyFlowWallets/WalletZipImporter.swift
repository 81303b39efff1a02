import Foundation
import MoneyFlowCore
import MoneyFlowImporters
import MoneyFlowZip
import MoneyFlowZipImport

/// An Alipay or WeChat Pay bill in the password-protected ZIP the platform e-mails (the
/// password goes to the phone): opened with the password handling every container shares
/// (`--password-env`, `--password-file`, the prompt; a wrong password is a clear error), then
/// read by ``AlipayImporter`` or ``WeChatImporter``, whichever the inner file's content is.
public struct WalletZipImporter: Importer {
    public let id = "wallet-zip"
    public let displayName = "Alipay or WeChat Pay bill in its password ZIP"
    public var zipLimits = ZipLimits.statementImport
    let alipay = AlipayImporter()
    let wechat = WeChatImporter()

    public init() {}

    /// A ZIP holding one CSV or XLSX and no PDF. An encrypted entry shows nothing but its name
    /// until the password is given, so the name's extension is all a sniff can see; ``read``
    /// decides by the decrypted content, and says so when it is neither bill.
    public func sniff(_ input: ImportInput, options: ImportOptions) -> Double {
        guard PasswordZip.isZip(input.data), let zip = try? ZipArchive(data: input.data, limits: zipLimits),
            !FileKind.isOfficeDocument(zipEntryNames: zip.entries.map(\.name))
        else { return 0 }
        return Self.bill(in: zip) != nil ? 0.95 : 0
    }

    static func bill(in zip: ZipArchive) -> ZipEntry? {
        let files = zip.entries.filter { !$0.isDirectory }
        guard files.count == 1, let e = files.first else { return nil }
        let name = e.name.lowercased()
        return name.hasSuffix(".csv") || name.hasSuffix(".xlsx") ? e : nil
    }

    public func read(_ input: ImportInput, options: ImportOptions) throws -> ImportedStatement {
        let file = input.fileName
        let zip = try PasswordZip.open(input.data, file: file, limits: zipLimits)
        try PasswordZip.refuseUnsafeNames(zip, file: file)
        guard let entry = Self.bill(in: zip) else {
            throw ImportError(.notAStatement, file: file, problem: "not a wallet bill: the ZIP does not hold exactly one CSV or XLSX")
        }
        let inner = ImportInput(
            fileName: file,
            data: try PasswordZip.data(of: entry, in: zip, password: ImportPassword(file: file, options: options), file: file))
        if alipay.sniff(inner, options: options) > 0 { return try alipay.read(inner, options: options) }
        if wechat.sniff(inner, options: options) > 0 { return try wechat.read(inner, options: options) }
        throw ImportError(
            .notAStatement, file: file,
            problem: "not a wallet bill: '\(entry.name.prefix(60))' in the ZIP is neither an Alipay 支付宝交易明细 nor a WeChat Pay 微信支付账单")
    }
}
