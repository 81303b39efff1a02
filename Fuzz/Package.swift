// swift-tools-version: 6.1
// libFuzzer harnesses for MoneyFlow. Build and run with `Fuzz/run.sh [seconds]` (see README.md).
import PackageDescription

// A path dependency is identified by its folder name; the main package is the parent folder.
let mainPackage = Context.packageDirectory.split(separator: "/").dropLast().last.map(String.init) ?? "main"

func harness(_ name: String, _ products: [String]) -> Target {
    .executableTarget(
        name: name,
        dependencies: products.map { .product(name: $0, package: mainPackage) },
        swiftSettings: [.unsafeFlags(["-parse-as-library"])])
}

let package = Package(
    name: "MoneyFlowFuzz",
    platforms: [.macOS(.v13)],
    dependencies: [.package(path: "..")],
    targets: [
        // CSV: encoding detection, RFC 4180 parser, delimiter sniffing, profile matching, row mapping.
        harness("FuzzCSV", ["MoneyFlowImporters", "MoneyFlowCore"]),
        // Plaid JSON: strict JSON parser + every accepted Plaid shape + secret scrubbing.
        harness("FuzzPlaid", ["MoneyFlowImporters", "MoneyFlowCore"]),
        // ZIP reader: minizip listing, ZipCrypto/WinZip AES decryption, bounded inflate.
        harness("FuzzZip", ["MoneyFlowZip"]),
        // CMB statement reconstruction from positioned text (+ seed generation from the sample PDFs).
        harness("FuzzCMB", ["MoneyFlowImporters", "MoneyFlowCore", "MoneyFlowPDF", "_MoneyFlowTestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
