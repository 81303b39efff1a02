import Foundation
import MoneyFlowCore
import MoneyFlowImporters

/// CSV import end to end, as `moneyflow import` runs it: sniff, decode, detect the delimiter,
/// parse, choose a profile, map rows. Also the raw parser with each delimiter. Every outcome
/// must be a value or a thrown error; anything else (trap, ASan report, hang) is a finding.
///
/// The input length picks the profile set (built-ins, or one of the sample profile files), so an
/// input always replays the same way.
nonisolated(unsafe) var profileSets: [[CSVProfile]?] = [nil]

@_cdecl("LLVMFuzzerInitialize")
public func initialize(_ argc: UnsafeMutablePointer<Int32>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>) -> Int32 {
    let samples = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Samples/csv")
    for name in ["generic_gbk.profile.json", "generic_semicolon_ddmmyyyy.profile.json", "generic_tab_utf16.profile.json"] {
        if let p = try? CSVProfile.load(contentsOf: samples.appendingPathComponent(name)) { profileSets.append([p]) }
    }
    return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let data = Data(bytes: start, count: count)
    let input = ImportInput(fileName: "fuzz.csv", data: data)
    let options = ImportOptions(csvProfiles: profileSets[count % profileSets.count])
    let importer = CSVImporter()
    _ = importer.sniff(input, options: options)
    if let statement = try? importer.read(input, options: options) {
        _ = Fingerprint.keys(for: statement.records)
        for r in statement.records { _ = r.amount.decimalString; _ = r.date.iso }
    }
    var bytes = [UInt8](data)
    _ = try? CSVParser.parse(bytes: &bytes, delimiter: [0x2C, 0x3B, 0x09, 0x7C][count % 4])
    return 0
}

// MARK: - Entry point
// SwiftPM links executables with `main` aliased to `<Module>_main`, which would hide libFuzzer's
// own `main`; so start libFuzzer's driver from here.
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(_ argc: UnsafeMutablePointer<Int32>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
                         _ callback: @convention(c) (UnsafeRawPointer, Int) -> CInt) -> CInt

@_cdecl("FuzzCSV_main")
public func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var c = argc
    var v = argv
    return LLVMFuzzerRunDriver(&c, &v) { fuzz($0, $1) }
}
