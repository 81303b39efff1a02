// swift-tools-version: 6.1
import PackageDescription

/// The built-in CSV profiles, in `moneyflow profiles` order (see `BuiltInCSVProfiles`).
let builtInProfileFiles = [
    "chase-checking", "chase-card", "bofa-checking", "bofa-card", "wells-fargo-checking",
    "capital-one-card", "capital-one-360", "amex-card", "cmb-pc",
]
let builtInProfiles: [Resource] = builtInProfileFiles.map { .embedInCode("CSV/Profiles/\($0).json") }

let package = Package(
    name: "MoneyFlow",
    platforms: [.macOS(.v13), .iOS(.v16)],
    products: [
        .library(name: "MoneyFlowCore", targets: ["MoneyFlowCore"]),
        .library(name: "MoneyFlowImporters", targets: ["MoneyFlowImporters"]),
        .library(name: "MoneyFlowReconcile", targets: ["MoneyFlowReconcile"]),
        .library(name: "MoneyFlowStore", targets: ["MoneyFlowStore"]),
        .library(name: "MoneyFlowZip", targets: ["MoneyFlowZip"]),
        .library(name: "MoneyFlowPDF", targets: ["MoneyFlowPDF"]),
        .library(name: "MoneyFlowCMB", targets: ["MoneyFlowCMB"]),
        .library(name: "MoneyFlowWallets", targets: ["MoneyFlowWallets"]),
        .library(name: "MoneyFlowConfig", targets: ["MoneyFlowConfig"]),
        .library(name: "MoneyFlowCategories", targets: ["MoneyFlowCategories"]),
        .library(name: "MoneyFlowPipeline", targets: ["MoneyFlowPipeline"]),
        .library(name: "MoneyFlowPlaid", targets: ["MoneyFlowPlaid"]),
        .library(name: "MoneyFlowServer", targets: ["MoneyFlowServer"]),
        .library(name: "MoneyFlowPostgres", targets: ["MoneyFlowPostgres"]),
        .executable(name: "moneyflow", targets: ["moneyflow"]),
        // Not an API: the test support shared with the separate Fuzz and Benchmarks packages.
        .library(name: "_MoneyFlowTestSupport", targets: ["MoneyFlowTestSupport"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-crypto", from: "4.5.2"),
        .package(url: "https://github.com/LebJe/TOMLKit", from: "0.6.0"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        // Already in the graph through Hummingbird; named so the Link launcher can silence the
        // server's logging and stop it gracefully.
        .package(url: "https://github.com/apple/swift-log.git", from: "1.14.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.0.0"),
        // The PostgreSQL store (and, already in the graph through it, the event loops and TLS
        // its connections use).
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        // The web app's HTML templates (`moneyflow serve`'s pages; HTML-escapes by default).
        .package(url: "https://github.com/hummingbird-project/swift-mustache", from: "2.1.1"),
    ],
    targets: [
        // Pure Swift (Foundation only): money, dates, records, plans.
        .target(name: "MoneyFlowCore"),
        // Pure Swift importers: CSV, Plaid JSON, CMB reconstruction from positioned text.
        // Built-in CSV profiles are JSON profile files compiled into the module (no bundle to ship).
        .target(name: "MoneyFlowImporters", dependencies: ["MoneyFlowCore"], resources: builtInProfiles),
        // Pure Swift matching engine.
        .target(name: "MoneyFlowReconcile", dependencies: ["MoneyFlowCore"]),
        // Pure Swift categories: user decisions, rules, learning, provider mapping, splits.
        .target(name: "MoneyFlowCategories", dependencies: ["MoneyFlowCore"]),
        // C libraries behind small wrappers.
        .systemLibrary(name: "CMinizip", providers: [.apt(["libminizip-dev"])]),
        // libpoppler's own C++ API (its headers are Debian's libpoppler-private-dev): only the
        // pkg-config flags, for CPopplerText.
        .systemLibrary(name: "CPopplerCore", pkgConfig: "poppler", providers: [.apt(["libpoppler-private-dev"])]),
        // Glyphs, boxes and font sizes of a PDF page through poppler's TextOutputDev, behind a C API.
        .target(name: "CPopplerText", dependencies: ["CPopplerCore"]),
        // poppler-glib: only the tests' oracle (PopplerGlibOracle), the reader MoneyFlowPDF used before.
        .systemLibrary(
            name: "CPoppler", path: "Tests/CPoppler", pkgConfig: "poppler-glib", providers: [.apt(["libpoppler-glib-dev"])]),
        .target(
            name: "MoneyFlowZip",
            dependencies: [
                "CMinizip",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
            ]),
        .target(name: "MoneyFlowPDF", dependencies: ["CPopplerText", "MoneyFlowCore", "MoneyFlowZip"]),
        // CMB's container importer (bare PDF or its encrypted ZIP); the pure row reconstruction
        // is MoneyFlowImporters/CMB, which stays free of C libraries.
        // The password ZIP every container importer opens the same way (one password prompt,
        // one set of errors): CMB statements, Alipay and WeChat Pay bills.
        .target(name: "MoneyFlowZipImport", dependencies: ["MoneyFlowCore", "MoneyFlowImporters", "MoneyFlowZip"]),
        .target(
            name: "MoneyFlowCMB",
            dependencies: ["MoneyFlowCore", "MoneyFlowImporters", "MoneyFlowZip", "MoneyFlowZipImport", "MoneyFlowPDF"]),
        // The wallets' containers (the bills' password ZIP, WeChat's XLSX); the rows are read by
        // the pure MoneyFlowImporters/Alipay and WeChat.
        .target(name: "MoneyFlowWallets", dependencies: ["MoneyFlowCore", "MoneyFlowImporters", "MoneyFlowZip", "MoneyFlowZipImport"]),
        .target(
            name: "MoneyFlowStore",
            dependencies: [
                "MoneyFlowCore",
                // The engine, for two things the store does inside its writes and reads: every
                // write settles the transfers of the transactions it touched with the engine's
                // TransferMatcher (Transfers/TransferRefresher, TransferVerdicts), and the store's
                // view implements the engine's AliasLedgerView (StoreLedgerView+Aliases). The
                // engine itself never imports the store.
                "MoneyFlowReconcile",
                // The categoriser, which every write runs on the transactions it touched
                // (Passes/CategoryPass): the pure library, no formats.
                "MoneyFlowCategories",
                .product(name: "GRDB", package: "GRDB.swift"),
                // The C API of the SQLite that GRDB links, for the bulk write path.
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ],
            // The current schema, generated from the migrations (SchemaFileTests): for readers, and
            // what a new store is created with in one step (FreshSchema).
            resources: [.embedInCode("schema.sql")]),
        // TOML manifests, profiles and category files (TOMLKit builds C++ toml++: kept out of the portable targets).
        .target(
            name: "MoneyFlowConfig",
            dependencies: [
                "MoneyFlowCore", "MoneyFlowImporters", "MoneyFlowCategories",
                .product(name: "TOMLKit", package: "TOMLKit"),
            ]),
        // The ledger on PostgreSQL (postgres-nio): a RemoteLedger behind the same LedgerStore, and
        // the opener that turns `--store PATH|postgres://...` into a store.
        .target(
            name: "MoneyFlowPostgres",
            dependencies: [
                "MoneyFlowStore",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Logging", package: "swift-log"),
                // The ledger cache's file name (a digest of the ledger's address).
                .product(name: "Crypto", package: "swift-crypto"),
            ]),
        // Wires file -> importer -> reconciler -> store; registers the default importers.
        .target(
            name: "MoneyFlowPipeline",
            dependencies: [
                "MoneyFlowCore", "MoneyFlowImporters", "MoneyFlowReconcile", "MoneyFlowStore",
                "MoneyFlowCMB", "MoneyFlowWallets", "MoneyFlowConfig", "MoneyFlowZip",
                .product(name: "Crypto", package: "swift-crypto"),
            ]),
        // The live Plaid connection: HTTP client, token vault, sync loop, Link launcher page, and
        // the service that feeds what Plaid sends through the Plaid importer and the pipeline.
        .target(
            name: "MoneyFlowPlaid",
            dependencies: [
                "MoneyFlowCore", "MoneyFlowImporters", "MoneyFlowReconcile", "MoneyFlowStore", "MoneyFlowPipeline",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                // NIOConnectionError: a DNS failure or a refused connection told apart (PlaidConnection).
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]),
        // `moneyflow serve`: the HTTP backend (Hummingbird 2): users and their tokens, one ledger
        // per user, the /v1 API over the same library calls as the CLI, the OpenAPI document.
        .target(
            name: "MoneyFlowServer",
            dependencies: [
                "MoneyFlowCore", "MoneyFlowStore", "MoneyFlowPipeline", "MoneyFlowPlaid", "MoneyFlowConfig", "MoneyFlowPostgres",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "GRDB", package: "GRDB.swift"),
                // The web app (Web/): its templates, and PBKDF2 for the users' web passwords.
                .product(name: "Mustache", package: "swift-mustache"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
            ],
            // The API's OpenAPI 3.1 document, served at GET /openapi.json (compiled in: no bundle to ship).
            resources: [.embedInCode("OpenAPI/openapi.json")]),
        .executableTarget(
            name: "moneyflow",
            dependencies: [
                "MoneyFlowPipeline", "MoneyFlowConfig", "MoneyFlowPlaid", "MoneyFlowServer", "MoneyFlowPostgres",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                // `migrate` compares the two ledgers' listings by SHA-256.
                .product(name: "Crypto", package: "swift-crypto"),
            ]),
        // Shared by the test targets (and, as `_MoneyFlowTestSupport`, the Fuzz and Benchmarks
        // packages): the binary runner, the seeded PRNG, sample paths, an in-memory ledger view, the
        // engine's fixtures (shared by the engine's and the pipeline's tests) and the fuzz harnesses'
        // input encodings (a regular target: test targets cannot depend on each other).
        .target(
            name: "MoneyFlowTestSupport", dependencies: ["MoneyFlowCore", "MoneyFlowReconcile"],
            path: "Tests/MoneyFlowTestSupport"),
        // A Plaid-shaped HTTP server on loopback for offline tests of the live Plaid client: checks
        // request bodies against the spec's request schemas and follows Plaid's documented sync
        // rules. Independent of every MoneyFlow target so it cannot share the client's mistakes.
        .target(
            name: "PlaidTestServer",
            dependencies: [
                .product(name: "Hummingbird", package: "hummingbird"),
                // Signs webhooks (ES256) with the key /webhook_verification_key/get serves.
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            path: "Tests/PlaidTestServer",
            exclude: ["extract_schemas.py"],
            resources: [.embedInCode("plaid_schemas.json")]),
        // `plaid-test-server PORT`: the test server with its default institution, for README demos.
        .executableTarget(name: "plaid-test-server", dependencies: ["PlaidTestServer"], path: "Tests/plaid-test-server"),
        .testTarget(
            name: "PlaidTestServerTests",
            dependencies: ["PlaidTestServer", .product(name: "AsyncHTTPClient", package: "async-http-client")]),
        .testTarget(name: "MoneyFlowCoreTests", dependencies: ["MoneyFlowCore"]),
        .testTarget(name: "MoneyFlowCategoriesTests", dependencies: ["MoneyFlowCategories", "MoneyFlowConfig"]),
        .testTarget(
            name: "MoneyFlowImportersTests",
            dependencies: ["MoneyFlowImporters", "MoneyFlowWallets", "MoneyFlowConfig", "MoneyFlowTestSupport"]),
        // TOML profile files and the TOML reader's guards.
        .testTarget(name: "MoneyFlowConfigTests", dependencies: ["MoneyFlowConfig", "MoneyFlowImporters", "MoneyFlowTestSupport"]),
        .testTarget(name: "MoneyFlowZipTests", dependencies: ["MoneyFlowZip"], exclude: ["Fixtures"]),
        // The PDF reader MoneyFlowPDF had before session 12 (poppler-glib's text interface), kept as
        // the oracle its glyphs are compared with (PDFReaderOracleTests).
        .target(
            name: "PopplerGlibOracle", dependencies: ["CPoppler", "MoneyFlowCore", "MoneyFlowPDF"],
            path: "Tests/PopplerGlibOracle"),
        // Text from PDFs (poppler): what a damaged, scanned or non-PDF file gives.
        .testTarget(name: "MoneyFlowPDFTests", dependencies: ["MoneyFlowPDF", "MoneyFlowTestSupport", "PopplerGlibOracle"]),
        // CMB's statements from their containers (PDF, encrypted ZIP): the sample statements field by field.
        .testTarget(
            name: "MoneyFlowCMBTests",
            dependencies: [
                "MoneyFlowCMB", "MoneyFlowPDF", "MoneyFlowImporters", "MoneyFlowZip", "MoneyFlowPipeline", "MoneyFlowTestSupport",
                "PopplerGlibOracle",
            ]),
        // The two stores the store's behaviour suite runs on (SQLite file, PostgreSQL ledger), and
        // TestPostgres: the one helper for the test PostgreSQL server (ledger names and URLs, plain
        // SQL for the tests that look behind the store), used by the store, CLI and server suites.
        .target(
            name: "MoneyFlowStoreTestSupport",
            dependencies: [
                "MoneyFlowStore", "MoneyFlowPostgres", "MoneyFlowTestSupport",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Tests/MoneyFlowStoreTestSupport"),
        .testTarget(
            name: "MoneyFlowStoreTests",
            dependencies: ["MoneyFlowStore", "MoneyFlowPipeline", "MoneyFlowPostgres", "MoneyFlowTestSupport", "MoneyFlowStoreTestSupport"]),
        // PostgreSQL only: how `--store postgres://...` is read, and stores that follow each other's writes.
        .testTarget(
            name: "MoneyFlowPostgresTests",
            dependencies: ["MoneyFlowPostgres", "MoneyFlowStore", "MoneyFlowPipeline", "MoneyFlowTestSupport"]),
        // The engine alone: plans against InMemoryLedgerView, never a store.
        .testTarget(name: "MoneyFlowReconcileTests", dependencies: ["MoneyFlowReconcile", "MoneyFlowTestSupport"]),
        // File -> importer -> engine -> store on both stores: scenarios, review decisions, relinks, exports.
        .testTarget(
            name: "MoneyFlowPipelineTests",
            dependencies: [
                "MoneyFlowPipeline", "MoneyFlowStore", "MoneyFlowReconcile", "MoneyFlowTestSupport", "MoneyFlowStoreTestSupport",
                .product(name: "GRDB", package: "GRDB.swift"),
            ]),
        // HTTP helpers for the tests that call a server on loopback (Plaid-shaped or `moneyflow serve`).
        .target(
            name: "MoneyFlowHTTPTestSupport",
            dependencies: ["MoneyFlowTestSupport", .product(name: "AsyncHTTPClient", package: "async-http-client")],
            path: "Tests/MoneyFlowHTTPTestSupport"),
        .testTarget(
            name: "MoneyFlowPlaidTests",
            dependencies: [
                "MoneyFlowPlaid", "PlaidTestServer", "MoneyFlowTestSupport", "MoneyFlowHTTPTestSupport", "moneyflow",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                // The webhook tests forge JWT payloads (SHA-256 of a body).
                .product(name: "Crypto", package: "swift-crypto"),
            ]),
        .testTarget(
            name: "MoneyFlowServerTests",
            dependencies: [
                "MoneyFlowServer", "MoneyFlowPlaid", "PlaidTestServer", "MoneyFlowTestSupport", "MoneyFlowStoreTestSupport",
                "MoneyFlowHTTPTestSupport", "moneyflow",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                // Route logic tested in process: the router answers without a process or a socket.
                .product(name: "HummingbirdTesting", package: "hummingbird"),
            ]),
        .testTarget(
            name: "MoneyFlowCLITests",
            dependencies: ["MoneyFlowPipeline", "moneyflow", "MoneyFlowTestSupport", "MoneyFlowStoreTestSupport"]),
    ],
    swiftLanguageModes: [.v6],
    // CPopplerText includes poppler's C++ headers, which need C++17.
    cxxLanguageStandard: .cxx17
)
