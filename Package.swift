// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "alfred",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "alfred", targets: ["alfred"]),
        .executable(name: "alfred-bench", targets: ["alfred-bench"]),
    ],
    dependencies: [
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.5.2"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-certificates.git", from: "1.21.1"),
        .package(url: "https://github.com/apple/swift-asn1.git", from: "1.7.4"),
    ],
    targets: [
        .target(name: "AlfredCore"),
        .target(name: "Store", dependencies: [
            "AlfredCore",
            .product(name: "PostgresNIO", package: "postgres-nio"),
            .product(name: "Logging", package: "swift-log"),
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        ]),
        .target(name: "JobQueue", dependencies: [
            "AlfredCore",
            .product(name: "Logging", package: "swift-log"),
            .product(name: "Metrics", package: "swift-metrics"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        ]),
        .target(name: "Telemetry", dependencies: [
            "AlfredCore",
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "Metrics", package: "swift-metrics"),
            .product(name: "Prometheus", package: "swift-prometheus"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        ]),
        .target(name: "KeyService", dependencies: [
            "AlfredCore",
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "X509", package: "swift-certificates"),
            .product(name: "SwiftASN1", package: "swift-asn1"),
        ]),
        .target(name: "AlfredTesting", dependencies: [
            "AlfredCore", "Store",
            .product(name: "PostgresNIO", package: "postgres-nio"),
            .product(name: "Logging", package: "swift-log"),
        ]),
        .executableTarget(name: "alfred", dependencies: [
            "AlfredCore", "Store", "JobQueue", "Telemetry", "AlfredTesting", "KeyService",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
            .product(name: "PostgresNIO", package: "postgres-nio"),
            .product(name: "Logging", package: "swift-log"),
            .product(name: "Metrics", package: "swift-metrics"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        ]),
        .executableTarget(name: "alfred-bench", dependencies: [
            "AlfredCore", "Store", "JobQueue", "AlfredTesting",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
            .product(name: "Logging", package: "swift-log"),
        ]),
        .testTarget(name: "AlfredCoreTests", dependencies: ["AlfredCore"]),
        .testTarget(name: "StoreTests", dependencies: ["AlfredCore", "Store", "AlfredTesting"]),
        .testTarget(name: "JobQueueTests", dependencies: ["AlfredCore", "Store", "JobQueue", "AlfredTesting", "Telemetry"]),
        .testTarget(name: "AlfredCLITests", dependencies: ["AlfredCore", "Store", "AlfredTesting"]),
        .testTarget(name: "KeyServiceTests", dependencies: ["KeyService"]),
    ],
    swiftLanguageModes: [.v6]
)
