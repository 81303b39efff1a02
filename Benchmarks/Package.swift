// swift-tools-version: 6.1
// MoneyFlow benchmarks: a separate package so that normal builds and tests of MoneyFlow stay fast.
// Build: swift build -c release --scratch-path .build-bench   (Benchmarks/run.sh does it)
import PackageDescription

let package = Package(
    name: "MoneyFlowBenchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "MoneyFlow", path: ".."),
    ],
    targets: [
        .executableTarget(
            name: "moneyflow-bench",
            dependencies: [
                .product(name: "MoneyFlowCore", package: "MoneyFlow"),
                .product(name: "MoneyFlowImporters", package: "MoneyFlow"),
                .product(name: "MoneyFlowReconcile", package: "MoneyFlow"),
                .product(name: "MoneyFlowStore", package: "MoneyFlow"),
                .product(name: "MoneyFlowCategories", package: "MoneyFlow"),
                .product(name: "MoneyFlowPDF", package: "MoneyFlow"),
                .product(name: "MoneyFlowZip", package: "MoneyFlow"),
                .product(name: "MoneyFlowPipeline", package: "MoneyFlow"),
                .product(name: "MoneyFlowPostgres", package: "MoneyFlow"),
                .product(name: "_MoneyFlowTestSupport", package: "MoneyFlow"),
            ],
            swiftSettings: [.unsafeFlags(["-g"])]
        ),
        // The categories accuracy report (scripts/category-eval.sh): pure, so it builds alone.
        .executableTarget(
            name: "category-eval",
            dependencies: [
                .product(name: "MoneyFlowCore", package: "MoneyFlow"),
                .product(name: "MoneyFlowCategories", package: "MoneyFlow"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
